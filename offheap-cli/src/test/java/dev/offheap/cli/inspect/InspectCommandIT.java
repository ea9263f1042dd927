/*
 * Copyright 2026 the offheap authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.suite.Waits;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code offheap inspect} through the packaged CLI on the module path: clear messages and exit codes. */
class InspectCommandIT {

    @Test
    void aPidWithoutProcessIsReportedAsSuch() throws Exception {
        long pid = ProcessHandle.allProcesses().mapToLong(ProcessHandle::pid).max().orElse(1) + 100_000;
        Result result = offheap("inspect", Long.toString(pid));

        assertThat(result.exitCode()).as(result.output()).isEqualTo(3);
        assertThat(result.output()).isEqualToIgnoringNewLines("offheap inspect: no process " + pid);
    }

    @Test
    void aProcessThatIsNotAJvmIsReportedAsSuch() throws Exception {
        Result result = offheap("inspect", "1");

        assertThat(result.exitCode()).as(result.output()).isEqualTo(4);
        assertThat(result.output()).startsWith("offheap inspect: process 1 (")
                .containsAnyOf("is not a Java virtual machine", "not to you", "its memory map is not readable");
        assertNoStackTrace(result);
    }

    @Test
    void aProcessOfOursThatIsNotAJvmIsReportedAsSuch() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "120").start();
        try {
            Result result = offheap("inspect", Long.toString(sleep.pid()));

            assertThat(result.exitCode()).as(result.output()).isEqualTo(4);
            assertThat(result.output()).isEqualToIgnoringNewLines("offheap inspect: process " + sleep.pid()
                    + " (sleep) is not a Java virtual machine: it has no libjvm.so mapped");
        } finally {
            sleep.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aJvmThatRefusesAttachIsReportedAsSuch() throws Exception {
        Process target = new ProcessBuilder(java(), "-XX:+DisableAttachMechanism", "-cp",
                System.getProperty("java.class.path"), InspectTarget.class.getName(), "unused").start();
        try {
            BufferedReader targetOut = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
            assertThat(targetOut.readLine()).isEqualTo("BASELINE");
            Result result = offheap("inspect", Long.toString(target.pid()));

            assertThat(result.exitCode()).as(result.output()).isEqualTo(5);
            assertThat(result.output()).startsWith("offheap inspect: cannot attach to JVM " + target.pid() + ": ")
                    .contains("-XX:+DisableAttachMechanism");
            assertNoStackTrace(result);
        } finally {
            AttachTargets.end(target);
        }
    }

    @Test
    void aTargetThatExitsWhileWatchedIsReportedAsSuch() throws Exception {
        Process target = new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"),
                InspectTarget.class.getName(), "unused").start();
        try {
            BufferedReader targetOut = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
            assertThat(targetOut.readLine()).isEqualTo("BASELINE");
            Process cli = new ProcessBuilder(command("inspect", Long.toString(target.pid()), "--watch", "1", "--json"))
                    .redirectErrorStream(true).start();
            BufferedReader cliOut = new BufferedReader(new InputStreamReader(cli.getInputStream(), StandardCharsets.UTF_8));
            String firstSample = cliOut.readLine();
            assertThat(firstSample).as("first sample").startsWith("{\"version\":3,\"pid\":" + target.pid());
            AttachTargets.end(target);
            CompletableFuture<String> rest = CompletableFuture.supplyAsync(() -> readAll(cliOut));
            assertThat(cli.waitFor(60, TimeUnit.SECONDS)).as("the CLI ends when its target does").isTrue();
            String output = rest.get(10, TimeUnit.SECONDS);

            assertThat(cli.exitValue()).as(output).isEqualTo(6);
            assertThat(output).contains("offheap inspect: process " + target.pid() + " exited while being inspected");
            assertNoStackTrace(new Result(cli.exitValue(), output));
        } finally {
            target.destroyForcibly();
        }
    }

    @Test
    void withoutPidItListsJvms() throws Exception {
        Result result = offheap("inspect", "--json");

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output().strip()).startsWith("[").endsWith("]");
    }

    private static void assertNoStackTrace(Result result) {
        assertThat(result.output()).doesNotContain("Exception", "\tat ", "restricted method");
    }

    private record Result(int exitCode, String output) {}

    private static String readAll(BufferedReader reader) {
        StringBuilder out = new StringBuilder();
        try {
            String line;
            while ((line = reader.readLine()) != null) {
                out.append(line).append('\n');
            }
        } catch (IOException e) {
            out.append(e);
        }
        return out.toString();
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> command(String... args) {
        Path target = Path.of(System.getProperty("offheap.cli.dir", "target"));
        List<String> command = new ArrayList<>(List.of(java(), "--enable-native-access=dev.offheap.core,dev.offheap.cli",
                "-p", target.resolve("offheap-cli.jar") + File.pathSeparator + target.resolve("lib"),
                "-m", "dev.offheap.cli/dev.offheap.cli.OffheapCli"));
        command.addAll(List.of(args));
        return command;
    }

    private static Result offheap(String... args) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command(args)).redirectErrorStream(true).start();
        Waits.Finished finished = Waits.finish(process, Duration.ofSeconds(120), "offheap " + String.join(" ", args));
        return new Result(finished.exitCode(), finished.output());
    }
}
