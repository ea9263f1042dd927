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

import dev.offheap.lab.experiment.Range;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Memory after the load without a trim call ({@code --trim false}): the admin console's commands, the
 * options, the sample times, and the idle table.
 */
class IdleMemoryTest {
    @Test
    void memoryReadsOnlyCollectCollectsOnlyAndIdleTrimsThenCollects() throws Exception {
        AtomicInteger trims = new AtomicInteger();
        AtomicInteger collections = new AtomicInteger();
        List<String> calls = new ArrayList<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        AdminConsole.serve(new BufferedReader(new StringReader("memory\ncollect\n idle \nbogus\nstop\nidle\n")),
                new PrintStream(bytes, true, StandardCharsets.UTF_8), () -> calls.add("trim " + trims.incrementAndGet()),
                () -> calls.add("gc " + collections.incrementAndGet()), () -> 4096, () -> 1000 + calls.size(),
                () -> 1L << 33);

        assertThat(calls).containsExactly("gc 1", "trim 1", "gc 2");
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "memory rss_kib=1000 allocator_bytes=4096 heap_allocated_bytes=8589934592",
                "memory rss_kib=1001 allocator_bytes=4096 heap_allocated_bytes=8589934592",
                "memory rss_kib=1003 allocator_bytes=4096 heap_allocated_bytes=8589934592");
    }

    @Test
    void aReadingRoundTripsThroughItsLineAndABadLineIsAnErrorNamingIt() {
        AdminConsole.Reading r = new AdminConsole.Reading(104_000, -1);

        assertThat(AdminConsole.Reading.parse(r.line())).isEqualTo(r);
        assertThatThrownBy(() -> AdminConsole.Reading.parse("idle rss_kib=1")).isInstanceOf(
                IllegalArgumentException.class).hasMessageContaining("idle rss_kib=1");
        assertThatThrownBy(() -> AdminConsole.Reading.parse("memory allocator_bytes=1 rss_kib=2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected rss_kib=");
    }

    @Test
    void theDefaultTrimsAndTrimFalseCollectsOnlyAndSaysSo() {
        ServerShootout.Settings d = ServerShootout.settings(new String[0]);
        ServerShootout.Settings noTrim = ServerShootout.settings(new String[] {"--only", "netty-http,jetty",
                "--idle", "60", "--trim", "false", "--seconds", "60"});

        assertThat(d.trim()).isTrue();
        assertThat(d).isEqualTo(ServerShootout.Settings.full());
        assertThat(d.describe()).contains("trim and System.gc()");
        assertThat(noTrim.trim()).isFalse();
        assertThat(noTrim.idleSeconds()).isEqualTo(60);
        assertThat(noTrim.sampleSeconds()).isEqualTo(5);
        assertThat(noTrim.workloads()).containsExactly(Workload.NETTY_HTTP, Workload.JETTY);
        assertThat(noTrim.describe()).contains("60 s idle (RSS and the allocator's direct memory read every 5 s,"
                + " nothing else done), System.gc() only (no trim call)");
        assertThatThrownBy(() -> ServerShootout.settings(new String[] {"--trim", "no"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--trim takes true or false");
        assertThatThrownBy(() -> ServerShootout.settings(new String[] {"--sample", "0"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sample 0");
    }

    @Test
    void samplesAreTakenAtZeroEverySamplePeriodAndTheEndOfTheIdlePeriod() {
        assertThat(settings(60, 5).sampleTimes()).containsExactly(0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60);
        assertThat(settings(5, 5).sampleTimes()).containsExactly(0, 5);
        assertThat(settings(7, 5).sampleTimes()).containsExactly(0, 5, 7);
        assertThat(settings(0, 5).sampleTimes()).containsExactly(0);
    }

    private static ServerShootout.Settings settings(int idle, int sample) {
        return new ServerShootout.Settings(List.of(Workload.NETTY_ECHO), 1, 1, 1, 64, 2, idle, 2, "512m", true,
                false, sample);
    }

    /** A run of {@code config} whose RSS falls by 10 MiB every 10 s after the load, from {@code startMib}. */
    private static Measurement run(String config, int round, long startMib, long allocatorMib) {
        List<IdleSample> samples = new ArrayList<>();
        for (int t = 0; t <= 60; t += 5) {
            samples.add(new IdleSample(t, (startMib - t) * 1024, t < 20 ? allocatorMib << 20 : 0));
        }
        return new Measurement(Workload.NETTY_HTTP, config, round, new LoadResult(1000, 1, 1, 2, 3, 4, 0), 3, 30, 12,
                (startMib + 50) * 1024, (startMib - 65) * 1024, null, List.of(), samples, -1);
    }

    @Test
    void theIdleTableShowsMediansAtZeroTenTwentyThirtyAndSixtySeconds() {
        List<Measurement> ms = List.of(run("offheap", 1, 200, 8), run("offheap", 2, 220, 8), run("offheap", 3, 240, 8),
                run("pooled", 1, 400, 16), Measurement.failed(Workload.NETTY_HTTP, "adaptive", 1, "did not start",
                        List.of()));

        List<IdleTable.Row> rows = IdleTable.rows(Workload.NETTY_HTTP, ms);
        List<Integer> times = IdleTable.shownTimes(rows);

        assertThat(rows).extracting(IdleTable.Row::config).containsExactly("offheap", "pooled");
        assertThat(rows.getFirst().rssMib().get(60)).isEqualTo(new Range(160, 140, 180, 3));
        assertThat(times).containsExactly(0, 10, 20, 30, 60);
        assertThat(IdleTable.columns(times, false)).containsExactly("config", "peak RSS MiB", "RSS 0 s MiB",
                "RSS 10 s MiB", "RSS 20 s MiB", "RSS 30 s MiB", "RSS 60 s MiB", "RSS after GC MiB",
                "allocator 0 s MiB", "allocator 60 s MiB", "allocator after GC MiB", "heap B/request",
                "GC pauses total ms");
        assertThat(IdleTable.cells(rows.getFirst(), times)).containsExactly("offheap", "270", "220", "210", "200",
                "190", "160", "155", "8.00", "0.000", "—", "—", "30.0");
        String md = IdleTable.markdown(Workload.NETTY_HTTP, false, ms);
        assertThat(md).startsWith("#### Netty HTTP/1.1, 16 KiB responses (wrk): memory after the load (idle with no"
                + " trim call, then GC only)\n\n| config | peak RSS MiB |");
        assertThat(md).contains("- Netty HTTP/1.1, 16 KiB responses (wrk), RSS 60 s after the load, nothing called:"
                + " offheap is best (160 MiB)", "- Netty HTTP/1.1, 16 KiB responses (wrk), RSS after GC, no trim call:");
    }

    @Test
    void runsWithoutSamplesMakeNoIdleTable() {
        Measurement old = new Measurement(Workload.JETTY, "offheap", 1, new LoadResult(1000, 1, 1, 2, 3, 4, 0), 1, 5,
                5, 2048, 1024, null, List.of());

        assertThat(IdleTable.rows(Workload.JETTY, List.of(old))).isEmpty();
        assertThat(IdleTable.markdown(Workload.JETTY, true, List.of(old))).isEmpty();
    }
}
