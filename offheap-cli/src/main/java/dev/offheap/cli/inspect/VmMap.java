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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM's own labels for its mappings, from {@code System.map} (JDK 22+): {@code JAVAHEAP}, {@code CODE},
 * {@code META}, {@code CLASS}, {@code GC}, {@code CARDTBL}, {@code STACK-tid-name}, {@code CDS},
 * {@code INTERN}... The labels come from NMT: without it the command prints no labels and this map is empty.
 * The same labels come from NMT's detail report on any JDK ({@link NmtDetail#vmMap()}), and metaspace's and
 * class space's from {@code VM.metaspace} and {@code VM.info} without NMT ({@link MetaspaceRanges}).
 *
 * @param labels label by first address, with the range's end
 */
record VmMap(NavigableMap<Long, Map.Entry<Long, String>> labels) {
    private static final Pattern LINE = Pattern.compile(
            "^0x([0-9a-fA-F]+)-0x([0-9a-fA-F]+)\\s+\\d+\\s+\\S+\\s+\\d+\\s+\\d+\\s+\\S+\\s+\\S+\\s+(\\S+)");

    static final VmMap EMPTY = new VmMap(new TreeMap<>());

    boolean isEmpty() {
        return labels.isEmpty();
    }

    /**
     * Every labelled range as an {@link OwnedRange} of its attribution part: {@code STACK} of threadStacks,
     * {@code META}, {@code CLASS} and anonymous {@code CDS} of metaspace, {@code GC} and {@code CARDTBL} of gc,
     * {@code JAVAHEAP} of heap, {@code CODE} of codeCache, any other of otherJvm. Only anonymous mappings count,
     * so the CDS archive's file stays among program files.
     */
    List<OwnedRange> ranges() {
        List<OwnedRange> ranges = new ArrayList<>();
        for (Map.Entry<Long, Map.Entry<Long, String>> e : labels.entrySet()) {
            String label = e.getValue().getValue();
            int dash = label.indexOf('-');
            String kind = dash > 0 ? label.substring(0, dash) : label;
            String part = switch (kind) {
                case "STACK" -> PartName.THREAD_STACKS.key();
                case "META", "CLASS", "CDS" -> PartName.METASPACE.key();
                case "GC", "CARDTBL" -> PartName.GC.key();
                case "JAVAHEAP" -> PartName.HEAP.key();
                case "CODE" -> PartName.CODE_CACHE.key();
                default -> PartName.OTHER_JVM.key();
            };
            if (e.getValue().getKey() > e.getKey()) {
                ranges.add(new OwnedRange(e.getKey(), e.getValue().getKey(), part, kind, true));
            }
        }
        return ranges;
    }

    /** The label of the range holding the mapping ({@code STACK-42-main} reads {@code STACK}), or null. */
    String label(Mapping mapping) {
        Map.Entry<Long, Map.Entry<Long, String>> e = labels.floorEntry(mapping.start());
        if (e == null || e.getValue().getKey() < mapping.end()) {
            return null;
        }
        return shortLabel(e.getValue().getValue());
    }

    /**
     * A labelled piece of an address range.
     *
     * @param range the piece, inside the range asked for
     * @param label its label up to the first dash
     */
    record Part(AddressRange range, String label) {}

    /**
     * The labelled pieces of {@code [start, end)}, by address: for a mapping the kernel merged from a labelled
     * range and an unlabelled neighbour, {@link Pagemap} tells how much of each piece is resident.
     */
    List<Part> parts(long start, long end) {
        List<Part> parts = new ArrayList<>();
        Long floor = labels.floorKey(start);
        long from = floor == null ? start : floor;
        for (var e : labels.subMap(from, true, Math.max(from, end), false).entrySet()) {
            long low = Math.max(start, e.getKey());
            long high = Math.min(end, e.getValue().getKey());
            if (low < high) {
                parts.add(new Part(new AddressRange(low, high), shortLabel(e.getValue().getValue())));
            }
        }
        return parts;
    }

    /** Every range with this label (up to the first dash: {@code STACK} finds {@code STACK-42-main}), by address. */
    List<AddressRange> ranges(String label) {
        return labels.entrySet().stream().filter(e -> shortLabel(e.getValue().getValue()).equals(label))
                .map(e -> new AddressRange(e.getKey(), e.getValue().getKey())).toList();
    }

    /** These labels and the other map's, which must not overlap them (one wins where they do). */
    VmMap with(VmMap other) {
        NavigableMap<Long, Map.Entry<Long, String>> all = new TreeMap<>(labels);
        all.putAll(other.labels);
        return new VmMap(all);
    }

    private static String shortLabel(String label) {
        int dash = label.indexOf('-');
        return dash > 0 ? label.substring(0, dash) : label;
    }

    static VmMap parse(String text) {
        NavigableMap<Long, Map.Entry<Long, String>> labels = new TreeMap<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (m.find() && !m.group(3).equals("-")) {
                labels.put(Long.parseUnsignedLong(m.group(1), 16),
                        Map.entry(Long.parseUnsignedLong(m.group(2), 16), m.group(3)));
            }
        }
        return new VmMap(labels);
    }
}
