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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory cgroup the process is in, found once from {@code /proc/self/cgroup}, read at each sample: version 2
 * ({@code memory.current}, {@code memory.max} over the hierarchy, {@code memory.stat}'s {@code inactive_file}) or
 * version 1 ({@code memory.usage_in_bytes}, {@code hierarchical_memory_limit}, {@code total_inactive_file}).
 * Inside a container the cgroup's path may name a directory only the host has: then the mount's root is the
 * container's own cgroup.
 */
final class Cgroup {
    /** v1 writes a limit of "none" as a huge number (the largest page-aligned long). */
    private static final long NO_LIMIT_V1 = 1L << 60;

    private final Path directory;
    private final List<Path> limitFiles;
    private final boolean v2;

    private Cgroup(Path directory, List<Path> limitFiles, boolean v2) {
        this.directory = directory;
        this.limitFiles = limitFiles;
        this.v2 = v2;
    }

    /** @return the process's memory cgroup, or null when there is none to read (not Linux, no cgroup mounted) */
    static Cgroup locate(Path procSelfCgroup, Path cgroupFs) {
        String text;
        try {
            text = Files.readString(procSelfCgroup);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        for (String line : text.split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && f[0].equals("0") && f[1].isEmpty()) {
                Path dir = existing(cgroupFs, f[2], "memory.current");
                if (dir != null) {
                    List<Path> limits = new ArrayList<>();
                    for (Path d = dir; d != null && d.startsWith(cgroupFs); d = d.getParent()) {
                        limits.add(d.resolve("memory.max"));
                    }
                    return new Cgroup(dir, limits, true);
                }
            }
        }
        for (String line : text.split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && List.of(f[1].split(",")).contains("memory")) {
                Path dir = existing(cgroupFs.resolve("memory"), f[2], "memory.usage_in_bytes");
                if (dir != null) {
                    return new Cgroup(dir, List.of(), false);
                }
            }
        }
        return null;
    }

    private static Path existing(Path root, String path, String file) {
        Path dir = root.resolve(path.startsWith("/") ? path.substring(1) : path).normalize();
        if (dir.startsWith(root) && Files.isReadable(dir.resolve(file))) {
            return dir;
        }
        return Files.isReadable(root.resolve(file)) ? root : null;
    }

    /** @return the cgroup's directory */
    Path directory() {
        return directory;
    }

    /** @return bytes charged to the cgroup, or -1 */
    long usage() {
        return number(directory.resolve(v2 ? "memory.current" : "memory.usage_in_bytes"));
    }

    /** @return the smallest limit over the hierarchy, or -1 for none */
    long limit() {
        long min = Long.MAX_VALUE;
        if (v2) {
            for (Path f : limitFiles) {
                long n = number(f);
                if (n > 0) {
                    min = Math.min(min, n);
                }
            }
        } else {
            long n = stat("hierarchical_memory_limit");
            if (n > 0 && n < NO_LIMIT_V1) {
                min = n;
            }
        }
        return min == Long.MAX_VALUE ? -1 : min;
    }

    /** @return usage less inactive file pages (what Kubernetes calls the working set), or -1 */
    long workingSet(long usage) {
        long inactive = stat(v2 ? "inactive_file" : "total_inactive_file");
        return usage < 0 || inactive < 0 ? usage : Math.max(0, usage - inactive);
    }

    private long stat(String key) {
        try {
            for (String line : Files.readAllLines(directory.resolve("memory.stat"))) {
                if (line.startsWith(key) && line.length() > key.length() && line.charAt(key.length()) == ' ') {
                    return Long.parseLong(line.substring(key.length() + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    private static long number(Path file) {
        try {
            String s = Files.readString(file).trim();
            return s.equals("max") ? -1 : Long.parseLong(s);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
