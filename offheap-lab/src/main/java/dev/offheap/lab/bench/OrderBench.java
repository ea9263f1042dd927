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

package dev.offheap.lab.bench;

import dev.offheap.store.ChunkPool;
import dev.offheap.store.LongArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Seed 000's byte-order benchmark: the sum of {@code bytes} of random longs read one by one through a direct
 * buffer's {@code asLongBuffer()} in big-endian (the default) and native order, and through offheap's store.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OrderBench {
    @Param({"1048576"})
    public long bytes;

    private LongBuffer bigEndian;
    private LongBuffer nativeOrder;
    private ChunkPool chunks;
    private LongArray store;

    @Setup(Level.Trial)
    public void setup() {
        int n = Math.toIntExact(bytes / Long.BYTES);
        ByteBuffer big = ByteBuffer.allocateDirect(Math.toIntExact(bytes));
        ByteBuffer nat = ByteBuffer.allocateDirect(Math.toIntExact(bytes)).order(ByteOrder.nativeOrder());
        chunks = ChunkPool.create();
        store = chunks.longs(n);
        SplittableRandom random = new SplittableRandom(0x5EED_0000L);
        for (int i = 0; i < n; i++) {
            long v = random.nextLong();
            big.putLong(i * Long.BYTES, v);
            nat.putLong(i * Long.BYTES, v);
            store.set(i, v);
        }
        bigEndian = big.asLongBuffer();
        nativeOrder = nat.asLongBuffer();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.release();
        chunks.close();
    }

    @Benchmark
    public long bigEndian() {
        LongBuffer b = bigEndian;
        int n = b.capacity();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += b.get(i);
        }
        return sum;
    }

    @Benchmark
    public long nativeOrder() {
        LongBuffer b = nativeOrder;
        int n = b.capacity();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += b.get(i);
        }
        return sum;
    }

    @Benchmark
    public long offheapStore() {
        LongArray a = store;
        long n = a.length();
        long sum = 0;
        for (long i = 0; i < n; i++) {
            sum += a.get(i);
        }
        return sum;
    }
}
