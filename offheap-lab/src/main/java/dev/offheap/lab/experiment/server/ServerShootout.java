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

import dev.offheap.lab.report.Json;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Real Netty, gRPC and Jetty servers under load, side by side in one run: every configuration of every
 * workload in rounds (configurations interleaved within a round, their order rotated from round to round), each
 * in a fresh server JVM: warm-up, measured run (wrk with a Lua {@code done()} for HTTP, {@link EchoLoad} for
 * echo, {@link GrpcLoad} in a JVM of its own for gRPC), peak RSS, GC pauses and the heap the server allocated
 * per request in the measured run, then idle (its RSS and its allocator's direct memory read every
 * {@code --sample} seconds, nothing else done), {@code idle} (trim and collect) or with {@code --trim false}
 * {@code collect} (collect only, no trim call), a pause, and the RSS after idle.
 *
 * <p>Usage: {@code ServerShootout [--seconds 15] [--warmup 5] [--rounds 2] [--connections 64] [--threads 2]
 * [--idle 5] [--sample 5] [--trim true] [--settle 2] [--heap 512m] [--native-access true]
 * [--only netty-http,grpc,jetty-1m,...] [--out DIR]}; with {@code --out},
 * writes {@code servers.md}, {@code servers.json} and the servers' gc logs there; prints the Markdown.
 */
public final class ServerShootout {
    /** How often the memory of an idle server is read unless told. */
    static final int DEFAULT_SAMPLE_SECONDS = 5;

    /**
     * How a shootout runs.
     *
     * @param workloads     what to measure
     * @param rounds        how many times each configuration is measured
     * @param seconds       the measured run of each configuration
     * @param warmupSeconds the warm-up run before it (same load, not measured)
     * @param connections   the load's connections (the gRPC client's calls in flight, on one connection)
     * @param threads       wrk's threads
     * @param idleSeconds   how long the server idles after the load before {@code idle}
     * @param settleSeconds how long after {@code idle} its RSS is read
     * @param heap          every server's {@code -Xmx}
     * @param nativeAccess  whether servers run with {@code --enable-native-access=ALL-UNNAMED} (the default):
     *                      it lets offheap map its slabs without a warning, and it also makes Netty free direct
     *                      memory with malloc/free downcalls ({@code CleanerJava24Linker}); without it Netty
     *                      takes one {@code Arena.ofShared()} per buffer ({@code CleanerJava25}), as it does for
     *                      an application whose Netty jars get no native access, and offheap warns once
     * @param trim          whether the server's trim runs after the idle period (the default): false runs
     *                      {@code System.gc()} only, to measure what memory goes back with no trim call
     * @param sampleSeconds how often the server's memory is read while it idles (at 0 s, then every
     *                      {@code sampleSeconds}, and at the end of the idle period)
     */
    public record Settings(List<Workload> workloads, int rounds, int seconds, int warmupSeconds, int connections,
            int threads, int idleSeconds, int settleSeconds, String heap, boolean nativeAccess, boolean trim,
            int sampleSeconds) {
        /** Checks the periods. */
        public Settings {
            if (idleSeconds < 0 || settleSeconds < 0 || sampleSeconds <= 0) {
                throw new IllegalArgumentException("idle and settle must be >= 0 s and sample > 0 s: idle "
                        + idleSeconds + ", settle " + settleSeconds + ", sample " + sampleSeconds);
            }
            workloads = List.copyOf(workloads);
        }

        /** Settings that trim after the idle period and read the memory every 5 s while idle. */
        public Settings(List<Workload> workloads, int rounds, int seconds, int warmupSeconds, int connections,
                int threads, int idleSeconds, int settleSeconds, String heap, boolean nativeAccess) {
            this(workloads, rounds, seconds, warmupSeconds, connections, threads, idleSeconds, settleSeconds, heap,
                    nativeAccess, true, DEFAULT_SAMPLE_SECONDS);
        }

        /** The full run: every workload of {@link Workload#FULL}, 2 rounds, wrk -t2 -c64 -d15s. */
        public static Settings full() {
            return new Settings(Workload.FULL, 2, 15, 5, 64, 2, 5, 2, "512m", true);
        }

        /** The seconds after the load at which the idle memory is read: 0, every sample period, the end. */
        public List<Integer> sampleTimes() {
            List<Integer> times = new ArrayList<>();
            for (int t = 0; t < idleSeconds; t += sampleSeconds) {
                times.add(t);
            }
            times.add(idleSeconds);
            return times;
        }

        /** One line saying how it ran. */
        public String describe() {
            return String.format(Locale.ROOT, "%d round(s), configurations interleaved; per configuration a fresh"
                    + " server JVM (-Xmx%s%s -Xlog:gc:file=..., nothing else),"
                    + " %d s warm-up, %d s measured with %d connections (wrk -t%d -c%d -d%ds --latency, or the echo"
                    + " client; as many calls in flight on one connection for gRPC), then %d s idle (RSS and the"
                    + " allocator's direct memory read every %d s, nothing else done), %s, RSS read %d s later", rounds,
                    heap,
                    nativeAccess ? " --enable-native-access=ALL-UNNAMED" : "",
                    warmupSeconds, seconds, connections, threads, connections, seconds, idleSeconds,
                    sampleSeconds, trim ? "trim and System.gc()" : "System.gc() only (no trim call)",
                    settleSeconds);
        }
    }

    /** Progress of a run. */
    public interface Progress {
        /** {@code fraction} in [0, 1] done; {@code what} is the current step. */
        void update(String what, double fraction);
    }

    /** What a run found: every measurement, the summaries, and notes (skips, failures, servers' stderr). */
    public record Results(Settings settings, List<Measurement> measurements, List<Summary> summaries,
            List<String> notes) {
        /** Every workload's table and verdicts in Markdown, after the settings and notes. */
        public String markdown() {
            StringBuilder md = new StringBuilder();
            md.append("Servers: ").append(settings.describe()).append(". ").append(machine()).append("\n\n");
            for (Workload w : settings.workloads()) {
                if (summaries.stream().anyMatch(s -> s.workload() == w)) {
                    md.append(ShootoutTables.markdown(w, summaries));
                    md.append(IdleTable.markdown(w, settings.trim(), measurements));
                }
            }
            for (String note : notes) {
                md.append("- note: ").append(note).append('\n');
            }
            return md.toString();
        }

        /** The raw numbers: settings, every measurement, the summaries. */
        public Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("workloads", settings.workloads().stream().map(Workload::id).toList());
            s.put("rounds", settings.rounds());
            s.put("seconds", settings.seconds());
            s.put("warmupSeconds", settings.warmupSeconds());
            s.put("connections", settings.connections());
            s.put("threads", settings.threads());
            s.put("idleSeconds", settings.idleSeconds());
            s.put("settleSeconds", settings.settleSeconds());
            s.put("sampleSeconds", settings.sampleSeconds());
            s.put("trim", settings.trim());
            s.put("heap", settings.heap());
            s.put("nativeAccess", settings.nativeAccess());
            m.put("settings", s);
            m.put("machine", machine());
            m.put("measurements", measurements.stream().map(Measurement::json).toList());
            m.put("summaries", summaries.stream().map(Summary::json).toList());
            m.put("idle", settings.workloads().stream().flatMap(w -> IdleTable.rows(w, measurements).stream())
                    .map(IdleTable.Row::json).toList());
            m.put("notes", notes);
            return m;
        }
    }

    private final String java;
    private final List<String> classPath;
    private final Path workDir;
    private final Optional<String> wrk;

    /** A shootout whose servers run {@code java} on {@code classPath}, with files in {@code workDir}. */
    public ServerShootout(String java, List<String> classPath, Path workDir, Optional<String> wrk) {
        this.java = java;
        this.classPath = List.copyOf(classPath);
        this.workDir = workDir;
        this.wrk = wrk;
    }

    /** Runs every round; a configuration that fails is noted and the run goes on. */
    public Results run(Settings settings, Progress progress) throws IOException, InterruptedException {
        List<String> notes = new ArrayList<>();
        List<Workload> workloads = new ArrayList<>();
        for (Workload w : settings.workloads()) {
            if (w.http() && wrk.isEmpty()) {
                notes.add(w.id() + " skipped: wrk is not installed (apt-get install wrk)");
            } else {
                workloads.add(w);
            }
        }
        Path script = ScriptedWrk.writeScript(workDir);
        int total = settings.rounds() * workloads.stream().mapToInt(w -> w.configs().size()).sum();
        List<Measurement> measurements = new ArrayList<>();
        Map<String, Set<String>> stderr = new LinkedHashMap<>();
        for (int round = 1; round <= settings.rounds(); round++) {
            for (Workload w : workloads) {
                List<String> configs = rotated(w.configs(), round - 1);
                for (String config : configs) {
                    progress.update(String.format(Locale.ROOT, "round %d, %s, %s", round, w.id(), config),
                            measurements.size() / (double) total);
                    Measurement m = measure(settings, w, config, round, script);
                    measurements.add(m);
                    if (!m.stderr().isEmpty()) {
                        stderr.computeIfAbsent(w.id() + " " + config, k -> new LinkedHashSet<>()).addAll(m.stderr());
                    }
                }
            }
        }
        progress.update("done", 1);
        stderr.forEach((who, lines) -> notes.add(who + " printed on stderr: " + String.join(" / ",
                lines.stream().limit(5).toList()) + (lines.size() > 5 ? " / ..." : "")));
        return new Results(settings, measurements, Summary.of(measurements), notes);
    }

    /** {@code list} rotated left by {@code by}: each round starts with another configuration. */
    static List<String> rotated(List<String> list, int by) {
        List<String> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            out.add(list.get((i + by) % list.size()));
        }
        return out;
    }

    private Measurement measure(Settings s, Workload w, String config, int round, Path script)
            throws InterruptedException {
        String name = w.id() + "-" + config + "-r" + round;
        ServerProcess server;
        try {
            server = ServerProcess.start(java, classPath, ServerProcess.jvmOptions(s.heap(), s.nativeAccess()),
                    workDir, name, w.main(), w.serverArgs(config));
        } catch (IOException e) {
            return Measurement.failed(w, config, round, "did not start: " + e.getMessage(), List.of());
        }
        try (server; LoadDriver driver = driver(w, server.port(), s, script, name)) {
            driver.run(s.warmupSeconds());
            int before = server.gcPauses().size();
            long heapBefore = server.memory().heapAllocatedBytes();
            LoadResult load = driver.run(s.seconds());
            long heapAfter = server.memory().heapAllocatedBytes();
            List<Double> pauses = server.gcPauses();
            pauses = pauses.subList(Math.min(before, pauses.size()), pauses.size());
            long peak = server.kib(ProcMemory.PEAK_RSS);
            List<IdleSample> samples = idleSamples(server, s);
            server.idle(s.trim());
            Thread.sleep(s.settleSeconds() * 1000L);
            long after = server.kib(ProcMemory.RSS);
            long allocatorAfter = server.memory().allocatorBytes();
            String failure = load.errors() > 0 || load.requests() == 0
                    ? load.errors() + " errors and " + load.requests() + " requests in the measured run" : null;
            return new Measurement(w, config, round, load, pauses.size(),
                    pauses.stream().mapToDouble(Double::doubleValue).sum(),
                    pauses.stream().mapToDouble(Double::doubleValue).max().orElse(0), peak, after, failure,
                    warnings(server.stderrLines()), samples, allocatorAfter,
                    heapBefore < 0 || heapAfter < 0 ? -1 : heapAfter - heapBefore);
        } catch (IOException | RuntimeException e) {
            return Measurement.failed(w, config, round, e.getMessage(), warnings(server.stderrLines()));
        }
    }

    /**
     * Reads the idle server's memory at each of {@link Settings#sampleTimes()} after now (the end of the load),
     * asking it for nothing else; returns at the end of the idle period.
     */
    private static List<IdleSample> idleSamples(ServerProcess server, Settings s)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        List<IdleSample> samples = new ArrayList<>();
        for (int t : s.sampleTimes()) {
            long wait = start + TimeUnit.SECONDS.toNanos(t) - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            AdminConsole.Reading r = server.memory();
            samples.add(new IdleSample(t, r.rssKib(), r.allocatorBytes()));
        }
        return samples;
    }

    private static final Pattern INFO = Pattern.compile("\\bINFO\\b");

    /** What a server printed on stderr but its INFO log lines (Jetty's start and stop). */
    static List<String> warnings(List<String> stderr) {
        return stderr.stream().filter(l -> !l.isBlank() && !INFO.matcher(l).find()).toList();
    }

    /**
     * What drives {@code w}'s server on {@code port}: wrk and the echo client start afresh for each run, in a
     * process of their own and in this JVM; the gRPC client runs in a JVM of its own for the configuration.
     */
    private LoadDriver driver(Workload w, int port, Settings s, Path script, String name) throws IOException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        return switch (w.load()) {
            case WRK -> seconds -> ScriptedWrk.run(wrk.orElseThrow(), script, "http://127.0.0.1:" + port + "/",
                    s.threads(), s.connections(), seconds);
            case ECHO_CLIENT -> seconds -> EchoLoad.run(address, s.connections(), w.size(), seconds * 1000L);
            case GRPC_CLIENT -> GrpcClientProcess.start(java, classPath, ServerProcess.jvmOptions(s.heap(),
                    s.nativeAccess()), workDir, name, port, s.connections(), w.size());
        };
    }

    private static String machine() {
        return String.format(Locale.ROOT, "Machine: %d cores, JDK %s (%s), %s %s; client and server share it",
                Runtime.getRuntime().availableProcessors(), Runtime.version(), System.getProperty("java.vm.name"),
                System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    /** Parses the options, runs, prints the Markdown, and writes the files of {@code --out}. */
    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        Settings settings = settings(o);
        Path out = o.containsKey("out") ? Path.of(o.get("out")) : null;
        Path work = out != null ? out.resolve("logs") : Files.createTempDirectory("offheap-servers");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        Results results = new ServerShootout(java, classPath, work, Wrk.find()).run(settings,
                (what, fraction) -> System.err.printf(Locale.ROOT, "[%3.0f%%] %s%n", 100 * fraction, what));
        String markdown = results.markdown();
        System.out.print(markdown);
        if (out != null) {
            Files.writeString(out.resolve("servers.md"), markdown);
            Files.writeString(out.resolve("servers.json"), Json.write(results.json()));
        } else {
            try (var files = Files.walk(work)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** The settings of the command line {@code args}: {@link Settings#full()} but what they change. */
    static Settings settings(String[] args) {
        return settings(options(args));
    }

    private static Settings settings(Map<String, String> o) {
        Settings d = Settings.full();
        List<Workload> workloads = o.containsKey("only")
                ? Arrays.stream(o.get("only").split(",")).map(String::strip).map(Workload::byId).toList()
                : d.workloads();
        return new Settings(workloads, number(o, "rounds", d.rounds()), number(o, "seconds", d.seconds()),
                number(o, "warmup", d.warmupSeconds()), number(o, "connections", d.connections()),
                number(o, "threads", d.threads()), number(o, "idle", d.idleSeconds()),
                number(o, "settle", d.settleSeconds()), o.getOrDefault("heap", d.heap()),
                bool(o, "native-access", d.nativeAccess()), bool(o, "trim", d.trim()),
                number(o, "sample", d.sampleSeconds()));
    }

    private static Map<String, String> options(String[] args) {
        Set<String> known = Set.of("seconds", "warmup", "rounds", "connections", "threads", "idle", "sample",
                "trim", "settle", "heap", "native-access", "only", "out");
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i].startsWith("--") ? args[i].substring(2) : "";
            if (!known.contains(name) || i + 1 == args.length) {
                throw new IllegalArgumentException("usage: ServerShootout [--seconds n] [--warmup n] [--rounds n]"
                        + " [--connections n] [--threads n] [--idle n] [--sample n] [--trim true|false] [--settle n]"
                        + " [--heap 512m] [--native-access true|false]"
                        + " [--only " + String.join(",", Arrays.stream(Workload.values()).map(Workload::id).toList())
                        + "] [--out dir]");
            }
            o.put(name, args[++i]);
        }
        return o;
    }

    private static int number(Map<String, String> o, String name, int otherwise) {
        return o.containsKey(name) ? Integer.parseInt(o.get(name)) : otherwise;
    }

    /** {@code true} or {@code false}, nothing else: a typo must not turn an option off. */
    private static boolean bool(Map<String, String> o, String name, boolean otherwise) {
        String v = o.get(name);
        if (v == null) {
            return otherwise;
        }
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException("--" + name + " takes true or false, not " + v);
        }
        return Boolean.parseBoolean(v);
    }
}
