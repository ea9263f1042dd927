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

package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Growing parts in watch mode: named with their rate, malloc's split, the time left; quiet without a history. */
class GrowthFindingsTest {
    private static final long MIB = 1L << 20;

    /** Samples 5 s apart of a process whose malloc grows 1 MiB a second, in use ({@code live}) or kept free. */
    private static WatchHistory leak(int samples, boolean live, List<Sample> out) {
        WatchHistory history = new WatchHistory();
        for (int i = 0; i < samples; i++) {
            FindingsTest.Figures f = new FindingsTest.Figures();
            f.time = FindingsTest.Figures.T0.plusSeconds(5L * i);
            f.rss = 400 * MIB + i * 5 * MIB;
            long grown = i * 5 * MIB;
            f.malloc = live ? new MallocInfo(2, 64 * MIB + grown, 4 * MIB, 0, 0, 0, 0)
                    : new MallocInfo(2, 64 * MIB + grown, 4 * MIB + grown, 0, 0, 0, 0);
            Sample s = f.sample();
            history.add(s);
            out.add(s);
        }
        return history;
    }

    @Test
    void growingMallocIsNamedWithItsRateAndWhetherItIsInUseOrKeptFree() {
        List<Sample> live = new java.util.ArrayList<>();
        WatchHistory liveHistory = leak(8, true, live);
        List<Sample> kept = new java.util.ArrayList<>();
        WatchHistory keptHistory = leak(8, false, kept);

        List<Finding> a = GrowthFindings.of(liveHistory, live.getLast());
        List<Finding> b = GrowthFindings.of(keptHistory, kept.getLast());

        assertThat(a).extracting(Finding::id, Finding::severity)
                .containsExactly(tuple("growing-malloc", Finding.Severity.WARNING));
        assertThat(a.getFirst().text()).startsWith("malloc (glibc) is growing steadily: 80.0 MiB to 115.0 MiB in 35 s,"
                + " 60.0 MiB/min (least squares over 8 samples)").contains("memory in use grows 60.0 MiB/min and memory"
                + " freed but kept 0.0 MiB/min (malloc_info): live allocations");
        assertThat(b.getFirst().text()).contains("memory in use grows 0.0 MiB/min and memory freed but kept 60.0 MiB/min")
                .contains("retention");
    }

    @Test
    void theTimeLeftToTheContainersLimitMakesItCriticalWithinTenMinutes() {
        List<Sample> samples = new java.util.ArrayList<>();
        WatchHistory history = leak(8, true, samples);
        Sample last = samples.getLast();
        ContainerMemory.Figure usage = new ContainerMemory.Figure(900 * MIB, "memory.current");
        ContainerMemory near = new ContainerMemory(2, "v2", "/app", "/sys/fs/cgroup/app", false,
                new ContainerMemory.Figure(1024 * MIB, "memory.max"), null, usage, null, null, null, null, null, null,
                null, null);
        Sample contained = new Sample(last.pid(), last.time(), last.memory(), last.jvm(), last.buffers(), last.reports(),
                last.offheap(), last.attribution(), new ContainerMemory.Result(near, null), null);

        List<Finding> found = GrowthFindings.of(history, contained);

        assertThat(found).extracting(Finding::severity).containsExactly(Finding.Severity.CRITICAL);
        assertThat(found.getFirst().text()).endsWith("At this rate the container's limit (1.0 GiB) is reached in 2 min 4 s.");
    }

    @Test
    void noHistoryOrAFlatOneFindsNothing() {
        List<Sample> samples = new java.util.ArrayList<>();
        WatchHistory flat = new WatchHistory();
        for (int i = 0; i < 10; i++) {
            FindingsTest.Figures f = new FindingsTest.Figures();
            f.time = FindingsTest.Figures.T0.plusSeconds(5L * i);
            samples.add(f.sample());
            flat.add(samples.getLast());
        }

        assertThat(GrowthFindings.of(null, samples.getLast())).isEmpty();
        assertThat(GrowthFindings.of(flat, samples.getLast())).isEmpty();
        assertThat(GrowthFindings.human(java.time.Duration.ofSeconds(7325))).isEqualTo("2 h 2 min");
        assertThat(GrowthFindings.human(java.time.Duration.ofSeconds(120))).isEqualTo("2 min");
    }
}
