package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult;

/** What every well-formed experiment result has. */
final class ResultChecks {
    private ResultChecks() {}

    static void wellFormed(ExperimentResult result, String name) {
        assertThat(result.name()).isEqualTo(name);
        assertThat(result.title()).isNotBlank();
        assertThat(result.tables()).isNotEmpty();
        for (ExperimentResult.Table table : result.tables()) {
            assertThat(table.rows()).isNotEmpty();
            assertThat(table.rows()).allSatisfy(row -> assertThat(row).hasSameSizeAs(table.columns()));
            assertThat(table.columns()).anyMatch(c -> c.startsWith("seed"));
            assertThat(table.columns()).anyMatch(c -> c.startsWith("ratio"));
        }
        assertThat(result.verdicts()).isNotEmpty().allSatisfy(v -> assertThat(v).isNotBlank());
        assertThat(result.notes()).isNotEmpty();
    }

    static void hasData(ExperimentResult result) {
        assertThat(result.charts()).isNotEmpty().allSatisfy(chart -> {
            assertThat(chart.series()).isNotEmpty();
            assertThat(chart.series()).allSatisfy(s -> assertThat(s.values()).hasSameSizeAs(chart.categories()));
            assertThat(chart.series().stream().flatMap(s -> s.values().stream()))
                    .anyMatch(v -> !v.isNaN() && v > 0);
        });
    }
}
