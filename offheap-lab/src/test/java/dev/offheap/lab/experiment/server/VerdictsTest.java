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

package dev.offheap.lab.experiment.server;

import dev.offheap.lab.experiment.Range;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The verdicts name a winner only beyond one run's noise, and say which figure decides. */
class VerdictsTest {
    private static Map<String, Range> values(Object... pairs) {
        Map<String, Range> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            double[] v = (double[]) pairs[i + 1];
            m.put((String) pairs[i], Range.of(v));
        }
        return m;
    }

    @Test
    void aSpreadWithinNoiseNamesNoWinner() {
        String v = Verdicts.compare("Netty HTTP, throughput", "the median of req/s decides",
                values("offheap", new double[] {25000}, "adaptive", new double[] {24000}, "pooled",
                        new double[] {23000}), true, 0.10, 0, "req/s");

        assertThat(v).isEqualTo("Netty HTTP, throughput: no winner, every configuration is within one run's noise"
                + " (10%) of the best (offheap 25000 req/s, adaptive 24000 req/s, pooled 23000 req/s);"
                + " the median of req/s decides");
    }

    @Test
    void aLeadBeyondNoiseNamesTheWinner() {
        String v = Verdicts.compare("Jetty 1 MiB, RSS after idle", "the median of VmRSS after idle decides",
                values("offheap", new double[] {96.3}, "array", new double[] {406}), false, 0.10, 8, "MiB");

        assertThat(v).isEqualTo("Jetty 1 MiB, RSS after idle: offheap is best (96.3 MiB), ahead of every other"
                + " configuration (array 406 MiB) by more than one run's noise (10%, at least 8.00 MiB);"
                + " the median of VmRSS after idle decides");
    }

    @Test
    void overlappingRoundsAreNoLeadEvenWhenTheMediansDiffer() {
        String v = Verdicts.compare("echo, throughput", "the median of req/s decides",
                values("offheap", new double[] {50000, 60000, 40000}, "pooled", new double[] {42000, 43000, 52000}),
                true, 0.10, 0, "req/s");

        assertThat(v).startsWith("echo, throughput: no winner").contains("offheap 50000 req/s, pooled 43000 req/s");
    }

    @Test
    void someWithinNoiseAndSomeBehindIsNoSingleWinner() {
        String v = Verdicts.compare("p99", "the median of p99 decides", values("offheap", new double[] {10.0},
                "adaptive", new double[] {10.5}, "unpooled", new double[] {20.0}), false, 0.10, 0.05, "ms");

        assertThat(v).isEqualTo("p99: no single winner, offheap 10.0 ms, adaptive 10.5 ms lead within one run's"
                + " noise (10%, at least 0.050 ms) of each other, ahead of unpooled 20.0 ms;"
                + " the median of p99 decides");
    }

    @Test
    void differencesBelowTheFloorAreNoise() {
        String v = Verdicts.compare("GC", "total decides", values("offheap", new double[] {0.5}, "pooled",
                new double[] {1.5}), false, 0.10, 2, "ms");

        assertThat(v).startsWith("GC: no winner");
    }

    @Test
    void aWorkloadWithFewerThanTwoMeasuredConfigurationsIsNotCompared() {
        Summary failed = new Summary(Workload.JETTY, "offheap", Range.of(), Double.NaN, Range.of(), Range.of(),
                Range.of(), Range.of(), Double.NaN, Range.of(), Range.of(), 12, List.of("round 1: 12 errors"));
        Summary array = new Summary(Workload.JETTY, "array", Range.of(1000), 1.0, Range.of(1), Range.of(2),
                Range.of(3), Range.of(4), 4, Range.of(300), Range.of(200), 0, List.of());

        assertThat(Verdicts.of(Workload.JETTY, List.of(failed, array))).containsExactly(
                "Jetty 12.1, 16 KiB responses (wrk): fewer than two configurations measured, nothing to compare");
    }

    @Test
    void aWorkloadGetsOneVerdictPerDecidingFigure() {
        Summary offheap = new Summary(Workload.JETTY, "offheap", Range.of(1000), 1.0, Range.of(1), Range.of(2),
                Range.of(3), Range.of(4), 4, Range.of(150), Range.of(90), 0, List.of());
        Summary array = new Summary(Workload.JETTY, "array", Range.of(990), 0.99, Range.of(1), Range.of(2),
                Range.of(3), Range.of(4), 4, Range.of(300), Range.of(200), 0, List.of());

        assertThat(Verdicts.of(Workload.JETTY, List.of(offheap, array))).satisfiesExactly(
                v -> assertThat(v).contains("throughput: no winner"),
                v -> assertThat(v).contains("p99 latency: no winner"),
                v -> assertThat(v).contains("GC pauses: no winner"),
                v -> assertThat(v).contains("heap per request: fewer than two configurations have this figure"),
                v -> assertThat(v).contains("RSS after idle: offheap is best (90.0 MiB)"));
    }

    @Test
    void oneGcPauseMoreOrLessIsNoVerdict() {
        // A short run: one configuration had no pause, another one pause of 12.8 ms (the lab's quick mode).
        Summary adaptive = new Summary(Workload.NETTY_HTTP, "adaptive", Range.of(23724), 1.0, Range.of(2),
                Range.of(12), Range.of(17), Range.of(0), 0, Range.of(181), Range.of(91), 0, List.of());
        Summary offheap = new Summary(Workload.NETTY_HTTP, "offheap", Range.of(22131), 0.93, Range.of(2),
                Range.of(12), Range.of(18), Range.of(12.8), 12.8, Range.of(204), Range.of(101), 0, List.of());

        assertThat(Verdicts.of(Workload.NETTY_HTTP, List.of(adaptive, offheap)).get(2))
                .contains("GC pauses: no winner").contains("at least 12.8 ms");
    }

    @Test
    void gcPausesApartByMoreThanTheLongestPauseNameTheBest() {
        Summary pooled = new Summary(Workload.NETTY_HTTP, "pooled", Range.of(55717), 1.0, Range.of(1),
                Range.of(6), Range.of(11), Range.of(28.6), 8.92, Range.of(323), Range.of(97), 0, List.of());
        Summary offheap = new Summary(Workload.NETTY_HTTP, "offheap", Range.of(58737), 1.0, Range.of(1),
                Range.of(6), Range.of(13), Range.of(61.8), 17.9, Range.of(334), Range.of(107), 0, List.of());

        assertThat(Verdicts.of(Workload.NETTY_HTTP, List.of(pooled, offheap)).get(2))
                .contains("GC pauses: pooled is best (28.6 ms)").contains("at least 17.9 ms");
    }

    @Test
    void aThroughputLeadBeyondNoiseNamesTheHighestWithoutAFloor() {
        String v = Verdicts.compare("Netty HTTP, throughput", "the median of req/s decides",
                values("adaptive", new double[] {25000}, "offheap", new double[] {30000}, "pooled",
                        new double[] {20000}), true, 0.10, 0, "req/s");

        assertThat(v).isEqualTo("Netty HTTP, throughput: offheap is best (30000 req/s), ahead of every other"
                + " configuration (adaptive 25000 req/s, pooled 20000 req/s) by more than one run's noise (10%);"
                + " the median of req/s decides");
    }

    @Test
    void aDifferenceOfExactlyTheNoiseIsStillNoise() {
        String atNoise = Verdicts.compare("t", "d", values("offheap", new double[] {1000}, "pooled",
                new double[] {900}), true, 0.10, 0, "req/s");
        String beyond = Verdicts.compare("t", "d", values("offheap", new double[] {1000}, "pooled",
                new double[] {899}), true, 0.10, 0, "req/s");

        assertThat(atNoise).isEqualTo("t: no winner, every configuration is within one run's noise (10%) of the best"
                + " (offheap 1000 req/s, pooled 900 req/s); d");
        assertThat(beyond).isEqualTo("t: offheap is best (1000 req/s), ahead of every other configuration (pooled"
                + " 899 req/s) by more than one run's noise (10%); d");
    }

    @Test
    void aDifferenceOfExactlyTheFloorIsStillNoise() {
        String atFloor = Verdicts.compare("rss", "d", values("offheap", new double[] {10}, "array",
                new double[] {18}), false, 0.10, 8, "MiB");
        String beyond = Verdicts.compare("rss", "d", values("offheap", new double[] {10}, "array",
                new double[] {18.5}), false, 0.10, 8, "MiB");

        assertThat(atFloor).startsWith("rss: no winner");
        assertThat(beyond).isEqualTo("rss: offheap is best (10.0 MiB), ahead of every other configuration (array"
                + " 18.5 MiB) by more than one run's noise (10%, at least 8.00 MiB); d");
    }

    @Test
    void roundsThatTouchAreNotApart() {
        String higher = Verdicts.compare("t", "d", values("offheap", new double[] {1000, 1200}, "pooled",
                new double[] {800, 1000}), true, 0.10, 0, "req/s");
        String lower = Verdicts.compare("p99", "d", values("offheap", new double[] {10, 12}, "pooled",
                new double[] {12, 14}), false, 0.10, 0, "ms");

        assertThat(higher).startsWith("t: no winner").contains("offheap 1100 req/s, pooled 900 req/s");
        assertThat(lower).startsWith("p99: no winner").contains("offheap 11.0 ms, pooled 13.0 ms");
    }

    @Test
    void roundsThatDoNotTouchAreApart() {
        String higher = Verdicts.compare("t", "d", values("offheap", new double[] {1000, 1200}, "pooled",
                new double[] {800, 999}), true, 0.10, 0, "req/s");
        String lower = Verdicts.compare("p99", "d", values("offheap", new double[] {10, 12}, "pooled",
                new double[] {12.1, 14}), false, 0.10, 0, "ms");

        assertThat(higher).startsWith("t: offheap is best (1100 req/s)");
        assertThat(lower).startsWith("p99: offheap is best (11.0 ms)");
    }

    @Test
    void aTieForBestGoesToTheFirstConfiguration() {
        String v = Verdicts.compare("t", "d", values("pooled", new double[] {1000}, "offheap", new double[] {1000}),
                true, 0.10, 0, "req/s");

        assertThat(v).isEqualTo("t: no winner, every configuration is within one run's noise (10%) of the best"
                + " (pooled 1000 req/s, offheap 1000 req/s); d");
    }

    @Test
    void aFigureOnlyOneConfigurationHasIsNotCompared() {
        String v = Verdicts.compare("GC", "d", values("offheap", new double[] {3}), false, 0.10, 2, "ms");

        assertThat(v).isEqualTo("GC: fewer than two configurations have this figure, nothing to compare");
    }

    @Test
    void aWorkloadComparesOnlyItsOwnConfigurationsAndOnlyFiguresTheyHave() {
        Summary offheap = new Summary(Workload.JETTY, "offheap", Range.of(1000), 1.0, Range.of(1), Range.of(2),
                Range.of(3), Range.of(), Double.NaN, Range.of(150), Range.of(90), 0, List.of());
        Summary array = new Summary(Workload.JETTY, "array", Range.of(500), 0.5, Range.of(1), Range.of(2),
                Range.of(3), Range.of(30), 1, Range.of(300), Range.of(200), 0, List.of());
        Summary otherWorkload = new Summary(Workload.NETTY_HTTP, "pooled", Range.of(9000), 1.0, Range.of(1),
                Range.of(2), Range.of(3), Range.of(4), 4, Range.of(300), Range.of(200), 0, List.of());

        assertThat(Verdicts.of(Workload.JETTY, List.of(otherWorkload, offheap, array))).containsExactly(
                "Jetty 12.1, 16 KiB responses (wrk), throughput: offheap is best (1000 req/s), ahead of every other"
                        + " configuration (array 500 req/s) by more than one run's noise (10%); the median of req/s"
                        + " decides",
                "Jetty 12.1, 16 KiB responses (wrk), p99 latency: no winner, every configuration is within one run's"
                        + " noise (10%, at least 0.050 ms) of the best (offheap 2.00 ms, array 2.00 ms); the median of"
                        + " p99 decides",
                "Jetty 12.1, 16 KiB responses (wrk), GC pauses: fewer than two configurations have this figure,"
                        + " nothing to compare",
                "Jetty 12.1, 16 KiB responses (wrk), heap per request: fewer than two configurations have this"
                        + " figure, nothing to compare",
                "Jetty 12.1, 16 KiB responses (wrk), RSS after idle: offheap is best (90.0 MiB), ahead of every other"
                        + " configuration (array 200 MiB) by more than one run's noise (10%, at least 8.00 MiB); the"
                        + " median of VmRSS after idle decides");
    }

    @Test
    void gcPausesUseTheTwoMillisecondFloorWhenNoPauseIsLongerAndIgnoreMissingMaxima() {
        Summary offheap = new Summary(Workload.NETTY_HTTP, "offheap", Range.of(1000), 1.0, Range.of(1), Range.of(2),
                Range.of(3), Range.of(1), 0.5, Range.of(150), Range.of(90), 0, List.of());
        Summary pooled = new Summary(Workload.NETTY_HTTP, "pooled", Range.of(1000), 1.0, Range.of(1), Range.of(2),
                Range.of(3), Range.of(3.5), Double.NaN, Range.of(150), Range.of(90), 0, List.of());

        assertThat(Verdicts.of(Workload.NETTY_HTTP, List.of(offheap, pooled)).get(2)).isEqualTo(
                "Netty HTTP/1.1, 16 KiB responses (wrk), GC pauses: offheap is best (1.00 ms), ahead of every other"
                        + " configuration (pooled 3.50 ms) by more than one run's noise (10%, at least 2.00 ms); the"
                        + " median of the total pause time decides");
    }
}
