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
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The order experiment's table, chart and verdict from measured ns per sum. */
class OrderResultTest {
    private static final long GIB = 1L << 30;

    /** Each figure with a range of +-2 %. */
    private static Map<String, Range> nanos(double big, double nativeOrder, double store) {
        Map<String, Range> m = new LinkedHashMap<>();
        m.put("bigEndian", range(big));
        m.put("nativeOrder", range(nativeOrder));
        m.put("offheapStore", range(store));
        return m;
    }

    private static Range range(double median) {
        return Double.isNaN(median) ? Range.NONE : new Range(median, median * 0.98, median * 1.02, 5);
    }

    private static ExperimentResult result(Map<String, Range> nanos) {
        return new OrderExperiment().result(nanos, GIB, List.of("a note"));
    }

    @Test
    void tableHasEachStrategyWithTheSeedsFigureAndTheRatioToTheBest() {
        ExperimentResult.Table table = result(nanos(196e6, 136e6, 140e6)).tables().getFirst();

        assertThat(table.title()).isEqualTo("Sum of 1 GiB of random longs (median time per sum)");
        assertThat(table.columns()).containsExactly("strategy", "seed's figure (1 GiB)", "this machine (median)",
                "min–max", "vs best");
        assertThat(table.rows()).containsExactly(
                List.of("direct, big-endian (default)", "196 ms [000]", "196.00 ms", "192.08–199.92 ms", "1.4x"),
                List.of("direct, native order", "136 ms [000]", "136.00 ms", "133.28–138.72 ms", "1.0x (best)"),
                List.of("offheap store (LongArray)", "", "140.00 ms", "137.20–142.80 ms", "1.0x"));
    }

    @Test
    void aByteSwapCostingMoreThanTenPercentAdvisesNativeOrder() {
        assertThat(result(nanos(196e6, 136e6, 140e6)).verdicts()).containsExactly("On this machine (native order "
                + ByteOrder.nativeOrder() + "), summing 1 GiB of longs takes 196.00 ms (192.08–199.92 ms) big-endian and"
                + " 136.00 ms (133.28–138.72 ms) in native order (1.44x; seed 000 measured 1.44x for 1 GiB), and"
                + " 140.00 ms (137.20–142.80 ms) through offheap's store (1.03x the native-order buffer): set the byte"
                + " order to native when you can choose it.");
    }

    @Test
    void aByteSwapCostingTenPercentOrLessIsTooCloseToCall() {
        assertThat(result(nanos(110e6, 100e6, 90e6)).verdicts()).containsExactly("On this machine (native order "
                + ByteOrder.nativeOrder() + "), summing 1 GiB of longs takes 110.00 ms (107.80–112.20 ms) big-endian"
                + " and 100.00 ms (98.00–102.00 ms) in native order (1.10x; seed 000 measured 1.44x for 1 GiB), and"
                + " 90.00 ms (88.20–91.80 ms) through offheap's store (0.90x the native-order buffer): too close to"
                + " call here: the byte swap costs little, the loop is bound by memory.");
    }

    @Test
    void overlappingRangesAdviseNothingHoweverFarApartTheMedians() {
        assertThat(OrderExperiment.advice(new Range(196e6, 130e6, 300e6, 5), new Range(136e6, 133e6, 140e6, 5)))
                .isEqualTo("too close to call here: the byte swap costs little, the loop is bound by memory");
    }

    @Test
    void aClearlyFasterBigEndianIsCalledOdd() {
        assertThat(OrderExperiment.advice(range(100e6), range(150e6))).isEqualTo("big-endian was faster here,"
                + " which a byte swap cannot explain: measure again on a quiet machine");
    }

    @Test
    void noVerdictWithoutAllThreeFigures() {
        assertThat(result(nanos(196e6, Double.NaN, 140e6)).verdicts()).isEmpty();
        Map<String, Range> storeFailed = nanos(196e6, 136e6, 0);
        storeFailed.remove("offheapStore");

        ExperimentResult r = result(storeFailed);

        assertThat(r.verdicts()).isEmpty();
        assertThat(r.tables().getFirst().rows()).extracting(List::getFirst)
                .containsExactly("direct, big-endian (default)", "direct, native order");
    }

    @Test
    void chartHasOneCategoryAndASeriesPerStrategyInMs() {
        Chart chart = result(nanos(196e6, 136e6, 140e6)).charts().getFirst();

        assertThat(chart.title()).isEqualTo("Sum of 1 GiB of longs");
        assertThat(chart.unit()).isEqualTo("ms per sum");
        assertThat(chart.logScale()).isFalse();
        assertThat(chart.categories()).containsExactly("1 GiB");
        assertThat(chart.series()).extracting(ExperimentResult.Series::name).containsExactly(
                "direct, big-endian (default)", "direct, native order", "offheap store (LongArray)");
        assertThat(chart.series()).extracting(ExperimentResult.Series::values)
                .containsExactly(List.of(196.0), List.of(136.0), List.of(140.0));
    }

    @Test
    void rawHasTheUnitTheSizeAndTheScoresAndTheNotesArePassedOn() {
        ExperimentResult r = result(nanos(196e6, 136e6, 140e6));

        assertThat(r.name()).isEqualTo("order");
        assertThat(r.raw()).containsExactly(Map.entry("unit", "ns"), Map.entry("bytes", GIB),
                Map.entry("scores", nanos(196e6, 136e6, 140e6)));
        assertThat(r.notes()).containsExactly("a note");
    }
}
