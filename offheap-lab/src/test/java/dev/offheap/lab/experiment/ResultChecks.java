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
