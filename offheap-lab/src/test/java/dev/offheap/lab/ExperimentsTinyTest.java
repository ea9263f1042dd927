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

package dev.offheap.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.experiment.AllocExperiment;
import dev.offheap.lab.experiment.OrderExperiment;
import dev.offheap.lab.experiment.StoreExperiment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each experiment runs at tiny scale and produces a well-formed result. */
class ExperimentsTinyTest {
    @TempDir
    Path workDir;

    private final List<Double> progress = new ArrayList<>();

    private LabContext context() {
        return new LabContext(LabContext.Scale.TINY, workDir, (what, fraction) -> progress.add(fraction),
                LabRunner.javaCommand(), LabRunner.classPath());
    }

    @Test
    void allocMeasuresEveryStrategyAtTheQuickSizes() throws Exception {
        ExperimentResult result = new AllocExperiment().run(context());

        assertWellFormed(result, "alloc");
        ExperimentResult.Chart chart = result.charts().getFirst();
        assertThat(chart.categories()).containsExactly("128 B", "16 KiB", "1 MiB", "16 MiB");
        assertThat(chart.series()).extracting(ExperimentResult.Series::name).containsExactly("offheap pool",
                "offheap pool, pooling up to 16 MiB", "Netty pooled", "Arena.ofConfined()", "allocate",
                "allocateDirect");
        assertThat(result.tables().getFirst().rows())
                .as("six strategies at four sizes, TLAB-less and allocate alone at 128 B").hasSize(6 * 4 + 2);
        assertThat(result.verdicts()).anyMatch(v -> v.startsWith("The allocate row at 128 B"));
    }

    @Test
    void orderSumsThroughEachByteOrderAndTheStore() throws Exception {
        ExperimentResult result = new OrderExperiment().run(context());

        assertWellFormed(result, "order");
        assertThat(result.charts().getFirst().series()).hasSize(3);
    }

    @Test
    void storeReadsEveryLayoutInOrderAndAtRandom() throws Exception {
        ExperimentResult result = new StoreExperiment().run(context());

        assertWellFormed(result, "store");
        assertThat(result.charts().getFirst().categories()).hasSize(2);
        assertThat(result.charts().getFirst().series()).hasSize(4);
    }

    private void assertWellFormed(ExperimentResult result, String name) {
        assertThat(result.name()).isEqualTo(name);
        assertThat(result.title()).isNotBlank();
        assertThat(result.tables()).isNotEmpty();
        for (ExperimentResult.Table table : result.tables()) {
            assertThat(table.rows()).isNotEmpty();
            assertThat(table.rows()).allSatisfy(row -> assertThat(row).hasSameSizeAs(table.columns()));
        }
        assertThat(result.charts()).hasSize(1);
        for (ExperimentResult.Chart chart : result.charts()) {
            assertThat(chart.series()).isNotEmpty();
            assertThat(chart.series()).allSatisfy(s -> {
                assertThat(s.values()).hasSameSizeAs(chart.categories());
                assertThat(s.values()).allSatisfy(v -> assertThat(v).isNotNaN().isPositive());
            });
        }
        assertThat(result.verdicts()).isNotEmpty();
        assertThat(progress).isNotEmpty().last().isEqualTo(1.0);
    }
}
