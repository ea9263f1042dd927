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

package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * The growth detector on series shaped like the ones real processes make, sampled every 5 s: a leak fires within
 * twenty seconds, with its rate; a heap's sawtooth, a cache filling to its size, a burst then flat, and growth too slow or
 * too short to tell are quiet.
 */
class GrowthTest {
    private static final long MIB = 1L << 20;
    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");

    /** {@code n} samples 5 s apart. */
    private static List<Growth.Point> series(int n, IntToLongFunction bytes) {
        List<Growth.Point> points = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            points.add(new Growth.Point(T0.plusSeconds(5L * i), bytes.applyAsLong(i)));
        }
        return points;
    }

    @Test
    void aLeakOfAMebibyteAndAHalfASecondFiresWithinTwentySecondsWithItsRate() {
        Random noise = new Random(7);
        // 1.4 MiB/s, with malloc's own jitter of a third of a MiB
        IntToLongFunction leak = i -> 100 * MIB + (long) (i * 5 * 1.4 * MIB) + noise.nextInt((int) (MIB / 3));

        assertThat(Growth.of(series(4, leak))).as("15 s, 4 samples: not yet").isEmpty();
        assertThat(Growth.of(series(5, leak))).as("20 s, 5 samples").isPresent();
        Growth growth = Growth.of(series(7, leak)).orElseThrow();

        assertThat(growth.mibPerMinute()).isCloseTo(84, within(3.0));
        assertThat(growth.since()).isEqualTo(T0);
        assertThat(growth.timeFor(840 * MIB).toMinutes()).isBetween(9L, 10L);
    }

    @Test
    void aHeapsSawtoothIsQuiet() {
        // 8 MiB per sample, back down by 32 MiB at every fourth: G1's young collections
        IntToLongFunction heap = i -> 200 * MIB + (i % 4) * 8 * MIB + i * MIB / 4;

        assertThat(Growth.of(series(60, heap))).isEmpty();
    }

    @Test
    void aCacheFillingToItsSizeAndABurstThenFlatAreQuiet() {
        IntToLongFunction cache = i -> 50 * MIB + Math.min(i, 6) * 10 * MIB;
        IntToLongFunction burst = i -> i < 2 ? 50 * MIB : 100 * MIB;

        assertThat(Growth.of(series(6, cache))).as("still filling: growth").isPresent();
        assertThat(Growth.of(series(14, cache))).as("filled").isEmpty();
        assertThat(Growth.of(series(12, burst))).isEmpty();
    }

    @Test
    void growthTooSlowTooSmallOrTooShortToTellIsQuietAndHalfAMebibyteAMinuteIsNot() {
        IntToLongFunction slow = i -> 100 * MIB + i * (long) (0.4 / 12 * MIB); // 0.4 MiB/min
        IntToLongFunction steady = i -> 100 * MIB + i * (long) (0.6 / 12 * MIB); // 0.6 MiB/min

        assertThat(Growth.of(series(120, slow))).as("0.4 MiB/min for 10 min").isEmpty();
        assertThat(Growth.of(series(30, steady))).as("rose 1.5 MiB: too little to tell").isEmpty();
        assertThat(Growth.of(series(60, steady))).as("0.6 MiB/min for 5 min").isPresent();
        assertThat(Growth.of(series(4, i -> i * 100 * MIB))).as("4 samples").isEmpty();
        assertThat(Growth.of(List.of(new Growth.Point(T0, 0), new Growth.Point(T0.plusSeconds(1), 10 * MIB),
                new Growth.Point(T0.plusSeconds(2), 20 * MIB), new Growth.Point(T0.plusSeconds(3), 30 * MIB),
                new Growth.Point(T0.plusSeconds(19), 40 * MIB)))).as("19 s").isEmpty();
    }

    @Test
    void theSlopeIsLeastSquaresAndZeroWithoutTime() {
        assertThat(Growth.slope(series(3, i -> new long[] {0, 10, 20}[i]))).isEqualTo(2.0);
        assertThat(Growth.slope(series(1, i -> 5))).isZero();
        assertThat(Growth.slope(List.of(new Growth.Point(T0, 1), new Growth.Point(T0, 9)))).isZero();
    }
}
