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
import dev.offheap.lab.experiment.gc.Chaser;
import dev.offheap.lab.experiment.gc.GcLog;
import dev.offheap.lab.experiment.gc.MessageLoop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code gc}: seed 000's story. A message loop with a buffer per message (direct, heap) or a pool lease,
 * each in its own JVM under G1 and ZGC; then DirectMemoryChaser against offheap's budgeted pool.
 */
public final class GcExperiment implements Experiment {
    static final List<String> COLLECTORS = List.of("G1", "ZGC");
    static final List<String> MODES = List.of("direct", "heap", "pool");
    static final int MESSAGE_SIZE = 8192;
    static final long CONTAINER_CAP = 256L << 20;
    static final long CHASER_BUDGET = 32L << 20;
    private static final String HEAP = "-Xmx256m";
    private static final Map<String, String> SEED_LOOP = Map.of(
            "G1 direct", "RSocket echo app, G1: young pauses 100-130 ms every ~10 s",
            "ZGC direct", "same app, Shenandoah: 86 ms 'process weakrefs' pauses every ~1 min",
            "ZGC heap", "after the fix (allocate), Shenandoah: sub-millisecond pauses",
            "G1 pool", "pooling (Netty ByteBuf) recommended, not measured");
    private static final String SEED_LOOP_COLUMN = "seed 000 (2020, AWS m5.large, JDK 13)";

    record Chase(String label, String mode, List<String> options) {}

    private static final List<Chase> CHASES = List.of(
            new Chase("direct, -Xmx512m", "direct", List.of("-Xmx512m")),
            new Chase("direct, -Xmx512m -XX:MaxDirectMemorySize=32m", "direct",
                    List.of("-Xmx512m", "-XX:MaxDirectMemorySize=32m")),
            new Chase("offheap pool, released, budget 32 MiB", "pool", List.of("-Xmx512m")),
            new Chase("offheap pool, never released, budget 32 MiB", "pool-leak", List.of("-Xmx512m")));

    @Override
    public String name() {
        return "gc";
    }

    /** The server and its load generator, or the message loop and its collector's threads. */
    @Override
    public int busyThreads() {
        return 2;
    }

    @Override
    public String title() {
        return "A buffer per message (direct, heap) or a pool lease, under G1 and ZGC; DirectMemoryChaser vs a budget";
    }

    record Loop(String label, double rate, Samples pauses, double referenceMs, long rssKib,
            long offHeapBytes, String failure) {}

    record ChaseRun(Chase chase, List<Double> rssMib, long peakKib, String outcome) {}

    @Override
    public ExperimentResult run(LabContext context) throws Exception {
        long loopMillis = switch (context.scale()) { case TINY -> 400; case QUICK -> 4000; case FULL -> 20000; };
        long chaseMillis = switch (context.scale()) { case TINY -> 500; case QUICK -> 3000; case FULL -> 15000; };
        ChildJvm jvm = new ChildJvm(context);
        int steps = COLLECTORS.size() * MODES.size() + CHASES.size();
        int step = 0;
        List<Loop> loops = new ArrayList<>();
        for (String gc : COLLECTORS) {
            for (String mode : MODES) {
                String label = gc + " " + mode;
                context.progress().update("gc: message loop, " + label, step++ / (double) steps);
                loops.add(measureLoop(jvm, context.workDir(), gc, mode, loopMillis));
            }
        }
        List<ChaseRun> chases = new ArrayList<>();
        for (Chase chase : CHASES) {
            context.progress().update("gc: chaser, " + chase.label(), step++ / (double) steps);
            chases.add(measureChase(jvm, chase, chaseMillis));
        }
        context.progress().update("gc: done", 1);
        return result(loops, chases, loopMillis, chaseMillis);
    }

    /** The tables, charts, verdicts, notes and raw figures of measured loops and chases. */
    ExperimentResult result(List<Loop> loops, List<ChaseRun> chases, long loopMillis, long chaseMillis) {
        List<String> notes = new ArrayList<>(List.of(
                "message loop: one child JVM per run, " + HEAP + " -Xms256m, " + MESSAGE_SIZE
                        + "-byte messages, " + loopMillis + " ms each, " + GcLog.option(Path.of("<file>"))
                        + "; -XX:+UseG1GC or -XX:+UseZGC (generational); every message also allocates its decoded"
                        + " heap array, as the seed's app does",
                "pauses are all safepoints from -Xlog:safepoint (Total), GC or not, including the time to reach"
                        + " the safepoint, which a shared 2-core machine stretches; p99 is nearest-rank, so with"
                        + " fewer than 100 pauses it is the maximum; reference processing: G1's"
                        + " 'Reference Processing' inside its pauses, ZGC's concurrent 'References Process' phase",
                "peak off-heap: the 'direct' BufferPoolMXBean, or the pool's OS bytes (the pool's FFM memory is not"
                        + " in the direct MXBean), sampled every 5 ms; peak RSS: the child's VmHWM at exit",
                "chaser cap: no cgroup was used (the cgroup of this session belongs to the machinery running it; no"
                        + " Docker); the cap is the JVM's own (-Xmx, -XX:MaxDirectMemorySize) and offheap's"
                        + " MemoryBudget, each run bounded to " + chaseMillis + " ms; a " + Cells.mib(CONTAINER_CAP)
                        + " container cap is compared with the RSS reached, not enforced",
                "seed 000's app ran Shenandoah; this lab runs ZGC, the other concurrent collector in Temurin"));
        loops.stream().filter(l -> l.failure() != null)
                .forEach(l -> notes.add("skipped " + l.label() + ": " + l.failure()));
        chases.stream().filter(c -> c.peakKib() < 0)
                .forEach(c -> notes.add("chaser " + c.chase().label() + ": " + c.outcome()));
        Map<String, Object> raw = new LinkedHashMap<>();
        loops.forEach(l -> {
            Map<String, Object> loop = new LinkedHashMap<>();
            loop.put("messagesPerSecond", l.rate());
            loop.put("pauseMaxMs", l.pauses().max() / 1e6);
            loop.put("pauseP99Ms", l.pauses().percentile(99) / 1e6);
            loop.put("pauses", l.pauses().count());
            loop.put("referenceProcessingMs", l.referenceMs());
            loop.put("peakRssBytes", l.rssKib() < 0 ? null : l.rssKib() * 1024);
            loop.put("peakOffHeapBytes", l.offHeapBytes() < 0 ? null : l.offHeapBytes());
            raw.put(l.label(), loop);
        });
        chases.forEach(c -> {
            Map<String, Object> chase = new LinkedHashMap<>();
            chase.put("peakRssBytes", c.peakKib() < 0 ? null : c.peakKib() * 1024);
            chase.put("outcome", c.outcome());
            chase.put("rssBytesEveryTenth", c.rssMib().stream().map(mib -> mib * (1 << 20)).toList());
            raw.put("chaser " + c.chase().label(), chase);
        });
        return new ExperimentResult(name(), title(), List.of(loopTable(loops), chaseTable(chases)),
                charts(loops, chases, chaseMillis), verdicts(loops, chases), notes, raw);
    }

    private static Loop measureLoop(ChildJvm jvm, Path dir, String gc, String mode, long millis) throws Exception {
        Files.createDirectories(dir);
        Path log = dir.resolve("gc-" + gc + "-" + mode + ".log");
        String label = gc + " " + mode;
        try {
            ChildJvm.Outcome out = jvm.run(List.of(HEAP, "-Xms256m", gc.equals("G1") ? "-XX:+UseG1GC" : "-XX:+UseZGC", GcLog.option(log)),
                    MessageLoop.class, List.of(mode, Long.toString(millis), Integer.toString(MESSAGE_SIZE)),
                    millis + 30_000);
            Map<String, String> v = out.values();
            if (!out.ok() || !v.containsKey("messages")) {
                return new Loop(label, Double.NaN, new Samples(new long[0]), Double.NaN, -1, -1, out.failure());
            }
            GcLog gcLog = GcLog.read(log);
            long offHeap = Math.max(Long.parseLong(v.get("peakDirectBytes")), Long.parseLong(v.get("peakPoolBytes")));
            return new Loop(label, Long.parseLong(v.get("messages")) / Double.parseDouble(v.get("seconds")),
                    new Samples(gcLog.pausesNanos()), gcLog.referenceMillis(), Long.parseLong(v.get("peakRssKib")),
                    offHeap, null);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static ChaseRun measureChase(ChildJvm jvm, Chase chase, long millis) throws Exception {
        long interval = millis / 10;
        ChildJvm.Outcome out = jvm.run(chase.options(), Chaser.class,
                List.of(chase.mode(), Long.toString(millis), Long.toString(interval), Long.toString(CHASER_BUDGET)),
                millis + 30_000);
        List<Double> rss = new ArrayList<>();
        for (int i = 0; i <= 10; i++) {
            rss.add(Double.NaN);
        }
        for (String line : out.stdout()) {
            String[] parts = line.split(" ");
            if (parts.length == 3 && parts[0].equals("rss")) {
                int index = Integer.parseInt(parts[1]);
                if (index < rss.size()) {
                    rss.set(index, Long.parseLong(parts[2]) / 1024.0);
                }
            }
        }
        Map<String, String> v = out.values();
        if (!out.ok() || !v.containsKey("peakRssKib")) {
            return new ChaseRun(chase, rss, -1, out.failure());
        }
        return new ChaseRun(chase, rss, Long.parseLong(v.get("peakRssKib")), v.get("outcome"));
    }

    static Table loopTable(List<Loop> loops) {
        double best = loops.stream().mapToDouble(Loop::rate).filter(r -> !Double.isNaN(r)).max().orElse(Double.NaN);
        List<List<String>> rows = new ArrayList<>();
        for (Loop l : loops) {
            rows.add(List.of(l.label(), SEED_LOOP.getOrDefault(l.label(), Cells.NONE), Cells.number(l.rate() / 1e3),
                    Cells.ratio(l.rate() / best), Cells.number(l.pauses().max() / 1e6),
                    Cells.number(l.pauses().percentile(99) / 1e6), Integer.toString(l.pauses().count()),
                    Cells.number(l.referenceMs()), Cells.mib(l.rssKib() < 0 ? -1 : l.rssKib() * 1024),
                    Cells.mib(l.offHeapBytes())));
        }
        return new Table("Message loop, " + MESSAGE_SIZE + "-byte messages, a child JVM per run",
                List.of("run", SEED_LOOP_COLUMN, "this machine (" + Cells.jdk() + "), k msgs/s",
                        "ratio to best throughput", "pause max ms", "pause p99 ms", "pauses", "reference processing ms",
                        "peak RSS", "peak off-heap"),
                rows);
    }

    static Table chaseTable(List<ChaseRun> chases) {
        long smallest = chases.stream().mapToLong(ChaseRun::peakKib).filter(k -> k > 0).min().orElse(-1);
        List<List<String>> rows = new ArrayList<>();
        for (ChaseRun c : chases) {
            long peak = c.peakKib() * 1024;
            rows.add(List.of(c.chase().label(),
                    c.chase().mode().equals("direct") && c.chase().options().size() == 1
                            ? "DirectMemoryChaser, -Xmx6G on an 8 GB VM: OOM-killed after ~24 s at 7.3 GiB anon RSS"
                            : Cells.NONE,
                    c.peakKib() < 0 ? Cells.NONE : Cells.mib(peak),
                    c.peakKib() < 0 ? Cells.NONE : peak > CONTAINER_CAP ? "over" : "within",
                    c.peakKib() < 0 || smallest < 0 ? Cells.NONE : Cells.ratio(c.peakKib() / (double) smallest),
                    c.outcome()));
        }
        return new Table("DirectMemoryChaser: an endless loop of 1 KiB buffers",
                List.of("run", "seed 000 (2020, JDK 13, 8 GB VM)", "this machine, peak RSS",
                        "vs a " + Cells.mib(CONTAINER_CAP) + " container cap", "ratio to best (peak RSS)", "outcome"),
                rows);
    }

    static List<Chart> charts(List<Loop> loops, List<ChaseRun> chases, long chaseMillis) {
        List<String> labels = loops.stream().map(Loop::label).toList();
        Chart pauses = new Chart("Stop-the-world pauses per run (lower is better)", "ms", true, labels,
                List.of(new Series("max", loops.stream().map(l -> l.pauses().max() / 1e6).toList()),
                        new Series("p99", loops.stream().map(l -> l.pauses().percentile(99) / 1e6).toList())));
        Chart rate = new Chart("Message loop throughput (higher is better)", "k msgs/s", false, labels,
                List.of(new Series("this machine", loops.stream().map(l -> l.rate() / 1e3).toList())));
        List<String> times = new ArrayList<>();
        for (int i = 0; i <= 10; i++) {
            times.add(String.format(Locale.ROOT, "%.2f s", i * (chaseMillis / 10) / 1000.0));
        }
        Chart rss = new Chart("DirectMemoryChaser: RSS over time", "MiB", false, times,
                chases.stream().map(c -> new Series(c.chase().label(), c.rssMib())).toList(), Chart.Kind.LINES);
        return List.of(pauses, rate, rss);
    }

    /** One run's throughput moves by up to this from run to run on a shared 2-core machine. */
    static final double THROUGHPUT_NOISE = 0.10;
    /**
     * A longest pause is one event of one short run: two are told apart only when they differ by half the
     * shorter one and by {@link #PAUSE_FLOOR_MS}, and a verdict on them says it is one run's figure.
     */
    static final double PAUSE_NOISE = 0.50;
    static final double PAUSE_FLOOR_MS = 2;

    static List<String> verdicts(List<Loop> loops, List<ChaseRun> chases) {
        List<String> verdicts = new ArrayList<>();
        for (String gc : COLLECTORS) {
            Map<String, Loop> byMode = new LinkedHashMap<>();
            loops.stream().filter(l -> l.label().startsWith(gc + " "))
                    .forEach(l -> byMode.put(l.label().substring(gc.length() + 1), l));
            StringBuilder s = new StringBuilder("on this machine, under " + gc + ",");
            byMode.forEach((mode, l) -> s.append(String.format(Locale.ROOT,
                    " %s: %s k msgs/s, pauses up to %s ms, %s ms of reference processing;", mode,
                    Cells.number(l.rate() / 1e3), Cells.number(l.pauses().max() / 1e6),
                    Cells.number(l.referenceMs()))));
            s.setLength(s.length() - 1);
            String weighed = weigh(byMode);
            verdicts.add(weighed.isEmpty() ? s.toString() : s + ": " + weighed);
        }
        for (ChaseRun c : chases) {
            verdicts.add("DirectMemoryChaser, " + c.chase().label() + ": RSS peaked at "
                    + (c.peakKib() < 0 ? Cells.NONE : Cells.mib(c.peakKib() * 1024)) + "; " + c.outcome());
        }
        verdicts.add(lesson(loops, chases));
        return verdicts;
    }

    /**
     * Throughput and the longest pause of one collector's runs, each ranked on its own: a winner only where the
     * figures are apart by more than one run's noise, so a pool with the best throughput but longer pauses than
     * heap buffers is said to be so. Empty with fewer than two runs measured.
     */
    static String weigh(Map<String, Loop> byMode) {
        Map<String, Range> rates = new LinkedHashMap<>();
        Map<String, Range> pauses = new LinkedHashMap<>();
        byMode.forEach((mode, l) -> {
            rates.put(mode, Range.of(l.rate() / 1e3));
            pauses.put(mode, l.pauses().count() == 0 ? Range.NONE : Range.of(l.pauses().max() / 1e6));
        });
        Ranking throughput = Ranking.of(rates, true, THROUGHPUT_NOISE, 0);
        Ranking pause = Ranking.of(pauses, false, PAUSE_NOISE, PAUSE_FLOOR_MS);
        List<String> parts = new ArrayList<>();
        if (throughput != null) {
            parts.add(throughput.hasWinner()
                    ? "highest throughput: " + throughput.best() + ", more than " + Math.round(THROUGHPUT_NOISE * 100)
                            + "% ahead of " + String.join(" and ", throughput.apart())
                    : "throughput too close to call between " + String.join(" and ", throughput.leaders()));
        }
        if (pause != null) {
            parts.add(pause.hasWinner()
                    ? "shortest longest pause: " + pause.best() + " (one run each, so one event decides)"
                    : "longest pauses too close to call between " + String.join(" and ", pause.leaders())
                            + " (one run each)");
        }
        Loop direct = byMode.get("direct");
        Loop pool = byMode.get("pool");
        if (direct != null && pool != null && !Double.isNaN(direct.rate()) && !Double.isNaN(pool.rate())) {
            parts.add(String.format(Locale.ROOT, "the pool ran %s the throughput of a direct buffer per message",
                    Cells.ratio(pool.rate() / direct.rate())));
        }
        return String.join("; ", parts);
    }

    /**
     * What the runs showed about Cleaners and budgets, said only where the table shows it: reference processing
     * of direct buffers against the pool's under each collector, and the leaking chase stopped by its budget.
     */
    static String lesson(List<Loop> loops, List<ChaseRun> chases) {
        List<String> parts = new ArrayList<>();
        for (String gc : COLLECTORS) {
            Loop direct = find(loops, gc + " direct");
            Loop pool = find(loops, gc + " pool");
            if (direct != null && pool != null && direct.referenceMs() > pool.referenceMs() + PAUSE_FLOOR_MS / 2) {
                parts.add(String.format(Locale.ROOT, "under %s a direct buffer per message cost %s ms of reference"
                        + " processing (its Cleaners), pool leases %s ms", gc, Cells.number(direct.referenceMs()),
                        Cells.number(pool.referenceMs())));
            }
        }
        chases.stream().filter(c -> c.chase().mode().equals("pool-leak") && c.outcome() != null
                        && c.outcome().contains("BudgetExceededException"))
                .findFirst().ifPresent(c -> parts.add("the leaking pool was stopped by its budget with an exception"
                        + " at " + Cells.mib(c.peakKib() * 1024) + " RSS, not by the OOM killer"));
        return parts.isEmpty() ? "no lesson on Cleaners or budgets here: the runs above did not show one"
                : String.join("; ", parts);
    }

    private static Loop find(List<Loop> loops, String label) {
        return loops.stream().filter(l -> l.label().equals(label)).findFirst().orElse(null);
    }
}
