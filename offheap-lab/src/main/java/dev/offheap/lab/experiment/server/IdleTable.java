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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The shootout's memory after the load, per workload: RSS and the allocator's direct memory while each
 * server idled (nothing called), then after the idle command, as medians over the rounds. Failed runs are
 * left out, as in {@link Summary}.
 */
public final class IdleTable {
    private IdleTable() {}

    /**
     * One configuration's memory after the load, over the rounds.
     *
     * @param workload          the workload
     * @param config            the allocator or pool
     * @param peakRssMib        peak RSS (load included)
     * @param rssMib            RSS at each sample time (seconds after the load), nothing called
     * @param allocatorMib      the allocator's direct memory at each sample time
     * @param rssAfterIdleMib   RSS after the idle command (trim and collect, or collect only)
     * @param allocatorAfterIdleMib the allocator's direct memory then
     * @param gcPauseTotalMs    total GC pause time of the measured load
     * @param heapBytesPerRequest heap the server allocated per request in the measured load
     */
    public record Row(Workload workload, String config, Range peakRssMib, Map<Integer, Range> rssMib,
            Map<Integer, Range> allocatorMib, Range rssAfterIdleMib, Range allocatorAfterIdleMib,
            Range gcPauseTotalMs, Range heapBytesPerRequest) {
        /** Keeps its own copy of the maps. */
        public Row {
            rssMib = Map.copyOf(rssMib);
            allocatorMib = Map.copyOf(allocatorMib);
        }

        /** The medians and ranges for the JSON, in bytes. */
        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("workload", workload.id());
            m.put("config", config);
            m.put("rounds", rssAfterIdleMib.count());
            m.put("peakRssBytes", Summary.range(peakRssMib.times(1 << 20)));
            List<Map<String, Object>> samples = new ArrayList<>();
            for (int t : new TreeSet<>(rssMib.keySet())) {
                Map<String, Object> sample = new LinkedHashMap<>();
                sample.put("seconds", t);
                sample.put("rssBytes", Summary.range(rssMib.get(t).times(1 << 20)));
                sample.put("allocatorBytes", Summary.range(allocatorMib.getOrDefault(t, Range.NONE).times(1 << 20)));
                samples.add(sample);
            }
            m.put("idleSamples", samples);
            m.put("rssAfterIdleBytes", Summary.range(rssAfterIdleMib.times(1 << 20)));
            m.put("allocatorBytesAfterIdle", Summary.range(allocatorAfterIdleMib.times(1 << 20)));
            m.put("gcPauseTotalMs", Summary.range(gcPauseTotalMs));
            m.put("heapBytesPerRequest", Summary.range(heapBytesPerRequest));
            return m;
        }
    }

    /** The rows of {@code workload}, in its configurations' order; none if no run of it read idle samples. */
    public static List<Row> rows(Workload workload, List<Measurement> measurements) {
        List<Row> rows = new ArrayList<>();
        for (String config : workload.configs()) {
            List<Measurement> mine = measurements.stream().filter(m -> m.workload() == workload
                    && m.config().equals(config) && m.failure() == null && !m.idleSamples().isEmpty()).toList();
            if (mine.isEmpty()) {
                continue;
            }
            Map<Integer, Range> rss = new LinkedHashMap<>();
            Map<Integer, Range> allocator = new LinkedHashMap<>();
            for (int t : times(mine)) {
                rss.put(t, range(mine, m -> m.sampleAt(t).map(x -> mib(x.rssKib() * 1024)).orElse(Double.NaN)));
                allocator.put(t, range(mine, m -> m.sampleAt(t).map(x -> mib(x.allocatorBytes())).orElse(Double.NaN)));
            }
            rows.add(new Row(workload, config, range(mine, m -> mib(m.peakRssKib() * 1024)), rss, allocator,
                    range(mine, m -> mib(m.rssAfterIdleKib() * 1024)),
                    range(mine, m -> mib(m.allocatorBytesAfterIdle())), range(mine, Measurement::gcPauseTotalMs),
                    range(mine, Measurement::heapBytesPerRequest)));
        }
        return rows;
    }

    /**
     * The sample times shown as columns, of those every row has: 0 s, each 10 s up to 30 s, each 30 s after,
     * and the last.
     */
    static List<Integer> shownTimes(List<Row> rows) {
        TreeSet<Integer> common = null;
        for (Row r : rows) {
            if (common == null) {
                common = new TreeSet<>(r.rssMib().keySet());
            } else {
                common.retainAll(r.rssMib().keySet());
            }
        }
        if (common == null || common.isEmpty()) {
            return List.of();
        }
        int last = common.last();
        return common.stream().filter(t -> t == 0 || t == last || (t % 10 == 0 && t <= 30) || t % 30 == 0).toList();
    }

    /** The columns for {@code times} ({@link #shownTimes}); {@code trim} says what the idle command did. */
    public static List<String> columns(List<Integer> times, boolean trim) {
        List<String> c = new ArrayList<>(List.of("config", "peak RSS MiB"));
        times.forEach(t -> c.add("RSS " + t + " s MiB"));
        c.add(trim ? "RSS after trim + GC MiB" : "RSS after GC MiB");
        int last = times.isEmpty() ? 0 : times.getLast();
        c.addAll(List.of("allocator 0 s MiB", "allocator " + last + " s MiB",
                trim ? "allocator after trim MiB" : "allocator after GC MiB", "heap B/request", "GC pauses total ms"));
        return c;
    }

    /** One row's cells under {@link #columns}: medians over the rounds. */
    public static List<String> cells(Row r, List<Integer> times) {
        List<String> c = new ArrayList<>(List.of(r.config(), Figures.number(r.peakRssMib().median())));
        times.forEach(t -> c.add(Figures.number(r.rssMib().get(t).median())));
        c.add(Figures.number(r.rssAfterIdleMib().median()));
        int last = times.isEmpty() ? 0 : times.getLast();
        c.add(Figures.number(r.allocatorMib().getOrDefault(0, Range.NONE).median()));
        c.add(Figures.number(r.allocatorMib().getOrDefault(last, Range.NONE).median()));
        c.add(Figures.number(r.allocatorAfterIdleMib().median()));
        c.add(Figures.number(r.heapBytesPerRequest().median()));
        c.add(Figures.number(r.gcPauseTotalMs().median()));
        return c;
    }

    /**
     * The Markdown table of {@code workload}'s memory after the load, with a verdict on the RSS at the end of
     * the idle period (nothing called) and, without trim, after the collection; empty if it has no samples.
     */
    public static String markdown(Workload workload, boolean trim, List<Measurement> measurements) {
        List<Row> rows = rows(workload, measurements);
        List<Integer> times = shownTimes(rows);
        if (times.isEmpty()) {
            return "";
        }
        int last = times.getLast();
        StringBuilder md = new StringBuilder("#### ").append(workload.title()).append(": memory after the load (")
                .append(trim ? "idle, then trim and GC" : "idle with no trim call, then GC only").append(")\n\n");
        List<String> columns = columns(times, trim);
        md.append(line(columns));
        md.append(line(columns.stream().map(c -> c.equals("config") ? "---" : "---:").toList()));
        rows.forEach(r -> md.append(line(cells(r, times))));
        md.append('\n');
        md.append("- ").append(verdict(workload.title() + ", RSS " + last + " s after the load, nothing called",
                "the median decides", rows, r -> r.rssMib().get(last))).append('\n');
        if (!trim) {
            md.append("- ").append(verdict(workload.title() + ", RSS after GC, no trim call", "the median decides",
                    rows, Row::rssAfterIdleMib)).append('\n');
        }
        return md.append('\n').toString();
    }

    private static String verdict(String what, String decider, List<Row> rows,
            Function<Row, Range> figure) {
        Map<String, Range> values = new LinkedHashMap<>();
        for (Row r : rows) {
            Range v = figure.apply(r);
            if (v != null && v.count() > 0) {
                values.put(r.config(), v);
            }
        }
        return Verdicts.compare(what, decider, values, false, Verdicts.NOISE, Verdicts.RSS_FLOOR_MIB, "MiB");
    }

    private static TreeSet<Integer> times(List<Measurement> ms) {
        TreeSet<Integer> times = new TreeSet<>();
        ms.forEach(m -> m.idleSamples().forEach(s -> times.add(s.seconds())));
        return times;
    }

    private static double mib(long bytes) {
        return bytes < 0 ? Double.NaN : bytes / (double) (1 << 20);
    }

    private static Range range(List<Measurement> ms, ToDoubleFunction<Measurement> figure) {
        return Range.of(ms.stream().mapToDouble(figure).filter(x -> !Double.isNaN(x)).toArray());
    }

    private static String line(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }
}
