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

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Run in a child JVM by {@link TruncatedBehindOurBackTest}: maps a file, warms the bulk operations up until
 * the JIT compiles them, lets another channel truncate the file (as another process could), then reads and
 * writes the lost pages. Prints one line per operation, {@code <operation> THREW <class> | <message>} or
 * {@code <operation> NO-THROW}; if the JVM died of the SIGBUS instead, the lines stop.
 */
public final class TruncatedFileChild {
    private static final int LENGTH = 1 << 20;

    private TruncatedFileChild() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, LENGTH);
             LongArray longs = array.longs();
             LongArray other = array.longs()) {
            longs.set(1 << 19, 5);
            long[] buffer = new long[64];
            try (ChunkPool pool = ChunkPool.builder().name("warm").jmx(false).build(); LongArray small = pool.longs(1 << 16)) {
                for (int round = 0; round < 2_000; round++) { // the whole-array operations' loops, compiled
                    small.scale(3);
                    small.sum();
                    small.sort();
                }
            }
            for (int round = 0; round < 20_000; round++) { // until the bulk paths are compiled
                int at = (round * 64) % (LENGTH - 64);
                longs.copyTo(at, buffer, 0, 64);
                longs.copyFrom(buffer, 0, at, 64);
                longs.fill(at, at + 64, round);
                longs.copyTo(at, other, LENGTH - 64 - at, 64);
                longs.toArray(at, at + 8);
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(4096);
            }
            run("get", () -> longs.get(1000));
            run("set", () -> longs.set(7, 1));
            run("copyTo", () -> longs.copyTo(2048, buffer, 0, 64));
            run("copyFrom", () -> longs.copyFrom(buffer, 0, 4096, 64));
            run("fill", () -> longs.fill(8192, 8192 + 64, 3));
            run("toArray", () -> longs.toArray(300_000, 300_008));
            run("copy", () -> longs.copyTo(500_000, other, 0, 64));
            run("view", array::longs);
            run("grow", () -> array.grow(LENGTH + 1));
            run("sum", longs::sum); // on every core: a helper thread's fault reaches the caller too
            run("scale", () -> longs.scale(2));
            run("sort", longs::sort);
            // A hot loop over get: compiled code reports the fault asynchronously, where the JDK decides.
            run("loop", () -> {
                long sum = 0;
                for (int round = 0; round < 3; round++) {
                    for (long i = 0; i < longs.length(); i++) {
                        sum += longs.get(i);
                    }
                }
                System.out.println("sum " + sum);
            });
        }
        System.out.println("CLOSED");
    }

    private static void run(String operation, ThrowingAction action) {
        try {
            action.run();
            System.out.println(operation + " NO-THROW");
        } catch (Throwable t) {
            System.out.println(operation + " THREW " + t.getClass().getName() + " | "
                    + String.valueOf(t.getMessage()).replace('\n', ' '));
        }
    }

    @FunctionalInterface
    private interface ThrowingAction {
        void run() throws Exception;
    }
}
