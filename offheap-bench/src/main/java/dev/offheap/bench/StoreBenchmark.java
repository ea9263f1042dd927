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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * Reading large arrays of doubles: the store ({@code dev.offheap.store}, chunked off-heap arrays of any
 * length) against a {@code double[]}, one flat {@code MemorySegment}, and seed 003's two chunked designs
 * (Sonic Field's segmented storage), rebuilt in {@link DoubleStorage}.
 *
 * <ul>
 *   <li>{@link #sequentialSum}: the sum of every element in index order, {@code sum += a.get(i)} with a long
 *       index: what a user writes.</li>
 *   <li>{@link #randomGather}: the sum of the elements at {@value #GATHER_COUNT} pseudo-random indices,
 *       computed in setup from a fixed seed, the same for every layout of a size.</li>
 *   <li>{@link #sequentialSumKernel} (store layouts only): the same sum through the store's chunk kernel,
 *       {@code forEachChunk((segment, firstIndex) -> ...)}, with a plain loop over each chunk segment.</li>
 * </ul>
 *
 * Layouts ({@code layout}): {@code double-array} (heap, only up to 2^31 - 9 elements), {@code flat-segment}
 * (one native segment of a shared arena), {@code store-memory} (the store on pooled memory chunks),
 * {@code store-spill} (the store with everything spilled to files in {@code spillDir}, default a fresh
 * directory under {@code java.io.tmpdir}, deleted at the end), {@code bytebuffer-chunks} (seed 003's
 * {@code ByteBuffer[]} of 1 MiB direct chunks), {@code unsafe-table} (seed 003's off-heap table of chunk
 * addresses read with {@code sun.misc.Unsafe}, benchmark code only). {@code size} is the bytes of doubles:
 * 256 MiB (2^25 doubles) or 4 GiB (2^29). Diagnostic, only on request: {@code -p layout=store-memory-segment}
 * reads {@code store-memory}'s memory through its contiguous segment, without {@code DoubleArray.get}'s checks.
 *
 * <p>Reading the gather at 4 GiB: it is bound by address translation (a TLB miss per element, a nested page
 * walk in a VM), so page sizes decide it more than layouts do. On this machine (Linux 6.18, THP "madvise",
 * shmem THP "never") the heap and malloc'd memory get 4 KiB pages, but the spill file on ext4 is
 * mapped with 2 MiB folios ({@code FilePmdMapped} in smaps), so {@code store-spill} gathers about 3x faster
 * than a flat segment; {@code double-array} with {@code -XX:+UseTransparentHugePages} drops from ~43 to ~9 ms.
 * The same 4 KiB-page layout also varies up to 2x from one fork to the next (flat-segment: 27 and 59 ms).
 *
 * <p>Element {@code i} holds {@code (i % 1009) * 0.5}: not a constant the JIT could fold, and small enough
 * halves that every partial sum is exact in a double, so each layout's sums are checked in setup against
 * closed forms (and thereby against each other) to the last bit. Each {@code @Param} combination runs in a
 * fork of its own (JMH's default), so only one {@link DoubleStorage} subclass is used per fork and the
 * {@code get} call is monomorphic and inlined. Forks run with a fixed 6 GiB heap (for the 4 GiB
 * {@code double[]}), G1, native access and Unsafe memory access allowed, see {@link ForkFlags}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.STORE_HEAP_MIN, ForkFlags.STORE_HEAP_MAX, ForkFlags.GC,
        ForkFlags.NATIVE_ACCESS, ForkFlags.UNSAFE_ALLOW})
public class StoreBenchmark {
    /** How many elements {@link #randomGather} reads: 2^21. */
    static final int GATHER_COUNT = 1 << 21;
    /** The seed of the gather indices. */
    static final long GATHER_SEED = 0x5EED_0003L;
    /** Element i holds (i % PERIOD) * 0.5. A prime, so that the pattern does not line up with chunks. */
    static final int PERIOD = 1009;

    /** Every layout, for {@link #sequentialSum} and {@link #randomGather}. */
    @State(Scope.Benchmark)
    public static class Layouts extends Trial {
        @Param({"double-array", "flat-segment", "store-memory", "store-spill", "bytebuffer-chunks", "unsafe-table"})
        String layout;

        @Param({"256m", "4g"})
        String size;

        /** Where store-spill puts its directory; empty: java.io.tmpdir. */
        @Param({""})
        String spillDir;

        @Setup(Level.Trial)
        public void setup() throws IOException {
            open(layout, size, spillDir);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            close();
        }
    }

    /**
     * The store layouts, for {@link #sequentialSumKernel}. The parameter has a name of its own, so that
     * {@code -p layout=...} narrows the other benchmarks without handing this one a layout it cannot run.
     */
    @State(Scope.Benchmark)
    public static class StoreLayouts extends Trial {
        @Param({"store-memory", "store-spill"})
        String storeLayout;

        @Param({"256m", "4g"})
        String size;

        @Param({""})
        String spillDir;

        @Setup(Level.Trial)
        public void setup() throws IOException {
            if (!storeLayout.startsWith("store-")) {
                throw new IllegalArgumentException("sequentialSumKernel runs on store layouts only: " + storeLayout);
            }
            open(storeLayout, size, spillDir);
        }

        @Override
        void checkMore() {
            check("kernel sum", ((StoreLayout) storage).kernelSum(), expectedSum);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            close();
        }
    }

    /** The data of one trial: the filled layout, the gather indices and the expected sums. */
    abstract static class Trial {
        DoubleStorage storage;
        long[] indices;
        double expectedSum;
        double expectedGather;
        private Path spillDirectory;

        /** Makes, fills and checks the layout; on failure frees what it made (JMH skips the teardown then). */
        void open(String layout, String size, String spillDir) throws IOException {
            try {
                make(layout, size, spillDir);
            } catch (IOException | RuntimeException | Error e) {
                try {
                    close();
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }

        private void make(String layout, String size, String spillDir) throws IOException {
            System.out.println(); // off the line JMH started for the first warmup iteration
            long start = System.nanoTime();
            long length = parseBytes(size) / Double.BYTES;
            if (layout.equals("store-spill")) {
                Path base = Path.of(spillDir.isEmpty() ? System.getProperty("java.io.tmpdir") : spillDir);
                Files.createDirectories(base);
                spillDirectory = Files.createTempDirectory(base, "offheap-store-bench-");
            }
            storage = DoubleStorage.create(layout, length, spillDirectory);
            fill(storage);

            // The sum of (i % PERIOD) * 0.5 over 0 <= i < length, counted in halves (exact in a long).
            long periods = length / PERIOD;
            long rest = length % PERIOD;
            expectedSum = (periods * ((long) PERIOD * (PERIOD - 1) / 2) + rest * (rest - 1) / 2) * 0.5;
            SplittableRandom random = new SplittableRandom(GATHER_SEED);
            indices = new long[GATHER_COUNT];
            long halves = 0;
            for (int k = 0; k < GATHER_COUNT; k++) {
                indices[k] = random.nextLong(length);
                halves += indices[k] % PERIOD;
            }
            expectedGather = halves * 0.5;

            // A few single elements (the first, the last, both sides of chunk boundaries), then both sums.
            long[] probes = {0, 1, length - 1, length / 2, DoubleStorage.CHUNK_LEN / 8 - 1, DoubleStorage.CHUNK_LEN / 8,
                    (4L << 20) / 8 - 1, (4L << 20) / 8, indices[0], indices[GATHER_COUNT - 1]};
            for (long i : probes) {
                check("element " + i, storage.get(i), value(i));
            }
            check("sequential sum", sequentialSum(storage), expectedSum);
            check("gather sum", randomGather(storage, indices), expectedGather);
            checkMore();
            System.out.printf("%s: %,d doubles (%s), filled and checked in %.1f s%s%n", layout, length, size,
                    (System.nanoTime() - start) / 1e9, spillDirectory == null ? "" : ", spilled to " + spillDirectory);
        }

        /** Checks of a benchmark's own, after the common ones. */
        void checkMore() {}

        void close() throws IOException {
            if (storage != null) {
                storage.close();
                storage = null;
            }
            if (spillDirectory != null) {
                try (Stream<Path> files = Files.walk(spillDirectory)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> {
                        try {
                            Files.delete(p);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                }
                spillDirectory = null;
            }
        }

        static void check(String what, double actual, double expected) {
            if (Double.doubleToRawLongBits(actual) != Double.doubleToRawLongBits(expected)) {
                throw new IllegalStateException(what + ": " + actual + ", expected " + expected);
            }
        }
    }

    /** Element i's value. */
    static double value(long i) {
        return (i % PERIOD) * 0.5;
    }

    /** Writes every element's {@link #value}, counting the period instead of dividing. */
    static void fill(DoubleStorage a) {
        long n = a.length;
        int r = 0;
        for (long i = 0; i < n; i++) {
            a.set(i, r * 0.5);
            if (++r == PERIOD) {
                r = 0;
            }
        }
    }

    /** "256m", "4g", "1024k" or a plain byte count. */
    static long parseBytes(String size) {
        String s = size.trim().toLowerCase(java.util.Locale.ROOT);
        int shift = switch (s.charAt(s.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        return Long.parseLong(shift == 0 ? s : s.substring(0, s.length() - 1)) << shift;
    }

    /** The loop of {@link #sequentialSum(Layouts)}, also run once in setup to check the sum. */
    static double sequentialSum(DoubleStorage a) {
        long n = a.length;
        double sum = 0;
        for (long i = 0; i < n; i++) {
            sum += a.get(i);
        }
        return sum;
    }

    /** The loop of {@link #randomGather(Layouts)}, also run once in setup to check the sum. */
    static double randomGather(DoubleStorage a, long[] indices) {
        double sum = 0;
        for (int k = 0; k < indices.length; k++) {
            sum += a.get(indices[k]);
        }
        return sum;
    }

    @Benchmark
    public double sequentialSum(Layouts s) {
        return sequentialSum(s.storage);
    }

    @Benchmark
    public double randomGather(Layouts s) {
        return randomGather(s.storage, s.indices);
    }

    @Benchmark
    public double sequentialSumKernel(StoreLayouts s) {
        return ((StoreLayout) s.storage).kernelSum();
    }
}
