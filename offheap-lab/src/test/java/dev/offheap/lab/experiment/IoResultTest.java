package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The io experiment's table, chart and raw figures from medians and samples. */
class IoResultTest {
    private static final double NAN = Double.NaN;
    private static final int FOUR_MIB = 4 << 20;

    private static Map<String, Double> ms(double heap, double direct, double pool, double transferTo) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("heap", heap);
        m.put("direct", direct);
        m.put("pool", pool);
        m.put("transferTo", transferTo);
        return m;
    }

    private static Map<String, Samples> times() {
        return Map.of("heap", new Samples(new long[] {4_000_000, 3_500_000, 5_000_000}),
                "direct", new Samples(new long[] {2_400_000, 2_500_000}),
                "pool", new Samples(new long[] {1_900_000}),
                "transferTo", new Samples(new long[] {900_000, 1_000_000}));
    }

    private static ExperimentResult result(Map<String, Double> ms, Map<String, Samples> times) {
        return new IoExperiment().result(ms, times, List.of("the verdict"), List.of("a note"), FOUR_MIB);
    }

    @Test
    void tableHasTheSeedsFigureTheMedianTheMinimumPer64MibAndTheRatioToTheBest() {
        ExperimentResult.Table table = result(ms(4, 2.5, 2, 1), times()).tables().getFirst();

        assertThat(table.title()).isEqualTo("Read 4.00 MiB, change, write back");
        assertThat(table.columns()).containsExactly("strategy", "seed 000 (2020, AWS m5.large, JDK 13), ms per 64 MiB",
                "this machine (" + Cells.jdk() + "), ms median", "this machine, ms min", "this machine, ms per 64 MiB",
                "ratio to best");
        assertThat(table.rows()).containsExactly(
                List.of("heap", "59.8", "4.00", "3.50", "64.0", "4.00x"),
                List.of("direct", "36.4", "2.50", "2.40", "40.0", "2.50x"),
                List.of("pool", "—", "2.00", "1.90", "32.0", "2.00x"),
                List.of("transferTo", "—", "1.00", "0.900", "16.0", "1.00x"));
    }

    @Test
    void aStrategyWithoutAFigureHasDashesAndTheOthersKeepTheirRatio() {
        ExperimentResult.Table table = result(ms(4, NAN, 2, 2), times()).tables().getFirst();

        assertThat(table.rows().get(0)).containsExactly("heap", "59.8", "4.00", "3.50", "64.0", "2.00x");
        assertThat(table.rows().get(1)).containsExactly("direct", "36.4", "—", "2.40", "—", "—");
    }

    @Test
    void nothingMeasuredKeepsOnlyTheSeedsFigures() {
        ExperimentResult r = result(Map.of(), Map.of());

        assertThat(r.tables().getFirst().rows()).containsExactly(
                List.of("heap", "59.8", "—", "—", "—", "—"),
                List.of("direct", "36.4", "—", "—", "—", "—"),
                List.of("pool", "—", "—", "—", "—", "—"),
                List.of("transferTo", "—", "—", "—", "—", "—"));
        assertThat(r.verdicts()).containsExactly("the verdict");
        assertThat(r.notes()).containsExactly("a note");
    }

    @Test
    void chartComparesTheSeedWithThisMachinePer64Mib() {
        Chart chart = result(ms(4, 2.5, 2, 1), times()).charts().getFirst();

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
    void rawHasTheFileSizeAndTheMedians() {
        Map<String, Double> medians = ms(4, 2.5, 2, 1);

        ExperimentResult r = result(medians, times());

        assertThat(r.name()).isEqualTo("io");
        assertThat(r.raw()).containsExactly(Map.entry("fileBytes", FOUR_MIB), Map.entry("medianMs", medians));
    }
}
