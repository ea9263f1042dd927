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

import dev.offheap.store.ByteArray;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.Contents;
import dev.offheap.store.IntArray;
import dev.offheap.store.Workers;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Whole-array operations on arrays of more than 2<sup>31</sup> elements (no Java array holds them), for
 * {@code run-bulk-benchmarks.sh} with {@code BIG=1}: the sum of an {@code IntArray} of 2<sup>31</sup> + 2<sup>20</sup>
 * elements (8 GiB + 4 MiB), the copy of a {@code ByteArray} of 2<sup>31</sup> + 2<sup>20</sup> bytes into another,
 * and the sort of an {@code IntArray} of 2<sup>31</sup> + 2<sup>20</sup> random elements. Each benchmark runs in a
 * fork of its own and holds at most 8 GiB + 4 MiB off-heap (the sum and the sort one such array, the copy two of
 * 2 GiB + 1 MiB). Not part of the default run: a fork needs more than 8 GiB of free memory and the sort takes
 * tens of seconds per operation on two cores.
 *
 * <p>One operation per iteration ({@link Mode#SingleShotTime}): an operation takes 0.3 s to a minute, and the
 * sort must be handed unsorted data each time. Bytes counted as STREAM counts them: 4 per element for the sum
 * (one array read), 2 per byte for the copy (read one, write the other).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS})
public class BeyondIntBenchmark {
    /** 2^31 + 2^20: past every int index, by one 4 MiB chunk of ints. */
    static final long ELEMENTS = (1L << 31) + (1L << 20);

    static Workers workers(String name) {
        return switch (name) {
            case "all" -> Workers.allCores();
            case "one" -> Workers.callerOnly();
            default -> throw new IllegalArgumentException("workers: all or one, not " + name);
        };
    }

    /** One {@code IntArray} of {@link #ELEMENTS} threes. */
    @State(Scope.Benchmark)
    public static class HugeInts {
        @Param({"all", "one"})
        String workers;

        ChunkPool pool;
        IntArray array;
        Workers chosen;

        @Setup(Level.Trial)
        public void setup() {
            pool = ChunkPool.builder().name("beyond-int").jmx(false).build();
            array = pool.ints(ELEMENTS, Contents.UNINITIALIZED);
            array.fill(3);
            chosen = workers(workers);
            long sum = array.sum();
            if (sum != 3 * ELEMENTS) {
                throw new AssertionError("sum " + sum + ", expected " + 3 * ELEMENTS);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            array.close();
            pool.close();
        }
    }

    @Benchmark
    public long hugeIntSum(HugeInts s) {
        return s.chosen.call(s.array::sum);
    }

    /** Two {@code ByteArray}s of {@link #ELEMENTS} bytes. */
    @State(Scope.Benchmark)
    public static class HugeBytes {
        @Param({"all", "one"})
        String workers;

        ChunkPool pool;
        ByteArray from;
        ByteArray to;
        Workers chosen;

        @Setup(Level.Trial)
        public void setup() {
            pool = ChunkPool.builder().name("beyond-int").jmx(false).build();
            from = pool.bytes(ELEMENTS, Contents.UNINITIALIZED);
            to = pool.bytes(ELEMENTS, Contents.UNINITIALIZED);
            from.fill((byte) 7);
            to.fill((byte) 0);
            chosen = workers(workers);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            for (long i = 0; i < ELEMENTS; i += 4093) {
                if (to.get(i) != 7) {
                    throw new AssertionError("byte " + i + " was not copied");
                }
            }
            if (to.get(ELEMENTS - 1) != 7) {
                throw new AssertionError("the last byte was not copied");
            }
            from.close();
            to.close();
            pool.close();
        }
    }

    @Benchmark
    public void hugeByteCopy(HugeBytes s) {
        s.chosen.run(() -> s.from.copyTo(0, s.to, 0, ELEMENTS));
    }

    /**
     * One {@code IntArray} of {@link #ELEMENTS} distinct pseudo-random ints, scrambled again before every
     * operation: {@link #scramble} is a bijection of int, so the sorted array of one iteration maps to the
     * next iteration's random order (in parallel, through {@code apply}, outside the timing).
     */
    @State(Scope.Benchmark)
    public static class HugeSort {
        /** The store's workers for the sort: {@code all} only by default ({@code one} takes minutes a sort). */
        @Param({"all"})
        String sortWorkers;

        ChunkPool pool;
        IntArray array;
        Workers chosen;

        @Setup(Level.Trial)
        public void setup() {
            pool = ChunkPool.builder().name("beyond-int").jmx(false).build();
            array = pool.ints(ELEMENTS, Contents.UNINITIALIZED);
            int block = 1 << 20;
            int[] values = new int[block];
            for (long first = 0; first < ELEMENTS; first += block) {
                for (int j = 0; j < block; j++) {
                    values[j] = (int) (first + j); // distinct modulo 2^32, as ELEMENTS < 2^32
                }
                array.copyFrom(values, 0, first, (int) Math.min(block, ELEMENTS - first));
            }
            chosen = workers(sortWorkers);
        }

        @Setup(Level.Iteration)
        public void unsort() {
            array.apply(array, BeyondIntBenchmark::scramble);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            int previous = Integer.MIN_VALUE;
            for (long i = 0; i < ELEMENTS; i += 1021) {
                int v = array.get(i);
                if (v < previous) {
                    throw new AssertionError("not sorted at " + i);
                }
                previous = v;
            }
            array.close();
            pool.close();
        }
    }

    @Benchmark
    public void hugeIntSort(HugeSort s) {
        s.chosen.run(s.array::sort);
    }

    /** MurmurHash3's 32-bit finalizer: a bijection of int that scatters neighbouring values. */
    static int scramble(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
