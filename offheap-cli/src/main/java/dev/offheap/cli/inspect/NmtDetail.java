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
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The "Virtual memory map" of {@code VM.native_memory detail} (NMT in detail mode, JDK 17 and later, the same
 * lines on 17, 21 and 25): every range the JVM reserved, with its NMT category, and the parts of it that are
 * committed, the only ones that can hold resident pages.
 *
 * <pre>
 * [0x00007ff118ca7000 - 0x00007ff118da7000] reserved 1024KB for Thread Stack from
 *     [0x00007ff14522c5e3] thread_native_entry(Thread*)+0xe3
 *
 *         [0x00007ff118ca7000 - 0x00007ff118cab000] committed 16KB from
 *             ...
 *         [0x00007ff118d85000 - 0x00007ff118da7000] committed 136KB
 * [0x00007fa27b834000 - 0x00007fa27b83d000] reserved and committed 36KB for GC from
 * </pre>
 *
 * A range "reserved and committed" is committed whole and may list no committed part. A thread stack's
 * committed parts are its guard zone and the pages {@code mincore} found resident when the report was made.
 * Without detail tracking the command prints "Detail tracking is not enabled" and {@link #parse} gives null.
 *
 * <p>{@link #vmMap()} gives the ranges {@code System.map}'s labels (JDK 22+ and 21.0.8+), so that
 * {@link MappingClassifier} reads either the same way.
 *
 * @param regions the reserved ranges by address (JDK 17 prints them lowest first, JDK 25 highest first)
 */
record NmtDetail(List<Region> regions) {
    private static final Pattern LINE = Pattern.compile(
            "^\\s*\\[0x(\\p{XDigit}+) - 0x(\\p{XDigit}+)] (reserved and committed|reserved|committed) \\d+\\w*(?: for (.+?))?(?: from)?\\s*$");

    /**
     * One reserved range.
     *
     * @param start first address
     * @param end address after the last byte
     * @param category NMT's name for its category ({@code Thread Stack}, {@code Java Heap}, {@code GC}...)
     * @param committed its committed parts, by address
     */
    record Region(long start, long end, String category, List<AddressRange> committed) {
        /** System.map's label for the category ({@code STACK}, {@code JAVAHEAP}, {@code GC}...). */
        String label() {
            return NmtDetail.label(category);
        }

        long committedBytes() {
            return committed.stream().mapToLong(r -> r.end() - r.start()).sum();
        }
    }

    /** The report's regions, or null when the text has no virtual memory map (NMT off, or in summary mode). */
    static NmtDetail parse(String text) {
        if (text == null) {
            return null;
        }
        List<Region> regions = new ArrayList<>();
        boolean inMap = false;
        boolean sawMap = false;
        long start = 0;
        long end = 0;
        String category = null;
        List<AddressRange> committed = new ArrayList<>();
        boolean allCommitted = false;
        for (String line : text.split("\n")) {
            if (line.startsWith("Virtual memory map:")) {
                inMap = true;
                sawMap = true;
                continue;
            }
            if (!inMap) {
                continue;
            }
            if (line.startsWith("Details:") || line.startsWith("Memory file details")) {
                break; // call sites, then ZGC's backing file (offsets into it, not addresses)
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            long low = Long.parseUnsignedLong(m.group(1), 16);
            long high = Long.parseUnsignedLong(m.group(2), 16);
            if (m.group(3).equals("committed")) {
                if (category != null && !allCommitted) {
                    committed.add(new AddressRange(low, high));
                }
                continue;
            }
            if (category != null) {
                regions.add(region(start, end, category, committed, allCommitted));
            }
            start = low;
            end = high;
            category = m.group(4) == null ? "Unknown" : m.group(4);
            committed = new ArrayList<>();
            allCommitted = m.group(3).equals("reserved and committed");
        }
        if (category != null) {
            regions.add(region(start, end, category, committed, allCommitted));
        }
        regions.sort(Comparator.comparingLong(Region::start));
        return sawMap ? new NmtDetail(Collections.unmodifiableList(regions)) : null;
    }

    private static Region region(long start, long end, String category, List<AddressRange> committed, boolean allCommitted) {
        List<AddressRange> parts = allCommitted ? List.of(new AddressRange(start, end)) : List.copyOf(committed);
        return new Region(start, end, category, parts);
    }

    /**
     * The labels {@code System.map} prints for NMT's categories; the others keep NMT's name ({@code Symbol},
     * {@code Tracing}...; System.map prints those as {@code mtSymbol}...). {@code CARDTBL} is NMT's
     * {@code GCCardSet}: G1's, Parallel's and Serial's card tables are reserved as {@code GC}, and the four frames
     * NMT prints end in {@code G1CollectedHeap::create_aux_memory_mapper} for the card table, the block offset
     * table and the mark bitmap alike, so they cannot be told apart.
     */
    static String label(String category) {
        return switch (category) {
            case "Java Heap" -> "JAVAHEAP";
            case "Class" -> "CLASS";
            case "Metaspace" -> "META";
            case "Shared class space" -> "CDS";
            case "Code" -> "CODE";
            case "GC" -> "GC";
            case "GCCardSet" -> "CARDTBL";
            case "Thread Stack" -> "STACK";
            case "Internal" -> "INTERN";
            case "Other" -> "JDK";
            case "Safepoint" -> "POLL";
            case "Test" -> "TEST";
            default -> category;
        };
    }

    /**
     * The reserved ranges as labels for {@link MappingClassifier}, neighbours with the same label joined (the
     * kernel merges their mappings when their permissions match: two GC bitmaps, the code heaps).
     */
    VmMap vmMap() {
        NavigableMap<Long, Map.Entry<Long, String>> labels = new TreeMap<>();
        Map.Entry<Long, Map.Entry<Long, String>> last = null;
        for (Region r : regions) {
            String label = r.label();
            if (last != null && last.getValue().getKey() == r.start() && last.getValue().getValue().equals(label)) {
                last = Map.entry(last.getKey(), Map.entry(r.end(), label));
            } else {
                if (last != null) {
                    labels.put(last.getKey(), last.getValue());
                }
                last = Map.entry(r.start(), Map.entry(r.end(), label));
            }
        }
        if (last != null) {
            labels.put(last.getKey(), last.getValue());
        }
        return new VmMap(labels);
    }

    /** The committed parts of every region with this label, by address: where {@link Pagemap} should look. */
    List<AddressRange> committed(String label) {
        return regions.stream().filter(r -> r.label().equals(label)).flatMap(r -> r.committed().stream()).toList();
    }

    /** Committed bytes of every region with this label, as NMT counts them (a thread stack's guard zone too). */
    long committedBytes(String label) {
        return regions.stream().filter(r -> r.label().equals(label)).mapToLong(Region::committedBytes).sum();
    }
}
