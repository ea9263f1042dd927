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

import dev.offheap.lab.Experiment;
import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import dev.offheap.lab.ExperimentResult.Table;
import dev.offheap.lab.LabContext;
import dev.offheap.lab.bench.StoreBench;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Seed 003: sequential and random reads of doubles from four layouts. */
public final class StoreExperiment implements Experiment {
    /** Layout parameter, its label, its benchmark methods' prefix, the seed's figure. */
    record Layout(String param, String label, String prefix, String published) {}

    private static final List<Layout> LAYOUTS = List.of(
            new Layout("double-array", "double[]", "array", ""),
            new Layout("flat-segment", "flat MemorySegment", "segment", ""),
            new Layout("offheap-store", "offheap store (DoubleArray)", "store", "180 ms [003, its Unsafe chunk table]"),
            new Layout("bytebuffer-chunks", "ByteBuffer[] 1 MiB chunks", "chunks", "311 ms [003]"));

    @Override
    public String name() {
        return "store";
    }

    @Override
    public String title() {
        return "Read doubles in order and at random: double[], flat segment, offheap store, seed 003's ByteBuffer[]";
    }

    @Override
    public ExperimentResult run(LabContext context) throws Exception {
        long bytes = DataSets.bytes(context.scale());
        int gather = (int) Math.min(1 << 21, bytes / Double.BYTES / 4);
        Jmh jmh = new Jmh(context);
        Map<String, Range[]> nanos = new LinkedHashMap<>();
        List<String> flags = bytes > 1L << 28
                ? List.of("-Xms" + (bytes * 3 >> 20) + "m", "-Xmx" + (bytes * 3 >> 20) + "m",
                        "-XX:MaxDirectMemorySize=" + ((bytes * 2 >> 20) + 64) + "m")
                : List.of();
        for (int i = 0; i < LAYOUTS.size(); i++) {
            Layout layout = LAYOUTS.get(i);
            context.progress().update(layout.label(), (double) i / LAYOUTS.size());
            Range[] seqAndRandom = {Range.NONE, Range.NONE};
            for (Jmh.Score score : jmh.tryRun(layout.label(), StoreBench.class, layout.prefix() + "Sequential|" + layout.prefix() + "Random",
                    Map.of("bytes", List.of(Long.toString(bytes)), "gather", List.of(Integer.toString(gather)),
                            "layout", List.of(layout.param())), flags, false)) {
                seqAndRandom[score.method().endsWith("Sequential") ? 0 : 1] = score.nanos();
            }
            nanos.put(layout.label(), seqAndRandom);
        }
        context.progress().update("done", 1);
        return result(nanos, bytes, gather, jmh.notes("[003] seed 003 (Sonic Field's segmented storage, 2015):"
                + " MacBook Pro Retina i7, Java 1.8.0, its own audio workload (read and write every sample), not a"
                + " sum: compare the ratio, 1.73x.", "Scale " + context.scale() + ": " + Format.bytes(bytes)
                + " (64 MiB with --quick, 1 GiB with --full); the random reads use fixed pseudo-random indices."));
    }

    /**
     * The table, chart and verdicts of measured ns per pass over {@code bytes}, sequential and random
     * ({@code gather} reads), by layout label.
     */
    ExperimentResult result(Map<String, Range[]> nanos, long bytes, int gather, List<String> notes) {
        double bestSeq = Format.min(nanos.values().stream().map(v -> v[0].median()).toList());
        double bestRandom = Format.min(nanos.values().stream().map(v -> v[1].median()).toList());
        List<List<String>> rows = new ArrayList<>();
        for (Layout layout : LAYOUTS) {
            Range[] v = nanos.get(layout.label());
            rows.add(List.of(layout.label(), layout.published(), Format.nanos(v[0].median()), Format.nanosRange(v[0]),
                    Format.ratio(v[0].median(), bestSeq), Format.nanos(v[1].median()), Format.nanosRange(v[1]),
                    Format.ratio(v[1].median(), bestRandom)));
        }
        Range[] store = nanos.get(LAYOUTS.get(2).label());
        Range[] chunks = nanos.get(LAYOUTS.get(3).label());
        Range[] array = nanos.get(LAYOUTS.get(0).label());
        boolean complete = java.util.stream.Stream.of(store[0], store[1], chunks[0], chunks[1], array[0], array[1])
                .noneMatch(Range::isEmpty);
        List<String> verdicts = !complete ? List.of() : List.of(
                String.format(Locale.ROOT, "On this machine, summing %s of doubles in order takes %s from offheap's"
                        + " store, %s from a double[] and %s from seed 003's ByteBuffer[] chunks (medians): the store"
                        + " is %.2fx as fast as the chunks (seed 003's Unsafe table: 1.73x)%s and %.2fx the time of a"
                        + " double[]%s.",
                        Format.bytes(bytes), Format.nanos(store[0].median()), Format.nanos(array[0].median()),
                        Format.nanos(chunks[0].median()), chunks[0].median() / store[0].median(),
                        store[0].overlaps(chunks[0]) ? ", though their ranges overlap: too close to call here" : "",
                        store[0].median() / array[0].median(),
                        store[0].overlaps(array[0]) ? " (ranges overlap: level here)" : ""),
                String.format(Locale.ROOT, "At random (%,d reads), the store takes %s, the chunks %s, a double[] %s"
                                + " (medians; min–max in the table).", gather, Format.nanos(store[1].median()),
                        Format.nanos(chunks[1].median()), Format.nanos(array[1].median())));
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("unit", "ns");
        raw.put("bytes", bytes);
        raw.put("gather", gather);
        Map<String, Object> scores = new LinkedHashMap<>();
        nanos.forEach((k, v) -> {
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("sequential", v[0]);
            figures.put("random", v[1]);
            scores.put(k, figures);
        });
        raw.put("scores", scores);
        return new ExperimentResult(name(), title(),
                List.of(new Table("Reads of " + Format.bytes(bytes) + " of doubles (median time per pass)",
                        List.of("layout", "seed's figure", "sequential (median)", "min–max", "vs best", String.format(Locale.ROOT, "random (%,d reads, median)", gather), "min–max", "vs best"), rows)),
                List.of(new Chart("Reads of " + Format.bytes(bytes) + " of doubles", "ms per pass", false,
                        List.of("sequential", String.format(Locale.ROOT, "random (%,d reads)", gather)), nanos.entrySet().stream()
                                .map(e -> new Series(e.getKey(), List.of(e.getValue()[0].median() / 1e6, e.getValue()[1].median() / 1e6)))
                                .toList())),
                verdicts, notes, raw);
    }
}
