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
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoExperimentTest {
    @TempDir
    Path dir;

    @Test
    void tinyRunMeasuresEveryStrategyAndCleansUp() throws Exception {
        ExperimentResult result = new IoExperiment().run(Contexts.of(LabContext.Scale.TINY, dir));

        ResultChecks.wellFormed(result, "io");
        ResultChecks.hasData(result);
        assertThat(result.tables().getFirst().rows()).extracting(row -> row.getFirst())
                .containsExactlyElementsOf(IoExperiment.STRATEGIES);
        assertThat(result.verdicts().getFirst()).startsWith("on this machine");
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void notEnoughDiskSkipsWithANote() throws Exception {
        ExperimentResult result = new IoExperiment(d -> 1024).run(Contexts.of(LabContext.Scale.TINY, dir));

        ResultChecks.wellFormed(result, "io");
        assertThat(result.notes()).anyMatch(n -> n.contains("skipped: not enough disk"));
        assertThat(result.verdicts()).anyMatch(v -> v.contains("not measured"));
    }
}
