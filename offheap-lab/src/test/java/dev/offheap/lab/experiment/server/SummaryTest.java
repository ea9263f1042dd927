package dev.offheap.lab.experiment.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
                "3.00", "5.00", "5.00", "220", "110", "0");
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
}
