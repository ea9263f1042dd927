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

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The output of {@code jcmd PID VM.flags -all} (or of the DiagnosticCommand MBean's {@code vmFlags} with
 * {@code -all}): every flag with its type, value and origin. Lines look like
 * <pre>   size_t MaxHeapSize                              = 4294967296                                {product} {command line}</pre>
 * Lines that are no flag (jcmd's {@code PID:} line, {@code [Global flags]}) are skipped.
 *
 * @param flags by name, in the order printed
 */
record VmFlags(Map<String, Flag> flags) {
    private static final Pattern LINE = Pattern.compile(
            "^\\s*(\\S+)\\s+(\\w+)\\s+:?=\\s?(.*?)\\s*\\{([^{}]*)\\}(?:\\s*\\{([^{}]*)\\})?\\s*$");

    /**
     * One flag.
     *
     * @param type its C type: {@code size_t}, {@code uint64_t}, {@code intx}, {@code bool}, {@code ccstr}...
     * @param name its name
     * @param value as printed ("" for an empty string)
     * @param origin {@code default}, {@code command line}, {@code ergonomic}, {@code environment}... or "" when
     *     the JDK prints none
     */
    record Flag(String type, String name, String value, String origin) {}

    static VmFlags parse(String text) {
        Map<String, Flag> flags = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (m.matches()) {
                flags.put(m.group(2), new Flag(m.group(1), m.group(2), m.group(3), m.group(5) == null ? ""
                        : m.group(5).strip()));
            }
        }
        return new VmFlags(Map.copyOf(flags));
    }

    Optional<Flag> flag(String name) {
        return Optional.ofNullable(flags.get(name));
    }

    /** A numeric flag read as unsigned (so 2^64-1, "no limit", is -1), or {@code otherwise} when absent. */
    long number(String name, long otherwise) {
        return flag(name).map(f -> parseNumber(f.value(), otherwise)).orElse(otherwise);
    }

    private static long parseNumber(String value, long otherwise) {
        try {
            return value.startsWith("-") ? Long.parseLong(value) : Long.parseUnsignedLong(value);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /**
     * The ceilings' flags as {@link Ceilings.Settings}: {@code MaxHeapSize}, {@code MaxDirectMemorySize} (0 when
     * not set), {@code MaxMetaspaceSize} (-1 for no limit, which {@code VM.flags} prints as 2^64-1),
     * {@code ReservedCodeCacheSize}, and {@code ThreadStackSize}, which HotSpot keeps in KiB, in bytes; each with
     * its origin. A flag that is missing counts as -1 (unknown).
     */
    Ceilings.Settings settings() {
        long metaspace = number("MaxMetaspaceSize", -1);
        long stack = number("ThreadStackSize", -1);
        Map<String, String> origins = new LinkedHashMap<>();
        for (String name : new String[] {"MaxHeapSize", "MaxDirectMemorySize", "MaxMetaspaceSize",
                "ReservedCodeCacheSize", "ThreadStackSize"}) {
            flag(name).filter(f -> !f.origin().isEmpty()).ifPresent(f -> origins.put(name, f.origin()));
        }
        return new Ceilings.Settings(number("MaxHeapSize", -1), number("MaxDirectMemorySize", 0),
                metaspace < 0 || metaspace >= ContainerMemory.NO_LIMIT ? -1 : metaspace,
                number("ReservedCodeCacheSize", -1), stack < 0 ? -1 : stack * 1024, origins);
    }
}
