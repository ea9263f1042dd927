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

package dev.offheap.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.suite.Waits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder as a Java agent in child JVMs: at launch, through the attach mechanism, on a signal, at exit. */
@Tag("child-jvm")
class RecorderAgentTest {
    @TempDir
    Path dir;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws InterruptedException {
        for (Process p : children) {
            p.destroyForcibly().waitFor();
        }
    }

    @Test
    void givenAtLaunchItReportsOnTheSignalAndAtExit() throws Exception {
        Path jar = MemoryRecorder.agentJar();
        Path reports = dir.resolve("reports");
        Process p = start(List.of("-javaagent:" + jar + "=dir=" + reports + ",interval=200ms"));
        String ready = readyLine(p);
        assertThat(ready).contains("ready " + p.pid());
        waitFor(reports, "-signal.html", () -> kill(p.pid(), "USR2"));
        p.getOutputStream().close();
        Waits.Finished done = Waits.finish(p, Duration.ofSeconds(60), "the recorded JVM");
        assertThat(done.exitCode()).as(done.output()).isZero();
        assertThat(ready + done.output()).contains("offheap recorder: recording to " + reports);
        Path exit = only(reports, "-exit.jsonl");
        List<String> lines = Files.readAllLines(exit);
        assertThat(lines).isNotEmpty();
        Timeline t = Timeline.parse(lines);
        assertThat(t.skippedLines()).isZero();
        assertThat(t.pid()).isEqualTo(p.pid());
        assertThat(t.partKeys()).containsExactly("heap", "metaspace", "codeCache", "direct", "native", "files", "sharedMemory");
        assertThat(t.points()).allSatisfy(pt -> assertThat(pt.stacked()).isEqualTo(pt.rss()));
        assertThat(only(reports, "-exit.html")).content().contains("<svg class=\"timeline\"");
        assertThat(exit.getFileName().toString()).matches("offheap-memory-" + p.pid() + "-\\d{8}T\\d{6}Z-exit\\.jsonl");
    }

    @Test
    void loadedThroughTheAttachMechanismItReportsOnRequestAndStops() throws Exception {
        Path jar = MemoryRecorder.agentJar();
        Path reports = dir.resolve("attached");
        Process p = start(List.of("-XX:+EnableDynamicAgentLoading"));
        readyLine(p);
        com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(p.pid()));
        try {
            vm.loadAgent(jar.toString(), "dir=" + reports + ",interval=200ms,signal=none");
            vm.loadAgent(jar.toString(), "dir=/elsewhere");
            waitFor(reports, "-request.html", () -> {
                try {
                    vm.loadAgent(jar.toString(), "report");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            vm.loadAgent(jar.toString(), "stop");
            vm.loadAgent(jar.toString(), "report");
        } finally {
            vm.detach();
        }
        p.getOutputStream().close();
        Waits.Finished done = Waits.finish(p, Duration.ofSeconds(60), "the recorded JVM");
        assertThat(done.output()).contains("offheap recorder: recording to " + reports,
                "offheap recorder: already running (dir=" + reports, "offheap recorder: report written to ",
                "offheap recorder: stopped", "offheap recorder: not running in this JVM; nothing to report");
        try (Stream<Path> files = Files.list(reports)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("stopped: no exit report")
                    .noneMatch(n -> n.contains("-exit"));
        }
        assertThat(Files.exists(Path.of("/elsewhere"))).isFalse();
    }

    private Process start(List<String> jvmOptions) throws IOException {
        List<String> command = new ArrayList<>(List.of(AgentJars.java(), "-Xmx64m", "-XX:+UseSerialGC"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", AgentJars.testClasses(), RecordedTarget.class.getName(), "wait"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        children.add(p);
        return p;
    }

    /**
     * Reads the child's output up to its line "ready PID" (the agent may print before it), and returns what it read;
     * the rest is read by {@link Waits#finish}.
     */
    static String readyLine(Process p) throws IOException {
        StringBuilder text = new StringBuilder();
        StringBuilder line = new StringBuilder();
        for (int c; (c = p.getInputStream().read()) >= 0; ) {
            text.append((char) c);
            if (c != '\n') {
                line.append((char) c);
            } else if (line.toString().startsWith("ready ")) {
                return text.toString();
            } else {
                line.setLength(0);
            }
        }
        throw new AssertionError("the child ended before it was ready; it printed:\n" + text);
    }

    /** Does {@code action} until a file ending with {@code suffix} is in {@code reports}. */
    static Path waitFor(Path reports, String suffix, Runnable action) throws Exception {
        for (int i = 0; i < 600; i++) {
            action.run();
            if (Files.isDirectory(reports)) {
                try (Stream<Path> files = Files.list(reports)) {
                    List<Path> found = files.filter(f -> f.getFileName().toString().endsWith(suffix)).toList();
                    if (!found.isEmpty()) {
                        return found.get(0);
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no report *" + suffix + " in " + reports + " within a minute");
    }

    static Path only(Path reports, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(reports)) {
            List<Path> found = files.filter(f -> f.getFileName().toString().endsWith(suffix)).toList();
            assertThat(found).as("reports *" + suffix).hasSize(1);
            return found.get(0);
        }
    }

    static void kill(long pid, String signal) {
        try {
            Process k = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).redirectErrorStream(true).start();
            String out = new String(k.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (k.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + ": " + out);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

}
