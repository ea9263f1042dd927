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

/** The io experiment's table, chart and raw figures from each strategy's times in ms. */
class IoResultTest {
    private static final double NAN = Double.NaN;
    private static final int FOUR_MIB = 4 << 20;

    /** Medians with the minimums and maximums of {@link #MIN} and {@link #MAX}. */
    private static Map<String, Range> ms(double heap, double direct, double pool, double transferTo) {
        Map<String, Range> m = new LinkedHashMap<>();
        m.put("heap", range(heap, 3.5, 5));
        m.put("direct", range(direct, 2.4, 2.5));
        m.put("pool", range(pool, 1.9, 1.9));
        m.put("transferTo", range(transferTo, 0.9, 1));
        return m;
    }

    private static Range range(double median, double min, double max) {
        return Double.isNaN(median) ? Range.NONE : new Range(median, min, max, 3);
    }

    private static ExperimentResult result(Map<String, Range> ms) {
        return new IoExperiment().result(ms, List.of("the verdict"), List.of("a note"), FOUR_MIB);
    }

    @Test
    void tableHasTheSeedsFigureTheMedianTheMinimumTheMaximumPer64MibAndTheRatioToTheBest() {
        ExperimentResult.Table table = result(ms(4, 2.5, 2, 1)).tables().getFirst();

        assertThat(table.title()).isEqualTo("Read 4.00 MiB, change, write back");
        assertThat(table.columns()).containsExactly("strategy", "seed 000 (2020, AWS m5.large, JDK 13), ms per 64 MiB",
                "this machine (" + Cells.jdk() + "), ms median", "this machine, ms min", "this machine, ms max",
                "this machine, ms per 64 MiB", "ratio to best");
        assertThat(table.rows()).containsExactly(
                List.of("heap", "59.8", "4.00", "3.50", "5.00", "64.0", "4.00x"),
                List.of("direct", "36.4", "2.50", "2.40", "2.50", "40.0", "2.50x"),
                List.of("pool", "—", "2.00", "1.90", "1.90", "32.0", "2.00x"),
                List.of("transferTo", "—", "1.00", "0.900", "1.00", "16.0", "1.00x"));
    }

    @Test
    void aStrategyWithoutAFigureHasDashesAndTheOthersKeepTheirRatio() {
        ExperimentResult.Table table = result(ms(4, NAN, 2, 2)).tables().getFirst();

        assertThat(table.rows().get(0)).containsExactly("heap", "59.8", "4.00", "3.50", "5.00", "64.0", "2.00x");
        assertThat(table.rows().get(1)).containsExactly("direct", "36.4", "—", "—", "—", "—", "—");
    }

    @Test
    void nothingMeasuredKeepsOnlyTheSeedsFigures() {
        ExperimentResult r = result(Map.of());

        assertThat(r.tables().getFirst().rows()).containsExactly(
                List.of("heap", "59.8", "—", "—", "—", "—", "—"),
                List.of("direct", "36.4", "—", "—", "—", "—", "—"),
                List.of("pool", "—", "—", "—", "—", "—", "—"),
                List.of("transferTo", "—", "—", "—", "—", "—", "—"));
        assertThat(r.verdicts()).containsExactly("the verdict");
        assertThat(r.notes()).containsExactly("a note");
    }

    @Test
    void chartComparesTheSeedWithThisMachinePer64Mib() {
        Chart chart = result(ms(4, 2.5, 2, 1)).charts().getFirst();

        assertThat(chart.title()).isEqualTo("File read-change-write, ms per 64 MiB (lower is better)");
        assertThat(chart.unit()).isEqualTo("ms");
        assertThat(chart.logScale()).isFalse();
        assertThat(chart.categories()).containsExactly("heap", "direct", "pool", "transferTo");
        assertThat(chart.series()).extracting(ExperimentResult.Series::name)
                .containsExactly("seed 000 (AWS m5.large, JDK 13)", "this machine");
        assertThat(chart.series().get(0).values()).containsExactly(59.816, 36.383, NAN, NAN);
        assertThat(chart.series().get(1).values()).containsExactly(64.0, 40.0, 32.0, 16.0);
    }

    @Test
    void rawHasTheFileSizeTheUnitAndEveryRange() {
        Map<String, Range> times = ms(4, 2.5, 2, 1);

        ExperimentResult r = result(times);

        assertThat(r.name()).isEqualTo("io");
        assertThat(r.raw()).containsExactly(Map.entry("fileBytes", FOUR_MIB), Map.entry("unit", "ms"),
                Map.entry("times", times));
    }
}
