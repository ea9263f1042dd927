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

import dev.offheap.lab.experiment.server.BufferStrategy;
import dev.offheap.lab.Experiment;
import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import dev.offheap.lab.ExperimentResult.Table;
import dev.offheap.lab.LabContext;
import dev.offheap.lab.experiment.server.LoadClient;
import dev.offheap.lab.experiment.server.ServerShootout;
import dev.offheap.lab.experiment.server.ShootoutTables;
import dev.offheap.lab.experiment.server.StaticFileServer;
import dev.offheap.lab.experiment.server.Summary;
import dev.offheap.lab.experiment.server.Verdicts;
import dev.offheap.lab.experiment.server.Workload;
import dev.offheap.lab.experiment.server.Wrk;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code server}: seed 001's Grizzly experiment, a static-file HTTP server whose buffer strategy is a switch;
 * then, where wrk is installed and the scale is not tiny, the frameworks part: real Netty and Jetty servers
 * with offheap's allocator and pool against their own, through {@link ServerShootout} in short form.
 */
public final class ServerExperiment implements Experiment {
    static final List<String> STRATEGIES = BufferStrategy.NAMES;
    static final int FILE_SIZE = 16 * 1024;
    private static final String SEED = "seed 001 (2007, Grizzly, JDK 6 client VM, ab -k -c600), tx/s";
    private static final Map<String, Double> SEED_TX = Map.of("heap", 2269.0, "direct", 2241.0,
            "heap-view", 2484.0, "direct-view", 2304.0);

    /** Opens the server's listening socket. */
    interface Binder {
        ServerSocketChannel bind() throws IOException;
    }

    private final Binder binder;
    private final Supplier<Optional<String>> wrk;
    private final Function<LabContext.Scale, Optional<ServerShootout.Settings>> frameworks;

    public ServerExperiment() {
        this(ServerExperiment::loopback, Wrk::find);
    }

    /** For tests: how the port is bound and where wrk is. */
    ServerExperiment(Binder binder, Supplier<Optional<String>> wrk) {
        this(binder, wrk, ServerExperiment::frameworkSettings);
    }

    /** For tests: also how the frameworks part runs at each scale. */
    ServerExperiment(Binder binder, Supplier<Optional<String>> wrk,
            Function<LabContext.Scale, Optional<ServerShootout.Settings>> frameworks) {
        this.binder = binder;
        this.wrk = wrk;
        this.frameworks = frameworks;
    }

    @Override
    public String name() {
        return "server";
    }

    /** The server and its load generator, or the message loop and its collector's threads. */
    @Override
    public int busyThreads() {
        return 2;
    }

    @Override
    public String title() {
        return "A static-file HTTP server over loopback with heap, direct, view and pooled buffers;"
                + " Netty and Jetty servers on offheap and on their own allocators";
    }

    /** The share of the progress bar taken by the seed's part when the frameworks part runs too. */
    private static final double SEED_SHARE = 0.2;

    /** One strategy's run: the lab's client's load and latencies, wrk's report (null without wrk). */
    record Run(LoadClient.Load load, Samples latency, Wrk.Report wrk) {}

    @Override
    public ExperimentResult run(LabContext context) throws Exception {
        long millis = switch (context.scale()) { case TINY -> 500; case QUICK -> 3000; case FULL -> 10000; };
        long warmup = switch (context.scale()) { case TINY -> 200; case QUICK -> 700; case FULL -> 3000; };
        int connections = context.scale() == LabContext.Scale.TINY ? 8 : 32;
        List<String> notes = new ArrayList<>();
        notes.add("one-thread NIO server and one-thread NIO client in this JVM, loopback, keep-alive, " + connections
                + " connections, closed loop, " + millis + " ms per strategy after " + warmup + " ms of warm-up;"
                + " static file of " + FILE_SIZE / 1024 + " KiB read into the response buffer per request;"
                + " request buffer 8 KiB per connection (Grizzly's), response buffer per request,"
                + " BufferStrategy.named(...); the view strategies cut slices from 4 MiB slabs, as Grizzly did");
        notes.add("one run per strategy, in the order of the table: on a shared 2-core machine with client and"
                + " server on the same cores, differences of ~10% are within run-to-run noise");
        Optional<String> wrkPath = wrk.get();
        if (wrkPath.isEmpty()) {
            notes.add("wrk not installed: only the lab's own client was used");
        }
        Files.createDirectories(context.workDir());
        Path file = context.workDir().resolve("server-static.bin");
        byte[] content = new byte[FILE_SIZE];
        new SplittableRandom(1).nextBytes(content);
        Files.write(file, content);
        Map<String, Run> runs = new LinkedHashMap<>();
        Optional<ServerShootout.Settings> frameworks = this.frameworks.apply(context.scale());
        double seedShare = frameworks.isPresent() && wrkPath.isPresent() ? SEED_SHARE : 1;
        try {
            context.progress().update("server: warming up", 0);
            measureWarmUp(file, connections, warmup);
            for (int i = 0; i < STRATEGIES.size(); i++) {
                String strategy = STRATEGIES.get(i);
                context.progress().update("server: " + strategy, seedShare * i / STRATEGIES.size());
                ServerSocketChannel socket;
                try {
                    socket = binder.bind();
                } catch (IOException e) {
                    notes.add("skipped: no free port on the loopback interface (" + e.getMessage() + ")");
                    break;
                }
                runs.put(strategy, measureStrategy(socket, strategy, file, connections, warmup, millis, wrkPath,
                        notes));
            }
        } finally {
            Files.deleteIfExists(file);
        }
        ServerShootout.Results shootout = null;
        if (frameworks.isEmpty()) {
            notes.add("frameworks part (Netty and Jetty servers under wrk): not run at tiny scale; run the lab"
                    + " at its default or full scale, or offheap-bench/scripts/servers.sh");
        } else if (wrkPath.isEmpty()) {
            notes.add("frameworks part (Netty and Jetty servers under wrk) skipped: wrk is not installed"
                    + " (apt-get install wrk); no figures are shown for it");
        } else {
            shootout = new ServerShootout(context.javaCommand(), context.classPath(),
                    context.workDir().resolve("servers"), wrkPath).run(frameworks.get(),
                            frameworkProgress(context.progress()));
            notes.addAll(frameworkNotes(frameworks.get(), shootout));
        }
        context.progress().update("server: done", 1);
        return result(runs, notes, shootout);
    }

    /** The frameworks part's progress: the part of the bar after the seed's part. */
    static ServerShootout.Progress frameworkProgress(LabContext.Progress progress) {
        return (what, fraction) -> progress.update("server: " + what, SEED_SHARE + (1 - SEED_SHARE) * fraction);
    }

    /** The frameworks part's notes: how it ran, the noise rule, the shootout's own notes, every failed run. */
    static List<String> frameworkNotes(ServerShootout.Settings settings, ServerShootout.Results shootout) {
        List<String> notes = new ArrayList<>();
        notes.add("frameworks part: " + settings.describe());
        notes.add("frameworks part: one round per configuration in a shared 2-core machine: a verdict names a"
                + " winner only beyond one run's noise (" + Math.round(100 * Verdicts.NOISE)
                + "%); offheap-bench/scripts/servers.sh runs every workload in rounds for BENCHMARKS.md");
        notes.addAll(shootout.notes().stream().map(n -> "frameworks part: " + n).toList());
        for (Summary summary : shootout.summaries()) {
            summary.failures().forEach(f -> notes.add("frameworks part: " + summary.workload().id() + " "
                    + summary.config() + " failed, " + f));
        }
        return notes;
    }

    /**
     * The frameworks part in short form: at the default (quick) scale Netty HTTP 16 KiB and Jetty 1 MiB, one
     * round of 2 s each after 1 s of warm-up (about 40 s for the six configurations); at full scale every workload of the full run, one round of 10 s each; none at tiny
     * scale (tests), where starting server JVMs and wrk would not fit.
     */
    static Optional<ServerShootout.Settings> frameworkSettings(LabContext.Scale scale) {
        return switch (scale) {
            case TINY -> Optional.empty();
            case QUICK -> Optional.of(new ServerShootout.Settings(List.of(Workload.NETTY_HTTP, Workload.JETTY_1M), 1,
                    2, 1, 64, 2, 1, 1, "512m", true));
            case FULL -> Optional.of(new ServerShootout.Settings(Workload.FULL, 1, 10, 3, 64, 2, 3, 2, "512m",
                    true));
        };
    }

    /** The first strategy measured should not pay for compiling the server and the client. */
    private void measureWarmUp(Path file, int connections, long millis) throws Exception {
        try (BufferStrategy buffers = BufferStrategy.named("heap");
                StaticFileServer server = new StaticFileServer(binder.bind(), buffers, file)) {
            LoadClient.run((InetSocketAddress) server.address(), connections, millis);
        } catch (IOException e) {
            // no port: the loop below notes it
        }
    }

    private static Run measureStrategy(ServerSocketChannel socket, String strategy, Path file, int connections,
            long warmup, long millis, Optional<String> wrkPath, List<String> notes) throws Exception {
        try (BufferStrategy buffers = BufferStrategy.named(strategy)) {
            InetSocketAddress address = (InetSocketAddress) socket.getLocalAddress();
            try (StaticFileServer server = new StaticFileServer(socket, buffers, file)) {
                LoadClient.run(address, connections, warmup);
                LoadClient.Load load = LoadClient.run(address, connections, millis);
                Wrk.Report report = null;
                if (wrkPath.isPresent()) {
                    try {
                        report = Wrk.run(wrkPath.get(), "http://127.0.0.1:" + address.getPort() + "/", connections,
                                millis);
                    } catch (IOException | RuntimeException e) {
                        notes.add("wrk failed for " + strategy + ": " + e.getMessage());
                    }
                }
                if (load.errors() > 0) {
                    notes.add(strategy + ": " + load.errors() + " connections failed during the run");
                }
                return new Run(load, new Samples(load.latenciesNanos()), report);
            }
        }
    }

    ExperimentResult result(Map<String, Run> runs, List<String> notes, ServerShootout.Results shootout) {
        double best = runs.values().stream().mapToDouble(r -> r.load().perSecond()).max().orElse(Double.NaN);
        List<List<String>> rows = new ArrayList<>();
        List<Double> seed = new ArrayList<>();
        List<Double> here = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        for (String s : STRATEGIES) {
            Run r = runs.get(s);
            double rate = r == null ? Double.NaN : r.load().perSecond();
            Samples l = r == null ? new Samples(new long[0]) : r.latency();
            Wrk.Report w = r == null ? null : r.wrk();
            rows.add(List.of(s, Cells.number(SEED_TX.getOrDefault(s, Double.NaN)), Cells.number(rate),
                    Cells.ratio(rate / best), Cells.number(l.percentile(50) / 1e6), Cells.number(l.percentile(99) / 1e6),
                    Cells.number(l.max() / 1e6), w == null ? Cells.NONE : Cells.number(w.requestsPerSecond()),
                    w == null ? Cells.NONE : Cells.number(w.p99Ms())));
            seed.add(SEED_TX.getOrDefault(s, Double.NaN));
            here.add(rate);
            p50.add(l.percentile(50) / 1e6);
            p99.add(l.percentile(99) / 1e6);
        }
        Table table = new Table("Static " + FILE_SIZE / 1024 + " KiB file over HTTP/1.1 keep-alive, loopback",
                List.of("strategy", SEED, "this machine (" + Cells.jdk() + "), req/s", "ratio to best",
                        "p50 ms", "p99 ms", "max ms", "wrk req/s", "wrk p99 ms"),
                rows);
        List<Chart> charts = List.of(
                new Chart("Requests per second by buffer strategy (higher is better)", "req/s", true, STRATEGIES,
                        List.of(new Series("seed 001 (Grizzly, JDK 6)", seed), new Series("this machine", here))),
                new Chart("Latency by buffer strategy (lower is better)", "ms", false, STRATEGIES,
                        List.of(new Series("p50", p50), new Series("p99", p99))));
        Map<String, Object> raw = new LinkedHashMap<>();
        runs.forEach((s, r) -> {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("requestsPerSecond", r.load().perSecond());
            run.put("p50Ms", r.latency().percentile(50) / 1e6);
            run.put("p99Ms", r.latency().percentile(99) / 1e6);
            run.put("maxMs", r.latency().max() / 1e6);
            raw.put(s, run);
        });
        List<Table> tables = new ArrayList<>(List.of(table));
        List<Chart> allCharts = new ArrayList<>(charts);
        List<String> verdicts = new ArrayList<>(verdicts(runs));
        if (shootout != null) {
            tables.addAll(frameworkTables(shootout.summaries()));
            allCharts.addAll(frameworkCharts(shootout.summaries()));
            for (Workload w : Workload.values()) {
                if (shootout.summaries().stream().anyMatch(s -> s.workload() == w)) {
                    verdicts.addAll(Verdicts.of(w, shootout.summaries()));
                }
            }
            raw.put("frameworks", shootout.json());
        }
        return new ExperimentResult(name(), title(), tables, allCharts, verdicts, notes, raw);
    }

    /** The seeds had no frameworks: this column says so, as the lab's tables carry a seed column. */
    static final String NO_SEED = "seed (none: new in issue 13)";

    /** One table per workload: the shootout's columns with the seed column after the configuration. */
    static List<Table> frameworkTables(List<Summary> summaries) {
        List<Table> tables = new ArrayList<>();
        List<String> columns = new ArrayList<>(ShootoutTables.columns());
        columns.add(1, NO_SEED);
        for (Workload w : Workload.values()) {
            List<List<String>> rows = new ArrayList<>();
            for (Summary s : summaries) {
                if (s.workload() == w) {
                    List<String> row = new ArrayList<>(ShootoutTables.row(s));
                    row.add(1, Cells.NONE);
                    rows.add(row);
                }
            }
            if (!rows.isEmpty()) {
                tables.add(new Table(w.title(), columns, rows));
            }
        }
        return tables;
    }

    /**
     * Throughput relative to the best of the same workload, and RSS after idle: a bar group per configuration
     * (offheap first), a bar per workload (NaN where a workload has no such configuration).
     */
    static List<Chart> frameworkCharts(List<Summary> summaries) {
        List<String> configs = summaries.stream().map(Summary::config).distinct().toList();
        List<Workload> workloads = summaries.stream().map(Summary::workload).distinct().toList();
        List<Series> ratios = new ArrayList<>();
        List<Series> idle = new ArrayList<>();
        for (Workload w : workloads) {
            List<Double> ratio = new ArrayList<>();
            List<Double> rss = new ArrayList<>();
            for (String c : configs) {
                Optional<Summary> s = summaries.stream().filter(x -> x.workload() == w && x.config().equals(c))
                        .findFirst();
                ratio.add(s.map(Summary::ratioToBest).orElse(Double.NaN));
                rss.add(s.map(x -> x.rssAfterIdleMib().median()).orElse(Double.NaN));
            }
            ratios.add(new Series(w.id(), ratio));
            idle.add(new Series(w.id(), rss));
        }
        return List.of(
                new Chart("Netty and Jetty servers: req/s relative to the best configuration of the same workload"
                        + " (higher is better)", "x best", false, configs, ratios),
                new Chart("Netty and Jetty servers: RSS after idle, trim and GC (lower is better)", "MiB", false,
                        configs, idle));
    }

    /**
     * The ratio of slowest to fastest above which one run per strategy cannot tell strategies apart: client
     * and server share this machine's two cores, and the same strategy moves by 10-15 % from run to run.
     */
    private static final double NOISE = 0.85;

    static List<String> verdicts(Map<String, Run> runs) {
        if (runs.isEmpty()) {
            return List.of("on this machine, the server was not measured: see the notes");
        }
        String best = runs.entrySet().stream()
                .max((a, b) -> Double.compare(a.getValue().load().perSecond(), b.getValue().load().perSecond()))
                .orElseThrow().getKey();
        double worst = runs.values().stream().mapToDouble(r -> r.load().perSecond()).min().orElseThrow();
        double top = runs.get(best).load().perSecond();
        if (!(top > 0)) {
            return List.of("on this machine, the server served no request: see the notes");
        }
        String seed = "; the seed found heap views best (2484 vs 2241-2304 tx/s, a 10% spread)";
        String spread = String.format(Locale.ROOT, "%.0f%%", 100 * (1 - worst / top));
        return List.of(worst / top > NOISE
                        ? "on this machine, the buffer strategies served " + Cells.number(worst) + " to "
                                + Cells.number(top) + " req/s, " + spread + " apart: too close to call here (one run"
                                + " each, within its noise)" + seed
                        : "on this machine, " + best + " serves the most requests (" + Cells.number(top)
                                + " req/s); the slowest strategy is " + spread + " lower" + seed,
                "with a one-thread server on loopback, the buffer strategy is " + (worst / top > NOISE
                        ? "not what limits throughput: the differences are within one run's noise here (~15%),"
                                + " as the seed's 10% spread was"
                        : "visible in throughput: " + best + " serves most, by more than one run's noise (~15%)"));
    }

    /** A listening socket on the loopback interface, on a port the system chooses. */
    static ServerSocketChannel loopback() throws IOException {
        return ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }
}
