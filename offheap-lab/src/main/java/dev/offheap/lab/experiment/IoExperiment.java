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

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.lab.Experiment;
import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import dev.offheap.lab.ExperimentResult.Table;
import dev.offheap.lab.LabContext;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.ToLongFunction;

/** {@code io}: seed 000's 64 MiB read-change-write with heap, direct and pooled buffers, transferTo as the floor. */
public final class IoExperiment implements Experiment {
    static final List<String> STRATEGIES = List.of("heap", "direct", "pool", "transferTo");
    private static final String SEED = "seed 000 (2020, AWS m5.large, JDK 13), ms per 64 MiB";
    private static final Map<String, Double> SEED_MS = Map.of("heap", 59.816, "direct", 36.383);

    private final ToLongFunction<Path> usableSpace;

    public IoExperiment() {
        this(IoExperiment::usableSpace);
    }

    /** For tests: how much free disk the work directory has. */
    IoExperiment(ToLongFunction<Path> usableSpace) {
        this.usableSpace = usableSpace;
    }

    @Override
    public String name() {
        return "io";
    }

    @Override
    public String title() {
        return "Read a file, change it, write it back: heap vs direct vs pooled buffers, transferTo as the floor";
    }

    @Override
    public ExperimentResult run(LabContext context) throws Exception {
        int size = context.scale() == LabContext.Scale.TINY ? 4 << 20 : 64 << 20;
        int warmup = switch (context.scale()) { case TINY -> 1; case QUICK -> 3; case FULL -> 10; };
        int runs = switch (context.scale()) { case TINY -> 3; case QUICK -> 7; case FULL -> 30; };
        List<String> notes = new ArrayList<>();
        notes.add("file " + Cells.mib(size) + ", " + warmup + " warm-up and " + runs
                + " measured runs per strategy; one buffer of the file's size per strategy, as in the seed;"
                + " the change is the seed's (first byte := last byte); files are in the page cache after the first run");
        Files.createDirectories(context.workDir());
        long needed = 2L * size + (16 << 20);
        long free = usableSpace.applyAsLong(context.workDir());
        if (free < needed) {
            notes.add("skipped: not enough disk in " + context.workDir() + ": " + Cells.mib(free) + " free, "
                    + Cells.mib(needed) + " needed");
            return result(Map.of(), List.of("on this machine, io was not measured: not enough free disk"),
                    notes, size);
        }
        Path source = context.workDir().resolve("io-source.bin");
        Path target = context.workDir().resolve("io-target.bin");
        Map<String, Samples> times = new LinkedHashMap<>();
        try {
            context.progress().update("io: writing " + Cells.mib(size) + " of random data", 0);
            writeRandom(source, size);
            writeRandom(target, size);
            FileReverse reverse = new FileReverse(source, target);
            try (BufferPool pool = BufferPool.builder().name("lab-io").maxSlabSize(size).largestPooledSize(size).jmx(false).build()) {
                for (int s = 0; s < STRATEGIES.size(); s++) {
                    String strategy = STRATEGIES.get(s);
                    context.progress().update("io: " + strategy, (s + 0.1) / STRATEGIES.size());
                    times.put(strategy, measure(strategy(strategy, reverse, size, pool), warmup, runs));
                }
            }
        } finally {
            Files.deleteIfExists(source);
            Files.deleteIfExists(target);
        }
        context.progress().update("io: done", 1);
        Map<String, Range> ms = rangesMs(times);
        return result(ms, verdicts(ms, size), notes, size);
    }

    /** Each strategy's times in milliseconds, from its times in nanoseconds. */
    static Map<String, Range> rangesMs(Map<String, Samples> times) {
        Map<String, Range> ms = new LinkedHashMap<>();
        times.forEach((k, v) -> ms.put(k, v.range().times(1e-6)));
        return ms;
    }

    /** One read-change-write of {@code reverse}'s files through the strategy's buffer (transferTo: a copy). */
    static Run strategy(String strategy, FileReverse reverse, int size, BufferPool pool) {
        return switch (strategy) {
            case "heap" -> {
                ByteBuffer buffer = ByteBuffer.allocate(size);
                yield () -> reverse.through(buffer);
            }
            case "direct" -> {
                ByteBuffer buffer = ByteBuffer.allocateDirect(size);
                yield () -> reverse.through(buffer);
            }
            case "pool" -> () -> {
                try (BufferLease lease = pool.acquire(size)) {
                    reverse.through(lease.byteBuffer());
                }
            };
            default -> reverse::transferTo;
        };
    }

    interface Run {
        void run() throws IOException;
    }

    private static Samples measure(Run run, int warmup, int runs) throws IOException {
        for (int i = 0; i < warmup; i++) {
            run.run();
        }
        long[] nanos = new long[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            run.run();
            nanos[i] = System.nanoTime() - start;
        }
        return new Samples(nanos);
    }

    /** Two medians closer than this are level, even with ranges apart. */
    static final double NOISE = 0.05;

    static List<String> verdicts(Map<String, Range> ms, int size) {
        double heap = median(ms, "heap");
        double direct = median(ms, "direct");
        return List.of(String.format(java.util.Locale.ROOT,
                "on this machine, reading, changing and writing %s takes %s ms with a heap buffer, %s ms with a"
                        + " direct one, %s ms with a pooled one (transferTo, which changes nothing: %s ms; medians,"
                        + " min–max in the table); the seed saw direct 1.64x faster than heap, here it is %s",
                Cells.mib(size), Cells.number(heap), Cells.number(direct), Cells.number(median(ms, "pool")),
                Cells.number(median(ms, "transferTo")), Cells.ratio(heap / direct)),
                advice(ms));
    }

    private static double median(Map<String, Range> ms, String strategy) {
        return ms.getOrDefault(strategy, Range.NONE).median();
    }

    /**
     * Which buffer to use, named only when the measurements support it: its range apart from the others' and
     * its median more than 5 % ahead; direct and pooled buffers that are not apart are level.
     */
    static String advice(Map<String, Range> ms) {
        Map<String, Range> buffers = new LinkedHashMap<>();
        for (String s : List.of("heap", "direct", "pool")) {
            buffers.put(s, ms.getOrDefault(s, Range.NONE));
        }
        Ranking ranking = Ranking.of(buffers, false, NOISE, 0);
        if (ranking == null) {
            return "for file I/O through your own buffer: fewer than two buffers measured, nothing to compare";
        }
        if (ranking.hasWinner()) {
            return ranking.best().equals("heap")
                    ? "for file I/O through your own buffer, a heap buffer is fine here: the extra copy did not cost"
                    : "for file I/O through your own buffer, use " + ranking.best()
                            + ": the kernel reads into it without the extra copy a heap buffer needs";
        }
        List<String> tied = ranking.leaders();
        if (!tied.contains("heap")) {
            return "for file I/O through your own buffer, use native memory: direct and pooled buffers are level"
                    + " (ranges overlap or within 5%), both spare the copy a heap buffer needs; the pool also frees"
                    + " it when you say so";
        }
        return "for file I/O through your own buffer, too close to call here: " + String.join(", ", tied)
                + " are level (ranges overlap or within 5%), so the extra copy of a heap buffer did not cost"
                + " measurably";
    }

    /** The buffer with the lowest median, transferTo and unmeasured ones left out; null if none was measured. */
    static String bestBuffer(Map<String, Range> ms) {
        String best = null;
        for (String s : List.of("heap", "direct", "pool")) {
            Range r = ms.getOrDefault(s, Range.NONE);
            if (!r.isEmpty() && (best == null || r.median() < ms.get(best).median())) {
                best = s;
            }
        }
        return best;
    }

    ExperimentResult result(Map<String, Range> ms, List<String> verdicts, List<String> notes, int size) {
        double best = ms.values().stream().mapToDouble(Range::median).filter(v -> !Double.isNaN(v)).min()
                .orElse(Double.NaN);
        List<List<String>> rows = new ArrayList<>();
        List<Double> seed = new ArrayList<>();
        List<Double> here = new ArrayList<>();
        double scale = (64 << 20) / (double) size;
        for (String s : STRATEGIES) {
            Range r = ms.getOrDefault(s, Range.NONE);
            double m = r.median();
            rows.add(List.of(s, Cells.number(SEED_MS.getOrDefault(s, Double.NaN)), Cells.number(m),
                    Cells.number(r.min()), Cells.number(r.max()), Cells.number(m * scale), Cells.ratio(m / best)));
            seed.add(SEED_MS.getOrDefault(s, Double.NaN));
            here.add(m * scale);
        }
        Table table = new Table("Read " + Cells.mib(size) + ", change, write back",
                List.of("strategy", SEED, "this machine (" + Cells.jdk() + "), ms median", "this machine, ms min",
                        "this machine, ms max",
                        "this machine, ms per 64 MiB", "ratio to best"),
                rows);
        Chart chart = new Chart("File read-change-write, ms per 64 MiB (lower is better)", "ms", false,
                STRATEGIES, List.of(new Series("seed 000 (AWS m5.large, JDK 13)", seed),
                        new Series("this machine", here)));
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("fileBytes", size);
        raw.put("unit", "ms");
        raw.put("times", ms);
        return new ExperimentResult(name(), title(), List.of(table), List.of(chart), verdicts, notes, raw);
    }

    /** {@code size} bytes of pseudo-random data, the same for every run. */
    static void writeRandom(Path file, int size) throws IOException {
        SplittableRandom random = new SplittableRandom(42);
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int done = 0; done < size; done += block.length) {
                random.nextBytes(block);
                out.write(block, 0, Math.min(block.length, size - done));
            }
        }
    }

    static long usableSpace(Path dir) {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
