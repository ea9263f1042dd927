package dev.offheap.lab.experiment;

import static dev.offheap.lab.experiment.GcFigures.CHASES;
import static dev.offheap.lab.experiment.GcFigures.G1_DIRECT;
import static dev.offheap.lab.experiment.GcFigures.G1_HEAP;
import static dev.offheap.lab.experiment.GcFigures.G1_POOL;
import static dev.offheap.lab.experiment.GcFigures.LOOPS;
import static dev.offheap.lab.experiment.GcFigures.NAN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.experiment.GcExperiment.Chase;
import dev.offheap.lab.experiment.GcExperiment.ChaseRun;
import dev.offheap.lab.experiment.GcExperiment.Loop;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gc experiment's verdicts: each collector's runs, pool against direct, each chase, the lesson. */
class GcVerdictTest {
    private static final String LESSON = "a buffer per message pays for its Cleaner at GC time; a pool lease costs"
            + " nothing there, and a budget turns a leak into an exception instead of the OOM killer";

    @Test
    void eachCollectorsRunsThenEachChaseThenTheLesson() {
        assertThat(GcExperiment.verdicts(LOOPS, CHASES)).containsExactly(
                "on this machine, under G1, direct: 100 k msgs/s, pauses up to 120 ms, 5.50 ms of reference"
                        + " processing; heap: 150 k msgs/s, pauses up to 200 ms, 0.200 ms of reference processing;"
                        + " pool: 200 k msgs/s, pauses up to 0.500 ms, 0.000 ms of reference processing: leasing from"
                        + " the pool ran 2.00x the throughput of a direct buffer per message",
                "on this machine, under ZGC, direct: — k msgs/s, pauses up to — ms, — ms of reference processing;"
                        + " heap: 80.0 k msgs/s, pauses up to 0.200 ms, 1.50 ms of reference processing; pool: 120 k"
                        + " msgs/s, pauses up to 0.050 ms, 0.750 ms of reference processing",
                "DirectMemoryChaser, direct, -Xmx512m: RSS peaked at 256 MiB; ran 15.0 s, 2048 MiB allocated",
                "DirectMemoryChaser, direct, -Xmx512m -XX:MaxDirectMemorySize=32m: RSS peaked at 256 MiB;"
                        + " OutOfMemoryError: Cannot reserve 1024 bytes of direct buffer memory",
                "DirectMemoryChaser, offheap pool, released, budget 32 MiB: RSS peaked at 80.0 MiB; ran 15.0 s",
                "DirectMemoryChaser, offheap pool, never released, budget 32 MiB: RSS peaked at —; exit code 137",
                LESSON);
    }

    @Test
    void noPoolToDirectRatioWhenEitherRunHasNoThroughputOrIsMissing() {
        Loop failedPool = new Loop("G1 pool", NAN, new Samples(new long[0]), NAN, -1, -1, "timed out");

        assertThat(GcExperiment.verdicts(List.of(G1_DIRECT, failedPool), List.of()).getFirst())
                .isEqualTo("on this machine, under G1, direct: 100 k msgs/s, pauses up to 120 ms, 5.50 ms of"
                        + " reference processing; pool: — k msgs/s, pauses up to — ms, — ms of reference"
                        + " processing");
        assertThat(GcExperiment.verdicts(List.of(G1_DIRECT, G1_HEAP), List.of()).getFirst())
                .isEqualTo("on this machine, under G1, direct: 100 k msgs/s, pauses up to 120 ms, 5.50 ms of"
                        + " reference processing; heap: 150 k msgs/s, pauses up to 200 ms, 0.200 ms of reference"
                        + " processing");
        assertThat(GcExperiment.verdicts(List.of(G1_POOL), List.of()).getFirst())
                .isEqualTo("on this machine, under G1, pool: 200 k msgs/s, pauses up to 0.500 ms, 0.000 ms of"
                        + " reference processing");
    }

    @Test
    void aChaseThatPeakedAtZeroHasAFigure() {
        ChaseRun zero = new ChaseRun(new Chase("pool", "pool", List.of()), List.of(), 0, "ran");

        assertThat(GcExperiment.verdicts(List.of(), List.of(zero)).get(2))
                .isEqualTo("DirectMemoryChaser, pool: RSS peaked at 0.000 MiB; ran");
    }

    @Test
    void aCollectorWithoutRunsIsNamedAlone() {
        assertThat(GcExperiment.verdicts(List.of(), List.of())).containsExactly("on this machine, under G1",
                "on this machine, under ZGC", LESSON);
    }
}
