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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link DoubleArray}'s whole-array operations against plain Java loops over a {@code double[]}, on random data,
 * at lengths around pieces and 64 KiB chunks, on every layout and on three kinds of workers.
 */
class DoubleOperationsTest {
    private static final long CHUNK = OperationCases.CHUNK;
    private static final long PIECE = Pieces.PIECE_BYTES / Double.BYTES;
    @TempDir
    static Path spill;

    static Stream<Arguments> cases() {
        return OperationCases.of(Double.BYTES);
    }

    private static double[] random(SplittableRandom random, int n, boolean special) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextInt(4) == 0 ? random.nextInt(-5, 5) : random.nextDouble(-1e6, 1e6);
        }
        if (special && n > 3) {
            double[] odd = {-0.0, 0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                    Double.longBitsToDouble(0xfff0_0000_0000_0001L), Double.MIN_VALUE, -Double.MAX_VALUE};
            for (int i = 0; i < 16; i++) {
                values[random.nextInt(n)] = odd[random.nextInt(odd.length)];
            }
        }
        return values;
    }

    private static DoubleArray of(ChunkPool pool, double[] values) {
        DoubleArray array = pool.doubles(values.length);
        array.copyFrom(values, 0, 0, values.length);
        return array;
    }

    /** The sum in the documented order: eight running sums per piece, added pairwise, pieces in index order. */
    private static double referenceSum(double[] a, double[] b) {
        double total = 0;
        for (int from = 0; from < a.length; from += (int) PIECE) {
            double[] lanes = new double[8];
            int to = (int) Math.min(a.length, from + PIECE);
            for (int i = from; i < to; i++) {
                lanes[(i - from) % 8] += b == null ? a[i] : a[i] * b[i];
            }
            total += ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
        }
        return total;
    }

    @ParameterizedTest(name = "{0}, length {1}")
    @MethodSource("cases")
    void reductionsMatchPlainLoops(Layout layout, long length, int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] a = random(random, (int) length, false);
        double[] b = random(random, (int) length, false);
        try (ChunkPool pool = layout.builder("ops", CHUNK, 8, spill).build();
             DoubleArray x = of(pool, a);
             DoubleArray y = of(pool, b)) {
            OperationCases.workers(seed).run(() -> {
                assertThat(x.sum()).isEqualTo(referenceSum(a, null));
                assertThat(x.dot(y)).isEqualTo(referenceSum(a, b));
                if (length == 0) {
                    assertThatThrownBy(x::min).isInstanceOf(NoSuchElementException.class).hasMessageContaining("empty");
                } else {
                    assertThat(x.min()).isEqualTo(Arrays.stream(a).min().orElseThrow());
                    assertThat(x.max()).isEqualTo(Arrays.stream(a).max().orElseThrow());
                }
            });
            assertThat(Workers.callerOnly().call(x::sum)).as("the same on any workers").isEqualTo(x.sum());
        }
    }

    @ParameterizedTest(name = "{0}, length {1}")
    @MethodSource("cases")
    void elementWiseOperationsMatchPlainLoops(Layout layout, long length, int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = (int) length;
        double[] a = random(random, n, true);
        double[] b = random(random, n, true);
        try (ChunkPool pool = layout.builder("ops", CHUNK, 16, spill).build();
             DoubleArray x = of(pool, a);
             DoubleArray y = of(pool, b);
             DoubleArray out = pool.doubles(length)) {
            OperationCases.workers(seed).run(() -> {
                out.mix(0.25, x, -1.5, y);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> 0.25 * a[i] + -1.5 * b[i]));
                out.add(x);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> 0.25 * a[i] + -1.5 * b[i] + a[i]));
                out.apply(x, y, Math::atan2);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> Math.atan2(a[i], b[i])));
                out.apply(out, v -> v * 3 - 1);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> Math.atan2(a[i], b[i]) * 3 - 1));
                out.scale(-2);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> (Math.atan2(a[i], b[i]) * 3 - 1) * -2));
                x.clamp(-0.0, 10);
                assertThat(x.toArray(0, length)).isEqualTo(each(n, i -> Math.max(-0.0, Math.min(10, a[i]))));
                y.fill(0.5);
                assertThat(y.toArray(0, length)).isEqualTo(each(n, i -> 0.5));
                if (n > 2) {
                    y.fill(1, n - 1, -3);
                    assertThat(y.get(0)).isEqualTo(0.5);
                    assertThat(y.get(n - 1)).isEqualTo(0.5);
                    assertThat(y.toArray(1, n - 1)).containsOnly(-3.0);
                }
            });
        }
    }

    @ParameterizedTest(name = "{0}, length {1}")
    @MethodSource("cases")
    void prefixSumAddsEachPieceToThePiecesBefore(Layout layout, long length, int seed) {
        double[] a = random(new SplittableRandom(seed), (int) length, false);
        try (ChunkPool pool = layout.builder("ops", CHUNK, 8, spill).build(); DoubleArray x = of(pool, a)) {
            OperationCases.workers(seed).run(x::prefixSum);
            double[] expected = new double[a.length];
            double before = 0;
            for (int from = 0; from < a.length; from += (int) PIECE) {
                int to = (int) Math.min(a.length, from + PIECE);
                double running = (double) before;
                for (int i = from; i < to; i++) {
                    running += a[i];
                    expected[i] = running;
                }
                before += referenceSum(Arrays.copyOfRange(a, from, to), null); // the piece, as sum() adds it
            }
            assertThat(x.toArray(0, length)).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0}, length {1}")
    @MethodSource("cases")
    void sortsAsArraysSortAndSearchesAsArraysBinarySearch(Layout layout, long length, int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] a = random(random, (int) length, true);
        if (seed % 2 == 0) {
            for (int i = 0; i < a.length; i++) {
                a[i] = random.nextInt(3) - 1.0; // many equal keys
            }
        }
        try (ChunkPool pool = layout.builder("ops", CHUNK, 8, spill).build(); DoubleArray x = of(pool, a)) {
            OperationCases.workers(seed).run(x::sort);
            Arrays.sort(a);
            double[] sorted = x.toArray(0, length);
            for (int i = 0; i < a.length; i++) { // bit for bit, NaNs aside (their bits are kept but unordered)
                if (!Double.isNaN(a[i])) {
                    assertThat(Double.doubleToRawLongBits(sorted[i])).as("element %d", i)
                            .isEqualTo(Double.doubleToRawLongBits(a[i]));
                } else {
                    assertThat(sorted[i]).isNaN();
                }
            }
            for (double key : new double[] {-0.0, 0.0, 1.0, Double.NaN, Double.NEGATIVE_INFINITY, 123.5, -1e9}) {
                long found = x.binarySearch(key);
                int expected = Arrays.binarySearch(a, key);
                if (expected >= 0) {
                    assertThat(found).isNotNegative();
                    assertThat(Double.compare(x.get(found), key)).isZero();
                } else {
                    assertThat(found).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void lengthsMustMatchAndDeadArraysRefuse() {
        try (ChunkPool pool = ChunkPool.builder().name("ops").jmx(false).build();
             DoubleArray x = pool.doubles(10);
             DoubleArray y = pool.doubles(11)) {
            assertThatThrownBy(() -> x.mix(1, x, 1, y)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("lengths differ");
            assertThatThrownBy(() -> x.dot(y)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> x.clamp(2, 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> x.clamp(Double.NaN, 1)).isInstanceOf(IllegalArgumentException.class);
            DoubleArray dead = pool.doubles(10);
            dead.close();
            assertThatThrownBy(dead::sum).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
            assertThatThrownBy(() -> x.add(dead)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released");
            assertThatThrownBy(dead::sort).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aFailingFunctionStopsTheOperationAndIsThrown() {
        try (ChunkPool pool = ChunkPool.builder().name("ops").jmx(false).build(); DoubleArray x = pool.doubles(1 << 20)) {
            assertThatThrownBy(() -> x.apply(x, v -> {
                throw new ArithmeticException("no");
            })).isInstanceOf(ArithmeticException.class).hasMessage("no");
            assertThat(x.sum()).as("the array is still usable").isZero();
        }
    }

    private static double[] each(int n, java.util.function.IntToDoubleFunction f) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = f.applyAsDouble(i);
        }
        return values;
    }
}
