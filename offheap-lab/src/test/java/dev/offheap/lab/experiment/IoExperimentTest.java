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
