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

/**
 * The gc experiment's verdicts: each collector's runs with throughput and the longest pause weighed on their own,
 * each chase, and a lesson that claims only what the runs showed.
 */
class GcVerdictTest {
    private static final String LESSON = "under G1 a direct buffer per message cost 5.50 ms of reference processing"
            + " (its Cleaners), pool leases 0.000 ms";
    private static final String NO_LESSON = "no lesson on Cleaners or budgets here: the runs above did not show one";

    @Test
    void eachCollectorsRunsThenEachChaseThenTheLesson() {
        assertThat(GcExperiment.verdicts(LOOPS, CHASES)).containsExactly(
                "on this machine, under G1, direct: 100 k msgs/s, pauses up to 120 ms, 5.50 ms of reference"
                        + " processing; heap: 150 k msgs/s, pauses up to 200 ms, 0.200 ms of reference processing;"
                        + " pool: 200 k msgs/s, pauses up to 0.500 ms, 0.000 ms of reference processing: highest"
                        + " throughput: pool, more than 10% ahead of direct and heap; shortest longest pause: pool (one"
                        + " run each, so one event decides); the pool ran 2.00x the throughput of a direct buffer per"
                        + " message",
                "on this machine, under ZGC, direct: — k msgs/s, pauses up to — ms, — ms of reference processing;"
                        + " heap: 80.0 k msgs/s, pauses up to 0.200 ms, 1.50 ms of reference processing; pool: 120 k"
                        + " msgs/s, pauses up to 0.050 ms, 0.750 ms of reference processing: highest throughput: pool,"
                        + " more than 10% ahead of heap; longest pauses too close to call between pool and heap (one"
                        + " run each)",
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
                        + " processing: highest throughput: heap, more than 10% ahead of direct; shortest longest"
                        + " pause: direct (one run each, so one event decides)");
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
                "on this machine, under ZGC", NO_LESSON);
    }

    // The case: the pool had the best throughput but a longer longest pause than heap buffers.
    @Test
    void theBestThroughputWithLongerPausesIsSaidToBeSoAndThePoolIsNotSaidToCostNothing() {
        Loop direct = new Loop("G1 direct", 90_000, new Samples(new long[] {30_000_000}), 3, 1, 1, null);
        Loop heap = new Loop("G1 heap", 100_000, new Samples(new long[] {5_000_000}), 0.1, 1, 1, null);
        Loop pool = new Loop("G1 pool", 130_000, new Samples(new long[] {11_900_000}), 0.1, 1, 1, null);

        List<String> verdicts = GcExperiment.verdicts(List.of(direct, heap, pool), List.of());

        assertThat(verdicts.getFirst()).endsWith(": highest throughput: pool, more than 10% ahead of direct and heap;"
                + " shortest longest pause: heap (one run each, so one event decides); the pool ran 1.44x the"
                + " throughput of a direct buffer per message");
        assertThat(verdicts.getLast()).isEqualTo("under G1 a direct buffer per message cost 3.00 ms of reference"
                + " processing (its Cleaners), pool leases 0.100 ms");
        assertThat(verdicts).noneMatch(v -> v.contains("costs nothing"));
    }

    @Test
    void pausesWithinTwoMillisecondsOrHalfTheShorterAreTooCloseToCall() {
        Loop heap = new Loop("G1 heap", 100_000, new Samples(new long[] {5_000_000}), 0.1, 1, 1, null);
        Loop pool = new Loop("G1 pool", 100_000, new Samples(new long[] {7_400_000}), 0.1, 1, 1, null);

        assertThat(GcExperiment.verdicts(List.of(heap, pool), List.of()).getFirst()).endsWith(": throughput too"
                + " close to call between heap and pool; longest pauses too close to call between heap and pool (one"
                + " run each)");
    }

    @Test
    void aLeakStoppedByItsBudgetIsTheLessonOnlyWhenTheChaseSaysSo() {
        ChaseRun stopped = new ChaseRun(new Chase("offheap pool, never released, budget 32 MiB", "pool-leak",
                List.of()), List.of(), 60 * 1024, "stopped after 32768 buffers by BudgetExceededException: budget");

        assertThat(GcExperiment.verdicts(List.of(), List.of(stopped)).getLast()).isEqualTo("the leaking pool was"
                + " stopped by its budget with an exception at 60.0 MiB RSS, not by the OOM killer");
    }

    @Test
    void theLessonNamesReferenceProcessingOnlyWhenDirectCostMoreThanAMillisecondAboveThePool() {
        Loop pool = new Loop("G1 pool", 100_000, new Samples(new long[] {1_000_000}), 1.0, 1, 1, null);
        Loop level = new Loop("G1 direct", 100_000, new Samples(new long[] {1_000_000}), 2.0, 1, 1, null);
        Loop more = new Loop("G1 direct", 100_000, new Samples(new long[] {1_000_000}), 2.5, 1, 1, null);

        assertThat(GcExperiment.lesson(List.of(level, pool), List.of())).isEqualTo(NO_LESSON);
        assertThat(GcExperiment.lesson(List.of(more, pool), List.of())).isEqualTo("under G1 a direct buffer per"
                + " message cost 2.50 ms of reference processing (its Cleaners), pool leases 1.00 ms");
    }
}
