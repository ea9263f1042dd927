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
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The target's process as {@code /proc} shows it, and the one place that builds its paths there ({@link #proc},
 * {@link #file}, {@link #inRoot}). Checks a PID before attaching, so that a wrong one gets a clear message at once
 * instead of the Attach API's ten-second timeout: the process exists, belongs to this user (or this user is
 * root), and runs a JVM.
 */
final class TargetProcess {
    private TargetProcess() {}

    static void check(long pid) {
        Path proc = proc(pid);
        if (!isAlive(pid)) {
            throw new InspectException(InspectException.NO_SUCH_PROCESS, "no process " + pid);
        }
        String name = name(pid);
        long uid = uid(proc);
        long self = uid(Path.of("/proc/self"));
        if (uid != self && self != 0) {
            throw new InspectException(InspectException.NOT_INSPECTABLE, "process " + pid + " (" + name
                    + ") belongs to user " + uid + ", not to you (user " + self
                    + "): inspect attaches only to JVMs of the same user");
        }
        String maps;
        try {
            maps = Files.readString(proc.resolve("maps"));
        } catch (NoSuchFileException e) {
            throw new InspectException(InspectException.NO_SUCH_PROCESS, "no process " + pid);
        } catch (AccessDeniedException e) {
            throw new InspectException(InspectException.NOT_INSPECTABLE, "process " + pid + " (" + name
                    + ") cannot be inspected: its memory map is not readable (another user's, or protected)");
        } catch (IOException e) {
            throw new InspectException(InspectException.NOT_INSPECTABLE, "process " + pid + " (" + name
                    + ") cannot be inspected: its memory map is not readable: " + e.getMessage());
        }
        if (!maps.contains("/libjvm.so")) {
            throw new InspectException(InspectException.NOT_INSPECTABLE, "process " + pid + " (" + name
                    + ") is not a Java virtual machine: it has no libjvm.so mapped");
        }
    }

    /** Alive and not a zombie. */
    static boolean isAlive(long pid) {
        try {
            String stat = Files.readString(proc(pid).resolve("stat"));
            int close = stat.lastIndexOf(')');
            return close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) != 'Z' && stat.charAt(close + 2) != 'X';
        } catch (IOException e) {
            return false;
        }
    }

    /** The command name the kernel shows for the process, or "?" */
    static String name(long pid) {
        try {
            return Files.readString(proc(pid).resolve("comm")).strip();
        } catch (IOException e) {
            return "?";
        }
    }

    /** Resident bytes ({@code VmRSS}), or -1 when unknown. */
    static long rss(long pid) {
        try {
            for (String line : Files.readAllLines(proc(pid).resolve("status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /**
     * Gives {@code file}, made by inspect for the target to write in, to the target's effective user and group when
     * this process runs as root and the target as another user (HotSpot 11 and newer take root's attach requests
     * from any user's JVM, but what the target writes, it writes as its own user). Otherwise leaves it as it is.
     */
    static void handOver(long pid, Path file) throws IOException {
        long[] self = effectiveIds(Files.readString(Path.of("/proc/self/status")));
        long[] target = effectiveIds(Files.readString(file(pid, "status")));
        if (self[0] != 0 || target[0] < 0 || target[1] < 0 || target[0] == self[0] && target[1] == self[1]) {
            return;
        }
        Files.setAttribute(file, "unix:gid", Math.toIntExact(target[1]), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(file, "unix:uid", Math.toIntExact(target[0]), LinkOption.NOFOLLOW_LINKS);
    }

    /** The effective user and group ids of a {@code /proc/PID/status} text (the second field of Uid and Gid), or -1. */
    static long[] effectiveIds(String status) {
        long[] ids = {-1, -1};
        for (String line : status.split("\n")) {
            int which = line.startsWith("Uid:") ? 0 : line.startsWith("Gid:") ? 1 : -1;
            String[] fields = line.trim().split("\\s+");
            if (which >= 0 && fields.length > 2) {
                ids[which] = Long.parseLong(fields[2]);
            }
        }
        return ids;
    }

    private static long uid(Path proc) {
        try {
            return ((Number) Files.getAttribute(proc, "unix:uid")).longValue();
        } catch (IOException | UnsupportedOperationException e) {
            return -1;
        }
    }

    /** {@code /proc/PID}: the one place inspect builds the paths of the target's files. */
    static Path proc(long pid) {
        return Path.of("/proc", Long.toString(pid));
    }

    /** {@code /proc/PID/NAME...}, e.g. {@code file(pid, "task")}, {@code file(pid, "ns", "mnt")}. */
    static Path file(long pid, String name, String... more) {
        return proc(pid).resolve(Path.of(name, more));
    }

    /** An absolute path as the target sees it, through {@code /proc/PID/root} (another mount namespace too). */
    static Path inRoot(long pid, String absolutePath) {
        return Path.of(proc(pid) + "/root" + absolutePath);
    }
}
