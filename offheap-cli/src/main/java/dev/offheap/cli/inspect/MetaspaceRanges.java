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

import java.math.BigDecimal;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where metaspace and class space lie without NMT, as {@link VmMap} labels ({@code META}, {@code CLASS},
 * {@code CDS}), so that their mappings count as their resident pages. Two commands tell, the same way on
 * JDK 17 and 25:
 * <ul>
 *   <li>{@code VM.info}, no safepoint: {@code Compressed class space mapped at: 0xLOW-0xHIGH, reserved size: N}
 *       and {@code CDS archive(s) mapped at: [0xBASE-0xSTATIC_END-0xEND)}. Class space and CDS only: the
 *       non-class metaspace is not there.</li>
 *   <li>{@code VM.metaspace vslist}: each virtual space node of both lists,
 *       {@code - node #0: base 0x00007ff0c7000000: reserved=65536.00 KB, committed=...}, after
 *       {@code vsl non-class-space:} or {@code vsl class-space:}. It runs the {@code PrintMetadata} safepoint
 *       operation (measured 0.3 to 47 ms on a small JVM); {@code VM.metaspace basic} needs none but prints no
 *       address on JDK 17.</li>
 * </ul>
 */
final class MetaspaceRanges {
    private static final Pattern CLASS_SPACE = Pattern.compile(
            "Compressed class space mapped at: 0x(\\p{XDigit}+)-0x(\\p{XDigit}+)");
    private static final Pattern CDS = Pattern.compile(
            "CDS archive\\(s\\) mapped at: \\[0x(\\p{XDigit}+)(?:-0x\\p{XDigit}+)*-0x(\\p{XDigit}+)\\)");
    private static final Pattern NODE = Pattern.compile(
            "^- node #\\d+: base 0x(\\p{XDigit}+): reserved=([0-9.]+) ?(bytes|KB|MB|GB)\\b");

    private MetaspaceRanges() {}

    /** Class space ({@code CLASS}) and the CDS archive ({@code CDS}) from {@code VM.info}; empty if not printed. */
    static VmMap fromVmInfo(String text) {
        NavigableMap<Long, Map.Entry<Long, String>> labels = new TreeMap<>();
        if (text != null) {
            put(labels, CLASS_SPACE.matcher(text), "CLASS");
            put(labels, CDS.matcher(text), "CDS");
        }
        return new VmMap(labels);
    }

    private static void put(NavigableMap<Long, Map.Entry<Long, String>> labels, Matcher m, String label) {
        if (m.find()) {
            labels.put(Long.parseUnsignedLong(m.group(1), 16), Map.entry(Long.parseUnsignedLong(m.group(2), 16), label));
        }
    }

    /** Every node of metaspace ({@code META}) and class space ({@code CLASS}) from {@code VM.metaspace vslist}. */
    static VmMap fromVirtualSpaceList(String text) {
        NavigableMap<Long, Map.Entry<Long, String>> labels = new TreeMap<>();
        if (text == null) {
            return new VmMap(labels);
        }
        String label = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("vsl ")) {
                label = line.contains("non-class") ? "META" : line.contains("class") ? "CLASS" : null;
                continue;
            }
            Matcher m = NODE.matcher(line);
            if (label != null && m.find()) {
                long base = Long.parseUnsignedLong(m.group(1), 16);
                long size = new BigDecimal(m.group(2)).multiply(BigDecimal.valueOf(unit(m.group(3)))).longValue();
                labels.put(base, Map.entry(base + size, label));
            }
        }
        return new VmMap(labels);
    }

    private static long unit(String unit) {
        return switch (unit) {
            case "KB" -> 1L << 10;
            case "MB" -> 1L << 20;
            case "GB" -> 1L << 30;
            default -> 1;
        };
    }
}
