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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.suite.Waits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report a process killed by the OOM killer leaves: a child JVM runs in a memory cgroup this test makes under its
 * own (256 MiB, no swap), grows its direct buffers at about 20 MiB/s until the kernel kills it, and its recorder's
 * reports at 75 % and 90 % of the limit must be on disk, the 90 % one with a sample at or above 90 %, while no exit
 * report is (a killed process runs no code). Needs root and a writable memory cgroup: where the test cannot make
 * one it says why and is not run.
 */
@Tag("child-jvm")
class OomKillReportTest {
    private static final long LIMIT = 256L << 20;

    @TempDir
    Path dir;
    private Path cgroup;
    private Process child;

    @AfterEach
    void cleanUp() throws Exception {
        if (child != null) {
            child.destroyForcibly().waitFor();
        }
        if (cgroup != null) {
            for (int i = 0; i < 100 && Files.exists(cgroup); i++) {
                try {
                    Files.delete(cgroup); // rmdir: refused while a process is still in it
                } catch (IOException e) {
                    Thread.sleep(100);
                }
            }
        }
    }

    @Test
    void theReportsAtThreeQuartersAndNinetyPercentAreOnDiskWhenTheKernelKillsTheProcess() throws Exception {
        Cgroup own = Cgroup.locate(Path.of("/proc/self/cgroup"), Path.of("/sys/fs/cgroup"));
        assumeTrue(own != null, "this machine has no memory cgroup to read (/proc/self/cgroup, /sys/fs/cgroup)");
        boolean v2 = Files.exists(own.directory().resolve("memory.max"));
        cgroup = own.directory().resolve("offheap-oom-test-" + UUID.randomUUID());
        try {
            Files.createDirectory(cgroup);
            if (v2) {
                Files.writeString(cgroup.resolve("memory.max"), String.valueOf(LIMIT));
                writeIfThere(cgroup.resolve("memory.swap.max"), "0");
            } else {
                Files.writeString(cgroup.resolve("memory.limit_in_bytes"), String.valueOf(LIMIT));
                writeIfThere(cgroup.resolve("memory.memsw.limit_in_bytes"), String.valueOf(LIMIT));
            }
        } catch (IOException e) {
            Path made = cgroup;
            cgroup = Files.exists(made) ? made : null;
            assumeTrue(false, "cannot make a memory cgroup with a limit under " + own.directory() + " (" + e
                    + "): the test needs root and a writable cgroup file system; with cgroup v2 the memory controller"
                    + " must be enabled for the children of a cgroup that holds no process");
        }
        Path jar = MemoryRecorder.agentJar();
        Path reports = dir.resolve("reports");
        String java = String.join(" ", List.of(AgentJars.java(), "-Xmx32m", "-XX:+UseSerialGC", "-XX:MaxDirectMemorySize=4g",
                "-javaagent:" + jar + "=dir=" + reports + ",interval=200ms", "-cp", AgentJars.testClasses(),
                RecordedTarget.class.getName(), "grow", "1", "50"));
        child = new ProcessBuilder("sh", "-c", "echo $$ > " + cgroup.resolve("cgroup.procs") + " && exec " + java)
                .redirectErrorStream(true).start();
        Waits.Finished done = Waits.finish(child, Duration.ofMinutes(2), "the JVM growing to its cgroup's limit");

        assertThat(done.exitCode()).as("killed by SIGKILL; it printed: %s", done.output()).isEqualTo(128 + 9);
        assertThat(oomKills(v2)).as("the kernel's OOM kills in the cgroup").isPositive();
        Path at75 = RecorderAgentTest.only(reports, "-75pct.jsonl");
        Path at90 = RecorderAgentTest.only(reports, "-90pct.jsonl");
        RecorderAgentTest.only(reports, "-75pct.html");
        assertThat(RecorderAgentTest.only(reports, "-90pct.html")).content().contains("container-near-limit", "critical");
        assertThat(lastShare(at75)).isGreaterThanOrEqualTo(0.75);
        Timeline t = Timeline.parse(Files.readAllLines(at90));
        assertThat(lastShare(at90)).isGreaterThanOrEqualTo(0.90);
        assertThat(t.points().get(t.points().size() - 1).limit()).isEqualTo(LIMIT);
        assertThat(t.events()).extracting(e -> e.finding().id()).containsExactly("container-near-limit", "container-near-limit");
        try (Stream<Path> files = Files.list(reports)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("a killed process writes nothing at exit")
                    .noneMatch(n -> n.contains("-exit"));
        }
    }

    private static double lastShare(Path jsonl) throws IOException {
        Timeline t = Timeline.parse(Files.readAllLines(jsonl));
        Timeline.Point last = t.points().get(t.points().size() - 1);
        return (double) last.workingSet() / last.limit();
    }

    private long oomKills(boolean v2) throws IOException {
        String text = Files.readString(cgroup.resolve(v2 ? "memory.events" : "memory.oom_control"));
        for (String line : text.split("\n")) {
            if (line.startsWith("oom_kill ")) {
                return Long.parseLong(line.substring("oom_kill ".length()).trim());
            }
        }
        return -1;
    }

    private static void writeIfThere(Path file, String value) throws IOException {
        if (Files.exists(file)) {
            Files.writeString(file, value);
        }
    }
}
