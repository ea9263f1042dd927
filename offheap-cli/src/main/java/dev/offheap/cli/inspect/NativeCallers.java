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

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * The Java code behind native memory ({@code --native-callers SECONDS}): loads async-profiler (its Maven Central
 * artifact, which bundles the native library) into the target through {@code JVMTI.agent_load}, records every
 * malloc, calloc, realloc and free for the window with their call stacks ({@code nativemem}: async-profiler
 * patches the libraries' calls to malloc, so it works on a running JVM without a restart), stops, and reads the
 * recording (JFR, {@code profiler.Malloc} and {@code profiler.Free}): what was allocated in the window and is
 * still held at its end, grouped by the JNI library and the Java code that called it.
 *
 * <p>It never runs unless asked, and says what it cannot see: memory allocated before the window, an allocator
 * linked inside a library (its calls never reach malloc), the JVM's own allocations without a Java frame (shown
 * as such). A JVM agent cannot be unloaded: after {@code stop} the library stays loaded and idle.
 */
final class NativeCallers {
    /** async-profiler's version, as the build's dependency names it. */
    static final String PROFILER = "async-profiler 4.2";
    private static final Pattern RETURN_CODE = Pattern.compile("return code: (-?\\d+)");
    private static final int TOP = 10;
    static final String NO_JAVA_FRAME = "(no Java frame)";
    /** The recording's directory in the target's /tmp: this prefix, the inspecting process's pid, a UUID. */
    static final String DIRECTORY_PREFIX = "offheap-native-callers-";

    /**
     * One place in Java code that allocated native memory in the window.
     *
     * @param library the native library Java called into (the JNI library), or the allocating library when no
     *     Java frame is on the stack
     * @param javaFrame the last Java method before native code ({@code java.util.zip.Inflater.init}), or
     *     {@code (no Java frame)}
     * @param caller the first Java method outside the JDK above it (the application's code), or "" when none
     * @param heldBytes bytes allocated in the window and not freed by its end
     * @param heldCount allocations allocated in the window and not freed by its end
     * @param allocatedBytes bytes allocated in the window
     * @param allocatedCount allocations in the window
     */
    record Site(String library, String javaFrame, String caller, long heldBytes, long heldCount, long allocatedBytes,
            long allocatedCount) {

        String describe() {
            return (caller.isEmpty() ? "" : caller + " -> ") + javaFrame + " (" + library + ")";
        }

        boolean hasJavaFrame() {
            return !javaFrame.equals(NO_JAVA_FRAME);
        }
    }

    /**
     * A recording's result.
     *
     * @param window how long it recorded
     * @param allocatedBytes every byte allocated in the window
     * @param heldBytes what of it is still held at the end
     * @param frees frees recorded (of memory allocated before or in the window)
     * @param sites the sites, most held first (at most ten)
     */
    record Result(Duration window, long allocatedBytes, long heldBytes, long frees, List<Site> sites) {}

    private NativeCallers() {}

    /** Records for {@code window} and returns what is still held; every failure is an {@link InspectException}. */
    static Result record(DiagnosticCommands commands, long pid, Duration window) {
        if (!commands.has("JVMTI.agent_load")) {
            throw refused(pid, "the target has no JVMTI.agent_load command (JDK 9 or newer has it)");
        }
        String arch = System.getProperty("os.arch");
        String platform = arch.equals("amd64") || arch.equals("x86_64") ? "linux-x64"
                : arch.equals("aarch64") ? "linux-arm64" : null;
        if (platform == null) {
            throw refused(pid, "async-profiler has no library for " + arch);
        }
        String dirName = DIRECTORY_PREFIX + ProcessHandle.current().pid() + "-" + UUID.randomUUID();
        Path dir = TargetProcess.inRoot(pid, "/tmp/" + dirName); // the target's /tmp
        String inTarget = "/tmp/" + dirName;
        try {
            Files.createDirectories(dir);
            TargetProcess.handOver(pid, dir); // root inspecting another user's JVM: the profiler writes here as that user
            Path library = dir.resolve("libasyncProfiler.so");
            extractLibrary(platform, library);
            String jfr = inTarget + "/native.jfr";
            String lib = inTarget + "/libasyncProfiler.so";
            // its messages go to a log of ours, never to the target's standard output
            String log = ",log=" + inTarget + "/profiler.log";
            agent(commands, pid, lib, "start,nativemem=0,file=" + jfr + log, dir);
            try {
                Thread.sleep(window.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                agent(commands, pid, lib, "stop,file=" + jfr + log, dir);
            }
            return read(dir.resolve("native.jfr"), window);
        } catch (IOException e) {
            throw new InspectException(InspectException.FAILED, "--native-callers: " + e.getMessage());
        } finally {
            deleteQuietly(dir);
        }
    }

    private static void agent(DiagnosticCommands commands, long pid, String library, String options, Path dir)
            throws IOException {
        // jcmd's parser splits name=value pairs: the options go quoted, as one argument
        String output = commands.run("JVMTI.agent_load", library, "\"" + options + "\"").orElse("");
        Matcher code = RETURN_CODE.matcher(output);
        if (output.startsWith("Error") || !code.find() || !code.group(1).equals("0")) {
            if (!TargetProcess.isAlive(pid)) {
                throw InspectException.exited(pid);
            }
            Path log = dir.resolve("profiler.log");
            String said = Files.isReadable(log) ? Files.readString(log).strip().replace('\n', ' ') : "";
            throw refused(pid, "async-profiler's '" + options.substring(0, options.indexOf(',')) + "' failed: "
                    + output.strip().replace('\n', ' ') + (said.isEmpty() ? "" : " (" + said + ")")
                    + "; a JVM started with -XX:-EnableDynamicAgentLoading refuses agents");
        }
    }

    private static InspectException refused(long pid, String why) {
        return new InspectException(InspectException.ATTACH_FAILED, "--native-callers cannot record in " + pid + ": " + why);
    }

    /**
     * Reads the recording in one pass, keeping only what is held: each thread writes its events in its own buffer,
     * so a free may come in the file before the allocation it frees; a free whose allocation was not seen yet waits
     * for one at the same address made before it (or stays unmatched: memory allocated before the window). So
     * memory grows with what is held, not with how much was allocated: a busy target makes millions of events a
     * second.
     */
    static Result read(Path jfr, Duration window) throws IOException {
        record Held(long nanos, long size, int site) {}
        Map<Long, Held> held = new HashMap<>();
        Map<Long, Long> earlyFrees = new HashMap<>();
        Map<Object, Integer> byStack = new java.util.IdentityHashMap<>();
        Map<List<String>, Integer> keys = new HashMap<>();
        List<List<String>> sites = new ArrayList<>();
        List<long[]> counts = new ArrayList<>(); // per site: allocated bytes, allocated count
        long frees = 0;
        long total = 0;
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                String type = e.getEventType().getName();
                boolean malloc = type.equals("profiler.Malloc");
                if (!malloc && !type.equals("profiler.Free")) {
                    continue;
                }
                long nanos = e.getStartTime().getEpochSecond() * 1_000_000_000L + e.getStartTime().getNano();
                long address = e.getLong("address");
                if (!malloc) {
                    frees++;
                    Held h = held.get(address);
                    if (h != null && h.nanos() <= nanos) {
                        held.remove(address);
                    } else {
                        earlyFrees.merge(address, nanos, Math::max);
                    }
                    continue;
                }
                Object stack = e.getStackTrace();
                int site = byStack.computeIfAbsent(stack == null ? NO_STACK : stack, s -> keys.computeIfAbsent(
                        site(s == NO_STACK ? List.of() : e.getStackTrace().getFrames()), k -> {
                            sites.add(k);
                            counts.add(new long[2]);
                            return sites.size() - 1;
                        }));
                long size = e.getLong("size");
                counts.get(site)[0] += size;
                counts.get(site)[1]++;
                total += size;
                Long freed = earlyFrees.get(address);
                if (freed != null && freed >= nanos) {
                    earlyFrees.remove(address); // freed later, its free read first
                } else {
                    held.put(address, new Held(nanos, size, site));
                }
            }
        }
        long[] heldBytes = new long[sites.size()];
        long[] heldCount = new long[sites.size()];
        long heldTotal = 0;
        for (Held h : held.values()) {
            heldBytes[h.site()] += h.size();
            heldCount[h.site()]++;
            heldTotal += h.size();
        }
        List<Site> all = new ArrayList<>();
        for (int i = 0; i < sites.size(); i++) {
            List<String> k = sites.get(i);
            all.add(new Site(k.get(0), k.get(1), k.get(2), heldBytes[i], heldCount[i], counts.get(i)[0], counts.get(i)[1]));
        }
        List<Site> top = all.stream()
                .sorted(Comparator.comparingLong(Site::heldBytes).thenComparingLong(Site::allocatedBytes).reversed())
                .limit(TOP).toList();
        return new Result(window, total, heldTotal, frees, top);
    }

    private static final Object NO_STACK = new Object();

    /**
     * {library, Java frame, caller} of a stack, top frame first: the library is the last native frame before the
     * first Java frame (the JNI library Java called), skipping async-profiler's hook and libc.
     */
    static List<String> site(List<RecordedFrame> frames) {
        String library = "";
        String javaFrame = NO_JAVA_FRAME;
        String caller = "";
        int i = 0;
        for (; i < frames.size(); i++) {
            RecordedFrame f = frames.get(i);
            if (isNative(f)) {
                String lib = f.getMethod().getType().getName();
                if (!lib.startsWith("libasyncProfiler") && !lib.startsWith("libc.so") && !lib.startsWith("libc-")) {
                    library = lib;
                }
            } else {
                javaFrame = name(f);
                break;
            }
        }
        for (i++; i < frames.size(); i++) {
            RecordedFrame f = frames.get(i);
            String type = f.getMethod().getType().getName();
            if (!isNative(f) && !isJdk(type)) {
                caller = name(f);
                break;
            }
        }
        return List.of(library.isEmpty() ? "?" : library, javaFrame, caller);
    }

    private static boolean isNative(RecordedFrame f) {
        String type = f.getType();
        return type.equals("Native") || type.equals("C++") || type.equals("Kernel");
    }

    private static boolean isJdk(String type) {
        return type.startsWith("java.") || type.startsWith("javax.") || type.startsWith("jdk.")
                || type.startsWith("sun.") || type.startsWith("com.sun.");
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    /** The library of the async-profiler jar on this JVM's module or class path, copied to {@code to}. */
    private static void extractLibrary(String platform, Path to) throws IOException {
        Path jar = profilerJar().orElseThrow(() -> new IOException("no async-profiler jar on the module or class"
                + " path (the CLI's build copies tools.profiler:async-profiler to target/lib)"));
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            var entry = zip.getEntry(platform + "/libasyncProfiler.so");
            if (entry == null) {
                throw new IOException(jar + " has no " + platform + "/libasyncProfiler.so");
            }
            try (InputStream in = zip.getInputStream(entry)) {
                Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    static Optional<Path> profilerJar() {
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            for (String entry : System.getProperty(property, "").split(File.pathSeparator)) {
                if (entry.isEmpty()) {
                    continue;
                }
                Path path = Path.of(entry);
                if (isProfilerJar(path)) {
                    return Optional.of(path);
                }
                if (Files.isDirectory(path)) {
                    try (Stream<Path> files = Files.list(path)) {
                        Optional<Path> jar = files.filter(NativeCallers::isProfilerJar).findFirst();
                        if (jar.isPresent()) {
                            return jar;
                        }
                    } catch (IOException e) {
                        // not a directory we can list: the next entry
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static boolean isProfilerJar(Path path) {
        String name = path.getFileName() == null ? "" : path.getFileName().toString();
        return name.startsWith("async-profiler-") && name.endsWith(".jar") && Files.isRegularFile(path);
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.exists(dir) ? Files.list(dir) : Stream.empty()) {
            files.forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // best effort: a file the target still writes stays in its /tmp
        }
        dir.toFile().delete();
    }

    /** For a finding's rate: bytes a minute. */
    static String perMinute(long bytes, Duration window) {
        double minutes = Math.max(1, window.toMillis()) / 60_000.0;
        return String.format(Locale.ROOT, "%.1f MiB/min", bytes / minutes / (1 << 20));
    }
}
