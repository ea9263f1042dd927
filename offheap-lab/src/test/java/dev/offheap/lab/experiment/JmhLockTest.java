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

package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.LabContext;
import dev.offheap.lab.bench.AllocBench;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another JMH run on the machine (a developer's benchmark, an {@code offheap lab} beside the test suite) holds
 * JMH's machine-wide lock ({@code /tmp/jmh.lock}). The suite's tiny runs are not disturbed: their JVM has a
 * temporary directory, and so a JMH lock, of its own (offheap-lab's pom). A lab run waits for the lock and says
 * so in its notes. Before: both failed at once with JMH's "Another JMH instance might be running" (seen when a lab
 * ran beside a fresh-clone test run: eight lab tests failed).
 */
class JmhLockTest {
    @TempDir
    Path workDir;

    /**
     * Another process holding the JMH lock of {@code tmpdir} for {@code millis} (0: until the test ends it),
     * started and locked.
     */
    private static Process holdTheLock(String tmpdir, long millis) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process holder = new ProcessBuilder(java, "-Djava.io.tmpdir=" + tmpdir, "-cp",
                System.getProperty("java.class.path"), LockHolder.class.getName(), String.valueOf(millis))
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).as("the holder's first line").isEqualTo("LOCKED");
        return holder;
    }

    @Test
    void theSuitesRunsAreNotHeldUpByAnotherJmhRunOnTheMachine() throws Exception {
        Process holder = holdTheLock("/tmp", 0);
        try {
            List<Jmh.Score> scores = new Jmh(Contexts.of(LabContext.Scale.TINY, workDir)).run(AllocBench.class,
                    "allocate", Map.of("size", List.of("128")), List.of(), false);
            assertThat(scores).hasSize(1);
        } finally {
            holder.destroy();
            holder.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aLabRunWaitsForTheLockAndSaysSo() throws Exception {
        Process holder = holdTheLock(System.getProperty("java.io.tmpdir"), 2000);
        try {
            Jmh jmh = new Jmh(Contexts.of(LabContext.Scale.QUICK, workDir));
            List<Jmh.Score> scores = jmh.run(AllocBench.class, "allocate", Map.of("size", List.of("128")), List.of(),
                    false);
            assertThat(scores).hasSize(1);
            assertThat(jmh.notes()).anySatisfy(note -> assertThat(note).startsWith("waited ")
                    .contains("for another JMH run on this machine to end"));
        } finally {
            holder.destroy();
            holder.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Takes JMH's lock as JMH does (a file lock on jmh.lock in the temporary directory), holds it, lets go. */
    public static final class LockHolder {
        public static void main(String[] args) throws Exception {
            Path lock = Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
            try (var channel = java.nio.channels.FileChannel.open(lock, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE); var held = channel.lock()) {
                System.out.println("LOCKED");
                System.out.flush();
                long millis = Long.parseLong(args[0]);
                Thread.sleep(millis > 0 ? millis : Long.MAX_VALUE);
            }
        }
    }
}
