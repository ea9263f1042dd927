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
    /** The sizes of a quick run: the three of the verdicts and the default pool's largest pooled size. */
    static final long[] QUICK_SIZES = {128, 16 << 10, 1 << 20, 16 << 20};
    static final String POOL = "offheap pool";
    static final String TUNED_POOL = "offheap pool, pooling up to 16 MiB";
    static final String TLAB_OFF = "allocate, TLAB off";
    static final String ALLOCATE_ALONE = "allocate alone (reference)";
    /** How far the allocate row may be from {@link #ALLOCATE_ALONE} before the lab says its row is suspect. */
    static final double REFERENCE_AGREEMENT = 1.5;
    /** Two medians closer than this are too close to call, even with ranges apart (fork-to-fork noise). */
    static final double NOISE = 0.10;

    /** A way of allocating: its name in tables, the benchmark method, the extra fork flags, sizes (null: all). */
    record Strategy(String label, String method, List<String> flags, long[] onlySizes) {
        Strategy(String label, String method) {
            this(label, method, List.of(), null);
        }

        boolean runsAt(long size) {
            return onlySizes == null || Arrays.stream(onlySizes).anyMatch(s -> s == size);
        }
    }

    static final List<Strategy> STRATEGIES = List.of(
            new Strategy(POOL, "offheapPool"),
            new Strategy(TUNED_POOL, "offheapPoolTuned"),
            new Strategy("Netty pooled", "nettyPooled"),
            new Strategy("Arena.ofConfined()", "arenaConfined"),
            new Strategy("allocate", "allocate"),
            new Strategy("allocateDirect", "allocateDirect"),
            new Strategy(TLAB_OFF, "allocate", List.of("-XX:-UseTLAB"), new long[] {128}),
            new Strategy(ALLOCATE_ALONE, "allocateAlone", List.of(), new long[] {128}));

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
            Map.entry(TLAB_OFF + "/128", "152 ns [000]"));

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
        return run(context, new Jmh(context));
    }

    /** Runs the strategies through {@code jmh}: the lab's JMH, or a fake one in tests. */
    ExperimentResult run(LabContext context, Jmh jmh) {
        long[] sizes = context.scale() == LabContext.Scale.FULL ? SIZES : QUICK_SIZES;
        Map<String, Range[]> nanos = new LinkedHashMap<>();
        for (int s = 0; s < STRATEGIES.size(); s++) {
            Strategy strategy = STRATEGIES.get(s);
            context.progress().update(strategy.label(), (double) s / STRATEGIES.size());
            Range[] bySize = new Range[sizes.length];
            Arrays.fill(bySize, Range.NONE);
            List<String> sizesRun = Arrays.stream(sizes).filter(strategy::runsAt).mapToObj(Long::toString).toList();
            for (Jmh.Score score : jmh.tryRun(strategy.label(), AllocBench.class, strategy.method(),
                    Map.of("size", sizesRun), strategy.flags(), !strategy.flags().isEmpty())) {
                int index = indexOf(sizes, Long.parseLong(score.params().get("size")));
                bySize[index] = score.nanos();
            }
            nanos.put(strategy.label(), bySize);
        }
        context.progress().update("done", 1);
        return result(context, sizes, nanos, jmh.notes());
    }

    private static int indexOf(long[] sizes, long size) {
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] == size) {
                return i;
            }
        }
        throw new IllegalArgumentException("no size " + size);
    }

    /**
     * The table, chart and verdicts of measured figures: ns per operation by strategy label, one range per
     * size of {@code sizes}; {@code notes} come first (what could not run, what was noisy).
     */
    ExperimentResult result(LabContext context, long[] sizes, Map<String, Range[]> nanos, List<String> notes) {
        List<List<String>> rows = new ArrayList<>();
        List<String> categories = new ArrayList<>();
        List<String> verdicts = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            int k = i;
            String size = Format.bytes(sizes[i]);
            categories.add(size);
            double best = Format.min(nanos.entrySet().stream().filter(e -> !e.getKey().equals(ALLOCATE_ALONE))
                    .map(e -> e.getValue()[k].median()).toList());
            for (var e : nanos.entrySet()) {
                Range r = e.getValue()[k];
                if (r.isEmpty() && !runsAtEverySize(e.getKey())) {
                    continue;
                }
                rows.add(List.of(e.getKey().equals(STRATEGIES.getFirst().label()) ? size : "", e.getKey(),
                        PUBLISHED.getOrDefault(e.getKey() + "/" + sizes[i], ""), Format.nanos(r.median()),
                        Format.nanosRange(r), e.getKey().equals(ALLOCATE_ALONE) ? "reference, not ranked"
                                : Format.ratio(r.median(), best)));
            }
            if (sizes[i] == 128 || sizes[i] == 16 << 10 || sizes[i] == 16 << 20) {
                verdicts.add(verdict(size, nanos, k));
            }
        }
        int at128 = indexOf(sizes, 128);
        Range tlabOn = nanos.get("allocate")[at128];
        Range tlabOff = nanos.get(TLAB_OFF)[at128];
        if (!tlabOn.isEmpty() && !tlabOff.isEmpty()) {
            verdicts.add(String.format(java.util.Locale.ROOT,
                    "Without TLABs (-XX:-UseTLAB), allocate of 128 B costs %s instead of %s (%.1fx); seed 000 saw"
                            + " 24 ns become 152 ns (6.3x).", Format.nanos(tlabOff.median()),
                    Format.nanos(tlabOn.median()), tlabOff.median() / tlabOn.median()));
        }

        Range alone = nanos.containsKey(ALLOCATE_ALONE) ? nanos.get(ALLOCATE_ALONE)[at128] : Range.NONE;
        if (!tlabOn.isEmpty() && !alone.isEmpty()) {
            double ratio = tlabOn.median() / alone.median();
            verdicts.add(String.format(java.util.Locale.ROOT, "The allocate row at 128 B (%s) is %.2fx the usual JMH"
                    + " benchmark that only returns ByteBuffer.allocate(128) (%s): %s", Format.nanos(tlabOn.median()),
                    ratio, Format.nanos(alone.median()), ratio <= REFERENCE_AGREEMENT && ratio >= 1 / REFERENCE_AGREEMENT
                            ? "they agree within " + REFERENCE_AGREEMENT + "x, the difference is the row's writes and"
                                    + " byte order."
                            : "more than " + REFERENCE_AGREEMENT + "x apart, so this machine's allocate figures are"
                                    + " suspect (too little warm-up, or a busy machine)."));
        }

        List<Series> series = nanos.entrySet().stream()
                .filter(e -> runsAtEverySize(e.getKey()))
                .map(e -> new Series(e.getKey(), Arrays.stream(e.getValue()).map(Range::median).toList())).toList();
        List<String> allNotes = new ArrayList<>(notes);
        allNotes.addAll(SEEDS);
        allNotes.add("Each operation gets a buffer of the size, writes a long at offset 0 and a byte at the end, and"
                + " gives it back: release() for the pools, Arena.close() for the arena; allocate and allocateDirect"
                + " buffers are handed to JMH's Blackhole and left to the GC (allocateDirect's Cleaner frees the"
                + " memory later, outside the measured time). The size is a JMH parameter, not a constant the JIT"
                + " could fold. Figures are the median of the measured iterations, with the smallest and largest"
                + " beside it; a verdict names a cheapest only when its range is apart from every other's and its"
                + " median at least " + Math.round(NOISE * 100) + "% lower, else it says too close to call.");
        allNotes.add("offheap pool is BufferPool.builder().build(), the default: it pools buffers up to 1 MiB and"
                + " maps larger ones on their own; " + TUNED_POOL + " is built with largestPooledSize(16 MiB) and"
                + " maxSlabSize(64 MiB).");
        allNotes.add("Scale " + context.scale() + " (sizes " + String.join(", ", categories) + "); JMH forks run with "
                + String.join(" ", Jmh.FORK_FLAGS) + "; " + TLAB_OFF + " and " + ALLOCATE_ALONE + " at 128 B only.");
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("unit", "ns");
        raw.put("sizesBytes", Arrays.stream(sizes).boxed().toList());
        Map<String, Object> scores = new LinkedHashMap<>();
        nanos.forEach((k, v) -> scores.put(k, List.of(v)));
        raw.put("scores", scores);
        return new ExperimentResult(name(), title(),
                List.of(new Table("Get and give back one buffer (median time per operation over the iterations)",
                        List.of("size", "strategy", "seed's figure", "this machine", "min–max", "vs best"), rows)),
                List.of(new Chart("Get and give back one buffer (lower is better)", "ns per operation", true,
                        categories, series)),
                verdicts, allNotes, raw);
    }

    /**
     * The verdict at size index {@code k}: every measured strategy cheapest first with its median and range,
     * then the cheapest only if the ranking supports it, else "too close to call". The tuned pool and
     * allocation without TLABs are left out of the ranking; the tuned pool is named in the sentence when it
     * differs from the default.
     */
    static String verdict(String size, Map<String, Range[]> nanos, int k) {
        Map<String, Range> ranked = new LinkedHashMap<>();
        nanos.forEach((label, figures) -> {
            if (isRanked(label) && !figures[k].isEmpty()) {
                ranked.put(label, figures[k]);
            }
        });
        if (ranked.isEmpty()) {
            return "No figures for " + size + ".";
        }
        List<String> order = ranked.keySet().stream()
                .sorted(Comparator.comparingDouble(label -> ranked.get(label).median())).toList();
        StringBuilder s = new StringBuilder("On this machine, for " + size + " buffers (median, min–max): ");
        for (int i = 0; i < order.size(); i++) {
            Range r = ranked.get(order.get(i));
            s.append(i == 0 ? "" : ", ").append(order.get(i)).append(" ").append(Format.nanos(r.median()))
                    .append(" (").append(Format.nanosRange(r)).append(")");
        }
        Ranking ranking = Ranking.of(ranked, false, NOISE, 0);
        if (ranking == null) {
            s.append(": only one strategy measured, nothing to compare.");
        } else if (ranking.hasWinner()) {
            String next = order.get(1);
            s.append(String.format(java.util.Locale.ROOT, ": %s is cheapest, %s cheaper than the next, %s.",
                    ranking.best(), times(ranked.get(next).median() / ranked.get(ranking.best()).median()), next));
        } else {
            s.append(": too close to call here between ").append(String.join(" and ", ranking.leaders()))
                    .append(" (their ranges overlap or their medians are within ").append(Math.round(NOISE * 100))
                    .append("%)").append(ranking.apart().isEmpty() ? "" : "; " + String.join(", ", ranking.apart())
                            + " cost more").append(".");
        }
        Range tuned = nanos.containsKey(TUNED_POOL) ? nanos.get(TUNED_POOL)[k] : Range.NONE;
        Range pool = ranked.getOrDefault(POOL, Range.NONE);
        if (!tuned.isEmpty() && !pool.isEmpty() && !tuned.overlaps(pool)) {
            s.append(" The pool tuned to pool buffers up to 16 MiB (largestPooledSize) costs ")
                    .append(Format.nanos(tuned.median())).append(" here instead of ").append(Format.nanos(pool.median()))
                    .append(".");
        }
        return s.toString();
    }

    /** Whether the strategy runs at every size: the TLAB-less and the reference rows run at 128 B only. */
    static boolean runsAtEverySize(String label) {
        return STRATEGIES.stream().filter(s -> s.label().equals(label)).allMatch(s -> s.onlySizes() == null);
    }

    /** Whether the verdicts rank this strategy: not the tuned pool, TLAB-less allocation or the reference. */
    static boolean isRanked(String label) {
        return !label.equals(TLAB_OFF) && !label.equals(TUNED_POOL) && !label.equals(ALLOCATE_ALONE);
    }

    /** "1.6x" below 10, "417x" above, with thousands separators. */
    private static String times(double ratio) {
        return String.format(java.util.Locale.ROOT, ratio < 10 ? "%.1fx" : "%,.0fx", ratio);
    }
}
