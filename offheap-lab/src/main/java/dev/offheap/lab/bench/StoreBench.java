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
import dev.offheap.store.DoubleArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * Reading doubles: the sum of all of them in index order, and of {@code gather} of them at pseudo-random
 * indices, from a {@code double[]}, one flat native segment, offheap's store, and seed 003's {@code ByteBuffer[]}
 * of 1 MiB direct chunks. Each layout is a {@code @Benchmark} method pair of its own, so no read is virtual.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreBench {
    /** Seed 003's chunk: 1 MiB, 2^17 doubles. */
    static final int CHUNK_SHIFT = 17;
    static final int CHUNK_MASK = (1 << CHUNK_SHIFT) - 1;

    @Param({"1048576"})
    public long bytes;

    @Param({"65536"})
    public int gather;

    /** Which layout this trial fills; the others stay empty, so a trial costs the memory of one. */
    @Param({"double-array"})
    public String layout;

    private double[] array;
    private Arena arena;
    private MemorySegment flat;
    private ChunkPool chunks;
    private DoubleArray store;
    private ByteBuffer[] buffers;
    private long[] indices;

    @Setup(Level.Trial)
    public void setup() {
        long n = bytes / Double.BYTES;
        switch (layout) {
            case "double-array" -> array = new double[Math.toIntExact(n)];
            case "flat-segment" -> {
                arena = Arena.ofShared();
                flat = arena.allocate(bytes, Double.BYTES);
            }
            case "offheap-store" -> {
                chunks = ChunkPool.create();
                store = chunks.doubles(n);
            }
            case "bytebuffer-chunks" -> {
                buffers = new ByteBuffer[Math.toIntExact((n + CHUNK_MASK) >>> CHUNK_SHIFT)];
                for (int c = 0; c < buffers.length; c++) {
                    buffers[c] = ByteBuffer.allocateDirect(1 << (CHUNK_SHIFT + 3)).order(ByteOrder.nativeOrder());
                }
            }
            default -> throw new IllegalArgumentException("unknown layout " + layout);
        }
        for (long i = 0; i < n; i++) {
            double v = (i % 1009) * 0.5;
            switch (layout) {
                case "double-array" -> array[(int) i] = v;
                case "flat-segment" -> flat.setAtIndex(ValueLayout.JAVA_DOUBLE, i, v);
                case "offheap-store" -> store.set(i, v);
                default -> buffers[(int) (i >>> CHUNK_SHIFT)].putDouble((int) (i & CHUNK_MASK) << 3, v);
            }
        }
        SplittableRandom random = new SplittableRandom(0x5EED_0003L);
        indices = new long[gather];
        for (int k = 0; k < gather; k++) {
            indices[k] = random.nextLong(n);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (arena != null) {
            arena.close();
        }
        if (store != null) {
            store.release();
            chunks.close();
        }
    }

    @Benchmark
    public double arraySequential() {
        double[] a = array;
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i];
        }
        return sum;
    }

    @Benchmark
    public double arrayRandom() {
        double[] a = array;
        long[] idx = indices;
        double sum = 0;
        for (int k = 0; k < idx.length; k++) {
            sum += a[(int) idx[k]];
        }
        return sum;
    }

    @Benchmark
    public double segmentSequential() {
        MemorySegment s = flat;
        long n = s.byteSize() / Double.BYTES;
        double sum = 0;
        for (long i = 0; i < n; i++) {
            sum += s.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
        }
        return sum;
    }

    @Benchmark
    public double segmentRandom() {
        MemorySegment s = flat;
        long[] idx = indices;
        double sum = 0;
        for (int k = 0; k < idx.length; k++) {
            sum += s.getAtIndex(ValueLayout.JAVA_DOUBLE, idx[k]);
        }
        return sum;
    }

    @Benchmark
    public double storeSequential() {
        DoubleArray a = store;
        long n = a.length();
        double sum = 0;
        for (long i = 0; i < n; i++) {
            sum += a.get(i);
        }
        return sum;
    }

    @Benchmark
    public double storeRandom() {
        DoubleArray a = store;
        long[] idx = indices;
        double sum = 0;
        for (int k = 0; k < idx.length; k++) {
            sum += a.get(idx[k]);
        }
        return sum;
    }

    @Benchmark
    public double chunksSequential() {
        ByteBuffer[] c = buffers;
        long n = bytes / Double.BYTES;
        double sum = 0;
        for (long i = 0; i < n; i++) {
            sum += c[(int) (i >>> CHUNK_SHIFT)].getDouble((int) (i & CHUNK_MASK) << 3);
        }
        return sum;
    }

    @Benchmark
    public double chunksRandom() {
        ByteBuffer[] c = buffers;
        long[] idx = indices;
        double sum = 0;
        for (int k = 0; k < idx.length; k++) {
            long i = idx[k];
            sum += c[(int) (i >>> CHUNK_SHIFT)].getDouble((int) (i & CHUNK_MASK) << 3);
        }
        return sum;
    }
}
