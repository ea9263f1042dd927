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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Heap bytes per request: the admin console's reading of the heap allocated, the measured run's figure (the
 * server's bytes over the requests the load completed), its median over the rounds in the tables, the JSON
 * and the verdicts.
 */
class HeapPerRequestTest {
    private static Measurement run(String config, int round, long requests, long heapAllocated) {
        return new Measurement(Workload.NETTY_ECHO, config, round, new LoadResult(requests, 10, 1, 2, 3, 4, 0), 1, 5,
                5, 2048, 1024, null, List.of(), List.of(), -1, heapAllocated);
    }

    @Test
    void theHeapAllocatedRoundTripsAsTheAnswersLastFieldAndAnAnswerWithoutItReadsAsUnknown() {
        AdminConsole.Reading r = new AdminConsole.Reading(104_000, 4096, 123_456_789_012L);

        assertThat(r.line()).isEqualTo("memory rss_kib=104000 allocator_bytes=4096 heap_allocated_bytes=123456789012");
        assertThat(AdminConsole.Reading.parse(r.line())).isEqualTo(r);
        assertThat(AdminConsole.Reading.parse("memory rss_kib=104000 allocator_bytes=4096"))
                .isEqualTo(new AdminConsole.Reading(104_000, 4096, -1));
        assertThat(new AdminConsole.Reading(104_000, 4096).line())
                .isEqualTo("memory rss_kib=104000 allocator_bytes=4096");
        assertThatThrownBy(() -> AdminConsole.Reading.parse("memory rss_kib=1 allocator_bytes=2 heap_bytes=3"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected heap_allocated_bytes=");
        assertThatThrownBy(() -> AdminConsole.Reading.parse(
                "memory rss_kib=1 allocator_bytes=2 heap_allocated_bytes=3 x")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a memory answer");
    }

    @Test
    void aRunsFigureIsTheServersHeapOverTheRequestsTheLoadCompleted() {
        assertThat(run("offheap", 1, 1000, 2_048_000).heapBytesPerRequest()).isEqualTo(2048.0);
        assertThat(run("offheap", 1, 1000, -1).heapBytesPerRequest()).as("unknown").isNaN();
        assertThat(run("offheap", 1, 0, 2_048_000).heapBytesPerRequest()).as("nothing completed").isNaN();
        assertThat(Measurement.failed(Workload.NETTY_ECHO, "offheap", 1, "did not start", List.of())
                .heapBytesPerRequest()).isNaN();
        assertThat(new Measurement(Workload.NETTY_ECHO, "offheap", 1, new LoadResult(1000, 10, 1, 2, 3, 4, 0), 1, 5, 5,
                2048, 1024, null, List.of()).heapAllocatedBytes()).as("a measurement without it").isEqualTo(-1);
    }

    @Test
    void theTablesShowTheMedianOverTheRoundsNextToTheGcPausesAndFailedRunsAreLeftOut() {
        List<Measurement> ms = List.of(run("offheap", 1, 1000, 100_000), run("offheap", 2, 1000, 120_000),
                run("offheap", 3, 2000, 600_000), run("pooled", 1, 1000, 12_000),
                new Measurement(Workload.NETTY_ECHO, "pooled", 2, new LoadResult(10, 10, 1, 2, 3, 4, 5), 1, 5, 5, 2048,
                        1024, "5 errors", List.of(), List.of(), -1, 1_000_000));

        List<Summary> summaries = Summary.of(ms);

        assertThat(summaries.getFirst().heapBytesPerRequest()).isEqualTo(new Range(120, 100, 300, 3));
        assertThat(summaries.get(1).heapBytesPerRequest()).isEqualTo(new Range(12, 12, 12, 1));
        int column = ShootoutTables.columns().indexOf("heap B/request");
        assertThat(ShootoutTables.columns().get(column + 1)).isEqualTo("GC pauses total ms");
        assertThat(ShootoutTables.row(summaries.getFirst()).get(column)).isEqualTo("120");
        assertThat(ShootoutTables.row(summaries.get(1)).get(column)).isEqualTo("12.0");
        assertThat(ShootoutTables.markdown(Workload.NETTY_ECHO, summaries))
                .contains("| p99.9 ms | heap B/request | GC pauses total ms |", "| 120 | 5.00 |");
    }

    @Test
    void theJsonHasEachRunsBytesAndFigureAndEachSummarysRange() {
        Measurement m = run("offheap", 1, 1000, 2_048_000);

        assertThat(m.json()).containsEntry("heapAllocatedBytes", 2_048_000L).containsEntry("heapBytesPerRequest",
                2048.0);
        assertThat(run("offheap", 1, 1000, -1).json()).containsEntry("heapAllocatedBytes", null)
                .containsEntry("heapBytesPerRequest", Double.NaN);
        assertThat(Summary.of(List.of(m)).getFirst().json().get("heapBytesPerRequest"))
                .isEqualTo(Map.of("median", 2048.0, "min", 2048.0, "max", 2048.0));
    }

    @Test
    void theIdleTableShowsItBeforeTheGcPausesToo() {
        List<IdleSample> samples = List.of(new IdleSample(0, 200 * 1024, 0), new IdleSample(5, 190 * 1024, 0));
        Measurement m = new Measurement(Workload.NETTY_ECHO, "offheap", 1, new LoadResult(1000, 10, 1, 2, 3, 4, 0), 1,
                5, 5, 300 * 1024, 100 * 1024, null, List.of(), samples, 0, 101_000);

        IdleTable.Row row = IdleTable.rows(Workload.NETTY_ECHO, List.of(m)).getFirst();
        List<String> columns = IdleTable.columns(List.of(0, 5), true);

        assertThat(row.heapBytesPerRequest()).isEqualTo(new Range(101, 101, 101, 1));
        assertThat(columns.subList(columns.size() - 2, columns.size())).containsExactly("heap B/request",
                "GC pauses total ms");
        assertThat(IdleTable.cells(row, List.of(0, 5)).subList(columns.size() - 2, columns.size()))
                .containsExactly("101", "5.00");
        assertThat(row.json()).containsEntry("heapBytesPerRequest", Map.of("median", 101.0, "min", 101.0, "max",
                101.0));
    }

    @Test
    void theVerdictNamesTheLeastHeapPerRequestOnlyBeyondNoiseAndTheFloor() {
        List<String> apart = Verdicts.of(Workload.NETTY_ECHO, Summary.of(List.of(run("offheap", 1, 1000, 101_000),
                run("pooled", 1, 1000, 12_000))));
        List<String> close = Verdicts.of(Workload.NETTY_ECHO, Summary.of(List.of(run("offheap", 1, 1000, 20_000),
                run("pooled", 1, 1000, 12_000))));

        assertThat(apart).contains("Netty TCP echo, 1 KiB messages (Java closed-loop client), heap per request:"
                + " pooled is best (12.0 B), ahead of every other configuration (offheap 101 B) by more than one"
                + " run's noise (10%, at least 16.0 B); the median of the heap bytes the server allocated per request"
                + " decides");
        assertThat(close).anyMatch(v -> v.contains("heap per request: no winner"));
    }
}
