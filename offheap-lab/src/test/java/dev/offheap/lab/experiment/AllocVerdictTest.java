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

package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The alloc experiment's verdict on one size: every strategy cheapest first with its median and range, then a
 * cheapest only where the ranges support it (apart from every other and more than 10 % lower), else "too close to
 * call"; the tuned pool and TLAB-less allocation are never ranked.
 */
class AllocVerdictTest {
    private static final Range NONE = Range.NONE;

    /** Label, range, label, range...: one size, index 0. */
    private static Map<String, Range[]> nanos(Object... pairs) {
        Map<String, Range[]> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], new Range[] {(Range) pairs[i + 1]});
        }
        return m;
    }

    private static Range r(double median, double min, double max) {
        return new Range(median, min, max, 5);
    }

    @Test
    void aClearWinnerIsNamedWithHowManyTimesCheaperThanTheNextNotTheDearest() {
        String v = AllocExperiment.verdict("16 MiB", nanos("allocateDirect", r(3_520_000, 3_400_000, 3_700_000),
                "offheap pool", r(50, 48, 53), "allocate", r(2_000_000, 1_900_000, 2_100_000),
                "Netty pooled", r(100, 95, 110)), 0);

        assertThat(v).isEqualTo("On this machine, for 16 MiB buffers (median, min–max): offheap pool 50.0 ns"
                + " (48.0–53.0 ns), Netty pooled 100.0 ns (95.0–110.0 ns), allocate 2.00 ms (1.90–2.10 ms),"
                + " allocateDirect 3.52 ms (3.40–3.70 ms): offheap pool is cheapest, 2.0x cheaper than the next,"
                + " Netty pooled.");
    }

    // The case: one disturbed iteration made the pool's figure 19 µs; its range shows it.
    @Test
    void aDisturbedFigureWhoseRangeReachesTheOthersNamesNoWinner() {
        String v = AllocExperiment.verdict("128 B", nanos("offheap pool", r(19_150, 17, 40_000),
                "allocate", r(46, 38, 56)), 0);

        assertThat(v).isEqualTo("On this machine, for 128 B buffers (median, min–max): allocate 46.0 ns"
                + " (38.0–56.0 ns), offheap pool 19.15 µs (17.0 ns–40.00 µs): too close to call here between"
                + " allocate and offheap pool (their ranges overlap or their medians are within 10%).");
    }

    @Test
    void rangesApartButMediansWithinTenPercentAreTooCloseToCall() {
        String v = AllocExperiment.verdict("128 B", nanos("offheap pool", r(20, 19.9, 20.1),
                "Netty pooled", r(21, 20.9, 21.1), "allocateDirect", r(1020, 1000, 1050)), 0);

        assertThat(v).endsWith(": too close to call here between offheap pool and Netty pooled (their ranges"
                + " overlap or their medians are within 10%); allocateDirect cost more.");
    }

    @Test
    void overlappingRangesAreTooCloseToCallHoweverFarApartTheMedians() {
        String v = AllocExperiment.verdict("16 KiB", nanos("offheap pool", r(25, 20, 400),
                "allocate", r(300, 290, 310)), 0);

        assertThat(v).contains("too close to call here between offheap pool and allocate");
    }

    @Test
    void leavesOutAllocationWithoutTlabsAndTheTunedPoolEvenWhenCheapest() {
        String v = AllocExperiment.verdict("128 B", nanos("allocate", r(24, 23, 25), "allocateDirect",
                r(1020, 1000, 1040), AllocExperiment.TLAB_OFF, r(5, 5, 5), AllocExperiment.TUNED_POOL, r(1, 1, 1)), 0);

        assertThat(v).isEqualTo("On this machine, for 128 B buffers (median, min–max): allocate 24.0 ns"
                + " (23.0–25.0 ns), allocateDirect 1.02 µs (1.00–1.04 µs): allocate is cheapest, 43x cheaper than"
                + " the next, allocateDirect.");
    }

    @Test
    void theHeadlineUsesTheDefaultPoolAndNamesTheTunedOneInTheSentenceWhenItDiffers() {
        String v = AllocExperiment.verdict("16 MiB", nanos("offheap pool", r(100_000, 95_000, 110_000),
                AllocExperiment.TUNED_POOL, r(50, 48, 53), "allocateDirect", r(3_520_000, 3_400_000, 3_700_000)), 0);

        assertThat(v).isEqualTo("On this machine, for 16 MiB buffers (median, min–max): offheap pool 100.00 µs"
                + " (95.00–110.00 µs), allocateDirect 3.52 ms (3.40–3.70 ms): offheap pool is cheapest, 35x cheaper"
                + " than the next, allocateDirect. The pool tuned to pool buffers up to 16 MiB (largestPooledSize)"
                + " costs 50.0 ns here instead of 100.00 µs.");
    }

    @Test
    void leavesOutStrategiesWithoutAFigure() {
        String v = AllocExperiment.verdict("16 KiB", nanos("offheap pool", r(25, 24, 26), "Netty pooled", NONE,
                "allocateDirect", r(3040, 3000, 3100)), 0);

        assertThat(v).isEqualTo("On this machine, for 16 KiB buffers (median, min–max): offheap pool 25.0 ns"
                + " (24.0–26.0 ns), allocateDirect 3.04 µs (3.00–3.10 µs): offheap pool is cheapest, 122x cheaper"
                + " than the next, allocateDirect.");
    }

    @Test
    void withoutAnyFigureSaysSo() {
        assertThat(AllocExperiment.verdict("16 MiB", nanos("offheap pool", NONE, AllocExperiment.TLAB_OFF,
                r(152, 150, 155)), 0)).isEqualTo("No figures for 16 MiB.");
        assertThat(AllocExperiment.verdict("16 MiB", nanos(), 0)).isEqualTo("No figures for 16 MiB.");
    }

    @Test
    void aTieIsTooCloseToCall() {
        String v = AllocExperiment.verdict("128 B", nanos("offheap pool", r(20, 19, 21), "Netty pooled",
                r(20, 19, 21)), 0);

        assertThat(v).endsWith(": too close to call here between offheap pool and Netty pooled (their ranges"
                + " overlap or their medians are within 10%).");
    }

    @Test
    void aLoneFigureIsComparedWithNothing() {
        String v = AllocExperiment.verdict("128 B", nanos("allocate", r(24, 23, 25)), 0);

        assertThat(v).isEqualTo("On this machine, for 128 B buffers (median, min–max): allocate 24.0 ns"
                + " (23.0–25.0 ns): only one strategy measured, nothing to compare.");
    }

    @Test
    void tenTimesCheaperIsWrittenWithoutADecimal() {
        String v = AllocExperiment.verdict("128 B", nanos("allocate", r(10, 9.9, 10.1), "allocateDirect",
                r(100, 99, 101)), 0);

        assertThat(v).endsWith(": allocate is cheapest, 10x cheaper than the next, allocateDirect.");
    }
}
