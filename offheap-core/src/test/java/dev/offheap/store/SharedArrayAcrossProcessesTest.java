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

package dev.offheap.store;

import static dev.offheap.store.SharedArrayChild.ADDED;
import static dev.offheap.store.SharedArrayChild.BALL;
import static dev.offheap.store.SharedArrayChild.COUNT;
import static dev.offheap.store.SharedArrayChild.PAYLOAD;
import static dev.offheap.store.SharedArrayChild.SEQUENCE;
import static dev.offheap.store.SharedArrayChild.SLOT;
import static dev.offheap.store.SharedArrayChild.SLOT_LENGTH;
import static dev.offheap.store.SharedArrayChild.SWAPPED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One file open {@link MappedArray.Mode#SHARED} in several processes at once ({@link SharedArrayChild} plays the
 * others): two JVMs pass values through it with {@code getAcquire}/{@code setRelease} and add to it with
 * {@code getAndAdd} and {@code compareAndSet} without losing an update; a writer killed with SIGKILL while it
 * writes leaves every record it published whole, to a reader that was reading meanwhile and to a fresh open
 * after; NumPy reads and writes the file while a JVM has it open. Nothing waits for time: every step waits for
 * what a process printed or for its end, with generous limits as failure guards only.
 */
@Tag("child-jvm")
class SharedArrayAcrossProcessesTest {
    private static final Duration LIMIT = Duration.ofMinutes(5);

    @TempDir
    Path dir;

    @Test
    void twoJvmsPassABallAndAddWithoutLosingAnUpdateWhileThisOneHasTheFileOpenToo() throws Exception {
        long rounds = 2_000;
        long adds = 200_000;
        Path file = dir.resolve("pingpong.npy");
        MappedArray.create(file, ElementType.LONG, 64).close();
        try (MappedArray here = MappedArray.open(file, MappedArray.Mode.SHARED); LongArray longs = here.longs()) {
            try (Child zero = new Child("pingpong", file, "0", Long.toString(rounds), Long.toString(adds));
                 Child one = new Child("pingpong", file, "1", Long.toString(rounds), Long.toString(adds))) {
                assertThat(zero.next()).isEqualTo("done");
                assertThat(one.next()).isEqualTo("done");
                zero.endsWith(0);
                one.endsWith(0);
            }
            assertThat(longs.getAcquire(BALL)).isEqualTo(rounds);
            assertThat(longs.get(PAYLOAD)).isEqualTo(rounds * 7);
            assertThat(longs.getVolatile(ADDED)).as("getAndAdd from two processes").isEqualTo(2 * adds);
            assertThat(longs.getVolatile(SWAPPED)).as("compareAndSet loops in two processes").isEqualTo(2 * adds);
        }
    }

    @ParameterizedTest(name = "killed after {0} records published")
    @ValueSource(longs = {512, 4096, 16_384})
    void aWriterKilledWhileItWritesLeavesEveryPublishedRecordWhole(long killAfter) throws Exception {
        long records = 16_384;
        Path file = dir.resolve("log.npy");
        MappedArray.create(file, ElementType.LONG, SharedArrayChild.logLength(records)).close();
        String result;
        try (Child reader = new Child("check", file, Long.toString(records))) {
            try (Child writer = new Child("log", file, Long.toString(records))) {
                writer.waitFor("published " + killAfter);
                writer.kill();
            }
            reader.process.getOutputStream().close(); // the reader checks everything once more, and ends
            result = reader.next();
            reader.endsWith(0);
        }
        assertThat(result).startsWith("ok ");
        long count;
        try (MappedArray after = MappedArray.open(file, MappedArray.Mode.READ_WRITE); LongArray longs = after.longs()) {
            count = longs.getAcquire(COUNT);
            assertThat(count).as("published before the kill").isGreaterThanOrEqualTo(killAfter).isLessThanOrEqualTo(records);
            for (long r = 0; r < count; r++) {
                SharedArrayChild.checkRecord(longs, r);
            }
            for (long r = count; r < records; r++) {
                SharedArrayChild.checkUnpublished(longs, r);
            }
            long sequence = longs.getAcquire(SEQUENCE);
            assertThat(sequence).isPositive();
            for (int k = 0; k < SLOT_LENGTH; k++) {
                long found = longs.get(SLOT + k);
                if (sequence % 2 == 0) {
                    assertThat(found).as("slot %d, sequence %d", k, sequence)
                            .isEqualTo(SharedArrayChild.value(sequence - 1, k));
                } else { // killed within a rewrite: each element old or new, never anything else
                    assertThat(found).as("slot %d, sequence %d (odd: killed within a write)", k, sequence)
                            .isIn(SharedArrayChild.value(sequence, k), SharedArrayChild.value(sequence - 2, k));
                }
            }
        }
        assertThat(result.split(" ")[2]).as("the reader's count").isEqualTo(Long.toString(count));
    }

    @Test
    void numpyReadsAndWritesTheFileWhileThisJvmHasItOpen() throws Exception {
        Python.requireNumpy("NumPy's view of a shared file");
        Path file = dir.resolve("numpy.npy");
        MappedArray.create(file, ElementType.LONG, 1000).close();
        try (MappedArray here = MappedArray.open(file, MappedArray.Mode.SHARED); LongArray longs = here.longs()) {
            for (int i = 1; i <= 500; i++) {
                longs.set(i, i * 3L);
            }
            longs.setRelease(0, 500);
            Python.Result python = Python.run(List.of(Python.PATH, "-c", """
                    import sys
                    import numpy as np
                    a = np.load(sys.argv[1], mmap_mode='r+')
                    n = int(a[0])
                    assert n == 500, n
                    assert (a[1:n + 1] == np.arange(1, n + 1) * 3).all()
                    a[999] = int(a[1:n + 1].sum())
                    a.flush()
                    print(n, a[999])
                    """, file.toString()), Duration.ofSeconds(120));
            assertThat(python.exitCode()).as(python.output()).isZero();
            assertThat(python.output().strip()).isEqualTo("500 375750");
            assertThat(longs.getAcquire(999)).as("NumPy's write, seen through this JVM's mapping").isEqualTo(375_750);
        }
    }

    /** A {@link SharedArrayChild} in a JVM of its own, whose lines the test reads as they come. */
    private final class Child implements AutoCloseable {
        final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> seen = new ArrayList<>();

        Child(String role, Path file, String... args) throws IOException, InterruptedException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx64m",
                    "-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"), "-cp",
                    System.getProperty("java.class.path"), SharedArrayChild.class.getName(), role, file.toString()));
            command.addAll(List.of(args));
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
            Thread.ofPlatform().daemon().start(this::readLines);
            assertThat(next()).as("the %s child's open", role).isEqualTo("open");
        }

        private void readLines() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException ended) {
                // killed: its pipe may break mid-line
            }
        }

        /** The next line the child prints, waiting up to {@link #LIMIT} (a guard: it fails the test). */
        String next() throws InterruptedException {
            String line = lines.poll(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new AssertionError("the child printed nothing more within " + LIMIT + " (alive: "
                        + process.isAlive() + "); it said: " + seen);
            }
            seen.add(line);
            return line;
        }

        void waitFor(String wanted) throws InterruptedException {
            while (!next().equals(wanted)) {
                // earlier progress lines
            }
        }

        void kill() throws InterruptedException {
            process.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no close, no unmap
            assertThat(process.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS)).as("killed").isTrue();
            assertThat(process.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
        }

        void endsWith(int exitCode) throws InterruptedException {
            if (!process.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                fail("the child did not end within " + LIMIT + "; it said: " + seen);
            }
            assertThat(process.exitValue()).as("exit; it said: %s", seen).isEqualTo(exitCode);
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }
}
