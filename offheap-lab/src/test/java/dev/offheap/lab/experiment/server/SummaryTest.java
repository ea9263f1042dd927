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

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Medians and ranges over rounds, the ratio to the best of each round, failed runs left out. */
class SummaryTest {
    private static Measurement run(Workload w, String config, int round, double rps, long rssKib) {
        LoadResult load = new LoadResult((long) (rps * 10), 10, 1, 2, 3, 4, 0);
        return new Measurement(w, config, round, load, 1, 5, 5, 2 * rssKib, rssKib, null, List.of());
    }

    @Test
    void figuresAreMediansOverRoundsAndTheRatioIsToTheBestOfEachRound() {
        List<Measurement> ms = List.of(
                run(Workload.JETTY, "offheap", 1, 1000, 102400), run(Workload.JETTY, "array", 1, 800, 204800),
                run(Workload.JETTY, "offheap", 2, 500, 112640), run(Workload.JETTY, "array", 2, 1000, 225280),
                run(Workload.JETTY, "offheap", 3, 900, 122880), run(Workload.JETTY, "array", 3, 720, 245760));

        List<Summary> s = Summary.of(ms);

        assertThat(s).extracting(Summary::config).containsExactly("offheap", "array");
        Summary offheap = s.getFirst();
        assertThat(offheap.requestsPerSecond()).isEqualTo(new Range(900, 500, 1000, 3));
        assertThat(offheap.ratioToBest()).isEqualTo(1.0);
        assertThat(s.get(1).ratioToBest()).isEqualTo(0.8);
        assertThat(offheap.rssAfterIdleMib().median()).isEqualTo(110.0);
        assertThat(offheap.peakRssMib().median()).isEqualTo(220.0);
        assertThat(ShootoutTables.row(offheap)).containsExactly("offheap", "900", "500–1000", "1.00x", "1.00", "2.00",
                "3.00", "—", "5.00", "5.00", "220", "110", "0");
    }

    @Test
    void failedRunsCountOnlyAsErrorsAndFailures() {
        LoadResult broken = new LoadResult(0, 10, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 640);
        List<Measurement> ms = List.of(
                new Measurement(Workload.NETTY_HTTP, "offheap", 1, broken, 0, 0, 0, 2048, 1024,
                        "640 errors and 0 requests in the measured run", List.of()),
                run(Workload.NETTY_HTTP, "pooled", 1, 20000, 102400));

        Summary offheap = Summary.of(ms).getFirst();

        assertThat(offheap.requestsPerSecond().count()).isZero();
        assertThat(offheap.errors()).isEqualTo(640);
        assertThat(offheap.failures()).containsExactly("round 1: 640 errors and 0 requests in the measured run");
        assertThat(Summary.of(ms).get(1).ratioToBest()).isEqualTo(1.0);
        assertThat(ShootoutTables.row(offheap).get(1)).isEqualTo("—");
    }

    @Test
    void eachRoundStartsWithAnotherConfiguration() {
        List<String> configs = List.of("offheap", "adaptive", "pooled", "unpooled");

        assertThat(ServerShootout.rotated(configs, 0)).containsExactly("offheap", "adaptive", "pooled", "unpooled");
        assertThat(ServerShootout.rotated(configs, 1)).containsExactly("adaptive", "pooled", "unpooled", "offheap");
        assertThat(ServerShootout.rotated(configs, 5)).containsExactly("adaptive", "pooled", "unpooled", "offheap");
    }

    @Test
    void summariesComeByWorkloadThenConfigurationInDeclaredOrderWhateverTheOrderOfRuns() {
        List<Measurement> ms = List.of(
                run(Workload.JETTY, "array", 1, 800, 1024), run(Workload.NETTY_HTTP, "unpooled", 1, 700, 1024),
                run(Workload.JETTY, "offheap", 1, 1000, 1024), run(Workload.NETTY_HTTP, "offheap", 1, 900, 1024));

        assertThat(Summary.of(ms)).extracting(s -> s.workload().id() + " " + s.config())
                .containsExactly("netty-http offheap", "netty-http unpooled", "jetty offheap", "jetty array");
        assertThat(Summary.of(List.of())).isEmpty();
    }

    @Test
    void theBestOfARoundIsTakenWithinTheWorkloadAmongRunsThatDidNotFail() {
        LoadResult fast = new LoadResult(1_000_000, 10, 1, 2, 3, 4, 0);
        List<Measurement> ms = List.of(
                run(Workload.NETTY_HTTP, "offheap", 1, 1000, 1024), run(Workload.NETTY_HTTP, "pooled", 1, 800, 1024),
                new Measurement(Workload.NETTY_HTTP, "adaptive", 1, fast, 1, 5, 5, 2048, 1024, "server crashed",
                        List.of()),
                run(Workload.NETTY_HTTP, "offheap", 2, 400, 1024), run(Workload.NETTY_HTTP, "pooled", 2, 500, 1024),
                run(Workload.JETTY, "offheap", 1, 5000, 1024));

        List<Summary> s = Summary.of(ms);

        assertThat(s).extracting(Summary::config).containsExactly("offheap", "adaptive", "pooled", "offheap");
        assertThat(s.get(0).ratioToBest()).as("median of 1.0 and 0.8").isEqualTo(0.9);
        assertThat(s.get(2).ratioToBest()).as("median of 0.8 and 1.0").isEqualTo(0.9);
        assertThat(s.get(1).ratioToBest()).as("failed in its only round").isNaN();
        assertThat(s.get(1).failures()).containsExactly("round 1: server crashed");
        assertThat(s.get(3).ratioToBest()).isEqualTo(1.0);
    }

    @Test
    void aRunWithoutLoadFiguresHasNoRatioAndDoesNotSpoilTheOthers() {
        Measurement noLoad = new Measurement(Workload.JETTY, "offheap", 1, null, 0, Double.NaN, Double.NaN, -1, -1,
                null, List.of());

        List<Summary> s = Summary.of(List.of(noLoad, run(Workload.JETTY, "array", 1, 800, 1024)));

        Summary offheap = s.getFirst();
        assertThat(offheap.requestsPerSecond().count()).isZero();
        assertThat(offheap.ratioToBest()).isNaN();
        assertThat(offheap.p50Ms().count()).isZero();
        assertThat(offheap.p99Ms().count()).isZero();
        assertThat(offheap.p999Ms().count()).isZero();
        assertThat(offheap.gcPauseMaxMs()).isNaN();
        assertThat(offheap.peakRssMib().count()).isZero();
        assertThat(offheap.rssAfterIdleMib().count()).isZero();
        assertThat(offheap.errors()).isZero();
        assertThat(s.get(1).ratioToBest()).isEqualTo(1.0);
    }

    @Test
    void errorsAddUpOverEveryRunAndGcMaxIsTheLongestPauseOfAnyRound() {
        List<Measurement> ms = List.of(
                new Measurement(Workload.JETTY, "offheap", 1, new LoadResult(1000, 1, 1, 2, 3, 4, 3), 2, 7, 5, 4096,
                        2048, null, List.of()),
                new Measurement(Workload.JETTY, "offheap", 2, new LoadResult(2000, 1, 2, 4, 6, 8, 4), 1, 9, 9, 8192,
                        3072, null, List.of()),
                new Measurement(Workload.JETTY, "offheap", 3, new LoadResult(0, 1, 9, 9, 9, 9, 5), 0, 0, Double.NaN,
                        -1, -1, "5 errors and 0 requests", List.of()),
                Measurement.failed(Workload.JETTY, "offheap", 4, "no port", List.of()));

        Summary s = Summary.of(ms).getFirst();

        assertThat(s.errors()).isEqualTo(12);
        assertThat(s.gcPauseMaxMs()).isEqualTo(9.0);
        assertThat(s.requestsPerSecond()).isEqualTo(new Range(1500, 1000, 2000, 2));
        assertThat(s.p50Ms()).isEqualTo(new Range(1.5, 1, 2, 2));
        assertThat(s.p99Ms()).isEqualTo(new Range(3, 2, 4, 2));
        assertThat(s.p999Ms()).isEqualTo(new Range(4.5, 3, 6, 2));
        assertThat(s.gcPauseTotalMs()).isEqualTo(new Range(8, 7, 9, 2));
        assertThat(s.peakRssMib()).isEqualTo(new Range(6, 4, 8, 2));
        assertThat(s.rssAfterIdleMib()).isEqualTo(new Range(2.5, 2, 3, 2));
        assertThat(s.failures()).containsExactly("round 3: 5 errors and 0 requests", "round 4: no port");
    }

    @Test
    void jsonHasEveryFigureAsMedianMinAndMax() {
        Summary s = new Summary(Workload.NETTY_HTTP, "offheap", Range.of(900, 1000), 0.95, Range.of(1),
                Range.of(2, 4), Range.of(3), Range.of(), Double.NaN, Range.of(220), Range.of(110), 7,
                List.of("round 2: crashed"));

        Map<String, Object> json = s.json();

        assertThat(json.keySet()).containsExactly("workload", "config", "rounds", "requestsPerSecond",
                "ratioToBestInRound", "p50Ms", "p99Ms", "p999Ms", "gcPauseTotalMs", "gcPauseMaxMs",
                "heapBytesPerRequest", "peakRssBytes", "rssAfterIdleBytes", "errors", "failures");
        assertThat(json).containsEntry("workload", "netty-http").containsEntry("config", "offheap")
                .containsEntry("rounds", 2).containsEntry("ratioToBestInRound", 0.95)
                .containsEntry("gcPauseMaxMs", Double.NaN).containsEntry("errors", 7L)
                .containsEntry("failures", List.of("round 2: crashed"));
        assertThat(json.get("requestsPerSecond")).isEqualTo(Map.of("median", 950.0, "min", 900.0, "max", 1000.0));
        assertThat(List.copyOf(((Map<?, ?>) json.get("requestsPerSecond")).keySet()))
                .isEqualTo(List.of("median", "min", "max"));
        assertThat(json.get("p50Ms")).isEqualTo(Map.of("median", 1.0, "min", 1.0, "max", 1.0));
        assertThat(json.get("p99Ms")).isEqualTo(Map.of("median", 3.0, "min", 2.0, "max", 4.0));
        assertThat(json.get("p999Ms")).isEqualTo(Map.of("median", 3.0, "min", 3.0, "max", 3.0));
        assertThat(json.get("gcPauseTotalMs")).isEqualTo(Map.of("median", Double.NaN, "min", Double.NaN, "max",
                Double.NaN));
        assertThat(json.get("peakRssBytes")).isEqualTo(Map.of("median", 220.0 * (1 << 20), "min", 220.0 * (1 << 20),
                "max", 220.0 * (1 << 20)));
        assertThat(json.get("rssAfterIdleBytes")).isEqualTo(Map.of("median", 110.0 * (1 << 20), "min",
                110.0 * (1 << 20), "max", 110.0 * (1 << 20)));
    }
}
