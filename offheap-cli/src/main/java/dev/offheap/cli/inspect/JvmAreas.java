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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM's own view of its memory: committed and used figures, not resident ones. Read from diagnostic commands
 * and {@code /proc}, none of which stops the target at a safepoint (checked with {@code -Xlog:safepoint} on JDK 17
 * and 25; the full {@code VM.metaspace} does, so only {@code VM.metaspace basic} is used):
 * <ul>
 *   <li>heap used and committed: {@code GC.heap_info} (every collector prints its own line: G1's
 *       {@code total [reserved R,] committed C, used U} or {@code total C, used U}, Serial's and Parallel's per
 *       generation, ZGC's {@code used U, capacity C}, Shenandoah's {@code C committed, U used});</li>
 *   <li>metaspace: the {@code Metaspace used U, committed C} line of {@code GC.heap_info} (JDK 17, 21), or else of
 *       {@code VM.metaspace basic} (JDK 25's {@code GC.heap_info} no longer prints it);</li>
 *   <li>code cache committed: {@code Compiler.codecache}, each code heap's {@code bounds [low, committed, high]};</li>
 *   <li>{@code MaxHeapSize}, {@code MaxDirectMemorySize}, {@code NativeMemoryTracking},
 *       {@code ActiveProcessorCount}: {@code VM.flags}, which lists the flags not at their default;</li>
 *   <li>the VM's name and version: {@code VM.version};</li>
 *   <li>threads: {@code Threads} of {@code /proc/PID/status};</li>
 *   <li>{@code java.home}: the directory of the {@code libjvm.so} the target maps ({@code /proc/PID/maps});</li>
 *   <li>cpus: see {@link #cpus(String, double, int)}.</li>
 * </ul>
 * A figure the target did not print is -1.
 *
 * @param vm the JVM's name and version
 * @param cpus processors the JVM sees
 * @param javaHome the target's {@code java.home}, to recognise its own files among the mappings; "" if unknown
 * @param heapUsed bytes of live and not yet collected objects
 * @param heapCommitted bytes the heap holds from the OS
 * @param heapMax the heap's limit ({@code -Xmx}), or -1
 * @param metaspaceCommitted metaspace's committed bytes (class space included)
 * @param metaspaceUsed its used bytes
 * @param codeCacheCommitted committed bytes of the code heaps
 * @param threads the process's threads: the Java threads and the JVM's own (GC, compiler, the attach listener)
 * @param maxDirectMemory {@code -XX:MaxDirectMemorySize}, 0 when not set (the limit is then the heap's max)
 * @param nmtMode {@code -XX:NativeMemoryTracking}: {@code off}, {@code summary} or {@code detail}
 * @param gcTablesEstimate the GC's side tables by {@link GcTables#estimate}, -1 when not estimated
 */
record JvmAreas(String vm, int cpus, String javaHome, long heapUsed, long heapCommitted, long heapMax,
        long metaspaceCommitted, long metaspaceUsed, long codeCacheCommitted, int threads, long maxDirectMemory,
        String nmtMode, long gcTablesEstimate) {

    /** Figures without a GC estimate. */
    JvmAreas(String vm, int cpus, String javaHome, long heapUsed, long heapCommitted, long heapMax,
            long metaspaceCommitted, long metaspaceUsed, long codeCacheCommitted, int threads, long maxDirectMemory,
            String nmtMode) {
        this(vm, cpus, javaHome, heapUsed, heapCommitted, heapMax, metaspaceCommitted, metaspaceUsed,
                codeCacheCommitted, threads, maxDirectMemory, nmtMode, -1);
    }
    private static final String SIZE = "(\\d+)\\s?([BKMG])?";
    private static final Pattern G1 = Pattern.compile("total reserved " + SIZE + ", committed " + SIZE + ", used " + SIZE);
    private static final Pattern GENERATION = Pattern.compile("\\btotal " + SIZE + ", used " + SIZE);
    private static final Pattern Z = Pattern.compile("ZHeap\\s+used " + SIZE + ", capacity " + SIZE);
    private static final Pattern SHENANDOAH = Pattern.compile(SIZE + " max, " + SIZE + " soft max, " + SIZE
            + " committed, " + SIZE + " used");
    private static final Pattern METASPACE = Pattern.compile("Metaspace\\s+used " + SIZE + ", committed " + SIZE);
    private static final Pattern BOUNDS = Pattern.compile("bounds \\[0x(\\p{XDigit}+),\\s*0x(\\p{XDigit}+),\\s*0x\\p{XDigit}+\\]");

    /** False for a sample of {@code /proc} alone ({@code --no-attach}), whose JVM figures are unknown. */
    boolean attached() {
        return !nmtMode.equals("unknown");
    }

    boolean nmtEnabled() {
        return nmtMode.equals("summary") || nmtMode.equals("detail");
    }

    /**
     * What does not change while the JVM runs, read once per connection.
     *
     * @param vm the JVM's name and version
     * @param javaHome its {@code java.home}, "" if unknown
     * @param heapMax {@code MaxHeapSize}, -1 if unknown
     * @param maxDirectMemory {@code MaxDirectMemorySize}, 0 when not set
     * @param nmtMode {@code NativeMemoryTracking}
     * @param activeProcessorCount {@code -XX:ActiveProcessorCount}, -1 when not set
     */
    record Facts(String vm, String javaHome, long heapMax, long maxDirectMemory, String nmtMode, int activeProcessorCount) {

        static Facts read(DiagnosticCommands commands, long pid) throws IOException {
            Map<String, String> flags = flags(commands.run("VM.flags").orElse(""));
            String vm = vmName(commands.run("VM.version").orElse(""));
            return new Facts(vm, JvmAreas.javaHome(proc(pid, "maps")), parseLong(flags.get("MaxHeapSize"), -1),
                    parseLong(flags.get("MaxDirectMemorySize"), 0), flags.getOrDefault("NativeMemoryTracking", "off"),
                    (int) parseLong(flags.get("ActiveProcessorCount"), -1));
        }
    }

    /**
     * Reads what changes; {@code heapInfo} and {@code codeCache} are the outputs of {@code GC.heap_info} and
     * {@code Compiler.codecache} the caller ran ("" when unavailable).
     */
    static JvmAreas read(long pid, Facts facts, DiagnosticCommands commands, String heapInfo, String codeCache)
            throws IOException {
        long[] heap = heapUsage(heapInfo);
        long[] metaspace = metaspaceUsage(heapInfo);
        if (metaspace[0] < 0) {
            metaspace = metaspaceUsage(commands.run("VM.metaspace", "basic").orElse(""));
        }
        Map<String, String> status = status(proc(pid, "status"));
        int threads = (int) parseLong(status.get("Threads"), -1);
        int cpus = cpus(status.getOrDefault("Cpus_allowed_list", ""), CgroupCpu.limit(pid), facts.activeProcessorCount());
        return new JvmAreas(facts.vm(), cpus, facts.javaHome(), heap[0], heap[1], facts.heapMax(), metaspace[1],
                metaspace[0], codeCacheCommitted(codeCache), threads, facts.maxDirectMemory(), facts.nmtMode(),
                GcTables.estimate(heapInfo, facts.vm(), heap[1]));
    }

    /**
     * What {@code /proc} alone tells of a JVM not attached to ({@code --no-attach}): its threads, processors and
     * {@code java.home}; every figure the JVM would report is 0 (and the maximum heap -1), its NMT mode unknown.
     */
    static JvmAreas fromProc(long pid) throws IOException {
        Map<String, String> status = status(proc(pid, "status"));
        int threads = (int) parseLong(status.get("Threads"), -1);
        int cpus = cpus(status.getOrDefault("Cpus_allowed_list", ""), CgroupCpu.limit(pid), -1);
        return new JvmAreas("not attached (--no-attach)", cpus, javaHome(proc(pid, "maps")), 0, 0, -1, 0, 0, 0, threads,
                0, "unknown");
    }

    /** {used, committed} bytes of the heap from {@code GC.heap_info}, -1 each when no collector's line is there. */
    static long[] heapUsage(String heapInfo) {
        Matcher m = G1.matcher(heapInfo);
        if (m.find()) {
            return new long[] {bytes(m, 5), bytes(m, 3)};
        }
        m = Z.matcher(heapInfo);
        if (m.find()) {
            return new long[] {bytes(m, 1), bytes(m, 3)};
        }
        m = SHENANDOAH.matcher(heapInfo);
        if (m.find()) {
            return new long[] {bytes(m, 7), bytes(m, 5)};
        }
        // G1 before JDK 24 (one line), Serial and Parallel (one per generation)
        long used = 0;
        long committed = 0;
        boolean found = false;
        m = GENERATION.matcher(heapInfo);
        while (m.find()) {
            found = true;
            committed += bytes(m, 1);
            used += bytes(m, 3);
        }
        return found ? new long[] {used, committed} : new long[] {-1, -1};
    }

    /** {used, committed} bytes of metaspace from a {@code Metaspace used U, committed C} line, -1 each without. */
    static long[] metaspaceUsage(String text) {
        Matcher m = METASPACE.matcher(text);
        return m.find() ? new long[] {bytes(m, 1), bytes(m, 3)} : new long[] {-1, -1};
    }

    /** The code heaps' committed bytes: the sum of {@code committed - low} over their bounds, -1 without any. */
    static long codeCacheCommitted(String codeCache) {
        Matcher m = BOUNDS.matcher(codeCache);
        long committed = 0;
        boolean found = false;
        while (m.find()) {
            found = true;
            committed += Long.parseUnsignedLong(m.group(2), 16) - Long.parseUnsignedLong(m.group(1), 16);
        }
        return found ? committed : -1;
    }

    /**
     * {@code VM.flags}' {@code -XX:Name=value}, {@code -XX:+Name} and {@code -XX:-Name} as name to value
     * ({@code true} and {@code false} for the booleans).
     */
    static Map<String, String> flags(String vmFlags) {
        Map<String, String> flags = new HashMap<>();
        for (String token : vmFlags.split("\\s+")) {
            if (!token.startsWith("-XX:") || token.length() < 6) {
                continue;
            }
            String flag = token.substring(4);
            int equals = flag.indexOf('=');
            if (equals > 0) {
                flags.put(flag.substring(0, equals), flag.substring(equals + 1));
            } else if (flag.charAt(0) == '+' || flag.charAt(0) == '-') {
                flags.put(flag.substring(1), Boolean.toString(flag.charAt(0) == '+'));
            }
        }
        return flags;
    }

    /** "OpenJDK 64-Bit Server VM 25.0.3+9-LTS" from {@code VM.version}'s first line, "" without one. */
    static String vmName(String version) {
        String first = version.strip().lines().findFirst().orElse("");
        return first.replaceFirst(" version ", " ");
    }

    /** The JDK directory of the {@code .../lib/<variant>/libjvm.so} in a maps text, "" without one. */
    static String javaHome(String maps) {
        for (String line : maps.split("\n")) {
            int slash = line.indexOf('/');
            if (slash < 0) {
                continue;
            }
            String path = line.substring(slash).replaceFirst(" \\(deleted\\)$", "");
            if (path.endsWith("/libjvm.so")) {
                Path lib = Path.of(path).getParent().getParent();
                if (lib != null && lib.getFileName() != null && lib.getFileName().toString().equals("lib")
                        && lib.getParent() != null) {
                    return lib.getParent().toString();
                }
            }
        }
        return "";
    }

    /**
     * The processors the target sees, as JDK 19 and later count them ({@code Runtime.availableProcessors()}):
     * {@code -XX:ActiveProcessorCount} when set; else the processors of its CPU affinity
     * ({@code Cpus_allowed_list} of {@code /proc/PID/status}), at most its cgroup's CPU quota rounded up. JDK 17
     * and 18 may also count cgroup v1 CPU shares, which this does not read.
     *
     * @param allowedList e.g. {@code 0-3,8,10-11}
     * @param quota the cgroup's CPU limit in processors, 0 or less for none
     * @param active {@code ActiveProcessorCount}, -1 when not set
     */
    static int cpus(String allowedList, double quota, int active) {
        if (active > 0) {
            return active;
        }
        int count = 0;
        for (String range : allowedList.strip().split(",")) {
            if (range.isEmpty()) {
                continue;
            }
            int dash = range.indexOf('-');
            try {
                count += dash < 0 ? 1
                        : Integer.parseInt(range.substring(dash + 1)) - Integer.parseInt(range.substring(0, dash)) + 1;
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        if (count == 0) {
            return -1;
        }
        return quota > 0 ? (int) Math.max(1, Math.min(count, Math.ceil(quota))) : count;
    }

    private static long bytes(Matcher m, int group) {
        long n = Long.parseLong(m.group(group));
        String unit = m.group(group + 1);
        return n << switch (unit == null ? "B" : unit.toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            default -> 0;
        };
    }

    static Map<String, String> status(String status) {
        Map<String, String> fields = new HashMap<>();
        for (String line : status.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }

    private static long parseLong(String value, long otherwise) {
        if (value == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static String proc(long pid, String file) throws IOException {
        Path path = TargetProcess.file(pid, file);
        try {
            return Files.readString(path);
        } catch (java.nio.file.NoSuchFileException e) {
            throw InspectException.exited(pid);
        }
    }

    /**
     * The CPU quota of the target's cgroup, in processors: {@code cpu.max} (cgroup v2) or
     * {@code cpu.cfs_quota_us / cpu.cfs_period_us} (v1) of its cgroup and of the cgroups above it, the smallest,
     * read through {@code /proc/PID/root} so that a target in a container is seen with its own cgroup mount.
     * A few small files; 0 when there is no quota or nothing is readable.
     */
    static final class CgroupCpu {
        private CgroupCpu() {}

        static double limit(long pid) {
            Path proc = TargetProcess.proc(pid);
            Path mount = proc.resolve("root/sys/fs/cgroup");
            double limit = 0;
            try {
                for (String line : Files.readAllLines(proc.resolve("cgroup"))) {
                    String[] parts = line.split(":", 3);
                    if (parts.length < 3) {
                        continue;
                    }
                    String path = parts[2].startsWith("/") ? parts[2].substring(1) : parts[2];
                    if (parts[1].isEmpty()) {
                        limit = smaller(limit, walk(mount, path, CgroupCpu::v2));
                    } else if (List.of(parts[1].split(",")).contains("cpu")) {
                        limit = smaller(limit, walk(mount.resolve(parts[1]), path, CgroupCpu::v1));
                        limit = smaller(limit, walk(mount.resolve("cpu"), path, CgroupCpu::v1));
                    }
                }
            } catch (IOException | RuntimeException e) {
                return limit;
            }
            return limit;
        }

        private interface Quota {
            double of(Path dir);
        }

        /** The smallest quota from the cgroup up to the mount's root. */
        private static double walk(Path mount, String path, Quota quota) {
            double limit = 0;
            Path dir = path.isEmpty() ? mount : mount.resolve(path);
            while (dir != null && dir.startsWith(mount)) {
                limit = smaller(limit, quota.of(dir));
                dir = dir.equals(mount) ? null : dir.getParent();
            }
            return limit;
        }

        private static double v2(Path dir) {
            try {
                String[] max = Files.readString(dir.resolve("cpu.max")).strip().split("\\s+");
                return max[0].equals("max") ? 0 : Double.parseDouble(max[0]) / Double.parseDouble(max[1]);
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }

        private static double v1(Path dir) {
            try {
                long quota = Long.parseLong(Files.readString(dir.resolve("cpu.cfs_quota_us")).strip());
                long period = Long.parseLong(Files.readString(dir.resolve("cpu.cfs_period_us")).strip());
                return quota <= 0 || period <= 0 ? 0 : (double) quota / period;
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }

        private static double smaller(double a, double b) {
            return a <= 0 ? b : b <= 0 ? a : Math.min(a, b);
        }
    }
}
