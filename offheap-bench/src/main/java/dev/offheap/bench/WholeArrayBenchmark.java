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
import dev.offheap.store.DoubleArray;
import dev.offheap.store.LongArray;
import dev.offheap.store.Workers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
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
 * The store's whole-array operations on arrays far larger than the caches, for the bandwidth table of
 * {@code run-bulk-benchmarks.sh} (which measures STREAM and NumPy on the same sizes in the same run).
 * {@code workers}: {@code all} (every core, the default) or {@code one} ({@link Workers#callerOnly()});
 * {@code flat*} benchmarks are the loop a user writes by hand over one flat {@code MemorySegment}, on one
 * thread. STREAM's names: copy {@code c = a}, scale {@code b = q*c}, add {@code c = a + b}, triad
 * {@code a = b + q*c} (here {@code mix(1, b, q, c)}); {@code mix} is {@code c = x*a + y*b} with neither weight 1.
 * Arrays beyond 2<sup>31</sup> elements are in {@link BeyondIntBenchmark}, a spilled array in {@link BulkSpill}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS})
public class WholeArrayBenchmark {
    private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE;
    private static final double Q = 3.0;
    private static final double X = 0.5;
    private static final double Y = 1.5;

    /** Three arrays of doubles of {@code size} bytes each, in the store and as flat segments. */
    @State(Scope.Benchmark)
    public static class Arrays3 {
        @Param({"256m"})
        String size;

        @Param({"all", "one"})
        String workers;

        ChunkPool pool;
        DoubleArray a;
        DoubleArray b;
        DoubleArray c;
        Workers chosen;

        @Setup(Level.Trial)
        public void setup() {
            long n = bytes(size) / Double.BYTES;
            pool = ChunkPool.builder().name("bulk").jmx(false).build();
            a = pool.doubles(n);
            b = pool.doubles(n);
            c = pool.doubles(n);
            for (long i = 0; i < n; i++) {
                a.set(i, (i % 1009) * 0.5);
                b.set(i, 1);
            }
            c.fill(2);
            chosen = workers.equals("one") ? Workers.callerOnly() : Workers.allCores();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            a.close();
            b.close();
            c.close();
            pool.close();
        }
    }

    /**
     * The same three arrays as flat segments of one {@code Arena.ofShared()}, for the {@code flat*} loops (one
     * thread, so no {@code workers} parameter: each runs once, not once per value of it).
     */
    @State(Scope.Benchmark)
    public static class Flat3 {
        @Param({"256m"})
        String size;

        Arena arena;
        MemorySegment fa;
        MemorySegment fb;
        MemorySegment fc;

        @Setup(Level.Trial)
        public void setup() {
            long n = bytes(size) / Double.BYTES;
            arena = Arena.ofShared();
            fa = arena.allocate(n * 8, 64);
            fb = arena.allocate(n * 8, 64);
            fc = arena.allocate(n * 8, 64);
            for (long i = 0; i < n; i++) {
                fa.setAtIndex(D, i, (i % 1009) * 0.5);
                fb.setAtIndex(D, i, 1);
            }
            fc.fill((byte) 0);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    @Benchmark
    public void copy(Arrays3 s) {
        s.chosen.run(() -> s.a.copyTo(0, s.c, 0, s.a.length()));
    }

    @Benchmark
    public void scale(Arrays3 s) {
        s.chosen.run(() -> s.b.mix(Q, s.c, 0, s.c));
    }

    @Benchmark
    public void add(Arrays3 s) {
        s.chosen.run(() -> s.c.mix(1, s.a, 1, s.b));
    }

    @Benchmark
    public void triad(Arrays3 s) {
        s.chosen.run(() -> s.a.mix(1, s.b, Q, s.c));
    }

    /** {@code a*x + b*y} with neither weight 1 (the triad's {@code b + q*c} has one): NumPy's {@code mix}. */
    @Benchmark
    public void mix(Arrays3 s) {
        s.chosen.run(() -> s.c.mix(X, s.a, Y, s.b));
    }

    @Benchmark
    public double sum(Arrays3 s) {
        return s.chosen.call(s.a::sum);
    }

    @Benchmark
    public double dot(Arrays3 s) {
        return s.chosen.call(() -> s.a.dot(s.b));
    }

    @Benchmark
    public double max(Arrays3 s) {
        return s.chosen.call(s.a::max);
    }

    @Benchmark
    public void fill(Arrays3 s) {
        s.chosen.run(() -> s.c.fill(1.5));
    }

    @Benchmark
    public void prefixSum(Arrays3 s) {
        s.chosen.run(s.c::prefixSum);
    }

    @Benchmark
    public void flatCopy(Flat3 s) {
        MemorySegment.copy(s.fa, 0, s.fc, 0, s.fa.byteSize());
    }

    @Benchmark
    public void flatTriad(Flat3 s) {
        MemorySegment a = s.fa;
        MemorySegment b = s.fb;
        MemorySegment c = s.fc;
        for (long i = 0, n = a.byteSize() / 8; i < n; i++) {
            a.setAtIndex(D, i, b.getAtIndex(D, i) + Q * c.getAtIndex(D, i));
        }
    }

    @Benchmark
    public double flatSum(Flat3 s) {
        MemorySegment a = s.fa;
        double sum = 0;
        for (long i = 0, n = a.byteSize() / 8; i < n; i++) {
            sum += a.getAtIndex(D, i);
        }
        return sum;
    }

    /** Sorting random longs: the store's radix sort against {@code Arrays.parallelSort} and {@code Arrays.sort}. */
    @State(Scope.Benchmark)
    public static class Longs {
        @Param({"32m"})
        String sortSize;

        @Param({"all", "one"})
        String workers;

        long[] source;
        long[] heap;
        ChunkPool pool;
        LongArray array;
        Workers chosen;

        @Setup(Level.Trial)
        public void setup() {
            int n = (int) (bytes(sortSize) / Long.BYTES);
            source = new SplittableRandom(42).longs(n).toArray();
            heap = new long[n];
            pool = ChunkPool.builder().name("sort").jmx(false).build();
            array = pool.longs(n);
            chosen = workers.equals("one") ? Workers.callerOnly() : Workers.allCores();
        }

        @Setup(Level.Invocation)
        public void unsort() {
            System.arraycopy(source, 0, heap, 0, source.length);
            array.copyFrom(source, 0, 0, source.length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            array.close();
            pool.close();
        }
    }

    @Benchmark
    public void sortStore(Longs s) {
        s.chosen.run(s.array::sort);
    }

    @Benchmark
    public void sortArraysParallel(Longs s) {
        if (s.workers.equals("one")) {
            Arrays.sort(s.heap);
        } else {
            Arrays.parallelSort(s.heap);
        }
    }

    /** "256m", "32m", "4g": bytes. */
    static long bytes(String size) {
        long number = Long.parseLong(size.substring(0, size.length() - 1));
        return switch (size.charAt(size.length() - 1)) {
            case 'k' -> number << 10;
            case 'm' -> number << 20;
            case 'g' -> number << 30;
            default -> throw new IllegalArgumentException("a size like 256m or 4g: " + size);
        };
    }
}
