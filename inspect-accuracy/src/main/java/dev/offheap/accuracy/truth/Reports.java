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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsers for what the target JVM's jcmd and logs print: address ranges, NMT's detail, malloc_info. */
final class Reports {
    private Reports() {}

    /** An address range with a name. */
    record Range(long start, long end, String name) {}

    private static final Pattern HEAP = Pattern.compile("\\[0x([0-9a-f]+), 0x([0-9a-f]+)(?:, 0x([0-9a-f]+))?\\)");

    /** The heap's reserved ranges from {@code GC.heap_info} ({@code [low, high)} or {@code [low, top, high)}). */
    static List<Range> heap(String heapInfo) {
        List<Range> ranges = new ArrayList<>();
        Matcher m = HEAP.matcher(heapInfo == null ? "" : heapInfo);
        while (m.find()) {
            String end = m.group(3) != null ? m.group(3) : m.group(2);
            ranges.add(new Range(Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(end, 16), "heap"));
        }
        return ranges;
    }

    private static final Pattern CODE = Pattern.compile(
            "CodeHeap '([^']+)'.*?\\n\\s*bounds \\[0x([0-9a-f]+), 0x([0-9a-f]+), 0x([0-9a-f]+)\\]");
    private static final Pattern CODE_SINGLE = Pattern.compile(
            "^CodeCache:.*?\\n\\s*bounds \\[0x([0-9a-f]+), 0x([0-9a-f]+), 0x([0-9a-f]+)\\]", Pattern.MULTILINE);

    /** The code heaps' reserved ranges from {@code Compiler.codecache}: {@code bounds [low, high, high_bound]}. */
    static List<Range> code(String codecache) {
        List<Range> ranges = new ArrayList<>();
        String text = codecache == null ? "" : codecache;
        Matcher m = CODE.matcher(text);
        while (m.find()) {
            ranges.add(new Range(Long.parseUnsignedLong(m.group(2), 16), Long.parseUnsignedLong(m.group(4), 16),
                    m.group(1)));
        }
        if (ranges.isEmpty()) { // -XX:-SegmentedCodeCache
            m = CODE_SINGLE.matcher(text);
            while (m.find()) {
                ranges.add(new Range(Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(3), 16),
                        "CodeCache"));
            }
        }
        return ranges;
    }

    private static final Pattern NODE = Pattern.compile("node #\\d+: base 0x([0-9a-f]+): reserved=([0-9.]+) KB");

    /** Metaspace's virtual space nodes (class space and non-class) from {@code VM.metaspace vslist}. */
    static List<Range> metaspace(String vmMetaspace) {
        List<Range> ranges = new ArrayList<>();
        Matcher m = NODE.matcher(vmMetaspace == null ? "" : vmMetaspace);
        while (m.find()) {
            long base = Long.parseUnsignedLong(m.group(1), 16);
            long size = (long) (Double.parseDouble(m.group(2)) * 1024);
            ranges.add(new Range(base, base + size, "metaspace"));
        }
        return ranges;
    }

    private static final Pattern PAGESIZE = Pattern.compile(
            "\\[pagesize\\]\\s+([^:]+):.*?\\bbase=0x([0-9a-f]+).*?\\ssize=(\\d+)([KMG]?)");

    /**
     * The ranges {@code -Xlog:pagesize} names at start-up: the heap, the code heaps and the GC's side tables
     * (block offset table, card table, card counts, mark bitmaps), each named as logged.
     */
    static List<Range> pagesizeLog(String log) {
        List<Range> ranges = new ArrayList<>();
        for (String line : (log == null ? "" : log).split("\n")) {
            Matcher m = PAGESIZE.matcher(line);
            if (m.find()) {
                long base = Long.parseUnsignedLong(m.group(2), 16);
                long size = Long.parseLong(m.group(3)) * switch (m.group(4)) {
                    case "K" -> 1024L;
                    case "M" -> 1024L * 1024;
                    case "G" -> 1024L * 1024 * 1024;
                    default -> 1L;
                };
                ranges.add(new Range(base, base + size, m.group(1).trim()));
            }
        }
        return ranges;
    }

    /** NMT's detail report: reserved regions with their category, and the summary's committed figures. */
    record Nmt(List<Range> regions, Map<String, Long> committedInRegions, Map<String, long[]> summary) {
        /** Committed, mmap committed and malloc bytes of a category in NMT's summary, zeros if absent. */
        long[] category(String name) {
            return summary.getOrDefault(name, new long[3]);
        }
    }

    private static final Pattern REGION = Pattern.compile(
            "^\\[0x([0-9a-f]+) - 0x([0-9a-f]+)\\] reserved(?: and committed)? \\d+KB for (.+?)(?: from)?\\s*$");
    private static final Pattern COMMITTED = Pattern.compile("^\\s+\\[0x([0-9a-f]+) - 0x([0-9a-f]+)\\] committed (\\d+)KB");
    private static final Pattern SUMMARY = Pattern.compile(
            "^-\\s+(.+?) \\(reserved=(\\d+)KB, committed=(\\d+)KB\\)");
    private static final Pattern MMAP = Pattern.compile("\\(mmap: reserved=(\\d+)KB, committed=(\\d+)KB");
    private static final Pattern MALLOC = Pattern.compile("\\(malloc=(\\d+)KB");
    private static final Pattern STACK = Pattern.compile("\\(stack: reserved=(\\d+)KB, committed=(\\d+)KB");

    static Nmt nmt(String detail) {
        List<Range> regions = new ArrayList<>();
        Map<String, Long> committed = new LinkedHashMap<>();
        Map<String, long[]> summary = new LinkedHashMap<>();
        String category = null;
        String summaryCategory = null;
        boolean map = false;
        for (String line : detail.split("\n")) {
            if (line.startsWith("Virtual memory map")) {
                map = true;
                continue;
            }
            if (!map) {
                Matcher s = SUMMARY.matcher(line);
                if (s.find()) {
                    summaryCategory = s.group(1).trim();
                    summary.put(summaryCategory, new long[] {Long.parseLong(s.group(3)) * 1024, 0, 0});
                    continue;
                }
                if (summaryCategory != null) {
                    long[] figures = summary.get(summaryCategory);
                    Matcher mm = MMAP.matcher(line);
                    if (mm.find()) {
                        figures[1] = Long.parseLong(mm.group(2)) * 1024;
                    }
                    Matcher st = STACK.matcher(line);
                    if (st.find()) {
                        figures[1] = Long.parseLong(st.group(2)) * 1024;
                    }
                    Matcher ma = MALLOC.matcher(line);
                    if (ma.find()) {
                        figures[2] = Long.parseLong(ma.group(1)) * 1024;
                    }
                    if (line.isBlank()) {
                        summaryCategory = null;
                    }
                }
                continue;
            }
            Matcher r = REGION.matcher(line);
            if (r.find()) {
                category = r.group(3).trim();
                regions.add(new Range(Long.parseUnsignedLong(r.group(1), 16), Long.parseUnsignedLong(r.group(2), 16),
                        category));
                continue;
            }
            Matcher c = COMMITTED.matcher(line);
            if (c.find() && category != null) {
                committed.merge(category, Long.parseLong(c.group(3)) * 1024, Long::sum);
            }
        }
        return new Nmt(regions, committed, summary);
    }

    /** glibc's malloc_info totals (the last of each kind: the whole allocator, after the per-arena ones). */
    record MallocInfo(int arenas, long mmapCount, long mmapBytes, long systemCurrent, long freeBytes) {}

    private static final Pattern MMAP_TOTAL = Pattern.compile("<total type=\"mmap\" count=\"(\\d+)\" size=\"(\\d+)\"/>");
    private static final Pattern SYSTEM = Pattern.compile("<system type=\"current\" size=\"(\\d+)\"/>");
    private static final Pattern FREE = Pattern.compile("<total type=\"(?:fast|rest)\" count=\"\\d+\" size=\"(\\d+)\"/>");

    static MallocInfo mallocInfo(String text) {
        if (text == null || !text.contains("<malloc")) {
            return null;
        }
        int arenas = 0;
        for (int i = text.indexOf("<heap nr="); i >= 0; i = text.indexOf("<heap nr=", i + 1)) {
            arenas++;
        }
        String tail = text.substring(text.lastIndexOf("</heap>") + "</heap>".length());
        Matcher m = MMAP_TOTAL.matcher(tail);
        long count = 0;
        long size = 0;
        if (m.find()) {
            count = Long.parseLong(m.group(1));
            size = Long.parseLong(m.group(2));
        }
        Matcher s = SYSTEM.matcher(tail);
        long system = s.find() ? Long.parseLong(s.group(1)) : 0;
        long free = 0;
        Matcher f = FREE.matcher(tail);
        while (f.find()) {
            free += Long.parseLong(f.group(1));
        }
        return new MallocInfo(arenas, count, size, system, free);
    }
}
