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

package dev.offheap.lab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Describes the machine and the JDK the lab runs on, in one line each. */
public final class Machine {
    private Machine() {}

    public static String describe() {
        return describe(Path.of("/proc/cpuinfo"), Path.of("/proc/meminfo"));
    }

    /** As {@link #describe()}, from these files in the format of /proc/cpuinfo and /proc/meminfo. */
    static String describe(Path cpuinfo, Path meminfo) {
        String cpu = procLine(cpuinfo, "model name");
        String mem = procLine(meminfo, "MemTotal");
        String memory = "";
        if (!mem.isEmpty()) {
            long kib = Long.parseLong(mem.replaceAll("[^0-9]", ""));
            memory = String.format(Locale.ROOT, ", %.0f GiB", kib / 1024.0 / 1024.0);
        }
        return (cpu.isEmpty() ? System.getProperty("os.arch") : cpu) + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs" + memory + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    public static String jdk() {
        return System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version");
    }

    /** The value of the first "key : value" line of a /proc file starting with key, or "". */
    private static String procLine(Path file, String key) {
        try {
            List<String> lines = Files.readAllLines(file);
            return lines.stream().filter(l -> l.startsWith(key)).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("");
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
