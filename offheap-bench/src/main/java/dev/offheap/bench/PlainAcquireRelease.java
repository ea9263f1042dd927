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

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A plain program, no JMH: acquire, write a long and a byte through the segment, release, 20 million times per
 * round in {@code main}; offheap (default pool) and Netty pooled alternate, 5 rounds; prints the last rounds.
 * Run: {@code java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow
 * -Dio.netty.leakDetection.level=disabled -cp offheap-bench/target/benchmarks.jar
 * dev.offheap.bench.PlainAcquireRelease 1024}.
 */
public final class PlainAcquireRelease {
    private PlainAcquireRelease() {}

    public static void main(String[] args) {
        int size = Integer.parseInt(args[0]);
        int n = 20_000_000;
        BufferPool pool = BufferPool.builder().build();
        PooledByteBufAllocator netty = new PooledByteBufAllocator(true, 1, 1, 8192, 9, 256, 64, true);
        double[] off = new double[5], net = new double[5];
        for (int round = 0; round < 5; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                BufferLease b = pool.acquire(size);
                MemorySegment s = b.segment();
                s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, i);
                s.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 1);
                b.release();
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                ByteBuf b = netty.directBuffer(size, size);
                b.setLong(0, i);
                b.setByte(size - 1, 1);
                b.release();
            }
            long t2 = System.nanoTime();
            off[round] = (t1 - t0) / (double) n;
            net[round] = (t2 - t1) / (double) n;
        }
        System.out.printf("size %d: offheap %.1f ns, netty %.1f ns (last 3 rounds: offheap %.1f/%.1f/%.1f, netty %.1f/%.1f/%.1f)%n",
                size, off[4], net[4], off[2], off[3], off[4], net[2], net[3], net[4]);
    }
}
