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
import dev.offheap.lab.LabContext;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gc experiment's measuring, tiny: ten child JVMs. What it makes of the figures (tables, charts, verdicts,
 * notes, raw) is checked with fixed runs by {@link GcResultTest}, {@link GcTablesTest} and {@link GcVerdictTest}.
 * Tagged child-jvm: PIT does not count the {@code @BeforeAll} in the tests' time, so every mutant this class
 * covered timed out on a loaded machine instead of being killed or surviving on its merits.
 */
@Tag("child-jvm")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GcExperimentTest {
    private ExperimentResult result;

    @BeforeAll
    void runOnce(@TempDir Path dir) throws Exception {
        result = new GcExperiment().run(Contexts.of(LabContext.Scale.TINY, dir));
    }

    @Test
    void tinyRunMeasuresEveryCollectorAndModeInChildJvms() {
        ResultChecks.wellFormed(result, "gc");
        ResultChecks.hasData(result);
        assertThat(result.tables().getFirst().rows()).extracting(row -> row.getFirst())
                .containsExactly("G1 direct", "G1 heap", "G1 pool", "ZGC direct", "ZGC heap", "ZGC pool");
        assertThat(result.notes()).noneMatch(n -> n.startsWith("skipped"));
        assertThat(result.verdicts().getFirst()).startsWith("on this machine, under G1");
    }

    @Test
    void theLeakingPoolStopsAtItsBudgetWithAnException() {
        assertThat(result.tables().get(1).rows())
                .filteredOn(row -> row.getFirst().contains("never released"))
                .singleElement()
                .satisfies(row -> assertThat(row.getLast()).contains("BudgetExceededException"));
    }
}
