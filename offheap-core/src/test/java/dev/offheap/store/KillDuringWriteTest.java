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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A process killed (SIGKILL) while it writes, forces and grows a file leaves a file that reopens with its
 * header intact and every block it reported forced, and nothing but zeros or the right values elsewhere.
 */
@Tag("child-jvm")
class KillDuringWriteTest {
    private static final long BLOCK = 8192;
    private static final long INITIAL_BLOCKS = 3;
    private static final long GROW_BLOCKS = 2;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "kill {2} ms after ''{0}'' {1}")
    @CsvSource({
        "created, 0, 0",
        "forced, 1, 0",
        "forced, 6, 3",
        "grew, 14, 0",
        "forced, 25, 1",
        "forced, 40, 7"
    })
    void aKilledWriterLeavesAFileThatReopensWithEverythingForced(String event, long count, long delayMillis)
            throws Exception {
        Path file = dir.resolve("killed.npy");
        Process child = new ProcessBuilder(command(file)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> readLines(child, lines));
        List<String> seen = new ArrayList<>();
        try {
            waitFor(lines, seen, event, count, child);
            Thread.sleep(delayMillis);
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        reader.join(10_000);
        lines.drainTo(seen);
        assertThat(child.exitValue()).as("killed").isNotZero();

        long lastForced = seen.stream().filter(l -> l.startsWith("forced ")).mapToLong(l -> Long.parseLong(l.substring(7)))
                .max().orElse(-1);
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY, ElementType.LONG);
             LongArray longs = array.longs()) {
            long length = array.length();
            assertThat(length % BLOCK).isZero();
            assertThat(length).as("length in the header").isGreaterThanOrEqualTo((lastForced + 1) * BLOCK);
            assertThat(Files.size(file)).isGreaterThanOrEqualTo(4096 + 8 * length);
            for (long b = 0; b <= lastForced; b++) {
                for (long i = 0; i < BLOCK; i++) {
                    long found = longs.get(b * BLOCK + i);
                    if (found != MappedWriterChild.value(b, i)) {
                        throw new AssertionError("forced block " + b + " element " + i + " holds " + found
                                + "; the child said: " + seen);
                    }
                }
            }
            for (long index = (lastForced + 1) * BLOCK; index < length; index++) {
                long found = longs.get(index);
                if (found != 0 && found != MappedWriterChild.value(index / BLOCK, index % BLOCK)) {
                    throw new AssertionError("element " + index + " after the last forced block holds " + found);
                }
            }
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE)) {
            array.grow(array.length() + BLOCK);
        }
    }

    private static List<String> command(Path file) {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx64m", "-XX:TieredStopAtLevel=1",
                "-XX:-CreateCoredumpOnCrash", "-cp", System.getProperty("java.class.path"),
                MappedWriterChild.class.getName(), file.toString(), Long.toString(BLOCK),
                Long.toString(INITIAL_BLOCKS), Long.toString(GROW_BLOCKS));
    }

    /** Waits until the child has printed {@code event} with a number of at least {@code count}. */
    private static void waitFor(BlockingQueue<String> lines, List<String> seen, String event, long count,
            Process child) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long reached = 0;
        while (true) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null) {
                seen.add(line);
                if (line.startsWith(event + " ") && ++reached > count) {
                    return;
                }
            } else if (!child.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the child " + (child.isAlive() ? "is too slow" : "died") + " before "
                        + event + " #" + count + "; it said: " + seen);
            }
        }
    }

    private static void readLines(Process child, BlockingQueue<String> lines) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(line);
            }
        } catch (IOException ignored) {
            // the child was killed: its pipe may break mid-line
        }
    }
}
