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
 * {@link FloatArray}'s whole-array operations against plain Java loops over a {@code float[]}, on random data,
 * at lengths around pieces and 64 KiB chunks, on every layout and on three kinds of workers.
 */
class FloatOperationsTest {
    private static final long CHUNK = OperationCases.CHUNK;
    private static final long PIECE = Pieces.PIECE_BYTES / Float.BYTES;
    @TempDir
    static Path spill;

    static Stream<Arguments> cases() {
        return OperationCases.of(Float.BYTES);
    }

    private static float[] random(SplittableRandom random, int n, boolean special) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextInt(4) == 0 ? random.nextInt(-5, 5) : (float) random.nextDouble(-1e6, 1e6);
        }
        if (special && n > 3) {
            float[] odd = {-0.0f, 0.0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                    Float.intBitsToFloat(0xff80_0001), Float.MIN_VALUE, -Float.MAX_VALUE};
            for (int i = 0; i < 16; i++) {
                values[random.nextInt(n)] = odd[random.nextInt(odd.length)];
            }
        }
        return values;
    }

    private static FloatArray of(ChunkPool pool, float[] values) {
        FloatArray array = pool.floats(values.length);
        array.copyFrom(values, 0, 0, values.length);
        return array;
    }

    /** The sum in the documented order: eight running sums per piece, added pairwise, pieces in index order. */
    private static double referenceSum(float[] a, float[] b) {
        double total = 0;
        for (int from = 0; from < a.length; from += (int) PIECE) {
            double[] lanes = new double[8];
            int to = (int) Math.min(a.length, from + PIECE);
            for (int i = from; i < to; i++) {
                lanes[(i - from) % 8] += b == null ? a[i] : (double) a[i] * b[i];
            }
            total += ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
        }
        return total;
    }

    @ParameterizedTest(name = "{0}, length {1}")
    @MethodSource("cases")
    void reductionsMatchPlainLoops(Layout layout, long length, int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] a = random(random, (int) length, false);
        float[] b = random(random, (int) length, false);
        try (ChunkPool pool = layout.builder("ops", CHUNK, 8, spill).build();
             FloatArray x = of(pool, a);
             FloatArray y = of(pool, b)) {
            OperationCases.workers(seed).run(() -> {
                assertThat(x.sum()).isEqualTo(referenceSum(a, null));
                assertThat(x.dot(y)).isEqualTo(referenceSum(a, b));
                if (length == 0) {
                    assertThatThrownBy(x::min).isInstanceOf(NoSuchElementException.class).hasMessageContaining("empty");
                } else {
                    float min = a[0];
                    float max = a[0];
                    for (float v : a) {
                        min = Math.min(min, v);
                        max = Math.max(max, v);
                    }
                    assertThat(x.min()).isEqualTo(min);
                    assertThat(x.max()).isEqualTo(max);
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
        float[] a = random(random, n, true);
        float[] b = random(random, n, true);
        try (ChunkPool pool = layout.builder("ops", CHUNK, 16, spill).build();
             FloatArray x = of(pool, a);
             FloatArray y = of(pool, b);
             FloatArray out = pool.floats(length)) {
            OperationCases.workers(seed).run(() -> {
                out.mix(0.25f, x, -1.5f, y);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> 0.25f * a[i] + -1.5f * b[i]));
                out.add(x);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> 0.25f * a[i] + -1.5f * b[i] + a[i]));
                out.apply(x, y, Math::atan2);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> (float) Math.atan2(a[i], b[i])));
                out.apply(out, v -> v * 3 - 1);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> (float) ((double) (float) Math.atan2(a[i], b[i]) * 3 - 1)));
                out.scale(-2f);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> (float) ((double) (float) Math.atan2(a[i], b[i]) * 3 - 1) * -2f));
                x.clamp(-0.0f, 10f);
                assertThat(x.toArray(0, length)).isEqualTo(each(n, i -> Math.max(-0.0f, Math.min(10f, a[i]))));
                y.fill(0.5f);
                assertThat(y.toArray(0, length)).isEqualTo(each(n, i -> 0.5f));
                if (n > 2) {
                    y.fill(1, n - 1, -3f);
                    assertThat(y.get(0)).isEqualTo(0.5f);
                    assertThat(y.get(n - 1)).isEqualTo(0.5f);
                    assertThat(y.toArray(1, n - 1)).containsOnly(-3.0f);
                }
            });
        }
    }

    @ParameterizedTest(name = "{0}, length {1}")
    @MethodSource("cases")
    void prefixSumAddsEachPieceToThePiecesBefore(Layout layout, long length, int seed) {
        float[] a = random(new SplittableRandom(seed), (int) length, false);
        try (ChunkPool pool = layout.builder("ops", CHUNK, 8, spill).build(); FloatArray x = of(pool, a)) {
            OperationCases.workers(seed).run(x::prefixSum);
            float[] expected = new float[a.length];
            double before = 0;
            for (int from = 0; from < a.length; from += (int) PIECE) {
                int to = (int) Math.min(a.length, from + PIECE);
                float running = (float) before;
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
        float[] a = random(random, (int) length, true);
        if (seed % 2 == 0) {
            for (int i = 0; i < a.length; i++) {
                a[i] = random.nextInt(3) - 1.0f; // many equal keys
            }
        }
        try (ChunkPool pool = layout.builder("ops", CHUNK, 8, spill).build(); FloatArray x = of(pool, a)) {
            OperationCases.workers(seed).run(x::sort);
            Arrays.sort(a);
            float[] sorted = x.toArray(0, length);
            for (int i = 0; i < a.length; i++) { // bit for bit, NaNs aside (their bits are kept but unordered)
                if (!Float.isNaN(a[i])) {
                    assertThat(Float.floatToRawIntBits(sorted[i])).as("element %d", i)
                            .isEqualTo(Float.floatToRawIntBits(a[i]));
                } else {
                    assertThat(sorted[i]).isNaN();
                }
            }
            for (float key : new float[] {-0.0f, 0.0f, 1.0f, Float.NaN, Float.NEGATIVE_INFINITY, 123.5f, -1e9f}) {
                long found = x.binarySearch(key);
                int expected = Arrays.binarySearch(a, key);
                if (expected >= 0) {
                    assertThat(found).isNotNegative();
                    assertThat(Float.compare(x.get(found), key)).isZero();
                } else {
                    assertThat(found).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void lengthsMustMatchAndDeadArraysRefuse() {
        try (ChunkPool pool = ChunkPool.builder().name("ops").jmx(false).build();
             FloatArray x = pool.floats(10);
             FloatArray y = pool.floats(11)) {
            assertThatThrownBy(() -> x.mix(1, x, 1, y)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("lengths differ");
            assertThatThrownBy(() -> x.dot(y)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> x.clamp(2f, 1f)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> x.clamp(Float.NaN, 1f)).isInstanceOf(IllegalArgumentException.class);
            FloatArray dead = pool.floats(10);
            dead.close();
            assertThatThrownBy(dead::sum).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
            assertThatThrownBy(() -> x.add(dead)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released");
            assertThatThrownBy(dead::sort).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aFailingFunctionStopsTheOperationAndIsThrown() {
        try (ChunkPool pool = ChunkPool.builder().name("ops").jmx(false).build(); FloatArray x = pool.floats(1 << 20)) {
            assertThatThrownBy(() -> x.apply(x, v -> {
                throw new ArithmeticException("no");
            })).isInstanceOf(ArithmeticException.class).hasMessage("no");
            assertThat(x.sum()).as("the array is still usable").isZero();
        }
    }

    private static float[] each(int n, java.util.function.IntToDoubleFunction f) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (float) f.applyAsDouble(i);
        }
        return values;
    }
}
