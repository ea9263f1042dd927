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
import java.util.function.IntToLongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link LongArray}'s whole-array operations against plain Java loops over a {@code long[]}, on random data, at
 * lengths around pieces and 64 KiB chunks, on every layout and on three kinds of workers.
 */
class LongOperationsTest {
    private static final long CHUNK = OperationCases.CHUNK;
    @TempDir
    static Path spill;

    static Stream<Arguments> cases() {
        return OperationCases.of(Long.BYTES);
    }

    /** Random values; with {@code narrow}, few distinct ones (many equal keys) sharing their high bytes. */
    private static long[] random(SplittableRandom random, int n, boolean narrow) {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = narrow ? random.nextInt(-3, 3) * 1_000_003L : switch (random.nextInt(4)) {
                case 0 -> random.nextLong();
                case 1 -> random.nextInt(-1000, 1000);
                case 2 -> random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
                default -> random.nextLong() >>> random.nextInt(64);
            };
        }
        return values;
    }

    private static LongArray of(ChunkPool pool, long[] values) {
        LongArray array = pool.longs(values.length);
        array.copyFrom(values, 0, 0, values.length);
        return array;
    }

    @ParameterizedTest(name = "{0}, length {1}")
    @MethodSource("cases")
    void reductionsMatchPlainLoops(Layout layout, long length, int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] a = random(random, (int) length, false);
        long[] b = random(random, (int) length, false);
        try (ChunkPool pool = layout.builder("ops", CHUNK, 8, spill).build();
             LongArray x = of(pool, a);
             LongArray y = of(pool, b)) {
            OperationCases.workers(seed).run(() -> {
                long sum = 0;
                long dot = 0;
                for (int i = 0; i < a.length; i++) {
                    sum += a[i];
                    dot += a[i] * b[i];
                }
                assertThat(x.sum()).isEqualTo(sum);
                assertThat(x.dot(y)).isEqualTo(dot);
                if (length == 0) {
                    assertThatThrownBy(x::max).isInstanceOf(NoSuchElementException.class).hasMessageContaining("empty");
                } else {
                    assertThat(x.min()).isEqualTo(Arrays.stream(a).min().orElseThrow());
                    assertThat(x.max()).isEqualTo(Arrays.stream(a).max().orElseThrow());
                }
            });
        }
    }

    @ParameterizedTest(name = "{0}, length {1}")
    @MethodSource("cases")
    void elementWiseOperationsMatchPlainLoops(Layout layout, long length, int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = (int) length;
        long[] a = random(random, n, false);
        long[] b = random(random, n, false);
        try (ChunkPool pool = layout.builder("ops", CHUNK, 16, spill).build();
             LongArray x = of(pool, a);
             LongArray y = of(pool, b);
             LongArray out = pool.longs(length)) {
            OperationCases.workers(seed).run(() -> {
                out.mix(3, x, -7, y);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> 3 * a[i] + -7 * b[i]));
                out.add(x);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> 3 * a[i] + -7 * b[i] + a[i]));
                out.apply(x, y, (v, w) -> Long.rotateLeft(v, (int) w));
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> Long.rotateLeft(a[i], (int) b[i])));
                out.apply(out, v -> v ^ 0x5555);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> Long.rotateLeft(a[i], (int) b[i]) ^ 0x5555));
                out.scale(-3);
                assertThat(out.toArray(0, length)).isEqualTo(each(n, i -> (Long.rotateLeft(a[i], (int) b[i]) ^ 0x5555) * -3));
                x.clamp(-100, 1L << 40);
                assertThat(x.toArray(0, length)).isEqualTo(each(n, i -> Math.max(-100, Math.min(1L << 40, a[i]))));
                y.fill(5);
                assertThat(y.toArray(0, length)).isEqualTo(each(n, i -> 5));
                if (n > 2) {
                    y.fill(1, n - 1, -3);
                    assertThat(y.toArray(0, length)).isEqualTo(each(n, i -> i == 0 || i == n - 1 ? 5 : -3));
                }
                x.copyFrom(a, 0, 0, n);
                x.prefixSum();
                assertThat(x.toArray(0, length)).isEqualTo(prefix(a));
            });
        }
    }

    @ParameterizedTest(name = "{0}, length {1}")
    @MethodSource("cases")
    void sortsAsArraysSortAndSearchesAsArraysBinarySearch(Layout layout, long length, int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] a = random(random, (int) length, seed % 2 == 0);
        try (ChunkPool pool = layout.builder("ops", CHUNK, 8, spill).build(); LongArray x = of(pool, a)) {
            OperationCases.workers(seed).run(x::sort);
            Arrays.sort(a);
            assertThat(x.toArray(0, length)).isEqualTo(a);
            long[] keys = {0, 1, -1_000_003L, Long.MIN_VALUE, Long.MAX_VALUE, a.length > 0 ? a[a.length / 2] : 3};
            for (long key : keys) {
                long found = x.binarySearch(key);
                int expected = Arrays.binarySearch(a, key);
                if (expected >= 0) {
                    assertThat(x.get(found)).isEqualTo(key);
                } else {
                    assertThat(found).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void keysThatShareTheirMiddleBytesSortDownToTheLowOnes() {
        // two values of the top bytes, the middle bytes the same for all, the low byte random: buckets larger than a
        // leaf whose next digits are the same for every key, sorted by the digits below them
        SplittableRandom random = new SplittableRandom(7);
        long[] a = new long[3 * RadixSort.LEAF + 7];
        for (int i = 0; i < a.length; i++) {
            a[i] = ((long) random.nextInt(2) << 40) | 0x12_3400L | random.nextInt(256);
        }
        try (ChunkPool pool = ChunkPool.builder().name("ops").jmx(false).build(); LongArray x = of(pool, a)) {
            x.sort();
            Arrays.sort(a);
            assertThat(x.toArray(0, a.length)).isEqualTo(a);
        }
    }

    @Test
    void emptyAndDeadArrays() {
        try (ChunkPool pool = ChunkPool.builder().name("ops").jmx(false).build(); LongArray x = pool.longs(0)) {
            assertThat(x.sum()).isZero();
            assertThatThrownBy(x::min).isInstanceOf(NoSuchElementException.class);
            assertThat(x.binarySearch(4)).isEqualTo(-1);
            assertThatThrownBy(() -> x.clamp(2, 1)).isInstanceOf(IllegalArgumentException.class);
            x.clamp(1, 1); // one value: allowed
            LongArray dead = pool.longs(100);
            dead.close();
            assertThatThrownBy(dead::sort).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
            assertThatThrownBy(dead::prefixSum).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> dead.binarySearch(3)).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot search LongArray");
            assertThatThrownBy(dead::min).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot find the least element of LongArray");
            assertThatThrownBy(dead::max).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot find the greatest element of LongArray");
        }
    }

    private static long[] prefix(long[] a) {
        long[] result = a.clone();
        Arrays.parallelPrefix(result, Long::sum);
        return result;
    }

    private static long[] each(int n, IntToLongFunction f) {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = f.applyAsLong(i);
        }
        return values;
    }
}
