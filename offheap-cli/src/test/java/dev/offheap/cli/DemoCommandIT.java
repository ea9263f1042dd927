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

package dev.offheap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.suite.Waits;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs the packaged CLI as {@code ./offheap} does: its jars on the module path, native access enabled. */
class DemoCommandIT {

    @Test
    void demoRunsOnTheModulePathWithoutWarnings() throws IOException, InterruptedException {
        Result result = offheap("demo", "--ops", "20000");

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output())
                .contains("BIG_ENDIAN", "0x123456789ABCDEF and 42", "memory budget 'process/demo-pool' exceeded", "after trim:",
                        "reading the released lease's segment threw", "LEAK: a buffer of 512 bytes",
                        "leaks reported: 1")
                .doesNotContain("restricted method", "Exception in thread");
    }

    @Test
    void unknownCommandFailsWithUsage() throws IOException, InterruptedException {
        Result result = offheap("no-such-command");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("Unmatched argument", "Usage: offheap");
    }

    private record Result(int exitCode, String output) {}

    private static Result offheap(String... args) throws IOException, InterruptedException {
        Path target = Path.of(System.getProperty("offheap.cli.dir", "target"));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=dev.offheap.core",
                "-p", target.resolve("offheap-cli.jar") + File.pathSeparator + target.resolve("lib"),
                "-m", "dev.offheap.cli/dev.offheap.cli.OffheapCli"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Waits.Finished finished = Waits.finish(process, Duration.ofSeconds(120), "offheap " + String.join(" ", args));
        return new Result(finished.exitCode(), finished.output());
    }
}
