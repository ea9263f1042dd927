package dev.offheap.lab.experiment;

import dev.offheap.lab.Experiment;
import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import dev.offheap.lab.ExperimentResult.Table;
import dev.offheap.lab.LabContext;
import dev.offheap.lab.bench.AllocBench;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Seeds 000 and 004: the cost of getting and giving back a buffer, by size and allocator. */
public final class AllocExperiment implements Experiment {
    static final long[] SIZES = {128, 1 << 10, 16 << 10, 64 << 10, 1 << 20, 16 << 20};

    /** A way of allocating: its name in tables, the benchmark method, the extra fork flags. */
    record Strategy(String label, String method, List<String> flags) {}

    static final List<Strategy> STRATEGIES = List.of(
            new Strategy("offheap pool", "offheapPool", List.of()),
            new Strategy("Netty pooled", "nettyPooled", List.of()),
            new Strategy("Arena.ofConfined()", "arenaConfined", List.of()),
            new Strategy("allocate", "allocate", List.of()),
            new Strategy("allocateDirect", "allocateDirect", List.of()),
            new Strategy("allocate, TLAB off", "allocate", List.of("-XX:-UseTLAB")));

    /** What the seeds published, by strategy and size; [000] and [004] refer to {@link #SEEDS}. */
    private static final Map<String, String> PUBLISHED = Map.ofEntries(
            Map.entry("allocate/128", "24.0 ns [000]"),
            Map.entry("allocate/1024", "179 ns [000]"),
            Map.entry("allocate/16384", "2.62 µs [000]"),
            Map.entry("allocateDirect/128", "1.02 µs [000]"),
            Map.entry("allocateDirect/1024", "1.23 µs [000]"),
            Map.entry("allocateDirect/16384", "3.04 µs [000], 4.46 µs [004]"),
            Map.entry("allocateDirect/65536", "13.6 µs [004]"),
            Map.entry("allocateDirect/1048576", "255 µs [004]"),
            Map.entry("allocateDirect/16777216", "3.52 ms [004]"),
            Map.entry("allocate, TLAB off/128", "152 ns [000]"));

    private static final List<String> SEEDS = List.of(
            "[000] seed 000 (Indirect Effects of Allocate Direct, 2020): AWS m5.large, JDK 13, JMH, allocation only",
            "[004] seed 004 (How slow is ByteBuffer.allocateDirect()?, 2024): Mac mini 2018 (Macmini8,1),"
                    + " JDK 21.0.2 (GraalVM CE 23.1), JMH 1.36, allocation only");

    @Override
    public String name() {
        return "alloc";
    }

    @Override
    public String title() {
        return "Get and give back a buffer of 128 B to 16 MiB: heap, direct, arena, offheap pool, Netty pool";
    }

    @Override
    public ExperimentResult run(LabContext context) throws Exception {
        Jmh jmh = new Jmh(context);
        List<String> sizes = Arrays.stream(SIZES).mapToObj(Long::toString).toList();
        Map<String, double[]> nanos = new LinkedHashMap<>();
        for (int s = 0; s < STRATEGIES.size(); s++) {
            Strategy strategy = STRATEGIES.get(s);
            context.progress().update(strategy.label(), (double) s / STRATEGIES.size());
            double[] bySize = new double[SIZES.length];
            Arrays.fill(bySize, Double.NaN);
            for (Jmh.Score score : jmh.tryRun(strategy.label(), AllocBench.class, strategy.method(), Map.of("size", sizes),
                    strategy.flags(), !strategy.flags().isEmpty())) {
                bySize[sizes.indexOf(score.params().get("size"))] = score.nanos();
            }
            nanos.put(strategy.label(), bySize);
        }
        context.progress().update("done", 1);
        return result(context, nanos, jmh.problems());
    }

    /** The table, chart and verdicts of measured figures: ns per operation by strategy label, one per size. */
    ExperimentResult result(LabContext context, Map<String, double[]> nanos, List<String> problems) {
        List<List<String>> rows = new ArrayList<>();
        List<String> categories = new ArrayList<>();
        List<String> verdicts = new ArrayList<>();
        for (int i = 0; i < SIZES.length; i++) {
            int k = i;
            String size = Format.bytes(SIZES[i]);
            categories.add(size);
            double best = Format.min(nanos.values().stream().map(v -> v[k]).toList());
            for (var e : nanos.entrySet()) {
                rows.add(List.of(e.getKey().equals(STRATEGIES.getFirst().label()) ? size : "", e.getKey(),
                        PUBLISHED.getOrDefault(e.getKey() + "/" + SIZES[i], ""), Format.nanos(e.getValue()[k]),
                        Format.ratio(e.getValue()[k], best)));
            }
            if (SIZES[i] == 128 || SIZES[i] == 16 << 10 || SIZES[i] == 16 << 20) {
                verdicts.add(verdict(size, nanos, k));
            }
        }
        double tlabOn = nanos.get("allocate")[0];
        double tlabOff = nanos.get("allocate, TLAB off")[0];
        if (!Double.isNaN(tlabOn) && !Double.isNaN(tlabOff)) {
            verdicts.add(String.format(java.util.Locale.ROOT,
                    "Without TLABs (-XX:-UseTLAB), allocate of 128 B costs %s instead of %s (%.1fx); seed 000 saw"
                            + " 24 ns become 152 ns (6.3x).", Format.nanos(tlabOff), Format.nanos(tlabOn),
                    tlabOff / tlabOn));
        }

        List<Series> series = nanos.entrySet().stream()
                .map(e -> new Series(e.getKey(), Arrays.stream(e.getValue()).boxed().toList())).toList();
        List<String> notes = new ArrayList<>(problems);
        notes.addAll(SEEDS);
        notes.add("Each operation gets a buffer, writes a long at 0 and a byte at the end, and gives it back (GC-freed"
                + " ones are dropped). Scale " + context.scale() + "; JMH forks run with " + String.join(" ", Jmh.FORK_FLAGS)
                + "; the offheap pool pools up to 16 MiB (largestPooledSize).");
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("unit", "ns/op");
        raw.put("sizes", Arrays.stream(SIZES).boxed().toList());
        Map<String, Object> scores = new LinkedHashMap<>();
        nanos.forEach((k, v) -> scores.put(k, Arrays.stream(v).boxed().toList()));
        raw.put("scores", scores);
        return new ExperimentResult(name(), title(),
                List.of(new Table("Get and give back one buffer (mean time per operation)",
                        List.of("size", "strategy", "seed's figure", "this machine", "vs best"), rows)),
                List.of(new Chart("Get and give back one buffer", "ns per operation", true, categories, series)),
                verdicts, notes, raw);
    }

    /** The strategies at size index {@code k}, cheapest first, TLAB-less allocation left out. */
    static String verdict(String size, Map<String, double[]> nanos, int k) {
        List<Map.Entry<String, double[]>> sorted = nanos.entrySet().stream()
                .filter(e -> !e.getKey().contains("TLAB") && !Double.isNaN(e.getValue()[k]))
                .sorted(Comparator.comparingDouble(e -> e.getValue()[k])).toList();
        if (sorted.isEmpty()) {
            return "No figures for " + size + ".";
        }
        StringBuilder s = new StringBuilder("On this machine, for " + size + " buffers, ");
        for (int i = 0; i < sorted.size(); i++) {
            s.append(i == 0 ? "" : ", ").append(sorted.get(i).getKey()).append(" costs ")
                    .append(Format.nanos(sorted.get(i).getValue()[k]));
        }
        var best = sorted.getFirst();
        var worst = sorted.getLast();
        return s.append(String.format(java.util.Locale.ROOT, ": %s is cheapest, %,.0fx cheaper than %s.",
                best.getKey(), worst.getValue()[k] / best.getValue()[k], worst.getKey())).toString();
    }
}
