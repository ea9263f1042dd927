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

package dev.offheap.recorder;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * Records this process's memory by owner while it runs, so that a process killed for its memory leaves a report
 * behind. A daemon thread takes a {@link MemorySample} every {@link RecorderOptions#interval()} (reading a few
 * small files and the JVM's counters: no safepoint, no walk of the mappings), keeps the last
 * {@link RecorderOptions#history()} of them, and writes them, as JSON lines and as an HTML page with their chart,
 * to {@link RecorderOptions#directory()}:
 * <ul>
 * <li>when the container's working set crosses a threshold (75 % and 90 % of its limit by default): the report an
 * OOM kill leaves behind, since a killed process runs no code;</li>
 * <li>on a signal ({@code kill -USR2 PID} by default), on {@link #report(String)}, and when asked through the
 * attach mechanism ({@code offheap record PID --report});</li>
 * <li>at exit, from a shutdown hook (a normal exit, {@code SIGTERM}, {@code SIGINT}).</li>
 * </ul>
 * Files are named {@code offheap-memory-PID-START-REASON.jsonl} and {@code .html} (START: when the JVM started, so
 * that PID 1 in successive containers does not overwrite itself); a reason's report replaces that reason's last
 * one, written to a temporary file and moved in place. {@code offheap report FILE.jsonl} draws any record again.
 * <p>
 * As a Java agent: {@code java -javaagent:offheap-recorder.jar=dir=/var/log/offheap ...}, or into a running JVM
 * with {@code offheap record PID --dir DIR}. As a library: {@link #start(RecorderOptions)}.
 */
public final class MemoryRecorder implements AutoCloseable {
    private static MemoryRecorder agent;
    private static SelfSampler shared;

    private final RecorderOptions options;
    private final SelfSampler sampler;
    private final History history;
    private final Thresholds thresholds;
    private final Ceilings ceilings;
    private final long pid = ProcessHandle.current().pid();
    private final String vm = System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version");
    private final long startMillis;
    private final Thread thread;
    private final Thread exitHook;
    private final String signalProblem;
    private volatile boolean running = true;

    private MemoryRecorder(RecorderOptions options, SelfSampler sampler) {
        this.options = options;
        this.sampler = sampler;
        this.history = new History(options.history());
        this.thresholds = new Thresholds(options.thresholds());
        this.ceilings = Ceilings.read();
        this.startMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
        this.thread = new Thread(new Runnable() {
            @Override
            public void run() {
                sampleEachInterval();
            }
        }, "offheap-recorder");
        this.thread.setDaemon(true);
        this.exitHook = new Thread(new Runnable() {
            @Override
            public void run() {
                running = false;
                takeSample();
                writeQuietly("exit");
            }
        }, "offheap-recorder-exit");
        this.signalProblem = SignalReports.install(options.signal(), new Runnable() {
            @Override
            public void run() {
                writeQuietly("signal");
            }
        });
    }

    /**
     * Starts a recorder: takes the first sample at once, then one per interval.
     *
     * @param options how it runs
     * @return the recorder, running until {@link #close()} or the JVM's exit
     * @throws IllegalArgumentException if the report directory cannot be created or written
     */
    public static MemoryRecorder start(RecorderOptions options) {
        return start(options, SelfSampler.ofThisProcess(options.limit()));
    }

    static MemoryRecorder start(RecorderOptions options, SelfSampler sampler) {
        try {
            Files.createDirectories(options.directory());
        } catch (IOException e) {
            throw new IllegalArgumentException("offheap recorder: cannot create the report directory "
                    + options.directory() + ": " + e);
        }
        if (!Files.isWritable(options.directory())) {
            throw new IllegalArgumentException("offheap recorder: cannot write to the report directory "
                    + options.directory());
        }
        MemoryRecorder r = new MemoryRecorder(options, sampler);
        r.takeSample();
        Runtime.getRuntime().addShutdownHook(r.exitHook);
        r.thread.start();
        return r;
    }

    /**
     * The Java agent's entry at launch ({@code -javaagent:offheap-recorder.jar=OPTIONS}).
     *
     * @param args the options ({@link RecorderOptions#parse(String)})
     */
    public static void premain(String args) {
        agentmain(args);
    }

    /**
     * The Java agent's entry through the attach mechanism: starts the recorder with the options, or, when one
     * already runs, {@code report} writes a report now and {@code stop} stops it.
     *
     * @param args the options, {@code report} or {@code stop}
     */
    public static synchronized void agentmain(String args) {
        String a = args == null ? "" : args.trim();
        if (agent != null && agent.running) {
            if (a.equals("report")) {
                Path written = agent.writeQuietly("request");
                System.err.println("offheap recorder: report written to " + written);
            } else if (a.equals("stop")) {
                agent.close();
                System.err.println("offheap recorder: stopped");
            } else {
                System.err.println("offheap recorder: already running (" + agent.options + "); not started again");
            }
            return;
        }
        if (a.equals("report") || a.equals("stop")) {
            System.err.println("offheap recorder: not running in this JVM; nothing to " + a);
            return;
        }
        agent = start(RecorderOptions.parse(a));
        System.err.println("offheap recorder: recording to " + agent.options.directory() + " (" + agent.options + ")"
                + (agent.signalProblem == null ? "" : "; no report on a signal: " + agent.signalProblem));
    }

    /**
     * The recorder's jar, for {@code -javaagent} or for loading it into another JVM: the jar these classes come from,
     * or one made from their directory when they come from a directory (a build's tests, an IDE).
     *
     * @return the jar's path
     * @throws IOException if the classes' location cannot be found or the jar made
     */
    public static Path agentJar() throws IOException {
        return AgentJar.locate();
    }

    /**
     * A sample of this process now, without a recorder (for meters read on demand): the first call finds the cgroup
     * and the heap's range, the next ones reuse them.
     *
     * @return a new sample
     */
    public static MemorySample sampleNow() {
        synchronized (MemoryRecorder.class) {
            if (shared == null) {
                shared = SelfSampler.ofThisProcess(-1);
            }
            return shared.sample();
        }
    }

    /**
     * Returns the recorder the Java agent started in this JVM, or null.
     *
     * @return the recorder the Java agent started in this JVM, or null
     */
    public static synchronized MemoryRecorder agent() {
        return agent;
    }

    /**
     * Returns the options it runs with.
     *
     * @return the options it runs with
     */
    public RecorderOptions options() {
        return options;
    }

    /**
     * Returns the last sample taken.
     *
     * @return the last sample taken
     */
    public MemorySample latest() {
        return history.last().sample();
    }

    /**
     * Returns the samples kept, oldest first.
     *
     * @return the samples kept, oldest first
     */
    public List<MemorySample> samples() {
        List<MemorySample> list = new ArrayList<>();
        for (History.Entry e : history.entries()) {
            list.add(e.sample());
        }
        return list;
    }

    /**
     * Writes the history now.
     *
     * @param reason a word for the file's name ({@code request}); letters, digits and {@code -} only
     * @return the HTML page written (the JSON lines beside it, same name, {@code .jsonl})
     * @throws IOException if the report cannot be written
     */
    public synchronized Path report(String reason) throws IOException {
        if (!isWord(reason)) {
            throw new IllegalArgumentException("a report's reason is letters, digits and '-': " + reason);
        }
        List<String> lines = new ArrayList<>();
        for (History.Entry e : history.entries()) {
            lines.add(SampleJson.line(e.sample(), pid, vm, ceilings,
                    sampler.cgroupDirectory() == null ? null : sampler.cgroupDirectory().toString(), e.findings()));
        }
        Path jsonl = options.directory().resolve(filePrefix() + reason + ".jsonl");
        Path html = options.directory().resolve(filePrefix() + reason + ".html");
        replace(jsonl, String.join("\n", lines) + "\n");
        replace(html, RecordReport.html(lines, jsonl.getFileName().toString()));
        return html;
    }

    /** Stops sampling; the reports written stay. */
    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            Runtime.getRuntime().removeShutdownHook(exitHook);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook runs
        }
    }

    private void sampleEachInterval() {
        long interval = options.interval().toNanos();
        long next = System.nanoTime() + interval;
        while (running) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
                continue;
            }
            next += interval;
            if (next - System.nanoTime() < 0) {
                next = System.nanoTime() + interval; // fell behind (a suspended process): no catching up
            }
            int crossed = takeSample();
            if (crossed > 0) {
                writeQuietly(crossed + "pct");
            }
        }
    }

    /**
     * Returns the threshold this sample crossed, or -1.
     *
     * @return the threshold this sample crossed, or -1
     */
    private synchronized int takeSample() {
        try {
            MemorySample s = sampler.sample();
            int crossed = thresholds.cross(s.containerShare());
            List<Finding> findings = crossed > 0 ? List.of(nearLimit(s, crossed)) : List.of();
            history.add(s, findings);
            if (jdk.jfr.FlightRecorder.isInitialized()) {
                // only then: loading an event class makes JFR instrument it, about 150 classes and 1 MiB of metaspace
                ProcessMemoryEvent.emit(s);
            }
            return crossed;
        } catch (RuntimeException e) {
            System.err.println("offheap recorder: a sample failed: " + e);
            return -1;
        }
    }

    private Finding nearLimit(MemorySample s, int threshold) {
        String what = options.limit() > 0 && sampler.cgroupDirectory() == null ? "RSS" : "the container's working set";
        return new Finding("container-near-limit", threshold >= 90 ? "critical" : "warning", String.format(Locale.ROOT,
                "%s %s is %.0f %% of the limit %s (threshold %d %%); the report %s%dpct.html has the history",
                what, RecordReport.size(s.containerWorkingSet()), s.containerShare() * 100,
                RecordReport.size(s.containerLimit()), threshold, filePrefix(), threshold));
    }

    /**
     * {@code offheap-memory-PID-START-}: START when the JVM started, made when a report is written (java.time's
     * formatting is a few hundred classes a recorder that never reports does not need).
     */
    private String filePrefix() {
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(startMillis, 1000), 0, ZoneOffset.UTC);
        return String.format(Locale.ROOT, "offheap-memory-%d-%04d%02d%02dT%02d%02d%02dZ-", pid, t.getYear(),
                t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond());
    }

    private static boolean isWord(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private Path writeQuietly(String reason) {
        try {
            return report(reason);
        } catch (IOException | RuntimeException e) {
            System.err.println("offheap recorder: cannot write the " + reason + " report to " + options.directory()
                    + ": " + e);
            return null;
        }
    }

    private static void replace(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

}
