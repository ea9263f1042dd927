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

import dev.offheap.store.ChunkKernel;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.DoubleArray;
import dev.offheap.store.IntArray;
import dev.offheap.store.LongArray;
import dev.offheap.store.ElementType;
import dev.offheap.store.FloatArray;
import dev.offheap.store.MappedArray;
import dev.offheap.store.Workers;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * A plain program, no JMH: one code shape of store access, timed against the same code over a flat
 * {@code MemorySegment} and over a {@code double[]} in the same JVM. One launch per shape; the script
 * {@code offheap-bench/launch-distribution.sh} runs many launches and prints the distribution of the ratios.
 *
 * <p>Each shape runs {@value #ROUNDS} rounds; a round times the store version, then the flat segment, then
 * {@code double[]} (the order rotates by round), in the thread's CPU time. The printed ratio is the median of the store's last
 * {@value #COUNTED} rounds over the flat segment's; the worst round's ratio is printed beside it.
 * Run: {@code java --enable-native-access=ALL-UNNAMED -cp offheap-bench/target/benchmarks.jar
 * dev.offheap.bench.StoreShapes SHAPE}, SHAPE one of {@link #SHAPES}.
 */
public final class StoreShapes {
    static final String[] SHAPES = {"static", "lambda", "main-loop", "random-then-sequential", "two-types-two-arrays",
            "spill", "memory-and-spill", "set", "kernel", "random-small-then-lambda", "random-small-then-static",
            "random-small-then-lambda-long", "random-small-then-lambda-int", "random-thread-then-lambda",
            "many-arrays-then-lambda", "random-small-then-main-loop", "many-loops-one-method",
            "mixed-loops-one-method", "ops-in-one-method", "ops-after-other-arrays", "transform"};
    static final int ROUNDS = 12;
    static final int COUNTED = 8;
    static final int N = 32 << 20;
    static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE;
    static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;

    private StoreShapes() {}

    public static void main(String[] args) throws IOException {
        String shape = args[0];
        Path spillDir = Files.createTempDirectory("store-shapes");
        try (ChunkPool memory = ChunkPool.create();
             ChunkPool spilled = ChunkPool.builder().name("spilled").memoryLimit(0).spillDirectory(spillDir).build();
             Arena arena = Arena.ofShared()) {
            MemorySegment flat = arena.allocate((long) N * 8, 64);
            double[] heap = new double[N];
            long[][] times = switch (shape) {
                case "static" -> staticShape(memory.doubles(N), flat, heap);
                case "lambda" -> lambdaShape(memory.doubles(N), flat, heap);
                case "main-loop" -> mainLoopShape(memory.doubles(N), flat, heap);
                case "random-then-sequential" -> randomThenSequentialShape(memory.doubles(N), flat, heap);
                case "two-types-two-arrays" -> twoTypesShape(memory, flat, arena, heap);
                case "spill" -> staticShape(spilled.doubles(N), flat, heap);
                case "memory-and-spill" -> memoryAndSpillShape(memory.doubles(N), spilled.doubles(N), flat, arena, heap);
                case "set" -> setShape(memory.doubles(N), flat, heap);
                case "kernel" -> kernelShape(memory.doubles(N), flat, heap);
                case "transform" -> transformShape(memory.doubles(N / 2), memory.doubles(N / 2), flat, heap);
                case "random-small-then-lambda" -> randomSmallThenLambdaShape(memory, flat, arena, heap, false);
                case "random-thread-then-lambda" -> randomSmallThenLambdaShape(memory, flat, arena, heap, true);
                case "random-small-then-static" -> randomSmallThenStaticShape(memory, flat, arena, heap);
                case "random-small-then-main-loop" -> randomSmallThenMainLoopShape(memory, flat, arena, heap);
                case "random-small-then-lambda-long" -> randomSmallThenLambdaLongShape(memory, flat, arena, heap);
                case "random-small-then-lambda-int" -> randomSmallThenLambdaIntShape(memory, flat, arena, heap);
                case "many-arrays-then-lambda" -> manyArraysThenLambdaShape(memory, flat, arena, heap);
                case "mixed-loops-one-method" -> mixedLoopsShape(memory.doubles(N / 32), flat.asSlice(0, N / 4));
                case "many-loops-one-method" -> manyLoopsShape(memory.doubles(N / 8), flat.asSlice(0, N), heap);
                case "ops-in-one-method" -> Workers.callerOnly().call(() -> opsShape(memory, arena, false, spillDir));
                case "ops-after-other-arrays" -> Workers.callerOnly().call(() -> opsShape(memory, arena, true, spillDir));
                default -> throw new IllegalArgumentException("unknown shape " + shape + ", one of "
                        + String.join(", ", SHAPES));
            };
            report(shape, times);
        } finally {
            Files.deleteIfExists(spillDir);
        }
    }

    /** Prints one line: the shape, the ratios and the median times in ms. */
    static void report(String shape, long[][] times) {
        double store = median(times[0]), flat = median(times[1]), heap = median(times[2]);
        double worst = 0;
        for (int r = ROUNDS - COUNTED; r < ROUNDS; r++) {
            worst = Math.max(worst, times[0][r] / (double) times[1][r]);
        }
        System.out.printf("shape=%s ratio=%.3f worst-round=%.3f heap-ratio=%.3f store-ms=%.1f flat-ms=%.1f heap-ms=%.1f"
                        + " first-round=%.3f store-rounds=%s flat-rounds=%s%n", shape, store / flat, worst, heap / flat,
                store / 1e6, flat / 1e6, heap / 1e6, times[0][0] / (double) times[1][0],
                Arrays.toString(Arrays.stream(times[0]).map(t -> t / 1_000_000).toArray()),
                Arrays.toString(Arrays.stream(times[1]).map(t -> t / 1_000_000).toArray()));
    }

    static double median(long[] all) {
        long[] counted = Arrays.copyOfRange(all, ROUNDS - COUNTED, ROUNDS);
        Arrays.sort(counted);
        return (counted[COUNTED / 2 - 1] + counted[COUNTED / 2]) / 2.0;
    }

    static void fill(DoubleArray a, MemorySegment flat, double[] heap) {
        for (long i = 0; i < N; i++) {
            a.set(i, i & 1023);
            flat.setAtIndex(D, i, i & 1023);
            heap[(int) i] = i & 1023;
        }
    }

    static volatile double sink;

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * The calling thread's CPU time in ns: on a busy machine the time the thread waited for a core is not
     * counted against the code that happened to be running.
     */
    static long now() {
        return THREADS.getCurrentThreadCpuTime();
    }

    // --- static methods

    static double sum(DoubleArray a) {
        double s = 0;
        for (long i = 0, n = a.length(); i < n; i++) {
            s += a.get(i);
        }
        return s;
    }

    static double sum(MemorySegment m) {
        double s = 0;
        for (long i = 0, n = m.byteSize() >>> 3; i < n; i++) {
            s += m.getAtIndex(D, i);
        }
        return s;
    }

    static double sum(double[] h) {
        double s = 0;
        for (int i = 0; i < h.length; i++) {
            s += h[i];
        }
        return s;
    }

    static long[][] staticShape(DoubleArray a, MemorySegment flat, double[] heap) {
        fill(a, flat, heap);
        long[][] t = new long[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int k = 0; k < 3; k++) {
                int which = (r + k) % 3;
                long t0 = now();
                sink += which == 0 ? sum(a) : which == 1 ? sum(flat) : sum(heap);
                t[which][r] = now() - t0;
            }
        }
        return t;
    }

    static long[][] randomThenSequentialShape(DoubleArray a, MemorySegment flat, double[] heap) {
        Random random = new Random(42);
        for (int k = 0; k < 4_000_000; k++) {
            long i = random.nextInt(N), j = random.nextInt(N);
            a.set(i, a.get(j) + 1);
            flat.setAtIndex(D, i, flat.getAtIndex(D, j) + 1);
            heap[(int) i] = heap[(int) j] + 1;
        }
        return staticShape(a, flat, heap);
    }

    // --- lambdas

    static long[][] lambdaShape(DoubleArray a, MemorySegment flat, double[] heap) {
        fill(a, flat, heap);
        ToDoubleFunction<DoubleArray> store = x -> {
            double s = 0;
            for (long i = 0, n = x.length(); i < n; i++) {
                s += x.get(i);
            }
            return s;
        };
        ToDoubleFunction<MemorySegment> segment = m -> {
            double s = 0;
            for (long i = 0, n = m.byteSize() >>> 3; i < n; i++) {
                s += m.getAtIndex(D, i);
            }
            return s;
        };
        ToDoubleFunction<double[]> array = h -> {
            double s = 0;
            for (int i = 0; i < h.length; i++) {
                s += h[i];
            }
            return s;
        };
        long[][] t = new long[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int k = 0; k < 3; k++) {
                int which = (r + k) % 3;
                long t0 = now();
                sink += which == 0 ? store.applyAsDouble(a) : which == 1 ? segment.applyAsDouble(flat)
                        : array.applyAsDouble(heap);
                t[which][r] = now() - t0;
            }
        }
        return t;
    }

    // --- loops written in the caller (on-stack replacement)

    static long[][] mainLoopShape(DoubleArray a, MemorySegment flat, double[] heap) {
        fill(a, flat, heap);
        long[][] t = new long[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = now();
            double s = 0;
            for (long i = 0, n = a.length(); i < n; i++) {
                s += a.get(i);
            }
            long t1 = now();
            for (long i = 0, n = flat.byteSize() >>> 3; i < n; i++) {
                s += flat.getAtIndex(D, i);
            }
            long t2 = now();
            for (int i = 0; i < heap.length; i++) {
                s += heap[i];
            }
            long t3 = now();
            sink += s;
            t[0][r] = t1 - t0;
            t[1][r] = t2 - t1;
            t[2][r] = t3 - t2;
        }
        return t;
    }

    // --- two element types, two arrays of each kind, one summing method per type

    static double sum(LongArray a) {
        long s = 0;
        for (long i = 0, n = a.length(); i < n; i++) {
            s += a.get(i);
        }
        return s;
    }

    static double sumLongs(MemorySegment m) {
        long s = 0;
        for (long i = 0, n = m.byteSize() >>> 3; i < n; i++) {
            s += m.getAtIndex(L, i);
        }
        return s;
    }

    static long[][] twoTypesShape(ChunkPool pool, MemorySegment flat, Arena arena, double[] heap) {
        DoubleArray a = pool.doubles(N), b = pool.doubles(N / 4);
        LongArray c = pool.longs(N), d = pool.longs(N / 4);
        MemorySegment flatB = arena.allocate((long) N / 4 * 8, 64);
        MemorySegment flatC = arena.allocate((long) N * 8, 64), flatD = arena.allocate((long) N / 4 * 8, 64);
        fill(a, flat, heap);
        long[][] t = new long[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            sink += sum(b) + sum(flatB) + sum(d) + sumLongs(flatD);
            long t0 = now();
            sink += sum(a) + sum(c);
            long t1 = now();
            sink += sum(flat) + sumLongs(flatC);
            long t2 = now();
            sink += sum(heap);
            long t3 = now();
            t[0][r] = t1 - t0;
            t[1][r] = t2 - t1;
            t[2][r] = 2 * (t3 - t2);
        }
        return t;
    }

    // --- one summing method over a memory array and a spilled one

    static long[][] memoryAndSpillShape(DoubleArray a, DoubleArray spilled, MemorySegment flat, Arena arena,
                                        double[] heap) {
        MemorySegment flat2 = arena.allocate((long) N * 8, 64);
        fill(a, flat, heap);
        fill(spilled, flat2, heap);
        long[][] t = new long[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = now();
            sink += sum(a) + sum(spilled);
            long t1 = now();
            sink += sum(flat) + sum(flat2);
            long t2 = now();
            sink += sum(heap) + sum(heap);
            long t3 = now();
            t[0][r] = t1 - t0;
            t[1][r] = t2 - t1;
            t[2][r] = t3 - t2;
        }
        return t;
    }

    // --- set

    static void write(DoubleArray a, double base) {
        for (long i = 0, n = a.length(); i < n; i++) {
            a.set(i, base + i);
        }
    }

    static void write(MemorySegment m, double base) {
        for (long i = 0, n = m.byteSize() >>> 3; i < n; i++) {
            m.setAtIndex(D, i, base + i);
        }
    }

    static void write(double[] h, double base) {
        for (int i = 0; i < h.length; i++) {
            h[i] = base + i;
        }
    }

    static long[][] setShape(DoubleArray a, MemorySegment flat, double[] heap) {
        long[][] t = new long[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int k = 0; k < 3; k++) {
                int which = (r + k) % 3;
                long t0 = now();
                if (which == 0) {
                    write(a, r);
                } else if (which == 1) {
                    write(flat, r);
                } else {
                    write(heap, r);
                }
                t[which][r] = now() - t0;
            }
        }
        sink += a.get(N - 1) + flat.getAtIndex(D, N - 1) + heap[N - 1];
        return t;
    }

    // --- transform: one array read, another written, element by element (b[i] = a[i] * 2 + 1)

    static void transform(DoubleArray a, DoubleArray b) {
        for (long i = 0, n = a.length(); i < n; i++) {
            b.set(i, a.get(i) * 2 + 1);
        }
    }

    static void transform(MemorySegment a, MemorySegment b) {
        for (long i = 0, n = a.byteSize() >>> 3; i < n; i++) {
            b.setAtIndex(D, i, a.getAtIndex(D, i) * 2 + 1);
        }
    }

    static void transform(double[] a, double[] b) {
        for (int i = 0; i < a.length; i++) {
            b[i] = a[i] * 2 + 1;
        }
    }

    static long[][] transformShape(DoubleArray a, DoubleArray b, MemorySegment flat, double[] heap) {
        MemorySegment fa = flat.asSlice(0, (long) N / 2 * 8), fb = flat.asSlice((long) N / 2 * 8);
        double[] ha = Arrays.copyOf(heap, N / 2), hb = new double[N / 2];
        for (long i = 0; i < N / 2; i++) {
            a.set(i, i & 1023);
            fa.setAtIndex(D, i, i & 1023);
        }
        long[][] t = new long[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int k = 0; k < 3; k++) {
                int which = (r + k) % 3;
                long t0 = now();
                if (which == 0) {
                    transform(a, b);
                } else if (which == 1) {
                    transform(fa, fb);
                } else {
                    transform(ha, hb);
                }
                t[which][r] = now() - t0;
            }
        }
        sink += b.get(N / 2 - 1) + fb.getAtIndex(D, N / 2 - 1) + hb[N / 2 - 1];
        return t;
    }

    // --- a forEachChunk kernel: the same lambda body over the array's pieces and over the flat segment

    static long[][] kernelShape(DoubleArray a, MemorySegment flat, double[] heap) {
        long[][] t = new long[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            double base = r;
            for (int k = 0; k < 3; k++) {
                int which = (r + k) % 3;
                long t0 = now();
                if (which == 0) {
                    a.forEachChunk((segment, first) -> {
                        for (long i = 0, n = segment.byteSize() >>> 3; i < n; i++) {
                            segment.setAtIndex(D, i, base + first + i);
                        }
                    });
                } else if (which == 1) {
                    ChunkKernel same = (segment, first) -> {
                        for (long i = 0, n = segment.byteSize() >>> 3; i < n; i++) {
                            segment.setAtIndex(D, i, base + first + i);
                        }
                    };
                    same.apply(flat, 0);
                } else {
                    for (int i = 0; i < heap.length; i++) {
                        heap[i] = base + i;
                    }
                }
                t[which][r] = now() - t0;
            }
        }
        sink += a.get(N - 1) + flat.getAtIndex(D, N - 1) + heap[N - 1];
        return t;
    }

    // --- issue 30: an accessor that first saw other arrays (random get/set over a small array, the first thing the
    // program does, in the program's own loop), then a second, large array summed sequentially. The flat segment
    // goes through the same: a random phase over a small segment of the same size, the same loop, the same sum.

    static final int SMALL = 3_000_000;
    static final int RANDOM_STEPS = 4_000_000;

    /** Random get/set over {@code a} and the same over {@code flatSmall}, in the caller's loop (interpreter, then OSR). */
    static void randomPhase(DoubleArray a, MemorySegment flatSmall) {
        Random random = new Random(42);
        int n = (int) a.length();
        for (int k = 0; k < RANDOM_STEPS; k++) {
            long i = random.nextInt(n), j = random.nextInt(n);
            a.set(i, a.get(j) + 1);
        }
        for (int k = 0; k < RANDOM_STEPS; k++) {
            long i = random.nextInt(n), j = random.nextInt(n);
            flatSmall.setAtIndex(D, i, flatSmall.getAtIndex(D, j) + 1);
        }
    }

    static long[][] lambdaRounds(DoubleArray a, MemorySegment flat, double[] heap) {
        ToDoubleFunction<DoubleArray> store = x -> {
            double s = 0;
            for (long i = 0, n = x.length(); i < n; i++) {
                s += x.get(i);
            }
            return s;
        };
        ToDoubleFunction<MemorySegment> segment = m -> {
            double s = 0;
            for (long i = 0, n = m.byteSize() >>> 3; i < n; i++) {
                s += m.getAtIndex(D, i);
            }
            return s;
        };
        ToDoubleFunction<double[]> array = h -> {
            double s = 0;
            for (int i = 0; i < h.length; i++) {
                s += h[i];
            }
            return s;
        };
        long[][] t = new long[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int k = 0; k < 3; k++) {
                int which = (r + k) % 3;
                long t0 = now();
                sink += which == 0 ? store.applyAsDouble(a) : which == 1 ? segment.applyAsDouble(flat)
                        : array.applyAsDouble(heap);
                t[which][r] = now() - t0;
            }
        }
        return t;
    }

    /** The program; with {@code otherThread} the random phase runs in another thread, joined first. */
    static long[][] randomSmallThenLambdaShape(ChunkPool pool, MemorySegment flat, Arena arena, double[] heap,
                                               boolean otherThread) {
        DoubleArray small = pool.doubles(SMALL);
        MemorySegment flatSmall = arena.allocate((long) SMALL * 8, 64);
        if (otherThread) {
            Thread thread = new Thread(() -> randomPhase(small, flatSmall), "random");
            thread.start();
            try {
                thread.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        } else {
            randomPhase(small, flatSmall);
        }
        DoubleArray a = pool.doubles(N);
        fill(a, flat, heap);
        return lambdaRounds(a, flat, heap);
    }

    static long[][] randomSmallThenStaticShape(ChunkPool pool, MemorySegment flat, Arena arena, double[] heap) {
        randomPhase(pool.doubles(SMALL), arena.allocate((long) SMALL * 8, 64));
        return staticShape(pool.doubles(N), flat, heap);
    }

    static long[][] randomSmallThenMainLoopShape(ChunkPool pool, MemorySegment flat, Arena arena, double[] heap) {
        randomPhase(pool.doubles(SMALL), arena.allocate((long) SMALL * 8, 64));
        return mainLoopShape(pool.doubles(N), flat, heap);
    }

    /** Many arrays of other sizes (a few elements to a few chunks), each read and written, before the large one. */
    static long[][] manyArraysThenLambdaShape(ChunkPool pool, MemorySegment flat, Arena arena, double[] heap) {
        Random random = new Random(7);
        for (int k = 0; k < 2000; k++) {
            int n = 1 + random.nextInt(k % 10 == 0 ? 1 << 20 : 1 << 10);
            DoubleArray x = pool.doubles(n);
            MemorySegment y = arena.allocate((long) n * 8, 64);
            for (int j = 0; j < 2000; j++) {
                int i = random.nextInt(n);
                x.set(i, x.get(i) + j);
                y.setAtIndex(D, i, y.getAtIndex(D, i) + j);
            }
            x.release();
        }
        DoubleArray a = pool.doubles(N);
        fill(a, flat, heap);
        return lambdaRounds(a, flat, heap);
    }

    static long[][] randomSmallThenLambdaLongShape(ChunkPool pool, MemorySegment flat, Arena arena, double[] heap) {
        LongArray small = pool.longs(SMALL);
        MemorySegment flatSmall = arena.allocate((long) SMALL * 8, 64);
        Random random = new Random(42);
        for (int k = 0; k < RANDOM_STEPS; k++) {
            long i = random.nextInt(SMALL), j = random.nextInt(SMALL);
            small.set(i, small.get(j) + 1);
        }
        for (int k = 0; k < RANDOM_STEPS; k++) {
            long i = random.nextInt(SMALL), j = random.nextInt(SMALL);
            flatSmall.setAtIndex(L, i, flatSmall.getAtIndex(L, j) + 1);
        }
        LongArray a = pool.longs(N);
        long[] longs = new long[N];
        for (long i = 0; i < N; i++) {
            a.set(i, i & 1023);
            flat.setAtIndex(L, i, i & 1023);
            longs[(int) i] = i & 1023;
        }
        ToLongFunction<LongArray> store = x -> {
            long s = 0;
            for (long i = 0, n = x.length(); i < n; i++) {
                s += x.get(i);
            }
            return s;
        };
        ToLongFunction<MemorySegment> segment = m -> {
            long s = 0;
            for (long i = 0, n = m.byteSize() >>> 3; i < n; i++) {
                s += m.getAtIndex(L, i);
            }
            return s;
        };
        ToLongFunction<long[]> array = h -> {
            long s = 0;
            for (int i = 0; i < h.length; i++) {
                s += h[i];
            }
            return s;
        };
        // ROUNDS untimed rounds first: these sums vectorize, and C2 reaches its vectorized loop only after the
        // profile_predicate traps of the first rounds (about round 10, for the store and the flat segment alike)
        long[][] t = new long[3][ROUNDS];
        for (int r = -ROUNDS; r < ROUNDS; r++) {
            for (int k = 0; k < 3; k++) {
                int which = (r + ROUNDS + k) % 3;
                long t0 = now();
                sink += which == 0 ? store.applyAsLong(a) : which == 1 ? segment.applyAsLong(flat)
                        : array.applyAsLong(longs);
                if (r >= 0) {
                    t[which][r] = now() - t0;
                }
            }
        }
        return t;
    }

    static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;

    static long[][] randomSmallThenLambdaIntShape(ChunkPool pool, MemorySegment flat, Arena arena, double[] heap) {
        int n2 = 2 * N; // the same bytes as the double shapes
        IntArray small = pool.ints(SMALL);
        MemorySegment flatSmall = arena.allocate((long) SMALL * 4, 64);
        Random random = new Random(42);
        for (int k = 0; k < RANDOM_STEPS; k++) {
            long i = random.nextInt(SMALL), j = random.nextInt(SMALL);
            small.set(i, small.get(j) + 1);
        }
        for (int k = 0; k < RANDOM_STEPS; k++) {
            long i = random.nextInt(SMALL), j = random.nextInt(SMALL);
            flatSmall.setAtIndex(I, i, flatSmall.getAtIndex(I, j) + 1);
        }
        IntArray a = pool.ints(n2);
        int[] ints = new int[n2];
        for (long i = 0; i < n2; i++) {
            a.set(i, (int) (i & 1023));
            flat.setAtIndex(I, i, (int) (i & 1023));
            ints[(int) i] = (int) (i & 1023);
        }
        ToLongFunction<IntArray> store = x -> {
            long s = 0;
            for (long i = 0, n = x.length(); i < n; i++) {
                s += x.get(i);
            }
            return s;
        };
        ToLongFunction<MemorySegment> segment = m -> {
            long s = 0;
            for (long i = 0, n = m.byteSize() >>> 2; i < n; i++) {
                s += m.getAtIndex(I, i);
            }
            return s;
        };
        ToLongFunction<int[]> array = h -> {
            long s = 0;
            for (int i = 0; i < h.length; i++) {
                s += h[i];
            }
            return s;
        };
        // ROUNDS untimed rounds first: these sums vectorize, and C2 reaches its vectorized loop only after the
        // profile_predicate traps of the first rounds (about round 10, for the store and the flat segment alike)
        long[][] t = new long[3][ROUNDS];
        for (int r = -ROUNDS; r < ROUNDS; r++) {
            for (int k = 0; k < 3; k++) {
                int which = (r + ROUNDS + k) % 3;
                long t0 = now();
                sink += which == 0 ? store.applyAsLong(a) : which == 1 ? segment.applyAsLong(flat)
                        : array.applyAsLong(ints);
                if (r >= 0) {
                    t[which][r] = now() - t0;
                }
            }
        }
        return t;
    }

    // --- many loops in one method: C2 stops inlining ordinary methods once the method's graph passes
    // NodeCountInliningCutoff (18000 live nodes); the JDK's @ForceInline segment accessors are only delayed, not
    // refused. The same eight loops over the store and over the flat segment, each in a method of its own.

    static double storeLoops(DoubleArray a, long[] idx) {
        long n = a.length();
        double s = 0;
        for (long i = 0; i < n; i++) {
            a.set(i, a.get(i) * 0.5 + 1);
        }
        for (int k = 0; k < idx.length; k++) {
            s += a.get(idx[k]);
        }
        for (int k = 0; k < idx.length; k++) {
            a.set(idx[k], k);
        }
        for (long i = 1; i < n; i++) {
            a.set(i, a.get(i - 1) + a.get(i));
        }
        for (long i = 0; i < n; i++) {
            s += a.get(i);
        }
        for (long i = 0; i < n; i++) {
            s += a.get(i) * a.get(n - 1 - i);
        }
        for (long i = 0; i < n; i++) {
            a.set(i, s + i);
        }
        for (long i = 0; i < n; i++) {
            s += a.get(i);
        }
        return s;
    }

    static double flatLoops(MemorySegment f, long[] idx) {
        long n = f.byteSize() >>> 3;
        double s = 0;
        for (long i = 0; i < n; i++) {
            f.setAtIndex(D, i, f.getAtIndex(D, i) * 0.5 + 1);
        }
        for (int k = 0; k < idx.length; k++) {
            s += f.getAtIndex(D, idx[k]);
        }
        for (int k = 0; k < idx.length; k++) {
            f.setAtIndex(D, idx[k], k);
        }
        for (long i = 1; i < n; i++) {
            f.setAtIndex(D, i, f.getAtIndex(D, i - 1) + f.getAtIndex(D, i));
        }
        for (long i = 0; i < n; i++) {
            s += f.getAtIndex(D, i);
        }
        for (long i = 0; i < n; i++) {
            s += f.getAtIndex(D, i) * f.getAtIndex(D, n - 1 - i);
        }
        for (long i = 0; i < n; i++) {
            f.setAtIndex(D, i, s + i);
        }
        for (long i = 0; i < n; i++) {
            s += f.getAtIndex(D, i);
        }
        return s;
    }

    static double heapLoops(double[] h, long[] idx, int n) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            h[i] = h[i] * 0.5 + 1;
        }
        for (int k = 0; k < idx.length; k++) {
            s += h[(int) idx[k]];
        }
        for (int k = 0; k < idx.length; k++) {
            h[(int) idx[k]] = k;
        }
        for (int i = 1; i < n; i++) {
            h[i] = h[i - 1] + h[i];
        }
        for (int i = 0; i < n; i++) {
            s += h[i];
        }
        for (int i = 0; i < n; i++) {
            s += h[i] * h[n - 1 - i];
        }
        for (int i = 0; i < n; i++) {
            h[i] = s + i;
        }
        for (int i = 0; i < n; i++) {
            s += h[i];
        }
        return s;
    }

    static long[][] manyLoopsShape(DoubleArray a, MemorySegment flat, double[] heap) {
        int n = (int) a.length();
        Random random = new Random(42);
        long[] idx = new long[n / 4];
        for (int k = 0; k < idx.length; k++) {
            idx[k] = random.nextInt(n);
        }
        long[][] t = new long[3][ROUNDS];
        for (int r = -ROUNDS; r < ROUNDS; r++) {
            for (int k = 0; k < 3; k++) {
                int which = (r + ROUNDS + k) % 3;
                long t0 = now();
                sink += which == 0 ? storeLoops(a, idx) : which == 1 ? flatLoops(flat, idx) : heapLoops(heap, idx, n);
                if (r >= 0) {
                    t[which][r] = now() - t0;
                }
            }
        }
        return t;
    }

    // --- one method with a loop over the flat segment, then the same loop over the store, six times: once the
    // method's graph passes NodeCountInliningCutoff, C2 refuses to inline get and set (a call per element) and
    // only delays the JDK's @ForceInline accessors. Each loop timed inside the method; no double[] here (its
    // column repeats the flat segment's).

    static double mixedLoops(DoubleArray a, MemorySegment f, long[] idx, long[] times) {
        long n = a.length();
        long t0;
        double s = 0;
        t0 = now();
        for (long i = 0; i < n; i++) {
            f.setAtIndex(D, i, f.getAtIndex(D, i) * 0.5 + 1);
        }
        times[1] += now() - t0;
        t0 = now();
        for (long i = 0; i < n; i++) {
            a.set(i, a.get(i) * 0.5 + 1);
        }
        times[0] += now() - t0;
        t0 = now();
        for (int k = 0; k < idx.length; k++) {
            s += f.getAtIndex(D, idx[k]);
        }
        times[1] += now() - t0;
        t0 = now();
        for (int k = 0; k < idx.length; k++) {
            s += a.get(idx[k]);
        }
        times[0] += now() - t0;
        t0 = now();
        for (int k = 0; k < idx.length; k++) {
            f.setAtIndex(D, idx[k], k);
        }
        times[1] += now() - t0;
        t0 = now();
        for (int k = 0; k < idx.length; k++) {
            a.set(idx[k], k);
        }
        times[0] += now() - t0;
        t0 = now();
        for (long i = 1; i < n; i++) {
            f.setAtIndex(D, i, f.getAtIndex(D, i - 1) + f.getAtIndex(D, i));
        }
        times[1] += now() - t0;
        t0 = now();
        for (long i = 1; i < n; i++) {
            a.set(i, a.get(i - 1) + a.get(i));
        }
        times[0] += now() - t0;
        t0 = now();
        for (long i = 0; i < n; i++) {
            s += f.getAtIndex(D, i);
        }
        times[1] += now() - t0;
        t0 = now();
        for (long i = 0; i < n; i++) {
            s += a.get(i);
        }
        times[0] += now() - t0;
        t0 = now();
        for (long i = 0; i < n; i++) {
            s += f.getAtIndex(D, i) * f.getAtIndex(D, n - 1 - i);
        }
        times[1] += now() - t0;
        t0 = now();
        for (long i = 0; i < n; i++) {
            s += a.get(i) * a.get(n - 1 - i);
        }
        times[0] += now() - t0;
        return s;
    }

    static long[][] mixedLoopsShape(DoubleArray a, MemorySegment flat) {
        int n = (int) a.length();
        Random random = new Random(42);
        long[] idx = new long[n / 4];
        for (int k = 0; k < idx.length; k++) {
            idx[k] = random.nextInt(n);
        }
        long[][] t = new long[3][ROUNDS];
        for (int r = -2 * ROUNDS; r < ROUNDS; r++) {
            long[] times = new long[2];
            sink += mixedLoops(a, flat, idx, times);
            if (r >= 0) {
                t[0][r] = times[0];
                t[1][r] = times[1];
                t[2][r] = times[1];
            }
        }
        return t;
    }

    // --- issue 30: the whole-array operations in the shapes that defeat hand-written get loops: many loops in one
    // big method (past C2's NodeCountInliningCutoff), and operations whose shared loops first saw other arrays (a
    // mapped file, a spilled array) and other functions. One thread (Workers.callerOnly()), against the loop a
    // user writes by hand over a flat segment, in the same big method.

    static long[][] opsShape(ChunkPool memory, Arena arena, boolean pollute, Path dir) throws IOException {
        int n = N / 8;
        DoubleArray a = memory.doubles(n), b = memory.doubles(n);
        MemorySegment fa = arena.allocate((long) n * 8, 64), fb = arena.allocate((long) n * 8, 64);
        for (long i = 0; i < n; i++) {
            a.set(i, i & 1023);
            b.set(i, 1);
            fa.setAtIndex(D, i, i & 1023);
            fb.setAtIndex(D, i, 1);
        }
        if (pollute) {
            Path file = dir.resolve("pollute.npy");
            try (ChunkPool spilled = ChunkPool.builder().name("pollute").memoryLimit(0).spillDirectory(dir).build();
                 DoubleArray s = spilled.doubles(1 << 20);
                 MappedArray mapped = MappedArray.create(file, ElementType.DOUBLE, 1 << 20);
                 DoubleArray m = mapped.doubles();
                 FloatArray f = memory.floats(1 << 20)) {
                for (int round = 0; round < 200; round++) {
                    for (DoubleArray x : new DoubleArray[] {s, m}) {
                        x.apply(x, v -> v + 1);
                        x.apply(x, Math::sqrt);
                        x.apply(x, x, Math::max);
                        x.mix(0.5, x, 0.25, x);
                        sink += x.sum() + x.dot(x);
                        x.prefixSum();
                    }
                    f.apply(f, v -> v * 2);
                    sink += f.sum();
                }
            } finally {
                Files.deleteIfExists(file);
            }
        }
        long[][] t = new long[3][ROUNDS];
        for (int r = -ROUNDS; r < ROUNDS; r++) {
            long[] times = new long[2];
            sink += opsInOneMethod(a, b, fa, fb, times);
            if (r >= 0) {
                t[0][r] = times[0];
                t[1][r] = times[1];
                t[2][r] = times[1];
            }
        }
        return t;
    }

    /** The store's operations and the same work by hand over flat segments, in one method of many loops. */
    static double opsInOneMethod(DoubleArray a, DoubleArray b, MemorySegment fa, MemorySegment fb, long[] times) {
        long n = fa.byteSize() >>> 3;
        double s = 0;
        long t0 = now();
        a.apply(a, v -> v * 0.5 + 1);
        a.mix(0.5, a, 0.25, b);
        s += a.sum();
        s += a.dot(b);
        a.scale(0.5);
        times[0] += now() - t0;
        t0 = now();
        for (long i = 0; i < n; i++) {
            fa.setAtIndex(D, i, fa.getAtIndex(D, i) * 0.5 + 1);
        }
        for (long i = 0; i < n; i++) {
            fa.setAtIndex(D, i, 0.5 * fa.getAtIndex(D, i) + 0.25 * fb.getAtIndex(D, i));
        }
        double l0 = 0, l1 = 0, l2 = 0, l3 = 0;
        for (long i = 0; i + 3 < n; i += 4) { // four lanes: a flat loop at least as fast as one running sum
            l0 += fa.getAtIndex(D, i);
            l1 += fa.getAtIndex(D, i + 1);
            l2 += fa.getAtIndex(D, i + 2);
            l3 += fa.getAtIndex(D, i + 3);
        }
        s += (l0 + l1) + (l2 + l3);
        l0 = 0;
        l1 = 0;
        l2 = 0;
        l3 = 0;
        for (long i = 0; i + 3 < n; i += 4) {
            l0 += fa.getAtIndex(D, i) * fb.getAtIndex(D, i);
            l1 += fa.getAtIndex(D, i + 1) * fb.getAtIndex(D, i + 1);
            l2 += fa.getAtIndex(D, i + 2) * fb.getAtIndex(D, i + 2);
            l3 += fa.getAtIndex(D, i + 3) * fb.getAtIndex(D, i + 3);
        }
        s += (l0 + l1) + (l2 + l3);
        for (long i = 0; i < n; i++) {
            fa.setAtIndex(D, i, fa.getAtIndex(D, i) * 0.5);
        }
        times[1] += now() - t0;
        return s;
    }
}
