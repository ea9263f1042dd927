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

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The store experiment's table, chart and verdicts from measured ns per pass, in order and at random. */
class StoreResultTest {
    private static final long GIB = 1L << 30;
    private static final int GATHER = 2_097_152;
    private static final double NAN = Double.NaN;

    /** Each figure with a range of +-2 %, NaN as nothing measured. */
    private static Range[] ranges(double sequential, double random) {
        return new Range[] {range(sequential), range(random)};
    }

    private static Range range(double median) {
        return Double.isNaN(median) ? Range.NONE : new Range(median, median * 0.98, median * 1.02, 5);
    }

    private static Map<String, Range[]> nanos() {
        Map<String, Range[]> m = new LinkedHashMap<>();
        m.put("double[]", ranges(50e6, 8e6));
        m.put("flat MemorySegment", ranges(52e6, 9e6));
        m.put("offheap store (DoubleArray)", ranges(60e6, 10e6));
        m.put("ByteBuffer[] 1 MiB chunks", ranges(104e6, 12e6));
        return m;
    }

    private static ExperimentResult result(Map<String, Range[]> nanos) {
        return new StoreExperiment().result(nanos, GIB, GATHER, List.of("a note"));
    }

    @Test
    void tableHasEachLayoutInOrderAndAtRandomWithRatiosToTheBestOfEach() {
        ExperimentResult.Table table = result(nanos()).tables().getFirst();

        assertThat(table.title()).isEqualTo("Reads of 1 GiB of doubles (median time per pass)");
        assertThat(table.columns()).containsExactly("layout", "seed's figure", "sequential (median)", "min–max",
                "vs best", "random (2,097,152 reads, median)", "min–max", "vs best");
        assertThat(table.rows()).containsExactly(
                List.of("double[]", "", "50.00 ms", "49.00–51.00 ms", "1.0x (best)", "8.00 ms", "7.84–8.16 ms",
                        "1.0x (best)"),
                List.of("flat MemorySegment", "", "52.00 ms", "50.96–53.04 ms", "1.0x", "9.00 ms", "8.82–9.18 ms",
                        "1.1x"),
                List.of("offheap store (DoubleArray)", "180 ms [003, its Unsafe chunk table]", "60.00 ms",
                        "58.80–61.20 ms", "1.2x", "10.00 ms", "9.80–10.20 ms", "1.3x"),
                List.of("ByteBuffer[] 1 MiB chunks", "311 ms [003]", "104.00 ms", "101.92–106.08 ms", "2.1x",
                        "12.00 ms", "11.76–12.24 ms", "1.5x"));
    }

    @Test
    void verdictsCompareTheStoreWithTheChunksAndADoubleArray() {
        assertThat(result(nanos()).verdicts()).containsExactly(
                "On this machine, summing 1 GiB of doubles in order takes 60.00 ms from offheap's store, 50.00 ms"
                        + " from a double[] and 104.00 ms from seed 003's ByteBuffer[] chunks (medians): the store is"
                        + " 1.73x as fast as the chunks (seed 003's Unsafe table: 1.73x) and 1.20x the time of a"
                        + " double[].",
                "At random (2,097,152 reads), the store takes 10.00 ms, the chunks 12.00 ms, a double[] 8.00 ms"
                        + " (medians; min–max in the table).");
    }

    @Test
    void overlappingRangesAreSaidToBeTooCloseToCall() {
        Map<String, Range[]> close = nanos();
        close.put("offheap store (DoubleArray)", new Range[] {new Range(60e6, 45e6, 110e6, 5), range(10e6)});

        assertThat(result(close).verdicts().getFirst()).contains("the store is 1.73x as fast as the chunks (seed"
                + " 003's Unsafe table: 1.73x), though their ranges overlap: too close to call here and 1.20x the"
                + " time of a double[] (ranges overlap: level here).");
    }

    @Test
    void noVerdictsWithoutEveryFigureOfTheStoreTheChunksAndTheArray() {
        Map<String, Range[]> noRandomArray = nanos();
        noRandomArray.get("double[]")[1] = Range.NONE;
        Map<String, Range[]> noFlat = nanos();
        noFlat.put("flat MemorySegment", ranges(NAN, NAN));

        assertThat(result(noRandomArray).verdicts()).isEmpty();
        assertThat(result(noFlat).verdicts()).as("the flat segment is not in the verdicts").hasSize(2);
        assertThat(result(noFlat).tables().getFirst().rows().get(1))
                .containsExactly("flat MemorySegment", "", "-", "-", "-", "-", "-", "-");
    }

    @Test
    void chartHasSequentialAndRandomCategoriesAndASeriesPerLayoutInMs() {
        Chart chart = result(nanos()).charts().getFirst();

        assertThat(chart.title()).isEqualTo("Reads of 1 GiB of doubles");
        assertThat(chart.unit()).isEqualTo("ms per pass");
        assertThat(chart.logScale()).isFalse();
        assertThat(chart.categories()).containsExactly("sequential", "random (2,097,152 reads)");
        assertThat(chart.series()).extracting(ExperimentResult.Series::name).containsExactly("double[]",
                "flat MemorySegment", "offheap store (DoubleArray)", "ByteBuffer[] 1 MiB chunks");
        assertThat(chart.series().get(3).values()).containsExactly(104.0, 12.0);
    }

    @Test
    void rawHasTheUnitSizeGatherAndEachLayoutsScores() {
        ExperimentResult r = result(nanos());

        assertThat(r.name()).isEqualTo("store");
        assertThat(r.raw().keySet()).containsExactly("unit", "bytes", "gather", "scores");
        assertThat(r.raw()).containsEntry("unit", "ns").containsEntry("bytes", GIB).containsEntry("gather", GATHER);
        Map<?, ?> scores = (Map<?, ?>) r.raw().get("scores");
        assertThat(List.copyOf(scores.keySet())).isEqualTo(List.copyOf(nanos().keySet()));
        assertThat(scores.get("ByteBuffer[] 1 MiB chunks")).isEqualTo(Map.of("sequential", range(104e6), "random",
                range(12e6)));
        assertThat(r.notes()).containsExactly("a note");
    }
}
