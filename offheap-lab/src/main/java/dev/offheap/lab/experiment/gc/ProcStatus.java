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

package dev.offheap.lab.experiment.gc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's memory as Linux reports it in /proc/self/status; -1 elsewhere. */
final class ProcStatus {
    private ProcStatus() {}

    /** Resident set size now, in KiB. */
    static long rssKib() {
        return field("VmRSS:");
    }

    /** Peak resident set size, in KiB. */
    static long peakRssKib() {
        return field("VmHWM:");
    }

    private static long field(String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(name)) {
                    return Long.parseLong(line.substring(name.length()).replace("kB", "").trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
