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

package dev.offheap.cli.inspect;

import dev.offheap.account.Bytes;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code offheap inspect [PID]}: explains a running JVM's resident memory, or lists the JVMs it can attach to.
 * Every failure is one line on stderr and an exit code, never a stack trace.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Explains the resident memory (RSS) of a running JVM of this user: the Java heap, the JVM's own areas,"
                + " direct and mapped buffers, offheap's pools, glibc malloc (in use, free, fragmentation) and"
                + " what nothing explains, with findings on known pathologies.",
            "Runs diagnostic commands (as jcmd does) through the target's attach listener and reads /proc: no"
                + " change to its command line, no restart, no JMX agent. The first inspect of a JVM starts its"
                + " attach listener (one thread, which stays); no command it runs stops the JVM at a safepoint"
                + " (but --virtual-threads' heap walk)."
                + " Linux only (it reads /proc/PID/smaps).",
            "The JDK's buffer pools (direct and mapped buffers) and offheap's own pools are read over JMX only:"
                + " when the target's JMX agent already runs, or with --jmx.",
            "Without a PID: lists the JVMs it can attach to."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:the inspection failed for another reason (the message says which)",
            "2:wrong arguments",
            "3:no such process",
            "4:not a JVM, or another user's process",
            "5:the JVM refused the attach (or, with --jmx, its management agent)",
            "6:the JVM exited while being inspected"})
public final class InspectCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "PID", description = "The JVM to inspect.")
    private Long pid;

    @Option(names = "--json", description = "One JSON object per sample (bytes as numbers) instead of tables.")
    private boolean json;

    @Option(names = "--watch", paramLabel = "SECONDS",
            description = "Take a sample every SECONDS, with changes since the previous one, until interrupted.")
    private Integer watch;

    @Option(names = "--count", paramLabel = "N", description = "With --watch: stop after N samples.")
    private Integer count;

    @Option(names = "--full", description = "With --watch: the full report at every sample; without it, the first"
            + " sample is a full report and each one after it a line of what changed, with the findings that are new.")
    private boolean full;

    @Option(names = "--record", paramLabel = "FILE", description = "Also append every sample to FILE as one line of"
            + " JSON (the --json document), written and flushed as it is taken, so that a watch stopped or killed"
            + " leaves whole lines.")
    private java.nio.file.Path record;

    @Option(names = "--jmx", description = "Also read the JDK's buffer pools (with the direct buffers' churn rate over"
            + " half a second) and offheap's MBeans over JMX, starting the target's local JMX agent when it does not"
            + " run. The agent stays running: about " + Connection.JMX_AGENT_MIB + " MiB and several threads there."
            + " Without --jmx, JMX is used only when the agent already runs.")
    private boolean jmx;

    @Option(names = "--virtual-threads", description = "Also count the virtual threads and the bytes of their stacks,"
            + " which live in the heap (GC.class_histogram -all: a walk of the heap at a safepoint, no collection;"
            + " 26-34 ms for 130 MiB of heap in use and 100,000 virtual threads here, about 0.25 s per GiB)."
            + " Without it, threads are the platform threads /proc counts.")
    private boolean virtualThreads;

    @Option(names = "--native-callers", paramLabel = "SECONDS", description = "First record native allocations for"
            + " SECONDS with async-profiler (loaded into the target as an agent, stopped after; the library stays"
            + " loaded): the Java code behind the native memory allocated in that time and still held, by JNI library"
            + " and class. It costs the target about 20 MiB of RSS and a few % of CPU while it records"
            + " (BENCHMARKS.md). Not with --watch.")
    private Integer nativeCallers;

    @Option(names = "--no-attach", description = "Read /proc alone, for a JVM that cannot or must not be attached to"
            + " (-XX:+DisableAttachMechanism): files, thread stacks, malloc and its fragmentation-free figures from smaps"
            + " and malloc's chunk headers, the container; the heap and the JVM's other regions stay unexplained.")
    private boolean noAttach;

    @Spec
    private CommandSpec spec;

    /** Picocli creates it. */
    public InspectCommand() {
    }

    @Override
    public Integer call() {
        if (watch != null && watch <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--watch needs a positive number of seconds");
        }
        if ((count != null || full) && watch == null || count != null && count <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), count != null && count <= 0
                    ? "--count needs a positive number of samples" : "--count and --full go with --watch");
        }
        if (nativeCallers != null && (nativeCallers <= 0 || watch != null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), nativeCallers <= 0
                    ? "--native-callers needs a positive number of seconds" : "--native-callers and --watch exclude each other");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (!System.getProperty("os.name", "").startsWith("Linux")) {
                throw new InspectException(InspectException.FAILED, "inspect runs on Linux only: it reads /proc/PID/smaps");
            }
            if (pid == null) {
                list(out);
            } else {
                inspect(pid, out, err);
            }
            return 0;
        } catch (InspectException e) {
            err.println("offheap inspect: " + e.getMessage());
            err.flush();
            return e.exitCode();
        }
    }

    private void inspect(long target, PrintWriter out, PrintWriter err) {
        TargetProcess.check(target);
        if (noAttach) {
            if (jmx || virtualThreads || nativeCallers != null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--no-attach and "
                        + (jmx ? "--jmx" : virtualThreads ? "--virtual-threads" : "--native-callers")
                        + " exclude each other");
            }
            report(target, out, () -> Sampler.fromProc(target));
            return;
        }
        try (Connection connection = Connection.open(target, jmx)) {
            if (connection.jmx() == Connection.Jmx.STARTED) {
                err.println("offheap inspect: JMX: the target's local JMX agent runs (started now if it did not);"
                        + " it stays running");
                err.flush();
            }
            Sampler sampler = sampler(connection, virtualThreads,
                    nativeCallers == null ? null : java.time.Duration.ofSeconds(nativeCallers));
            report(target, out, sampler::take);
        }
    }

    /** A sample source: an attached sampler, or /proc alone. */
    @FunctionalInterface
    private interface Source {
        Sample take() throws IOException;
    }

    /** One report, or in watch mode one every {@code watch} seconds until interrupted. */
    private void report(long target, PrintWriter out, Source source) {
        try (SampleRecord recorder = record == null ? null : SampleRecord.open(record)) {
            report(target, out, source, recorder);
        }
    }

    private void report(long target, PrintWriter out, Source source, SampleRecord recorder) {
        Sample previous = null;
        List<Finding> before = List.of();
        WatchHistory history = watch == null ? null : new WatchHistory();
        for (int taken = 1; ; taken++) {
            long start = System.nanoTime();
            Sample now = sample(source, target);
            if (history != null) {
                history.add(now);
            }
            List<Finding> findings = Findings.of(previous, now, history);
            String document = json || recorder != null ? JsonReport.of(previous, now, findings, history) : null;
            if (recorder != null) {
                recorder.write(document);
            }
            if (json) {
                out.print(document + "\n");
            } else if (previous == null || full) {
                out.print(TableReport.of(previous, now, findings));
            } else {
                out.print(TableReport.change(previous, now, findings, before));
            }
            out.flush();
            if (watch == null || (count != null && taken >= count)) {
                return;
            }
            if (!json && (previous == null || full)) {
                out.println();
            }
            previous = now;
            before = findings;
            sleep(watch * 1000L - (System.nanoTime() - start) / 1_000_000);
        }
    }

    private static Sampler sampler(Connection connection, boolean virtualThreads, java.time.Duration nativeCallers) {
        try {
            return new Sampler(connection, virtualThreads, nativeCallers);
        } catch (IOException | RuntimeException e) {
            throw lost(connection.pid(), e);
        }
    }

    private static Sample sample(Source source, long target) {
        try {
            return source.take();
        } catch (InspectException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw lost(target, e);
        }
    }

    /** A failure while talking to the target: most often, it has gone. */
    private static InspectException lost(long target, Exception e) {
        if (!TargetProcess.isAlive(target)) {
            return InspectException.exited(target);
        }
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return new InspectException(InspectException.FAILED, "lost the connection to JVM " + target + ": "
                + (cause.getMessage() == null ? cause.toString() : cause.getMessage()));
    }

    private static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InspectException(InspectException.FAILED, "interrupted");
        }
    }

    private void list(PrintWriter out) {
        List<JvmListing.Jvm> jvms = JvmListing.list();
        if (json) {
            Json array = new Json().beginArray();
            for (JvmListing.Jvm jvm : jvms) {
                array.beginObject().field("pid", jvm.pid()).field("rss", jvm.rss()).field("name", jvm.name()).endObject();
            }
            out.println(array.endArray());
        } else if (jvms.isEmpty()) {
            out.println("No JVM of this user to attach to (JVMs started with -XX:-UsePerfData are not listed; give"
                    + " their PID).");
        } else {
            out.printf("%8s  %10s  %s%n", "PID", "RSS", "MAIN CLASS OR JAR");
            for (JvmListing.Jvm jvm : jvms) {
                out.printf("%8d  %10s  %s%n", jvm.pid(), jvm.rss() < 0 ? "?" : Bytes.human(jvm.rss()), jvm.name());
            }
            out.println("Then: offheap inspect PID   (JVMs started with -XX:-UsePerfData are not listed; give their PID)");
        }
        out.flush();
    }
}
