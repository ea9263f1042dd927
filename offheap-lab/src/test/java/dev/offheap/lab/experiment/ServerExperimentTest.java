package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.LabContext;
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

    private static java.nio.channels.ServerSocketChannel loopback() throws IOException {
        return java.nio.channels.ServerSocketChannel.open()
                .bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
    }
}
