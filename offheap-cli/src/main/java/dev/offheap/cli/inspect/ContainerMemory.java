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
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The memory cgroup a process runs in, as the kernel and the orchestrator see it: the limit, usage, working set,
 * anonymous memory, page cache, kernel memory, swap and the OOM kills, on cgroup v1 and v2.
 *
 * <p>{@link #parse} is a pure function of the files' contents ({@code /proc/PID/cgroup}, a {@code mountinfo} and
 * the cgroup's files through a {@link Source}), so tests feed it recorded files; {@link #read} is the thin layer
 * over {@code /proc}.
 *
 * <p>Where each figure comes from:
 * <ul>
 *   <li>the cgroup: the line of {@code /proc/PID/cgroup} whose controllers name {@code memory} (cgroup v1, also on a
 *       hybrid system whose unified mount has no memory controller), else the {@code 0::} line (cgroup v2); its
 *       directory: the mount of that hierarchy in {@code mountinfo} whose root is the longest prefix of the path;</li>
 *   <li>{@code limit}: the smallest {@code memory.max} (v2) or {@code memory.limit_in_bytes} (v1) of the cgroup and
 *       every ancestor visible under the mount, since each ancestor's limit applies to its whole subtree; on v1 also
 *       {@code hierarchical_memory_limit} of {@code memory.stat}, which the kernel works out over ancestors a
 *       container may not see. {@code max} and values of 2<sup>62</sup> and more (v1 writes "no limit" as
 *       LONG_MAX rounded down to a page, 9223372036854771712) are no limit;</li>
 *   <li>{@code usage}: {@code memory.current} (v2), {@code memory.usage_in_bytes} (v1);</li>
 *   <li>{@code anon}, {@code pageCache}, {@code shmem}, {@code inactiveFile}: {@code memory.stat}'s {@code anon},
 *       {@code file}, {@code shmem}, {@code inactive_file} (v2), {@code total_rss}, {@code total_cache},
 *       {@code total_shmem}, {@code total_inactive_file} (v1, the cgroup and its descendants). Page cache includes
 *       shared memory (tmpfs, {@code /dev/shm}), which cannot be reclaimed without swap;</li>
 *   <li>{@code kernel}: v2 {@code memory.stat}'s {@code kernel} plus {@code sock}, or where there is no
 *       {@code kernel} line the sum of {@code kernel_stack}, {@code pagetables}, {@code percpu}, {@code slab},
 *       {@code vmalloc} and {@code sock}; v1 {@code memory.kmem.usage_in_bytes};</li>
 *   <li>{@code swap}: {@code memory.swap.current} (v2), {@code total_swap} of {@code memory.stat} (v1, only with
 *       swap accounting);</li>
 *   <li>{@code oomKills}: {@code oom_kill} of {@code memory.events} (v2, this cgroup and below) or of
 *       {@code memory.oom_control} (v1, this cgroup's own processes);</li>
 *   <li>{@code limitHits}: how often usage reached the limit, read where the limit is set: {@code max} of
 *       {@code memory.events} (v2), {@code memory.failcnt} (v1);</li>
 *   <li>{@code high} (v2 only): the smallest {@code memory.high} over the hierarchy, the throttling line.</li>
 * </ul>
 * The working set is {@code usage - inactive_file}, at least 0, as Kubernetes (cAdvisor) counts it and evicts on.
 *
 * @param version 1 or 2
 * @param hierarchy {@code unified} (v2), {@code hybrid} (the v1 memory controller beside a cgroup2 mount) or
 *     {@code legacy} (v1 only)
 * @param cgroup the cgroup's path in its hierarchy, as {@code /proc/PID/cgroup} shows it
 * @param directory where its files were read (through {@code /proc/PID/root} when the target is in another mount
 *     namespace)
 * @param wholeHierarchy whether every ancestor's limit counts in {@code limit}: v2 when the walk up reached the
 *     root cgroup (the only one without {@code memory.max}), v1 when {@code memory.stat} has the kernel's
 *     {@code hierarchical_memory_limit} or the mount shows the hierarchy from its root. False in a container that
 *     sees only its own cgroup, so that "no limit" there means none visible
 * @param limit the effective limit, null for none
 * @param high v2's effective {@code memory.high}, null for none or on v1
 * @param usage null when the cgroup has no usage file (v2's root cgroup)
 * @param anon anonymous memory, null when unknown
 * @param pageCache page cache including shared memory, null when unknown
 * @param shmem shared memory (tmpfs), null when unknown
 * @param inactiveFile page cache the kernel would reclaim first, null when unknown
 * @param kernel kernel memory charged to the cgroup, null when unknown
 * @param swap swap used, null when unknown
 * @param oomKills processes the OOM killer killed, null when unknown
 * @param limitHits times usage hit the limit, null when unknown or when there is no limit
 */
record ContainerMemory(int version, String hierarchy, String cgroup, String directory, boolean wholeHierarchy,
        Figure limit, Figure high, Figure usage, Figure anon, Figure pageCache, Figure shmem, Figure inactiveFile,
        Figure kernel, Figure swap, Figure oomKills, Figure limitHits) {

    /** Values of 2^62 bytes and more are "no limit": v1 writes none as LONG_MAX rounded down to the page size. */
    static final long NO_LIMIT = 1L << 62;

    /**
     * One figure and where it was read.
     *
     * @param value bytes, or a count for {@code oomKills} and {@code limitHits}
     * @param source the file (and key) it comes from, with the cgroup when that is not the process's own
     */
    record Figure(long value, String source) {}

    /**
     * What reading found: the cgroup, or the reason it could not be read.
     *
     * @param memory the cgroup's figures, null when {@code problem} says why there are none
     * @param problem why the cgroup could not be read, or null
     */
    record Result(ContainerMemory memory, String problem) {
        static Result of(ContainerMemory memory) {
            return new Result(memory, null);
        }

        static Result problem(String problem) {
            return new Result(null, problem);
        }
    }

    /** Reads one file by its absolute path; empty when it does not exist. */
    @FunctionalInterface
    interface Source {
        Optional<String> read(String path) throws IOException;
    }

    /** {@code usage - inactive_file}, at least 0, as Kubernetes counts it; null when either is unknown. */
    Figure workingSet() {
        if (usage == null || inactiveFile == null) {
            return null;
        }
        return new Figure(Math.max(0, usage.value() - inactiveFile.value()),
                usage.source() + " - " + inactiveFile.source());
    }

    /** {@code limit - usage} (negative when usage is above a limit lowered under it); null without both. */
    Figure headroom() {
        if (limit == null || usage == null) {
            return null;
        }
        return new Figure(limit.value() - usage.value(), "limit - usage");
    }

    /** "cgroup v1 at DIRECTORY" or "cgroup v2 at DIRECTORY". */
    String describe() {
        return "cgroup v" + version + " at " + directory;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reading: the thin layer over /proc

    /**
     * The memory cgroup of process {@code pid}: its files through this process's mounts when the target's
     * cgroup is visible there, else through {@code /proc/PID/root} (the target's own mounts, when it is in
     * another mount namespace, such as a container seen from the host).
     */
    static Result read(long pid) {
        Path proc = TargetProcess.proc(pid);
        String cgroupText;
        try {
            cgroupText = Files.readString(proc.resolve("cgroup"));
        } catch (NoSuchFileException e) {
            return Result.problem("no cgroup information: " + proc.resolve("cgroup")
                    + " does not exist (not Linux, or the process is gone)");
        } catch (IOException e) {
            return Result.problem("cannot read " + proc.resolve("cgroup") + ": " + e.getMessage());
        }
        Result here;
        try {
            here = parse(cgroupText, Files.readString(Path.of("/proc/self/mountinfo")), "", ContainerMemory::readFile);
        } catch (IOException e) {
            here = Result.problem("cannot read /proc/self/mountinfo: " + e.getMessage());
        }
        if (here.memory() != null || sameMountNamespace(pid)) {
            return here;
        }
        String root = proc.resolve("root").toString();
        try {
            Result there = parse(cgroupText, Files.readString(proc.resolve("mountinfo")), root,
                    ContainerMemory::readFile);
            if (there.memory() != null) {
                return there;
            }
            return Result.problem(here.problem() + "; through the target's mount namespace (" + root + "): "
                    + there.problem());
        } catch (IOException e) {
            return Result.problem(here.problem() + "; the target is in another mount namespace and "
                    + proc.resolve("mountinfo") + " is not readable: " + e.getMessage());
        }
    }

    private static boolean sameMountNamespace(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/ns/mnt"))
                    .equals(Files.readSymbolicLink(TargetProcess.file(pid, "ns", "mnt")));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static Optional<String> readFile(String path) throws IOException {
        try {
            return Optional.of(Files.readString(Path.of(path)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Parsing: pure functions of the files' contents

    /**
     * The memory cgroup that {@code cgroupText} (a {@code /proc/PID/cgroup}) names, found through
     * {@code mountinfo}'s mounts and read through {@code files}.
     *
     * @param root prefixed to every path read ("" for this process's mounts, {@code /proc/PID/root} for the
     *     target's own, when {@code mountinfo} is the target's)
     */
    static Result parse(String cgroupText, String mountinfo, String root, Source files) {
        String v1Path = null;
        String v2Path = null;
        for (String line : cgroupText.split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length < 3) {
                continue;
            }
            if (List.of(f[1].split(",")).contains("memory")) {
                v1Path = f[2].strip();
            } else if (f[0].equals("0") && f[1].isEmpty()) {
                v2Path = f[2].strip();
            }
        }
        for (String path : new String[] {v1Path, v2Path}) {
            if (path != null && (path.equals("/..") || path.startsWith("/../"))) {
                // /proc/PID/cgroup shows paths relative to the reader's cgroup namespace: this one is above it.
                return Result.problem("the process's cgroup (" + path + ") is outside this process's cgroup namespace;"
                        + " inspect it from the host or from its own container");
            }
        }
        List<Mount> mounts = Mount.parseAll(mountinfo);
        boolean unifiedMounted = mounts.stream().anyMatch(m -> m.fsType().equals("cgroup2"));
        try {
            if (v1Path != null) {
                Mount mount = Mount.choose(mounts.stream().filter(m -> m.fsType().equals("cgroup")
                        && m.superOptions().contains("memory")).toList(), v1Path);
                if (mount == null) {
                    return Result.problem("the process's memory cgroup (v1, " + v1Path
                            + ") is on no cgroup mount of this mount namespace");
                }
                return new Reader(files, root, mount, v1Path, 1, unifiedMounted ? "hybrid" : "legacy").read();
            }
            if (v2Path != null) {
                Mount mount = Mount.choose(mounts.stream().filter(m -> m.fsType().equals("cgroup2")).toList(), v2Path);
                if (mount == null) {
                    return Result.problem("the process's cgroup (v2, " + v2Path
                            + ") is on no cgroup2 mount of this mount namespace");
                }
                return new Reader(files, root, mount, v2Path, 2, "unified").read();
            }
        } catch (AccessDeniedException e) {
            return Result.problem("no permission to read " + e.getFile() + " (another user's process, or its"
                    + " /proc/PID/root needs the right to trace it)");
        } catch (IOException e) {
            return Result.problem("cannot read the cgroup's files: " + e);
        }
        return Result.problem("the process is in no memory cgroup: /proc/PID/cgroup has no memory line and no"
                + " cgroup v2 line");
    }

    /** A "max" or a number of bytes; null for none ("max", or 2^62 and more). */
    static Long limitValue(String text) {
        String t = text.strip();
        if (t.equals("max") || t.isEmpty()) {
            return null;
        }
        long v = Long.parseUnsignedLong(t);
        return v < 0 || v >= NO_LIMIT ? null : v;
    }

    /** {@code key value} lines ({@code memory.stat}, {@code memory.events}, {@code memory.oom_control}). */
    static Map<String, Long> keyValues(String text) {
        Map<String, Long> values = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length == 2) {
                try {
                    values.put(f[0], Long.parseUnsignedLong(f[1]));
                } catch (NumberFormatException e) {
                    // not a number: not a figure
                }
            }
        }
        return values;
    }

    /**
     * One line of {@code mountinfo}: {@code id parent major:minor root mountpoint options [optional...] - type
     * source superoptions}.
     */
    record Mount(String root, String mountPoint, String fsType, List<String> superOptions) {
        static List<Mount> parseAll(String mountinfo) {
            List<Mount> mounts = new ArrayList<>();
            for (String line : mountinfo.split("\n")) {
                int dash = line.indexOf(" - ");
                if (dash < 0) {
                    continue;
                }
                String[] left = line.substring(0, dash).split(" ");
                String[] right = line.substring(dash + 3).split(" ");
                if (left.length < 5 || right.length < 3) {
                    continue;
                }
                mounts.add(new Mount(unescape(left[3]), unescape(left[4]), right[0],
                        List.of(right[2].strip().split(","))));
            }
            return mounts;
        }

        /** The mount whose root is the longest prefix of {@code path}; else the first (a container's own view). */
        static Mount choose(List<Mount> candidates, String path) {
            Mount best = null;
            for (Mount m : candidates) {
                if (contains(m.root(), path) && (best == null || m.root().length() > best.root().length())) {
                    best = m;
                }
            }
            return best != null ? best : candidates.isEmpty() ? null : candidates.getFirst();
        }

        private static boolean contains(String root, String path) {
            return root.equals("/") || path.equals(root) || path.startsWith(root + "/");
        }

        /** {@code path}'s part below this mount's root: "" for the root itself; "" too when outside it. */
        String relative(String path) {
            if (root.equals("/")) {
                return path.equals("/") ? "" : path;
            }
            return contains(root, path) ? path.substring(root.length()) : "";
        }

        /** mountinfo writes space, tab, newline and backslash as octal escapes. */
        static String unescape(String field) {
            if (field.indexOf('\\') < 0) {
                return field;
            }
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < field.length(); i++) {
                char c = field.charAt(i);
                if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                    b.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                    i += 3;
                } else {
                    b.append(c);
                }
            }
            return b.toString();
        }
    }

    /** Reads one cgroup's files and its ancestors' limits. */
    private static final class Reader {
        private final Source files;
        private final Mount mount;
        private final int version;
        private final String hierarchy;
        /** The cgroup and its ancestors up to the mount's root, the cgroup first. */
        private final List<Level> levels = new ArrayList<>();
        private final String cgroup;
        private final String directory;

        /**
         * One directory of the walk up.
         *
         * @param directory where its files are
         * @param path its path in the hierarchy
         */
        private record Level(String directory, String path) {}

        Reader(Source files, String root, Mount mount, String path, int version, String hierarchy) {
            this.files = files;
            this.mount = mount;
            this.version = version;
            this.hierarchy = hierarchy;
            String base = mount.root().equals("/") ? "" : mount.root();
            String mountPoint = root + (mount.mountPoint().equals("/") ? "" : mount.mountPoint());
            for (String rel = mount.relative(path); ; rel = rel.substring(0, rel.lastIndexOf('/'))) {
                levels.add(new Level(mountPoint + rel, rel.isEmpty() && base.isEmpty() ? "/" : base + rel));
                if (rel.isEmpty()) {
                    break;
                }
            }
            this.cgroup = levels.getFirst().path();
            this.directory = levels.getFirst().directory();
        }

        Result read() throws IOException {
            boolean v2 = version == 2;
            Optional<String> statText = file(directory, "memory.stat");
            if (statText.isEmpty() && file(directory, v2 ? "memory.current" : "memory.usage_in_bytes").isEmpty()) {
                if (v2) {
                    String controllers = file(levels.getLast().directory(), "cgroup.controllers").orElse("").strip();
                    if (levels.size() == 1 && List.of(controllers.split(" ")).contains("memory")) {
                        // The root cgroup: the controller is there, but older kernels give the root no memory files.
                        return Result.of(new ContainerMemory(2, hierarchy, cgroup, directory, true, null, null, null,
                                null, null, null, null, null, null, null, null));
                    }
                    return Result.problem("cgroup v2 at " + directory + " has no memory files: the memory controller"
                            + " is not enabled there (the root's cgroup.controllers: "
                            + (controllers.isEmpty() ? "none" : controllers) + ")");
                }
                return Result.problem("cgroup v1 memory directory " + directory + " has no memory files (or does not"
                        + " exist)");
            }
            Map<String, Long> stat = keyValues(statText.orElse(""));
            String limitFile = v2 ? "memory.max" : "memory.limit_in_bytes";
            Level limitLevel = smallest(limitFile);
            Figure limit = limitLevel == null ? null
                    : new Figure(limitValue(file(limitLevel.directory(), limitFile).orElseThrow()), limitFile + of(limitLevel));
            boolean wholeHierarchy;
            if (v2) {
                // Only the root cgroup has no memory.max: when the top visible level has one, there is more above.
                wholeHierarchy = file(levels.getLast().directory(), "memory.max").isEmpty();
            } else {
                // The kernel's own figure over every ancestor, seen or not.
                wholeHierarchy = stat.containsKey("hierarchical_memory_limit") || mount.root().equals("/");
                if (stat.containsKey("hierarchical_memory_limit")) {
                    Long hierarchical = limitValue(Long.toUnsignedString(stat.get("hierarchical_memory_limit")));
                    if (hierarchical != null && (limit == null || hierarchical < limit.value())) {
                        limit = new Figure(hierarchical, "hierarchical_memory_limit in memory.stat");
                        limitLevel = null;
                    }
                }
            }
            Figure high = null;
            if (v2) {
                Level highLevel = smallest("memory.high");
                high = highLevel == null ? null
                        : new Figure(limitValue(file(highLevel.directory(), "memory.high").orElseThrow()), "memory.high" + of(highLevel));
            }
            Figure usage = number(v2 ? "memory.current" : "memory.usage_in_bytes");
            Figure anon = stat(stat, v2 ? "anon" : "rss");
            Figure pageCache = stat(stat, v2 ? "file" : "cache");
            Figure shmem = stat(stat, "shmem");
            Figure inactiveFile = stat(stat, "inactive_file");
            Figure kernel = v2 ? kernelV2(stat) : number("memory.kmem.usage_in_bytes");
            Figure swap = v2 ? number("memory.swap.current") : stat(stat, "swap");
            Figure oomKills;
            Figure limitHits = null;
            if (v2) {
                Map<String, Long> events = keyValues(file(directory, "memory.events").orElse(""));
                oomKills = events.containsKey("oom_kill") ? new Figure(events.get("oom_kill"), "oom_kill in memory.events")
                        : null;
                if (limitLevel != null) {
                    Map<String, Long> atLimit = keyValues(file(limitLevel.directory(), "memory.events").orElse(""));
                    limitHits = atLimit.containsKey("max")
                            ? new Figure(atLimit.get("max"), "max in memory.events" + of(limitLevel)) : null;
                }
            } else {
                Map<String, Long> oom = keyValues(file(directory, "memory.oom_control").orElse(""));
                oomKills = oom.containsKey("oom_kill") ? new Figure(oom.get("oom_kill"), "oom_kill in memory.oom_control")
                        : null;
                if (limitLevel != null) {
                    Optional<String> failcnt = file(limitLevel.directory(), "memory.failcnt");
                    limitHits = failcnt.isEmpty() ? null
                            : new Figure(Long.parseLong(failcnt.get().strip()), "memory.failcnt" + of(limitLevel));
                }
            }
            return Result.of(new ContainerMemory(version, hierarchy, cgroup, directory, wholeHierarchy,
                    limit, high, usage, anon, pageCache, shmem, inactiveFile, kernel, swap, oomKills, limitHits));
        }

        /** " of /a/b" for an ancestor, "" for the cgroup itself. */
        private String of(Level level) {
            return level == levels.getFirst() ? "" : " of " + level.path();
        }

        /** The level with the smallest limit in {@code name}, or null when none has one. */
        private Level smallest(String name) throws IOException {
            Level best = null;
            long bestValue = Long.MAX_VALUE;
            for (Level level : levels) {
                Optional<String> text = file(level.directory(), name);
                Long value = text.isEmpty() ? null : limitValue(text.get());
                if (value != null && value < bestValue) {
                    best = level;
                    bestValue = value;
                }
            }
            return best;
        }

        private Figure number(String name) throws IOException {
            Optional<String> text = file(directory, name);
            return text.isEmpty() ? null : new Figure(Long.parseLong(text.get().strip()), name);
        }

        /** A memory.stat figure: v1's {@code total_} one (the cgroup and its descendants) when there is one. */
        private Figure stat(Map<String, Long> stat, String key) {
            if (version == 1 && stat.containsKey("total_" + key)) {
                return new Figure(stat.get("total_" + key), "total_" + key + " in memory.stat");
            }
            return stat.containsKey(key) ? new Figure(stat.get(key), key + " in memory.stat") : null;
        }

        private static Figure kernelV2(Map<String, Long> stat) {
            long sock = stat.getOrDefault("sock", 0L);
            if (stat.containsKey("kernel")) {
                return new Figure(stat.get("kernel") + sock, "kernel + sock in memory.stat");
            }
            List<String> parts = List.of("kernel_stack", "pagetables", "percpu", "slab", "vmalloc", "sock");
            List<String> present = parts.stream().filter(stat::containsKey).toList();
            if (present.isEmpty()) {
                return null;
            }
            return new Figure(present.stream().mapToLong(stat::get).sum(),
                    String.join(" + ", present) + " in memory.stat");
        }

        private Optional<String> file(String dir, String name) throws IOException {
            return files.read(dir + "/" + name);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Output

    /**
     * The container section of the table report: a heading, then one line per figure with its share of the limit
     * and its source, and in watch mode the change since {@code previous} (null for none).
     */
    List<String> tableLines(ContainerMemory previous) {
        List<String> lines = new ArrayList<>();
        boolean watching = previous != null;
        lines.add("Container: " + describe() + switch (hierarchy) {
            case "hybrid" -> " (hybrid: the memory controller is on v1, beside a cgroup2 mount without it)";
            case "legacy" -> " (v1 only)";
            default -> "";
        });
        if (limit == null) {
            lines.add(String.format(Locale.ROOT, "  %-12s %s", "limit", wholeHierarchy
                    ? "none: no memory limit on " + cgroup + " or any cgroup above it"
                    : "none visible: no memory limit on " + cgroup + " (the cgroups above it are not visible here)"));
        } else {
            lines.add(row("limit", limit, null, null, watching));
        }
        if (high != null) {
            lines.add(row("high", high, null, null, watching));
        }
        lines.add(row("usage", usage, previous == null ? null : previous.usage(), "memory", watching));
        lines.add(row("working set", workingSet(), previous == null ? null : previous.workingSet(), "memory", watching));
        lines.add(row("anon", anon, previous == null ? null : previous.anon(), "memory", watching));
        lines.add(row("page cache", pageCache, previous == null ? null : previous.pageCache(), "memory", watching));
        lines.add(row("  shmem", shmem, previous == null ? null : previous.shmem(), "memory", watching));
        lines.add(row("kernel", kernel, previous == null ? null : previous.kernel(), "memory", watching));
        lines.add(row("swap", swap, previous == null ? null : previous.swap(), "memory", watching));
        lines.add(limit == null ? String.format(Locale.ROOT, "  %-12s %s", "headroom", "no limit")
                : row("headroom", headroom(), previous == null ? null : previous.headroom(), "memory", watching));
        lines.add(row("oom kills", oomKills, previous == null ? null : previous.oomKills(), "count", watching));
        if (limitHits != null) {
            lines.add(row("limit hits", limitHits, previous == null ? null : previous.limitHits(), "count", watching));
        }
        return lines;
    }

    private String row(String label, Figure figure, Figure before, String kind, boolean watching) {
        if (figure == null) {
            return String.format(Locale.ROOT, "  %-12s %11s", label, "unknown");
        }
        boolean count = "count".equals(kind);
        String value = count ? Long.toString(figure.value()) : Bytes.human(figure.value());
        String share = !count && limit != null && figure != limit && limit.value() > 0
                ? String.format(Locale.ROOT, "%6.1f%%", 100.0 * figure.value() / limit.value()) : "";
        String change = "";
        if (watching) {
            long d = before == null ? 0 : figure.value() - before.value();
            change = before == null ? String.format(Locale.ROOT, " %12s", "")
                    : String.format(Locale.ROOT, " %12s", count ? (d > 0 ? "+" : "") + d
                            : (d > 0 ? "+" : d < 0 ? "-" : "") + Bytes.human(Math.abs(d)));
        }
        return String.format(Locale.ROOT, "  %-12s %11s %7s%s  %s", label, value, share, change, figure.source());
    }

    /**
     * Writes what reading found as one JSON object value: the figures in bytes (counts for {@code oomKills} and
     * {@code limitHits}), null where unknown, {@code limit} null for none; or {@code {"problem": "..."}}.
     */
    static void writeJson(Json json, Result result) {
        json.beginObject();
        if (result.memory() == null) {
            json.field("problem", result.problem());
            json.endObject();
            return;
        }
        ContainerMemory c = result.memory();
        json.field("cgroupVersion", c.version());
        json.field("hierarchy", c.hierarchy());
        json.field("cgroup", c.cgroup());
        json.field("directory", c.directory());
        figure(json, "limit", c.limit());
        json.field("limitSource", c.limit() == null ? null : c.limit().source());
        figure(json, "high", c.high());
        figure(json, "usage", c.usage());
        figure(json, "workingSet", c.workingSet());
        figure(json, "anon", c.anon());
        figure(json, "pageCache", c.pageCache());
        figure(json, "shmem", c.shmem());
        figure(json, "inactiveFile", c.inactiveFile());
        figure(json, "kernel", c.kernel());
        figure(json, "swap", c.swap());
        figure(json, "headroom", c.headroom());
        figure(json, "oomKills", c.oomKills());
        figure(json, "limitHits", c.limitHits());
        json.endObject();
    }

    private static void figure(Json json, String key, Figure figure) {
        if (figure == null) {
            json.field(key, (String) null);
        } else {
            json.field(key, figure.value());
        }
    }
}
