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
import static dev.offheap.lab.experiment.GcFigures.NAN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import dev.offheap.lab.ExperimentResult.Table;
import dev.offheap.lab.experiment.GcExperiment.Chase;
import dev.offheap.lab.experiment.GcExperiment.ChaseRun;
import dev.offheap.lab.experiment.GcExperiment.Loop;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gc experiment's tables and charts from fixed runs. */
class GcTablesTest {
    @Test
    void loopTableHasEachRunsThroughputRatioPausesAndMemory() {
        Table table = GcExperiment.loopTable(LOOPS);

        assertThat(table.title()).isEqualTo("Message loop, 8192-byte messages, a child JVM per run");
        assertThat(table.columns()).containsExactly("run", "seed 000 (2020, AWS m5.large, JDK 13)",
                "this machine (" + Cells.jdk() + "), k msgs/s", "ratio to best throughput", "pause max ms",
                "pause p99 ms", "pauses", "reference processing ms", "peak RSS", "peak off-heap");
        assertThat(table.rows()).containsExactly(
                List.of("G1 direct", "RSocket echo app, G1: young pauses 100-130 ms every ~10 s", "100", "0.50x",
                        "120", "120", "3", "5.50", "200 MiB", "64.0 MiB"),
                List.of("G1 heap", "—", "150", "0.75x", "200", "198", "200", "0.200", "150 MiB", "0.000 MiB"),
                List.of("G1 pool", "pooling (Netty ByteBuf) recommended, not measured", "200", "1.00x", "0.500",
                        "0.500", "1", "0.000", "100 MiB", "8.00 MiB"),
                List.of("ZGC direct", "same app, Shenandoah: 86 ms 'process weakrefs' pauses every ~1 min", "—",
                        "—", "—", "—", "0", "—", "—", "—"),
                List.of("ZGC heap", "after the fix (allocate), Shenandoah: sub-millisecond pauses", "80.0", "0.40x",
                        "0.200", "0.200", "2", "1.50", "300 MiB", "0.000 MiB"),
                List.of("ZGC pool", "—", "120", "0.60x", "0.050", "0.050", "1", "0.750", "250 MiB", "16.0 MiB"));
    }

    @Test
    void loopTableWithoutAnyThroughputHasNoRatios() {
        Table table = GcExperiment.loopTable(List.of(GcFigures.ZGC_DIRECT_FAILED));

        assertThat(table.rows().getFirst().subList(2, 4)).containsExactly("—", "—");
    }

    @Test
    void aPeakOfZeroIsAFigureNotAMissingOne() {
        Loop nothing = new Loop("G1 heap", 1000, new Samples(new long[0]), 0, 0, 0, null);

        assertThat(GcExperiment.loopTable(List.of(nothing)).rows().getFirst().subList(8, 10))
                .containsExactly("0.000 MiB", "0.000 MiB");
    }

    @Test
    void chaseTableComparesPeakRssWithTheContainerCapAndTheSmallestPeak() {
        Table table = GcExperiment.chaseTable(CHASES);

        assertThat(table.title()).isEqualTo("DirectMemoryChaser: an endless loop of 1 KiB buffers");
        assertThat(table.columns()).containsExactly("run", "seed 000 (2020, JDK 13, 8 GB VM)",
                "this machine, peak RSS", "vs a 256 MiB container cap", "ratio to best (peak RSS)", "outcome");
        assertThat(table.rows()).containsExactly(
                List.of("direct, -Xmx512m",
                        "DirectMemoryChaser, -Xmx6G on an 8 GB VM: OOM-killed after ~24 s at 7.3 GiB anon RSS",
                        "256 MiB", "over", "3.20x", "ran 15.0 s, 2048 MiB allocated"),
                List.of("direct, -Xmx512m -XX:MaxDirectMemorySize=32m", "—", "256 MiB", "within", "3.20x",
                        "OutOfMemoryError: Cannot reserve 1024 bytes of direct buffer memory"),
                List.of("offheap pool, released, budget 32 MiB", "—", "80.0 MiB", "within", "1.00x", "ran 15.0 s"),
                List.of("offheap pool, never released, budget 32 MiB", "—", "—", "—", "—", "exit code 137"));
    }

    @Test
    void chaseTableHasNoRatioWithoutAPositivePeak() {
        ChaseRun zero = new ChaseRun(new Chase("pool", "pool", List.of("-Xmx512m")), List.of(), 0, "ran");

        Table table = GcExperiment.chaseTable(List.of(zero, GcFigures.LEAK_FAILED));

        assertThat(table.rows().getFirst()).containsExactly("pool", "—", "0.000 MiB", "within", "—", "ran");
    }

    @Test
    void aPeakOfZeroHasARatioToTheSmallestPositivePeak() {
        ChaseRun zero = new ChaseRun(new Chase("pool", "pool", List.of("-Xmx512m")), List.of(), 0, "ran");

        Table table = GcExperiment.chaseTable(List.of(zero, GcFigures.POOL));

        assertThat(table.rows()).extracting(row -> row.get(4)).containsExactly("0.00x", "1.00x");
    }

    @Test
    void pauseChartHasTheMaxAndP99OfEveryRunOnALogScale() {
        Chart pauses = GcExperiment.charts(LOOPS, CHASES, 15_000).getFirst();

        assertThat(pauses.title()).isEqualTo("Stop-the-world pauses per run (lower is better)");
        assertThat(pauses.unit()).isEqualTo("ms");
        assertThat(pauses.logScale()).isTrue();
        assertThat(pauses.categories()).containsExactly("G1 direct", "G1 heap", "G1 pool", "ZGC direct", "ZGC heap",
                "ZGC pool");
        assertThat(pauses.series()).extracting(Series::name).containsExactly("max", "p99");
        assertThat(pauses.series().get(0).values()).containsExactly(120.0, 200.0, 0.5, NAN, 0.2, 0.05);
        assertThat(pauses.series().get(1).values()).containsExactly(120.0, 198.0, 0.5, NAN, 0.2, 0.05);
    }

    @Test
    void throughputChartIsInThousandsOfMessagesPerSecond() {
        Chart rate = GcExperiment.charts(LOOPS, CHASES, 15_000).get(1);

        assertThat(rate.title()).isEqualTo("Message loop throughput (higher is better)");
        assertThat(rate.unit()).isEqualTo("k msgs/s");
        assertThat(rate.logScale()).isFalse();
        assertThat(rate.categories()).hasSize(6);
        assertThat(rate.series()).singleElement().satisfies(s -> {
            assertThat(s.name()).isEqualTo("this machine");
            assertThat(s.values()).containsExactly(100.0, 150.0, 200.0, NAN, 80.0, 120.0);
        });
    }

    @Test
    void rssChartIsALinePerChaseOverElevenSamplingTimes() {
        Chart rss = GcExperiment.charts(LOOPS, CHASES, 15_000).get(2);

        assertThat(rss.title()).isEqualTo("DirectMemoryChaser: RSS over time");
        assertThat(rss.kind()).isEqualTo(Chart.Kind.LINES);
        assertThat(rss.unit()).isEqualTo("MiB");
        assertThat(rss.logScale()).isFalse();
        assertThat(rss.categories()).containsExactly("0.00 s", "1.50 s", "3.00 s", "4.50 s", "6.00 s", "7.50 s",
                "9.00 s", "10.50 s", "12.00 s", "13.50 s", "15.00 s");
        assertThat(rss.series()).extracting(Series::name).containsExactly("direct, -Xmx512m",
                "direct, -Xmx512m -XX:MaxDirectMemorySize=32m", "offheap pool, released, budget 32 MiB",
                "offheap pool, never released, budget 32 MiB");
        assertThat(rss.series().get(2).values()).isEqualTo(Collections.nCopies(11, 80.0));
    }

    @Test
    void rssChartTimesFollowTheSamplingIntervalInWholeMilliseconds() {
        assertThat(GcExperiment.charts(LOOPS, CHASES, 505).get(2).categories())
                .startsWith("0.00 s", "0.05 s").endsWith("0.50 s");
    }
}
