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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A range of addresses {@code [start, end)} the JVM reports for one of its areas, read from the text of a
 * diagnostic command: {@code GC.heap_info} prints the heap's (or each generation's) reserved range as
 * {@code [0xLOW, 0xHIGH)} or {@code [0xLOW, 0xTOP, 0xHIGH)}, {@code Compiler.codecache} prints each code heap's
 * {@code bounds [0xLOW, 0xCOMMITTED, 0xHIGH]}.
 */
record AddressRange(long start, long end) {
    private static final Pattern RANGE = Pattern.compile("\\[(0x[0-9a-fA-F]+)(?:,\\s*0x[0-9a-fA-F]+)*,\\s*(0x[0-9a-fA-F]+)[)\\]]");

    boolean contains(Mapping mapping) {
        return mapping.start() >= start && mapping.end() <= end;
    }

    /** Every range in the text, first to last address of each bracket. */
    static List<AddressRange> findAll(String text) {
        List<AddressRange> ranges = new ArrayList<>();
        Matcher m = RANGE.matcher(text);
        while (m.find()) {
            long low = Long.parseUnsignedLong(m.group(1).substring(2), 16);
            long high = Long.parseUnsignedLong(m.group(2).substring(2), 16);
            if (high > low) {
                ranges.add(new AddressRange(low, high));
            }
        }
        return ranges;
    }

    /** The smallest range covering all ranges in the text (the heap's generations lie side by side). */
    static List<AddressRange> span(String text) {
        List<AddressRange> all = findAll(text);
        if (all.isEmpty()) {
            return all;
        }
        long low = all.stream().mapToLong(AddressRange::start).min().orElseThrow();
        long high = all.stream().mapToLong(AddressRange::end).max().orElseThrow();
        return List.of(new AddressRange(low, high));
    }
}
