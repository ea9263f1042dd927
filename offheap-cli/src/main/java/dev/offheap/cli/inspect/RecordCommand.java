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

import dev.offheap.recorder.MemoryRecorder;
import dev.offheap.recorder.RecorderOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code offheap record PID}: loads the recorder ({@link MemoryRecorder}) into a running JVM as a Java agent,
 * through the attach mechanism's {@code load instrument} operation (what {@code VirtualMachine.loadAgent} sends),
 * or asks the recorder already running there for a report, or stops it. A target in another mount namespace (a
 * container) cannot see this machine's files: the recorder's jar is first copied into its {@code /tmp} through
 * {@code /proc/PID/root}.
 */
@Command(name = "record", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts offheap's memory recorder inside a running JVM: it samples the process's memory by"
            + " owner every few seconds (a few hundred microseconds of CPU, no safepoint), keeps an hour of it, and"
            + " writes it with its chart when the container's working set crosses 75 % and 90 % of its limit, on"
            + " kill -USR2, and at exit: the history an OOM kill leaves behind.",
            "The same recorder at launch: java -javaagent:offheap-recorder.jar=dir=/var/log/offheap ...",
            "A JVM started with -XX:-EnableDynamicAgentLoading refuses it; JDK 21 and newer print a warning when an"
            + " agent is loaded this way (add -XX:+EnableDynamicAgentLoading to the target's options to silence it)."})
public final class RecordCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PID", description = "The JVM to record (JDK 17 or newer).")
    private long pid;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where the target writes its reports, a path as the"
            + " target sees it (default: the target's java.io.tmpdir).")
    private String dir;

    @Option(names = "--interval", paramLabel = "DURATION", description = "Time between samples: 5s (default), 500ms, 1m.")
    private String interval;

    @Option(names = "--history", paramLabel = "N", description = "Samples kept (default 720: an hour at 5 s).")
    private Integer history;

    @Option(names = "--thresholds", paramLabel = "P:P", description = "Shares of the container's limit, in percent,"
            + " whose crossing writes a report (default 75:90; none).")
    private String thresholds;

    @Option(names = "--limit", paramLabel = "SIZE", description = "The limit the thresholds are shares of, for a JVM no"
            + " cgroup limits (2g, 512m); default: the cgroup's.")
    private String limit;

    @Option(names = "--signal", paramLabel = "NAME", description = "The signal that writes a report (default USR2; none).")
    private String signal;

    @ArgGroup(exclusive = true)
    private Action action;

    static final class Action {
        @Option(names = "--report", description = "Ask the recorder running in PID for a report now.")
        boolean report;

        @Option(names = "--stop", description = "Stop the recorder running in PID (its reports stay).")
        boolean stop;
    }

    /** Creates the command; picocli calls it. */
    public RecordCommand() {
    }

    @Override
    public Integer call() {
        try {
            String arguments = arguments();
            TargetProcess.check(pid);
            Path jar = agentJar(pid);
            load(AttachClient.attach(pid), jar, arguments);
            if (action != null && action.report) {
                spec.commandLine().getOut().println("offheap record: asked the recorder in " + pid + " for a report (offheap-memory-" + pid
                        + "-...-request.html in its directory; the target's standard error names it)");
            } else if (action != null && action.stop) {
                spec.commandLine().getOut().println("offheap record: asked the recorder in " + pid + " to stop");
            } else {
                RecorderOptions o = RecorderOptions.parse(arguments);
                spec.commandLine().getOut().println("offheap record: recording " + pid + " (" + arguments + "); reports go to "
                        + (dir == null ? "its java.io.tmpdir" : dir) + (dir != null && otherRoot(pid)
                        ? " (" + TargetProcess.inRoot(pid, dir) + " from here)" : "")
                        + ", every " + o.interval().toMillis() + " ms");
            }
            return 0;
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("offheap record: " + e.getMessage().replaceFirst("^offheap recorder: ", ""));
            return 2;
        } catch (InspectException e) {
            spec.commandLine().getErr().println("offheap record: " + e.getMessage());
            return e.exitCode();
        } catch (IOException e) {
            spec.commandLine().getErr().println("offheap record: cannot load the recorder into " + pid + ": " + e.getMessage());
            return InspectException.ATTACH_FAILED;
        }
    }

    private static boolean otherRoot(long pid) {
        try {
            return !Files.isSameFile(TargetProcess.inRoot(pid, "/"), Path.of("/"));
        } catch (IOException e) {
            return false;
        }
    }

    /** The agent's argument: {@code report}, {@code stop}, or the options, checked here first. */
    String arguments() {
        if (action != null) {
            return action.report ? "report" : "stop";
        }
        List<String> pairs = new ArrayList<>();
        add(pairs, "dir", dir);
        add(pairs, "interval", interval);
        add(pairs, "history", history == null ? null : history.toString());
        add(pairs, "thresholds", thresholds);
        add(pairs, "limit", limit);
        add(pairs, "signal", signal);
        if (dir != null && dir.contains(",")) {
            throw new IllegalArgumentException("--dir cannot hold a comma (the agent's options are comma-separated): " + dir);
        }
        String arguments = String.join(",", pairs);
        RecorderOptions.parse(arguments);
        return arguments;
    }

    private static void add(List<String> pairs, String key, String value) {
        if (value != null) {
            pairs.add(key + "=" + value);
        }
    }

    /** The recorder's jar as the target sees it: ours, or a copy in its /tmp when it has another root. */
    static Path agentJar(long pid) throws IOException {
        Path jar = MemoryRecorder.agentJar();
        Path theirs = TargetProcess.inRoot(pid, jar.toString());
        if (Files.exists(theirs) && Files.isSameFile(theirs, jar)) {
            return jar;
        }
        Path tmp = TargetProcess.inRoot(pid, "/tmp");
        Path copy = tmp.resolve("offheap-recorder-" + Long.toHexString(Files.size(jar)) + "-"
                + Long.toHexString(Files.getLastModifiedTime(jar).toMillis()) + ".jar");
        if (!Files.exists(copy)) {
            Path part = tmp.resolve(copy.getFileName() + "." + ProcessHandle.current().pid() + ".part");
            Files.copy(jar, part, StandardCopyOption.REPLACE_EXISTING);
            part.toFile().setReadable(true, false);
            Files.move(part, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        return Path.of("/tmp", copy.getFileName().toString());
    }

    /** The attach mechanism's {@code load instrument false JAR=ARGS}, as {@code VirtualMachine.loadAgent} sends it. */
    static void load(AttachClient client, Path jar, String arguments) throws IOException {
        AttachClient.Reply reply = client.execute("load", "instrument", "false",
                arguments.isEmpty() ? jar.toString() : jar + "=" + arguments);
        String out = reply.output().strip();
        String first = out.lines().findFirst().orElse("");
        String code = first.startsWith("return code: ") ? first.substring("return code: ".length()).strip() : first;
        if (reply.status() != 0) {
            throw new IOException("the target refused to load it (status " + reply.status() + (out.isEmpty() ? "" : ": "
                    + out) + "); a JVM started with -XX:-EnableDynamicAgentLoading refuses agents");
        }
        if (!code.equals("0") && !code.isEmpty()) {
            throw new IOException("the recorder did not start in the target (" + out + "); its standard error says why");
        }
    }
}
