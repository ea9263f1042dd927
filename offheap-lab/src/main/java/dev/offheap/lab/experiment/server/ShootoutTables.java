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

import java.util.ArrayList;
import java.util.List;

/** The shootout's table per workload: as rows of text (for the lab) and as Markdown (for BENCHMARKS.md). */
public final class ShootoutTables {
    private ShootoutTables() {}

    /** The columns, after which {@link #row} lays out its cells. */
    public static List<String> columns() {
        return List.of("config", "req/s (median)", "req/s range", "ratio to best in round", "p50 ms", "p99 ms",
                "p99.9 ms", "heap B/request", "GC pauses total ms", "GC max ms", "peak RSS MiB", "RSS after idle MiB",
                "errors");
    }

    /**
     * One configuration's cells: medians over the rounds, the range of req/s, the worst GC pause. Heap bytes per
     * request are the server's, divided by the requests (echoes, calls) the load completed.
     */
    public static List<String> row(Summary s) {
        return List.of(s.config(), Figures.number(s.requestsPerSecond().median()), Figures.range(s.requestsPerSecond()),
                Figures.ratio(s.ratioToBest()), Figures.number(s.p50Ms().median()), Figures.number(s.p99Ms().median()),
                Figures.number(s.p999Ms().median()), Figures.number(s.heapBytesPerRequest().median()),
                Figures.number(s.gcPauseTotalMs().median()), Figures.number(s.gcPauseMaxMs()),
                Figures.number(s.peakRssMib().median()),
                Figures.number(s.rssAfterIdleMib().median()), Long.toString(s.errors()));
    }

    /** The summaries of {@code workload} as a Markdown table under a heading, with its verdicts. */
    public static String markdown(Workload workload, List<Summary> summaries) {
        List<Summary> mine = summaries.stream().filter(s -> s.workload() == workload).toList();
        StringBuilder md = new StringBuilder("### ").append(workload.title()).append("\n\n");
        md.append(line(columns()));
        md.append(line(columns().stream().map(c -> c.equals("config") ? "---" : "---:").toList()));
        for (Summary s : mine) {
            md.append(line(row(s)));
        }
        md.append('\n');
        for (String verdict : Verdicts.of(workload, mine)) {
            md.append("- ").append(verdict).append('\n');
        }
        List<String> failures = new ArrayList<>();
        mine.forEach(s -> s.failures().forEach(f -> failures.add(s.config() + ", " + f)));
        for (String f : failures) {
            md.append("- failed: ").append(f).append('\n');
        }
        return md.append('\n').toString();
    }

    private static String line(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }
}
