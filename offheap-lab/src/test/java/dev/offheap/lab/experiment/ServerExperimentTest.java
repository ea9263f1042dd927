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
import dev.offheap.lab.LabContext;
import dev.offheap.lab.experiment.server.ServerShootout;
import dev.offheap.lab.experiment.server.Summary;
import dev.offheap.lab.experiment.server.Workload;
import java.io.IOException;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerExperimentTest {
    @TempDir
    Path dir;

    @Test
    void tinyRunServesWithEveryStrategy() throws Exception {
        ExperimentResult result = new ServerExperiment(ServerExperimentTest::loopback, Optional::empty)
                .run(Contexts.of(LabContext.Scale.TINY, dir));

        ResultChecks.wellFormed(result, "server");
        ResultChecks.hasData(result);
        assertThat(result.tables().getFirst().rows()).extracting(row -> row.getFirst())
                .containsExactly("heap", "direct", "heap-view", "direct-view", "pool");
        assertThat(result.tables().getFirst().rows()).allSatisfy(row -> assertThat(row.get(2)).isNotEqualTo("—"));
        assertThat(result.notes()).contains("wrk not installed: only the lab's own client was used");
    }

    @Test
    void noFreePortSkipsWithANote() throws Exception {
        ExperimentResult result = new ServerExperiment(() -> {
            throw new BindException("Address already in use");
        }, Optional::empty).run(Contexts.of(LabContext.Scale.TINY, dir));

        ResultChecks.wellFormed(result, "server");
        assertThat(result.notes()).anyMatch(n -> n.startsWith("skipped: no free port"));
        assertThat(result.verdicts()).singleElement().asString().contains("not measured");
    }

    @Test
    void wrkWhenFoundIsRunAndItsFiguresReported() throws Exception {
        Path wrk = dir.resolve("wrk");
        Files.writeString(wrk, """
                #!/bin/sh
                cat <<'OUT'
                Running 1s test @ http://127.0.0.1:1/
                  1 threads and 8 connections
                  Thread Stats   Avg      Stdev     Max   +/- Stdev
                    Latency   635.91us    0.89ms  12.92ms   93.69%
                    Req/Sec    12.34k     1.00k   14.00k    70.00%
                  Latency Distribution
                     50%  512.00us
                     75%  700.00us
                     90%    1.00ms
                     99%    4.50ms
                  12345 requests in 1.00s, 200.00MB read
                Requests/sec:  12345.67
                Transfer/sec:    200.00MB
                OUT
                """);
        Files.setPosixFilePermissions(wrk, PosixFilePermissions.fromString("rwx------"));

        ExperimentResult result = new ServerExperiment(ServerExperimentTest::loopback, () -> Optional.of(wrk.toString()))
                .run(Contexts.of(LabContext.Scale.TINY, dir.resolve("work")));

        assertThat(result.tables().getFirst().rows()).allSatisfy(row -> {
            assertThat(row.get(7)).isEqualTo("12346");
            assertThat(row.get(8)).isEqualTo("4.50");
        });
        assertThat(result.notes()).noneMatch(n -> n.contains("wrk not installed"));
    }

    @Test
    void frameworksPartIsNotRunAtTinyScaleAndSaysSo() throws Exception {
        assertThat(ServerExperiment.frameworkSettings(LabContext.Scale.TINY)).isEmpty();
        assertThat(ServerExperiment.frameworkSettings(LabContext.Scale.QUICK)).get()
                .satisfies(s -> assertThat(s.workloads()).containsExactly(Workload.NETTY_HTTP, Workload.JETTY_1M))
                .satisfies(s -> assertThat(s.rounds()).isEqualTo(1));
        assertThat(ServerExperiment.frameworkSettings(LabContext.Scale.FULL)).get()
                .satisfies(s -> assertThat(s.workloads()).isEqualTo(Workload.FULL));
    }

    @Test
    void frameworksPartWithoutWrkIsSkippedWithANoteAndNoFigures() throws Exception {
        ExperimentResult result = new ServerExperiment(ServerExperimentTest::noPort, Optional::empty,
                scale -> Optional.of(tiny(Workload.JETTY_1M))).run(Contexts.of(LabContext.Scale.TINY, dir));

        ResultChecks.wellFormed(result, "server");
        assertThat(result.tables()).hasSize(1);
        assertThat(result.notes()).anyMatch(n -> n.startsWith("frameworks part (Netty and Jetty servers under wrk)"
                + " skipped: wrk is not installed"));
        assertThat(result.raw()).doesNotContainKey("frameworks");
    }

    @Test
    void frameworksPartRunsServerJvmsAndReportsTablesChartsVerdictsAndRawNumbers() throws Exception {
        Path wrk = dir.resolve("wrk");
        Files.writeString(wrk, """
                #!/bin/sh
                echo "offheap-wrk requests=2000 duration_us=1000000 p50_us=500.0 p99_us=900.0 p999_us=990.0 \
                max_us=1000.0 connect=0 read=0 write=0 status=0 timeout=0"
                """);
        Files.setPosixFilePermissions(wrk, PosixFilePermissions.fromString("rwx------"));

        ExperimentResult result = new ServerExperiment(ServerExperimentTest::noPort,
                () -> Optional.of(wrk.toString()), scale -> Optional.of(tiny(Workload.JETTY_1M)))
                .run(Contexts.of(LabContext.Scale.TINY, dir.resolve("work")));

        ResultChecks.wellFormed(result, "server");
        assertThat(result.charts()).hasSize(4);
        assertThat(result.charts().subList(2, 4)).allSatisfy(chart -> {
            assertThat(chart.categories()).containsExactly("offheap", "offheap-recycling", "array");
            assertThat(chart.series()).singleElement().satisfies(s -> {
                assertThat(s.name()).isEqualTo("jetty-1m");
                assertThat(s.values()).allSatisfy(v -> assertThat(v).isPositive());
            });
        });
        ExperimentResult.Table jetty = result.tables().get(1);
        assertThat(jetty.title()).isEqualTo("Jetty 12.1, 1 MiB responses (wrk)");
        assertThat(jetty.rows()).extracting(row -> row.getFirst()).containsExactly("offheap", "offheap-recycling",
                "array");
        assertThat(jetty.rows()).allSatisfy(row -> {
            assertThat(row.get(2)).isEqualTo("2000");
            assertThat(row.get(6)).isEqualTo("0.900");
            assertThat(row.get(11)).isNotEqualTo("—");
            assertThat(row.get(12)).isNotEqualTo("—");
        });
        assertThat(result.verdicts()).anyMatch(v -> v.startsWith("Jetty 12.1, 1 MiB responses (wrk), throughput:"
                + " no winner"));
        assertThat(result.raw()).containsKey("frameworks");
    }

    /** The seed's part skips at once without a port: these tests are about the frameworks part. */
    private static java.nio.channels.ServerSocketChannel noPort() throws IOException {
        throw new BindException("Address already in use");
    }

    @Test
    void frameworkChartsGroupByConfigurationWithABarPerWorkload() {
        java.util.List<Summary> summaries = new java.util.ArrayList<>();
        for (String c : Workload.NETTY_HTTP.configs()) {
            summaries.add(summary(Workload.NETTY_HTTP, c, c.equals("offheap") ? 1.0 : 0.9, 100));
        }
        summaries.add(summary(Workload.JETTY_1M, "offheap", 0.95, 120));
        summaries.add(summary(Workload.JETTY_1M, "array", 1.0, 600));

        java.util.List<ExperimentResult.Chart> charts = ServerExperiment.frameworkCharts(summaries);
        java.util.List<ExperimentResult.Table> tables = ServerExperiment.frameworkTables(summaries);

        assertThat(charts).hasSize(2).allSatisfy(chart -> assertThat(chart.categories())
                .containsExactly("offheap", "offheap-recycling", "adaptive", "pooled", "unpooled", "array"));
        assertThat(charts.getFirst().series()).extracting(ExperimentResult.Series::name)
                .containsExactly("netty-http", "jetty-1m");
        assertThat(charts.getFirst().series().getFirst().values()).containsExactly(1.0, 0.9, 0.9, 0.9, 0.9,
                Double.NaN);
        assertThat(charts.get(1).series().get(1).values())
                .containsExactly(120.0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 600.0);
        assertThat(tables).extracting(ExperimentResult.Table::title).containsExactly(
                "Netty HTTP/1.1, 16 KiB responses (wrk)", "Jetty 12.1, 1 MiB responses (wrk)");
        assertThat(tables.get(1).columns().subList(0, 4)).containsExactly("config", "seed (none: new in issue 13)",
                "req/s (median)", "req/s range");
        assertThat(tables.get(1).rows().get(1).subList(0, 5)).containsExactly("array", "—", "1000", "1000", "1.00x");
    }

    private static Summary summary(Workload w, String config, double ratio, double rssMib) {
        return new Summary(w, config, Range.of(1000), ratio, Range.of(1), Range.of(2), Range.of(3), Range.of(4), 4,
                Range.of(2 * rssMib), Range.of(rssMib), 0, java.util.List.of());
    }

    private static ServerShootout.Settings tiny(Workload workload) {
        return new ServerShootout.Settings(java.util.List.of(workload), 1, 1, 1, 2, 1, 0, 0, "128m", true);
    }

    private static java.nio.channels.ServerSocketChannel loopback() throws IOException {
        return java.nio.channels.ServerSocketChannel.open()
                .bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
    }
}
