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

package dev.offheap.accuracy.truth;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Measures one running target: truth, {@code offheap inspect PID --json}, truth again; compares category by
 * category and writes {@code result.json} and {@code result.md} into the output directory.
 *
 * <pre>
 * java -cp inspect-accuracy.jar dev.offheap.accuracy.truth.Compare --pid PID --jdk TARGET_JAVA_HOME
 *     --name NAME --nmt on|off --out DIR [--pagesize-log FILE] [--command-file FILE] -- INSPECT_COMMAND...
 * </pre>
 * The inspect command gets {@code PID --json} appended (e.g. {@code -- ./offheap inspect}).
 */
public final class Compare {
    static final long TWO_MIB = 2 * 1024 * 1024;
    static final double SHARE = 0.05;
    static final List<String> PARTS = List.of("heap", "codeCache", "programFiles", "mapped", "threadStacks", "metaspace",
            "gc", "otherJvm", "offheap", "malloc", "otherAllocator", "sharedMemory", "unexplained");

    private Compare() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> inspect = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--")) {
                inspect.addAll(List.of(args).subList(i + 1, args.length));
                break;
            }
            options.put(args[i].replaceFirst("^--", ""), args[++i]);
        }
        long pid = Long.parseLong(options.get("pid"));
        Path jdk = Path.of(options.get("jdk"));
        boolean nmt = options.getOrDefault("nmt", "off").equals("on");
        Path out = Path.of(options.get("out"));
        Path pagesizeLog = options.containsKey("pagesize-log") ? Path.of(options.get("pagesize-log")) : null;
        Files.createDirectories(out);
        int feature = feature(jdk);

        Truth truth = new Truth(pid, jdk, pagesizeLog);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("name", options.get("name"));
        result.put("jdk", jdk.toString());
        result.put("jdkFeature", (long) feature);
        result.put("jdkVersion", javaVersion(jdk));
        result.put("nmt", nmt ? "detail" : "off");
        result.put("pid", pid);
        if (options.containsKey("command-file")) {
            result.put("command", Files.readString(Path.of(options.get("command-file"))).strip());
        }

        // the JMX agent inspect also starts: started first, so both truth samples see it
        try (JMXConnector jmx = connect(pid)) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            truth.jcmd("VM.uptime"); // the attach listener is up before the first sample
            Map<String, Object> before = sample(truth, server, nmt, feature);
            long start = System.nanoTime();
            RssWatch watch = new RssWatch(pid);
            watch.start();
            Map<String, Object> inspected = runInspect(inspect, pid, out);
            watch.stop();
            long inspectMillis = (System.nanoTime() - start) / 1_000_000;
            result.put("rssWhileInspecting", watch.figures());
            Map<String, Object> after = sample(truth, server, nmt, feature);
            result.put("truthBefore", before);
            result.put("inspect", inspected);
            result.put("inspectMillis", inspectMillis);
            result.put("truthAfter", after);
        }
        Map<String, Object> inspected = Json.map(result.get("inspect"));
        if (inspected.containsKey("error")) {
            result.put("rows", List.of());
            result.put("verdict", Map.of("error", inspected.get("error")));
        } else {
            List<Map<String, Object>> rows = rows(result, nmt);
            result.put("rows", rows);
            result.put("verdict", verdict(rows, nmt));
        }
        Files.writeString(out.resolve("result.json"), Json.write(result));
        String markdown = Report.target(result);
        Files.writeString(out.resolve("result.md"), markdown);
        System.out.print(markdown);
    }

    /** VmRSS every 20 ms while inspect runs: how much the process moved under inspect's feet. */
    static final class RssWatch {
        private final Path status;
        private final Thread thread;
        private volatile boolean running = true;
        private long min = Long.MAX_VALUE;
        private long max = Long.MIN_VALUE;
        private long samples;

        RssWatch(long pid) {
            status = Path.of("/proc", Long.toString(pid), "status");
            thread = new Thread(this::run, "rss-watch");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }

        private void run() {
            while (running) {
                try {
                    for (String line : Files.readAllLines(status)) {
                        if (line.startsWith("VmRSS:")) {
                            long rss = Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
                            min = Math.min(min, rss);
                            max = Math.max(max, rss);
                            samples++;
                        }
                    }
                    Thread.sleep(20);
                } catch (IOException | InterruptedException | RuntimeException e) {
                    return;
                }
            }
        }

        Map<String, Object> figures() {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("samples", samples);
            f.put("min", samples == 0 ? null : min);
            f.put("max", samples == 0 ? null : max);
            return f;
        }
    }

    static int feature(Path jdk) throws IOException {
        String version = javaVersion(jdk);
        String major = version.split("[.+-]")[0];
        return Integer.parseInt(major);
    }

    static String javaVersion(Path jdk) throws IOException {
        for (String line : Files.readAllLines(jdk.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                return line.substring("JAVA_VERSION=".length()).replace("\"", "");
            }
        }
        throw new IOException("no JAVA_VERSION in " + jdk.resolve("release"));
    }

    private static JMXConnector connect(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        return JMXConnectorFactory.connect(new JMXServiceURL(address));
    }

    private static Map<String, Object> sample(Truth truth, MBeanServerConnection server, boolean nmt, int feature)
            throws Exception {
        Map<String, Object> s = truth.sample(nmt, feature);
        Map<String, Object> pools = new LinkedHashMap<>();
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(server, BufferPoolMXBean.class)) {
            pools.put(pool.getName(), Map.of("count", pool.getCount(), "capacity", pool.getTotalCapacity(),
                    "memoryUsed", pool.getMemoryUsed()));
        }
        s.put("bufferPools", pools);
        Map<String, Object> figures = new LinkedHashMap<>();
        ObjectName workload = new ObjectName("dev.offheap.accuracy:type=Workload");
        if (server.isRegistered(workload)) {
            for (String line : String.valueOf(server.getAttribute(workload, "Figures")).split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    figures.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1).trim()));
                }
            }
        }
        s.put("workload", figures);
        return s;
    }

    private static Map<String, Object> runInspect(List<String> command, long pid, Path out) throws Exception {
        List<String> full = new ArrayList<>(command);
        full.add(Long.toString(pid));
        full.add("--json");
        Process p = new ProcessBuilder(full).redirectError(out.resolve("inspect.stderr").toFile()).start();
        byte[] stdout = p.getInputStream().readAllBytes();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return Map.of("error", "inspect did not finish in 300 s");
        }
        String text = new String(stdout, StandardCharsets.UTF_8).strip();
        Files.writeString(out.resolve("inspect.json"), text + "\n");
        if (p.exitValue() != 0 || text.isEmpty()) {
            return Map.of("error", "inspect exited with " + p.exitValue() + ": "
                    + Files.readString(out.resolve("inspect.stderr")).strip());
        }
        String last = text.substring(text.lastIndexOf("\n") + 1);
        return Json.map(Json.parse(last));
    }

    /** One row per category: inspect's figure, the truth of both samples, the error and whether it passes. */
    static List<Map<String, Object>> rows(Map<String, Object> result, boolean nmt) {
        Map<String, Object> inspect = Json.map(result.get("inspect"));
        Map<String, Object> before = Json.map(result.get("truthBefore"));
        Map<String, Object> after = Json.map(result.get("truthAfter"));
        Map<String, Map<String, Object>> parts = new LinkedHashMap<>();
        for (Object o : Json.list(inspect.get("attribution"))) {
            Map<String, Object> part = Json.map(o);
            parts.put(String.valueOf(part.get("part")), part);
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        long inspectRss = Json.number(inspect.get("rss"), 0);
        Map<String, Object> watch = Json.map(result.get("rssWhileInspecting"));
        long rb = Json.number(before.get("pagemapRss"), 0);
        long ra = Json.number(after.get("pagemapRss"), 0);
        // how far RSS moved around the truth samples while inspect ran: an allowance for what moves under load
        long noise = 0;
        Map<String, Object> rss = row("rss", inspectRss, false, null, rb, ra, null, null,
                "pagemap's present pages (the categories' base)", 0);
        if (watch.get("min") instanceof Number lo && watch.get("max") instanceof Number hi) {
            noise = Math.max(0, Math.max(hi.longValue(), Math.max(rb, ra)) - Math.min(lo.longValue(), Math.min(rb, ra))
                    - Math.abs(ra - rb));
            long low = Math.min(lo.longValue(), Math.min(rb, ra));
            long high = Math.max(hi.longValue(), Math.max(rb, ra));
            long tolerance = Json.number(rss.get("tolerance"), 0);
            rss.put("lower", low);
            rss.put("upper", high);
            rss.put("pass", inspectRss >= low - tolerance && inspectRss <= high + tolerance);
        }
        rows.add(rss);
        for (String key : PARTS) {
            Map<String, Object> b = Json.map(Json.map(before.get("categories")).get(key));
            Map<String, Object> a = Json.map(Json.map(after.get("categories")).get(key));
            Map<String, Object> part = parts.get(key);
            long value;
            boolean absent = false;
            if (key.equals("unexplained")) {
                value = Json.number(inspect.get("unexplained"), 0);
            } else if (part != null) {
                value = Json.number(part.get("bytes"), 0);
            } else {
                value = 0;
                absent = true;
            }
            Long tb = b.get("bytes") instanceof Number n ? n.longValue() : null;
            Long ta = a.get("bytes") instanceof Number n ? n.longValue() : null;
            if (key.equals("sharedMemory") && absent && (tb == null || tb == 0) && (ta == null || ta == 0)) {
                continue;
            }
            if (key.equals("otherAllocator") && absent && (tb == null || tb == 0) && (ta == null || ta == 0)) {
                continue;
            }
            Long lower = b.containsKey("lower") ? Math.min(Json.number(b.get("lower"), 0), Json.number(a.get("lower"), 0)) : null;
            Long upper = b.containsKey("upper") ? Math.max(Json.number(b.get("upper"), 0), Json.number(a.get("upper"), 0)) : null;
            Map<String, Object> r = row(key, value, absent, part, tb, ta == null ? tb : ta, lower, upper,
                    String.valueOf(b.get("source")), key.equals("unexplained") ? 0 : noise);
            if (key.equals("unexplained")) {
                double share = inspectRss == 0 ? 0 : (double) value / inspectRss;
                double limit = nmt ? 0.10 : 0.20;
                r.put("share", share);
                r.put("errorShare", null); // against RSS, not against the truth's small residual: see share
                r.put("shareLimit", limit);
                r.put("pass", share < limit);
            }
            rows.add(r);
        }
        return rows;
    }

    private static Map<String, Object> row(String key, long inspect, boolean absent, Map<String, Object> part, Long before,
            Long after, Long lower, Long upper, String source, long noise) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("category", key);
        r.put("inspect", inspect);
        r.put("inspectAbsent", absent);
        if (part != null) {
            // version 1 of inspect's JSON: claimed (the owner's figure before capping); version 2: exact, bound
            for (String field : List.of("claimed", "exact", "bound")) {
                if (part.containsKey(field)) {
                    r.put("inspect" + Character.toUpperCase(field.charAt(0)) + field.substring(1), part.get(field));
                }
            }
            r.put("inspectSource", part.get("source"));
        }
        r.put("truthBefore", before);
        r.put("truthAfter", after);
        if (before != null && after != null) {
            long truth = (before + after) / 2;
            long lo = Math.min(before, after);
            long hi = Math.max(before, after);
            long tolerance = Math.max(TWO_MIB, (long) (SHARE * Math.max(Math.abs(lo), Math.abs(hi))));
            r.put("truth", truth);
            r.put("error", inspect - truth);
            r.put("errorShare", truth == 0 ? null : (double) (inspect - truth) / truth);
            r.put("tolerance", tolerance);
            r.put("drift", after - before);
            boolean pass = inspect >= lo - tolerance && inspect <= hi + tolerance;
            if (!pass && noise > 0 && inspect >= lo - tolerance - noise && inspect <= hi + tolerance + noise) {
                // within what RSS moved while inspect ran, beyond the two truth samples: passes, marked as noisy
                pass = true;
                r.put("noisy", true);
                r.put("noise", noise);
            }
            r.put("pass", pass);
        } else if (upper != null) {
            long lo = lower == null ? 0 : lower;
            long tolerance = Math.max(TWO_MIB, (long) (SHARE * upper));
            r.put("lower", lo);
            r.put("upper", upper);
            r.put("tolerance", tolerance);
            r.put("pass", inspect >= lo - tolerance && inspect <= upper + tolerance);
        } else {
            r.put("pass", null);
        }
        r.put("truthSource", source);
        return r;
    }

    static Map<String, Object> verdict(List<Map<String, Object>> rows, boolean nmt) {
        int judged = 0;
        int passed = 0;
        List<String> failed = new ArrayList<>();
        boolean unexplainedOk = false;
        double share = 0;
        for (Map<String, Object> r : rows) {
            String key = String.valueOf(r.get("category"));
            if (key.equals("unexplained")) {
                unexplainedOk = Boolean.TRUE.equals(r.get("pass"));
                share = r.get("share") instanceof Number n ? n.doubleValue() : 0;
                continue;
            }
            if (r.get("pass") instanceof Boolean pass) {
                judged++;
                if (pass) {
                    passed++;
                } else {
                    failed.add(key);
                }
            }
        }
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("categoriesJudged", (long) judged);
        v.put("categoriesPassed", (long) passed);
        v.put("categoriesFailed", failed);
        v.put("unexplainedShare", share);
        v.put("unexplainedLimit", nmt ? 0.10 : 0.20);
        v.put("unexplainedPass", unexplainedOk);
        v.put("pass", failed.isEmpty() && unexplainedOk);
        return v;
    }
}
