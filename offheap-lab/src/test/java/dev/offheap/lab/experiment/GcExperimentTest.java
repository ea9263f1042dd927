package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.LabContext;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

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
