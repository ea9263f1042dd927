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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the shootout reads: the Lua script's line in wrk's output, a load client's answer line, /proc status files,
 * gc log lines.
 */
class ShootoutParsingTest {
    @Test
    void wrkScriptLineGivesRateLatenciesInMillisAndErrorsSummed() {
        String output = """
                Running 15s test @ http://127.0.0.1:40123/
                  2 threads and 64 connections
                  Thread Stats   Avg      Stdev     Max   +/- Stdev
                    Latency     2.61ms    1.95ms  40.12ms   89.10%
                  Latency Distribution
                     50%    2.14ms
                     99%   11.08ms
                  377250 requests in 15.00s, 5.79GB read
                  Non-2xx or 3xx responses: 3
                Requests/sec:  25150.00
                Transfer/sec:    395.24MB
                offheap-wrk requests=377250 duration_us=15000000 p50_us=2140.0 p99_us=11080.0 p999_us=16700.5 \
                max_us=40120.0 connect=0 read=2 write=0 status=3 timeout=1
                """;

        LoadResult r = ScriptedWrk.parse(output);

        assertThat(r.requests()).isEqualTo(377250);
        assertThat(r.seconds()).isEqualTo(15.0);
        assertThat(r.requestsPerSecond()).isEqualTo(25150.0);
        assertThat(r.p50Ms()).isEqualTo(2.14, within(1e-9));
        assertThat(r.p99Ms()).isEqualTo(11.08, within(1e-9));
        assertThat(r.p999Ms()).isEqualTo(16.7005, within(1e-9));
        assertThat(r.maxMs()).isEqualTo(40.12, within(1e-9));
        assertThat(r.errors()).isEqualTo(6);
    }

    @Test
    void wrkOutputWithoutTheScriptLineIsAnErrorNamingIt() {
        assertThatThrownBy(() -> ScriptedWrk.parse("Requests/sec:  25150.00\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("offheap-wrk");
        assertThatThrownBy(() -> ScriptedWrk.parse("offheap-wrk requests=1 duration_us=1\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("wrk's line has no ");
    }

    @Test
    void theScriptAsksWrkForTheThreePercentilesAndTheMarker() {
        assertThat(ScriptedWrk.SCRIPT).contains("done = function(summary, latency, requests)",
                "latency:percentile(50)", "latency:percentile(99)", "latency:percentile(99.9)", "\"offheap-wrk\"");
    }

    @Test
    void procStatusFieldsAreReadInKib() {
        List<String> status = List.of("Name:\tjava", "VmPeak:\t 3060 kB", "VmHWM:\t    1760 kB",
                "VmRSS:\t    1712 kB", "RssAnon:\t     112 kB", "Threads:\t23");

        assertThat(ProcMemory.field(status, ProcMemory.PEAK_RSS)).isEqualTo(1760);
        assertThat(ProcMemory.field(status, ProcMemory.RSS)).isEqualTo(1712);
        assertThat(ProcMemory.field(status, "VmSwap:")).isEqualTo(-1);
        assertThatThrownBy(() -> ProcMemory.field(List.of("VmRSS:\t12 MB"), ProcMemory.RSS))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void thisProcessHasAResidentSet() {
        assertThat(ProcMemory.selfKib(ProcMemory.RSS)).isPositive();
        assertThat(ProcMemory.selfKib(ProcMemory.PEAK_RSS)).isPositive();
        assertThat(ProcMemory.kib(Long.MAX_VALUE, ProcMemory.RSS)).isEqualTo(-1);
    }

    @Test
    void gcLogPausesAreEveryPauseLineButNotConcurrentPhases() {
        List<String> log = List.of(
                "[0.005s][info][gc] Using G1",
                "[0.515s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 15M->4M(256M) 11.793ms",
                "[0.910s][info][gc] GC(6) Pause Young (Concurrent Start) (G1 Evacuation Pause) 189M->187M(256M) 6.376ms",
                "[0.910s][info][gc] GC(7) Concurrent Mark Cycle",
                "[0.928s][info][gc] GC(7) Pause Remark 209M->103M(256M) 2.199ms",
                "[0.937s][info][gc] GC(7) Pause Cleanup 118M->118M(256M) 0.047ms",
                "[0.954s][info][gc] GC(7) Concurrent Mark Cycle 44.589ms",
                "[1.003s][info][gc] GC(19) Pause Full (System.gc()) 255M->71M(244M) 14.330ms");

        assertThat(GcPauses.parse(log)).containsExactly(11.793, 6.376, 2.199, 0.047, 14.330);
        assertThat(GcPauses.parse(List.of())).isEmpty();
    }

    @Test
    void aLoadClientsAnswerLineCarriesEveryFigureExactly() {
        LoadResult r = new LoadResult(377_250, 15.000123, 2.14, 11.08, 16.7005, 40.12, 6);
        LoadResult none = LoadResult.of(new long[0], 1.0, 3);

        assertThat(r.line()).isEqualTo("load requests=377250 seconds=15.000123 p50_ms=2.14 p99_ms=11.08"
                + " p999_ms=16.7005 max_ms=40.12 errors=6");
        assertThat(LoadResult.parse(r.line())).isEqualTo(r);
        assertThat(LoadResult.parse(none.line())).isEqualTo(none);
        assertThatThrownBy(() -> LoadResult.parse("memory rss_kib=1 allocator_bytes=2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a load answer");
        assertThatThrownBy(() -> LoadResult.parse(r.line().replace("p99_ms", "p98_ms")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected p99_ms=");
    }

    @Test
    void latencyPercentilesAreNearestRank() {
        long[] nanos = new long[1000];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (nanos.length - i) * 1_000_000L;
        }

        LoadResult r = LoadResult.of(nanos, 2.0, 0);

        assertThat(r.requests()).isEqualTo(1000);
        assertThat(r.requestsPerSecond()).isEqualTo(500.0);
        assertThat(r.p50Ms()).isEqualTo(500.0);
        assertThat(r.p99Ms()).isEqualTo(990.0);
        assertThat(r.p999Ms()).isEqualTo(999.0);
        assertThat(r.maxMs()).isEqualTo(1000.0);
        assertThat(LoadResult.of(new long[0], 1.0, 3).p99Ms()).isNaN();
    }
}
