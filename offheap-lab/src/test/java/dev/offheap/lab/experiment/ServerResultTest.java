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
import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import dev.offheap.lab.experiment.ServerExperiment.Run;
import dev.offheap.lab.experiment.server.LoadClient;
import dev.offheap.lab.experiment.server.ServerShootout;
import dev.offheap.lab.experiment.server.Summary;
import dev.offheap.lab.experiment.server.Workload;
import dev.offheap.lab.experiment.server.Wrk;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The server experiment's table, charts, verdicts and raw figures from fixed runs. */
class ServerResultTest {
    private static final double NAN = Double.NaN;

    /** heap: 5000 req/s, latencies 1-4 ms, wrk; pool: 6000 req/s, 0.5 and 0.7 ms, no wrk; the others not run. */
    private static Map<String, Run> runs() {
        Map<String, Run> m = new LinkedHashMap<>();
        m.put("heap", new Run(new LoadClient.Load(10_000, new long[0], 2.0, 0),
                new Samples(new long[] {1_000_000, 2_000_000, 3_000_000, 4_000_000}),
                new Wrk.Report(12_345.67, 0.5, 4.5, 12.9)));
        m.put("pool", new Run(new LoadClient.Load(12_000, new long[0], 2.0, 0),
                new Samples(new long[] {500_000, 700_000}), null));
        return m;
    }

    private static ExperimentResult result(Map<String, Run> runs, ServerShootout.Results shootout) {
        return new ServerExperiment().result(runs, List.of("a note"), shootout);
    }

    @Test
    void tableHasEveryStrategyWithTheSeedsFigureRatioLatenciesAndWrk() {
        ExperimentResult.Table table = result(runs(), null).tables().getFirst();

        assertThat(table.title()).isEqualTo("Static 16 KiB file over HTTP/1.1 keep-alive, loopback");
        assertThat(table.columns()).containsExactly("strategy",
                "seed 001 (2007, Grizzly, JDK 6 client VM, ab -k -c600), tx/s",
                "this machine (" + Cells.jdk() + "), req/s", "ratio to best", "p50 ms", "p99 ms", "max ms",
                "wrk req/s", "wrk p99 ms");
        assertThat(table.rows()).containsExactly(
                List.of("heap", "2269", "5000", "0.83x", "2.00", "4.00", "4.00", "12346", "4.50"),
                List.of("direct", "2241", "—", "—", "—", "—", "—", "—", "—"),
                List.of("heap-view", "2484", "—", "—", "—", "—", "—", "—", "—"),
                List.of("direct-view", "2304", "—", "—", "—", "—", "—", "—", "—"),
                List.of("pool", "—", "6000", "1.00x", "0.500", "0.700", "0.700", "—", "—"));
    }

    @Test
    void chartsCompareThroughputWithTheSeedAndShowLatencies() {
        List<Chart> charts = result(runs(), null).charts();

        assertThat(charts).hasSize(2);
        Chart rate = charts.get(0);
        assertThat(rate.title()).isEqualTo("Requests per second by buffer strategy (higher is better)");
        assertThat(rate.unit()).isEqualTo("req/s");
        assertThat(rate.logScale()).isTrue();
        assertThat(rate.categories()).containsExactly("heap", "direct", "heap-view", "direct-view", "pool");
        assertThat(rate.series()).extracting(Series::name).containsExactly("seed 001 (Grizzly, JDK 6)", "this machine");
        assertThat(rate.series().get(0).values()).containsExactly(2269.0, 2241.0, 2484.0, 2304.0, NAN);
        assertThat(rate.series().get(1).values()).containsExactly(5000.0, NAN, NAN, NAN, 6000.0);
        Chart latency = charts.get(1);
        assertThat(latency.title()).isEqualTo("Latency by buffer strategy (lower is better)");
        assertThat(latency.unit()).isEqualTo("ms");
        assertThat(latency.logScale()).isFalse();
        assertThat(latency.series()).extracting(Series::name).containsExactly("p50", "p99");
        assertThat(latency.series().get(0).values()).containsExactly(2.0, NAN, NAN, NAN, 0.5);
        assertThat(latency.series().get(1).values()).containsExactly(4.0, NAN, NAN, NAN, 0.7);
    }

    @Test
    void verdictsNotesAndRawFiguresOfTheSeedsPart() {
        ExperimentResult r = result(runs(), null);

        assertThat(r.name()).isEqualTo("server");
        assertThat(r.verdicts()).hasSize(2).first().asString()
                .startsWith("on this machine, pool serves the most requests (6000 req/s); the slowest strategy is 17%"
                        + " lower");
        assertThat(r.notes()).containsExactly("a note");
        assertThat(r.raw()).containsExactly(
                Map.entry("heap", Map.of("requestsPerSecond", 5000.0, "p50Ms", 2.0, "p99Ms", 4.0, "maxMs", 4.0)),
                Map.entry("pool", Map.of("requestsPerSecond", 6000.0, "p50Ms", 0.5, "p99Ms", 0.7, "maxMs", 0.7)));
    }

    @Test
    void nothingRunLeavesOnlyTheSeedsFigures() {
        ExperimentResult r = result(Map.of(), null);

        assertThat(r.tables().getFirst().rows().getFirst())
                .containsExactly("heap", "2269", "—", "—", "—", "—", "—", "—", "—");
        assertThat(r.verdicts()).containsExactly("on this machine, the server was not measured: see the notes");
        assertThat(r.raw()).isEmpty();
    }

    @Test
    void theFrameworksPartAddsItsTablesChartsVerdictsInWorkloadOrderAndRawNumbers() {
        List<Summary> summaries = List.of(summary(Workload.JETTY_1M, "offheap", 100), summary(Workload.JETTY_1M,
                "array", 400), summary(Workload.NETTY_HTTP, "offheap", 90), summary(Workload.NETTY_HTTP, "pooled", 95));
        ServerShootout.Results shootout = new ServerShootout.Results(ServerExperiment.frameworkSettings(
                dev.offheap.lab.LabContext.Scale.QUICK).orElseThrow(), List.of(), summaries, List.of());

        ExperimentResult r = result(runs(), shootout);

        assertThat(r.tables()).extracting(ExperimentResult.Table::title).containsExactly(
                "Static 16 KiB file over HTTP/1.1 keep-alive, loopback", "Netty HTTP/1.1, 16 KiB responses (wrk)",
                "Jetty 12.1, 1 MiB responses (wrk)");
        assertThat(r.charts()).hasSize(4);
        assertThat(r.charts().get(2).categories()).containsExactly("offheap", "array", "pooled");
        assertThat(r.verdicts()).hasSize(2 + 5 + 5);
        assertThat(r.verdicts().get(2)).startsWith("Netty HTTP/1.1, 16 KiB responses (wrk), throughput: no winner");
        assertThat(r.verdicts().get(5)).startsWith("Netty HTTP/1.1, 16 KiB responses (wrk), heap per request:");
        assertThat(r.verdicts().get(11)).isEqualTo("Jetty 12.1, 1 MiB responses (wrk), RSS after idle: offheap is best"
                + " (100 MiB), ahead of every other configuration (array 400 MiB) by more than one run's noise (10%,"
                + " at least 8.00 MiB); the median of VmRSS after idle decides");
        assertThat(r.raw()).containsKeys("heap", "pool").containsEntry("frameworks", shootout.json());
    }

    private static Summary summary(Workload w, String config, double rssMib) {
        return new Summary(w, config, Range.of(1000), 1.0, Range.of(1), Range.of(2), Range.of(3), Range.of(4), 4,
                Range.of(2 * rssMib), Range.of(rssMib), 0, List.of());
    }
}
