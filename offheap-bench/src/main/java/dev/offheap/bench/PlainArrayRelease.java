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

package dev.offheap.bench;

import dev.offheap.store.ChunkPool;
import dev.offheap.store.Contents;
import dev.offheap.store.LongArray;
import java.util.Arrays;

/**
 * What one array's release costs in a plain program (no JMH): arrays of one chunk, made, touched and released
 * in turn, the release alone timed; five rounds, each printing the median and the 90th percentile. The
 * release ends the array's views (a handshake with every thread) and, since issue 26, waits one more
 * handshake before its chunks go back (JDK-8364167), which is what this measures against an older build.
 *
 * <p>{@code java --enable-native-access=ALL-UNNAMED -cp offheap-bench/target/benchmarks.jar
 * dev.offheap.bench.PlainArrayRelease CHUNK_BYTES RELEASES} (e.g. {@code 4194304 400}).
 */
public final class PlainArrayRelease {
    private PlainArrayRelease() {}

    public static void main(String[] args) {
        long chunk = Long.parseLong(args[0]);
        int releases = Integer.parseInt(args[1]);
        try (ChunkPool pool = ChunkPool.builder().chunkSize(chunk).jmx(false).build()) {
            for (int round = 0; round < 5; round++) {
                long[] nanos = new long[releases];
                for (int i = 0; i < releases; i++) {
                    LongArray array = pool.longs(chunk / Long.BYTES, Contents.UNINITIALIZED);
                    array.set(0, i);
                    long start = System.nanoTime();
                    array.release();
                    nanos[i] = System.nanoTime() - start;
                }
                Arrays.sort(nanos);
                System.out.printf("chunk %d KiB: release median %.1f us, p90 %.1f us%n", chunk >> 10,
                        nanos[releases / 2] / 1e3, nanos[releases * 9 / 10] / 1e3);
            }
        }
    }
}
