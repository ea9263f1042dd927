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
        Map<String, Double> nanos = new LinkedHashMap<>();
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

    /** The table, chart and verdict of measured ns per sum of {@code bytes}, by benchmark method. */
    ExperimentResult result(Map<String, Double> nanos, long bytes, List<String> notes) {
        double best = Format.min(List.copyOf(nanos.values()));
        List<List<String>> rows = new ArrayList<>();
        nanos.forEach((method, ns) -> rows.add(List.of(STRATEGIES.get(method), PUBLISHED.getOrDefault(method, ""),
                Format.nanos(ns), Format.ratio(ns, best))));
        double big = nanos.getOrDefault("bigEndian", Double.NaN);
        double nat = nanos.getOrDefault("nativeOrder", Double.NaN);
        double store = nanos.getOrDefault("offheapStore", Double.NaN);
        List<String> verdicts = Double.isNaN(big + nat + store) ? List.of() : List.of(String.format(Locale.ROOT,
                "On this machine (native order %s), summing %s of longs takes %s big-endian and %s in native order"
                        + " (%.2fx; seed 000 measured 1.44x for 1 GiB), and %s through offheap's store (%.2fx the"
                        + " native-order buffer): %s.",
                ByteOrder.nativeOrder(), Format.bytes(bytes), Format.nanos(big), Format.nanos(nat), big / nat,
                Format.nanos(store), store / nat,
                big / nat > 1.1 ? "set the byte order to native when you can choose it"
                        : "the byte swap costs little here, the loop is bound by memory"));
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("unit", "ns/op");
        raw.put("bytes", bytes);
        raw.put("scores", new LinkedHashMap<String, Object>(nanos));
        return new ExperimentResult(name(), title(),
                List.of(new Table("Sum of " + Format.bytes(bytes) + " of random longs (mean time per sum)",
                        List.of("strategy", "seed's figure (1 GiB)", "this machine", "vs best"), rows)),
                List.of(new Chart("Sum of " + Format.bytes(bytes) + " of longs", "ms per sum", false,
                        List.of(Format.bytes(bytes)), nanos.entrySet().stream()
                                .map(e -> new Series(STRATEGIES.get(e.getKey()), List.of(e.getValue() / 1e6))).toList())),
                verdicts, notes, raw);
    }
}
