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

package dev.offheap.lab.experiment.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A process's memory as Linux reports it in {@code /proc/<pid>/status}: resident now and at its peak. */
public final class ProcMemory {
    /** The field of the resident set size now. */
    public static final String RSS = "VmRSS:";
    /** The field of the peak resident set size (high-water mark). */
    public static final String PEAK_RSS = "VmHWM:";

    private ProcMemory() {}

    /** The field {@code name} (e.g. {@link #RSS}) of process {@code pid} in KiB, or -1 if unreadable. */
    public static long kib(long pid, String name) {
        try {
            return field(Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")), name);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The field {@code name} of this process in KiB, or -1 if unreadable. */
    public static long selfKib(String name) {
        return kib(ProcessHandle.current().pid(), name);
    }

    /** The value in KiB of the field {@code name} among the lines of a status file, or -1 if absent. */
    static long field(List<String> lines, String name) {
        for (String line : lines) {
            if (line.startsWith(name)) {
                String value = line.substring(name.length()).trim();
                if (!value.endsWith("kB")) {
                    throw new IllegalArgumentException("not in kB: " + line);
                }
                return Long.parseLong(value.substring(0, value.length() - 2).trim());
            }
        }
        return -1;
    }
}
