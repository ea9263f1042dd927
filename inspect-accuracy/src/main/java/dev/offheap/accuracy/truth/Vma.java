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

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One mapping of {@code /proc/PID/smaps}.
 *
 * @param start first address
 * @param end address after the last
 * @param perms {@code rw-p} and so on
 * @param inode the file's inode, 0 for anonymous memory
 * @param path the file, {@code [heap]}, {@code [stack]}, ... or empty
 * @param rss the kernel's {@code Rss} in bytes
 */
record Vma(long start, long end, String perms, long inode, String path, long rss) {
    private static final Pattern HEADER = Pattern.compile("^[0-9a-f]+-[0-9a-f]+ ");

    long size() {
        return end - start;
    }

    boolean contains(long address) {
        return address >= start && address < end;
    }

    boolean writable() {
        return perms.startsWith("rw");
    }

    boolean inaccessible() {
        return perms.startsWith("---");
    }

    /** Private memory no file backs: anonymous mappings, {@code [heap]}, {@code [stack]}. */
    boolean anonymous() {
        return inode == 0 && !path.startsWith("/") && !kernel() && !path.startsWith("[anon_shmem");
    }

    /** The kernel's own pages: vdso, vvar, vsyscall. */
    boolean kernel() {
        return path.equals("[vdso]") || path.startsWith("[vvar") || path.equals("[vsyscall]");
    }

    /** Shared memory: memfd, /dev/shm, System V, shared anonymous. */
    boolean sharedMemory() {
        return path.startsWith("/memfd:") || path.startsWith("/dev/shm/") || path.startsWith("/SYSV")
                || path.startsWith("[anon_shmem") || path.startsWith("/dev/zero");
    }

    /** A regular file mapping. */
    boolean file() {
        return inode != 0 && path.startsWith("/") && !sharedMemory();
    }

    /** In user space, where {@code /proc/PID/pagemap} and {@code /proc/PID/mem} can be read at its address. */
    boolean user() {
        return start >= 0 && end > 0 && end <= (1L << 47);
    }

    String range() {
        return Long.toHexString(start) + "-" + Long.toHexString(end);
    }

    static List<Vma> parseSmaps(String text) {
        List<Vma> vmas = new ArrayList<>();
        long start = 0;
        long end = 0;
        String perms = null;
        long inode = 0;
        String path = "";
        long rss = 0;
        for (String line : text.split("\n")) {
            if (HEADER.matcher(line).find()) {
                if (perms != null) {
                    vmas.add(new Vma(start, end, perms, inode, path, rss));
                }
                String[] parts = line.trim().split("\\s+", 6);
                String[] range = parts[0].split("-");
                start = Long.parseUnsignedLong(range[0], 16);
                end = Long.parseUnsignedLong(range[1], 16);
                perms = parts[1];
                inode = Long.parseLong(parts[4]);
                path = parts.length > 5 ? parts[5].trim() : "";
                rss = 0;
            } else if (line.startsWith("Rss:")) {
                rss = Long.parseLong(line.substring(4).trim().split("\\s+")[0]) * 1024;
            }
        }
        if (perms != null) {
            vmas.add(new Vma(start, end, perms, inode, path, rss));
        }
        return vmas;
    }
}
