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
import static dev.offheap.lab.experiment.GcFigures.LOOPS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.experiment.GcExperiment.ChaseRun;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gc experiment's result from fixed runs: its tables, charts and verdicts, its notes, its raw figures. */
class GcResultTest {
    private final ExperimentResult result = new GcExperiment().result(LOOPS, CHASES, 4000, 3000);

    @Test
    void carriesTheLoopAndChaseTablesTheChartsAndTheVerdicts() {
        assertThat(result.name()).isEqualTo("gc");
        assertThat(result.title()).isEqualTo(new GcExperiment().title());
        assertThat(result.tables()).containsExactly(GcExperiment.loopTable(LOOPS), GcExperiment.chaseTable(CHASES));
        assertThat(result.charts()).isEqualTo(GcExperiment.charts(LOOPS, CHASES, 3000));
        assertThat(result.verdicts()).isEqualTo(GcExperiment.verdicts(LOOPS, CHASES));
    }

    @Test
    void notesSayHowItRanThenWhatWasSkippedAndWhichChaseFailed() {
        assertThat(result.notes()).hasSize(7);
        assertThat(result.notes().getFirst()).startsWith("message loop: one child JVM per run, -Xmx256m -Xms256m,"
                + " 8192-byte messages, 4000 ms each, -Xlog:gc,gc+phases=debug,safepoint:file=<file>; ");
        assertThat(result.notes().get(3)).contains("each run bounded to 3000 ms; a 256 MiB container cap");
        assertThat(result.notes().subList(5, 7)).containsExactly("skipped ZGC direct: exit code 1",
                "chaser offheap pool, never released, budget 32 MiB: exit code 137");
    }

    @Test
    void rawFiguresAreEachRunsNumbersInMillisecondsAndBytes() {
        assertThat(result.raw()).containsOnlyKeys("G1 direct", "G1 heap", "G1 pool", "ZGC direct", "ZGC heap",
                "ZGC pool", "chaser direct, -Xmx512m", "chaser direct, -Xmx512m -XX:MaxDirectMemorySize=32m",
                "chaser offheap pool, released, budget 32 MiB", "chaser offheap pool, never released, budget 32 MiB");
        assertThat(result.raw().get("G1 heap")).isEqualTo(Map.of("messagesPerSecond", 150_000.0, "pauseMaxMs", 200.0,
                "pauseP99Ms", 198.0, "pauses", 200, "referenceProcessingMs", 0.2, "peakRssBytes", 150L << 20,
                "peakOffHeapBytes", 0L));
        assertThat(List.<Object>copyOf(((Map<?, ?>) result.raw().get("G1 heap")).keySet())).containsExactly(
                "messagesPerSecond", "pauseMaxMs", "pauseP99Ms", "pauses", "referenceProcessingMs", "peakRssBytes",
                "peakOffHeapBytes");
        assertThat(result.raw().get("chaser offheap pool, released, budget 32 MiB")).isEqualTo(Map.of(
                "peakRssBytes", 80L << 20, "outcome", "ran 15.0 s", "rssBytesEveryTenth",
                Collections.nCopies(11, 80.0 * (1 << 20))));
    }

    @Test
    void runsWithoutFailuresAddNoSkipOrChaserNotes() {
        ExperimentResult clean = new GcExperiment().result(List.of(GcFigures.G1_HEAP), List.of(GcFigures.POOL), 400,
                500);

        assertThat(clean.notes()).hasSize(5).noneMatch(n -> n.startsWith("skipped") || n.startsWith("chaser offheap"));
    }

    @Test
    void aChaseThatPeakedAtZeroDidNotFail() {
        ChaseRun zero = new ChaseRun(GcFigures.POOL.chase(), GcFigures.POOL.rssMib(), 0, "ran 15.0 s");

        assertThat(new GcExperiment().result(List.of(GcFigures.G1_HEAP), List.of(zero), 400, 500).notes())
                .hasSize(5);
    }
}
