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
import dev.offheap.lab.bench.OrderBench;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Seed 000's byte-order experiment: summing longs through big-endian and native-order buffers, and the store. */
public final class OrderExperiment implements Experiment {
    private static final Map<String, String> STRATEGIES = new LinkedHashMap<>();

    static {
        STRATEGIES.put("bigEndian", "direct, big-endian (default)");
        STRATEGIES.put("nativeOrder", "direct, native order");
        STRATEGIES.put("offheapStore", "offheap store (LongArray)");
    }

    private static final Map<String, String> PUBLISHED = Map.of(
            "bigEndian", "196 ms [000]", "nativeOrder", "136 ms [000]");

    @Override
    public String name() {
        return "order";
    }

    @Override
    public String title() {
        return "Sum longs through big-endian and native-order direct buffers and offheap's store";
    }

    @Override
    public ExperimentResult run(LabContext context) throws Exception {
        long bytes = DataSets.bytes(context.scale());
        Jmh jmh = new Jmh(context);
        Map<String, Range> nanos = new LinkedHashMap<>();
        int step = 0;
        for (String method : STRATEGIES.keySet()) {
            context.progress().update(STRATEGIES.get(method), (double) step++ / STRATEGIES.size());
            // Two direct buffers of the size; the store's chunks are not direct memory.
            List<String> flags = List.of("-XX:MaxDirectMemorySize=" + ((bytes * 2 >> 20) + 64) + "m");
            for (Jmh.Score score : jmh.tryRun(STRATEGIES.get(method), OrderBench.class, method,
                    Map.of("bytes", List.of(Long.toString(bytes))), bytes > 1L << 28 ? flags : List.of(), false)) {
                nanos.put(method, score.nanos());
            }
        }
        context.progress().update("done", 1);
        return result(nanos, bytes, jmh.notes("[000] seed 000 (Indirect Effects of Allocate Direct, 2020): AWS m5.large,"
                + " JDK 13, JMH, 1 GiB read through asLongBuffer().get(i)", "Scale " + context.scale() + ": "
                + Format.bytes(bytes) + " (64 MiB with --quick, 1 GiB with --full)."));
    }

    /** Native order is advised only when big-endian is clearly slower: ranges apart, medians 10 % apart. */
    static String advice(Range big, Range nat) {
        Ranking ranking = Ranking.of(Map.of("big", big, "native", nat), false, 0.10, 0);
        if (ranking != null && ranking.hasWinner() && ranking.best().equals("native")) {
            return "set the byte order to native when you can choose it";
        }
        if (ranking != null && ranking.hasWinner()) {
            return "big-endian was faster here, which a byte swap cannot explain: measure again on a quiet machine";
        }
        return "too close to call here: the byte swap costs little, the loop is bound by memory";
    }

    /** The table, chart and verdict of measured ns per sum of {@code bytes}, by benchmark method. */
    ExperimentResult result(Map<String, Range> nanos, long bytes, List<String> notes) {
        double best = Format.min(nanos.values().stream().map(Range::median).toList());
        List<List<String>> rows = new ArrayList<>();
        nanos.forEach((method, ns) -> rows.add(List.of(STRATEGIES.get(method), PUBLISHED.getOrDefault(method, ""),
                Format.nanos(ns.median()), Format.nanosRange(ns), Format.ratio(ns.median(), best))));
        Range big = nanos.getOrDefault("bigEndian", Range.NONE);
        Range nat = nanos.getOrDefault("nativeOrder", Range.NONE);
        Range store = nanos.getOrDefault("offheapStore", Range.NONE);
        List<String> verdicts = big.isEmpty() || nat.isEmpty() || store.isEmpty() ? List.of() : List.of(
                String.format(Locale.ROOT, "On this machine (native order %s), summing %s of longs takes %s (%s)"
                        + " big-endian and %s (%s) in native order (%.2fx; seed 000 measured 1.44x for 1 GiB), and %s"
                        + " (%s) through offheap's store (%.2fx the native-order buffer): %s.",
                ByteOrder.nativeOrder(), Format.bytes(bytes), Format.nanos(big.median()), Format.nanosRange(big),
                Format.nanos(nat.median()), Format.nanosRange(nat), big.median() / nat.median(),
                Format.nanos(store.median()), Format.nanosRange(store), store.median() / nat.median(),
                advice(big, nat)));
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("unit", "ns");
        raw.put("bytes", bytes);
        raw.put("scores", new LinkedHashMap<String, Object>(nanos));
        return new ExperimentResult(name(), title(),
                List.of(new Table("Sum of " + Format.bytes(bytes) + " of random longs (median time per sum)",
                        List.of("strategy", "seed's figure (1 GiB)", "this machine (median)", "min–max", "vs best"), rows)),
                List.of(new Chart("Sum of " + Format.bytes(bytes) + " of longs", "ms per sum", false,
                        List.of(Format.bytes(bytes)), nanos.entrySet().stream()
                                .map(e -> new Series(STRATEGIES.get(e.getKey()), List.of(e.getValue().median() / 1e6))).toList())),
                verdicts, notes, raw);
    }
}
