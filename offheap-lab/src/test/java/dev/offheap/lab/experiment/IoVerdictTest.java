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

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The io experiment's best buffer and its advice, from times in ms: a buffer is named only when its range is apart
 * from the others' and its median more than 5 % ahead.
 */
class IoVerdictTest {
    private static final String HEAP_IS_FINE =
            "for file I/O through your own buffer, a heap buffer is fine here: the extra copy did not cost";
    private static final String LEVEL = "for file I/O through your own buffer, use native memory: direct and pooled"
            + " buffers are level (ranges overlap or within 5%), both spare the copy a heap buffer needs; the pool"
            + " also frees it when you say so";

    /** Single measurements: ranges of one value, apart unless equal. */
    private static Map<String, Range> ms(double heap, double direct, double pool, double transferTo) {
        return Map.of("heap", Range.of(heap), "direct", Range.of(direct), "pool", Range.of(pool), "transferTo",
                Range.of(transferTo));
    }

    private static String use(String buffer) {
        return "for file I/O through your own buffer, use " + buffer
                + ": the kernel reads into it without the extra copy a heap buffer needs";
    }

    @Test
    void theBestBufferIsTheFastestOfHeapDirectAndPoolNeverTransferTo() {
        assertThat(IoExperiment.bestBuffer(ms(30, 40, 50, 1))).isEqualTo("heap");
        assertThat(IoExperiment.bestBuffer(ms(60, 36, 50, 1))).isEqualTo("direct");
        assertThat(IoExperiment.bestBuffer(ms(60, 50, 36, 1))).isEqualTo("pool");
    }

    @Test
    void aTieGoesToTheBufferListedFirst() {
        assertThat(IoExperiment.bestBuffer(ms(40, 40, 40, 1))).isEqualTo("heap");
        assertThat(IoExperiment.bestBuffer(ms(60, 40, 40, 1))).isEqualTo("direct");
    }

    @Test
    void heapFastestSaysHeapIsFine() {
        assertThat(IoExperiment.advice(ms(30, 40, 50, 20))).isEqualTo(HEAP_IS_FINE);
    }

    @Test
    void directAndPoolWithinFivePercentAreLevel() {
        assertThat(IoExperiment.advice(ms(60, 36.4, 36.0, 20))).isEqualTo(LEVEL);
        assertThat(IoExperiment.advice(ms(200, 100, 104.9, 20))).isEqualTo(LEVEL);
    }

    @Test
    void moreThanFivePercentApartIsNoLongerLevel() {
        assertThat(IoExperiment.advice(ms(200, 100, 105, 20))).as("exactly 5%: level").isEqualTo(LEVEL);
        assertThat(IoExperiment.advice(ms(200, 100, 105.1, 20))).isEqualTo(use("direct"));
        assertThat(IoExperiment.advice(ms(200, 105.1, 100, 20))).as("measured from the faster of the two")
                .isEqualTo(use("pool"));
    }

    @Test
    void overlappingRangesAreLevelHoweverFarApartTheMedians() {
        Map<String, Range> ms = Map.of("heap", new Range(60, 59, 61, 7), "direct", new Range(30, 29, 45, 7),
                "pool", new Range(40, 31, 41, 7));

        assertThat(IoExperiment.advice(ms)).isEqualTo(LEVEL);
    }

    @Test
    void aHeapBufferLevelWithTheFastestIsTooCloseToCall() {
        assertThat(IoExperiment.advice(ms(100, 98, 150, 20))).isEqualTo("for file I/O through your own buffer,"
                + " too close to call here: direct, heap are level (ranges overlap or within 5%), so the extra copy"
                + " of a heap buffer did not cost measurably");
    }

    @Test
    void aBufferWithoutAFigureIsNeverBest() {
        assertThat(IoExperiment.bestBuffer(ms(Double.NaN, 40, 50, 1))).isEqualTo("direct");
        assertThat(IoExperiment.advice(ms(Double.NaN, 30, 50, 1))).isEqualTo(use("direct"));
        assertThat(IoExperiment.advice(ms(Double.NaN, Double.NaN, 50, 1))).isEqualTo("for file I/O through your"
                + " own buffer: fewer than two buffers measured, nothing to compare");
    }

    @Test
    void aClearlyFasterNativeBufferIsNamed() {
        assertThat(IoExperiment.advice(ms(60, 30, 40, 20))).isEqualTo(use("direct"));
        assertThat(IoExperiment.advice(ms(60, 40, 30, 20))).isEqualTo(use("pool"));
    }

    @Test
    void verdictsGiveEveryFigureTheRatioOfHeapToDirectAndTheAdvice() {
        assertThat(IoExperiment.verdicts(ms(60, 36.4, 36.0, 20), 64 << 20)).containsExactly(
                "on this machine, reading, changing and writing 64.0 MiB takes 60.0 ms with a heap buffer, 36.4 ms"
                        + " with a direct one, 36.0 ms with a pooled one (transferTo, which changes nothing: 20.0 ms; medians,"
                        + " min–max in the table);"
                        + " the seed saw direct 1.64x faster than heap, here it is 1.65x",
                LEVEL);
        assertThat(IoExperiment.verdicts(ms(3, 6, 6.5, 1.5), 4 << 20)).containsExactly(
                "on this machine, reading, changing and writing 4.00 MiB takes 3.00 ms with a heap buffer, 6.00 ms"
                        + " with a direct one, 6.50 ms with a pooled one (transferTo, which changes nothing: 1.50 ms; medians,"
                        + " min–max in the table);"
                        + " the seed saw direct 1.64x faster than heap, here it is 0.50x",
                HEAP_IS_FINE);
    }
}
