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

import dev.offheap.cli.inspect.Attribution.Part;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hand-made samples for the report tests. Their figures are chosen for round shares of RSS (500 MiB), not computed
 * by {@link Attribution}: the reports only print what a sample holds.
 */
final class ReportSamples {
    static final long KIB = 1L << 10;
    static final long MIB = 1L << 20;
    static final long GIB = 1L << 30;
    /** Above Linux's largest pid_max (2^22): never a live process, so the table's header names it "?". */
    static final long PID = 4_194_305;

    private ReportSamples() {}

    /**
     * A JVM with NMT, malloc statistics and offheap's MBeans, the second look in watch mode: 9.5 s after
     * {@link #previous()}, RSS 20 MiB more.
     */
    static Sample now() {
        Map<MappingKind, Long> byKind = byKind(Map.ofEntries(Map.entry(MappingKind.JAVA_HEAP, 250 * MIB),
                Map.entry(MappingKind.CODE_CACHE, 15 * MIB), Map.entry(MappingKind.THREAD_STACK, 5 * MIB),
                Map.entry(MappingKind.NATIVE_HEAP, 30 * MIB), Map.entry(MappingKind.ANONYMOUS, 100 * MIB),
                Map.entry(MappingKind.PROGRAM_FILE, 50 * MIB - 8 * KIB), Map.entry(MappingKind.DATA_FILE, 25 * MIB),
                Map.entry(MappingKind.SHARED_MEMORY, 25 * MIB), Map.entry(MappingKind.KERNEL, 8 * KIB)));
        ProcessMemory memory = new ProcessMemory(500 * MIB, 400 * MIB, 75 * MIB, 25 * MIB, 30 * MIB, byKind, Map.of("offheap", 60 * MIB),
                Map.of("BufferPool/http \"edge\"", 60 * MIB), 321,
                List.of(new NativeAllocator("jemalloc", "/opt/app/libengine.so", true)));
        JvmAreas jvm = new JvmAreas("OpenJDK 64-Bit Server VM 25+36-LTS", 4, "/opt/jdk", 120 * MIB, 256 * MIB, GIB,
                21 * MIB, 19 * MIB, 16 * MIB, 31, 512 * MIB, "summary");
        BufferPools buffers = new BufferPools(new BufferPools.Usage(12, 3 * MIB, 3 * MIB + 512 * KIB),
                new BufferPools.Usage(2, 24 * MIB, 24 * MIB + 4 * KIB), new BufferPools.Churn(1000, 3, 1, 3 * MIB, MIB));
        Map<String, NmtSummary.Category> categories = new LinkedHashMap<>();
        categories.put("Java Heap", new NmtSummary.Category(256 * MIB, 256 * MIB, 0, 0));
        categories.put("Class", new NmtSummary.Category(5 * MIB, 4 * MIB, 0, 512 * KIB));
        categories.put("Thread", new NmtSummary.Category(6 * MIB, 0, 5 * MIB, MIB));
        categories.put("GC", new NmtSummary.Category(12 * MIB, 10 * MIB, 0, 2 * MIB));
        categories.put("Internal", new NmtSummary.Category(5 * MIB, 5 * MIB, 0, 0));
        categories.put("Metaspace", new NmtSummary.Category(16 * MIB, 16 * MIB, 0, 0));
        NativeReports reports = new NativeReports(List.of(), List.of(), new NmtSummary(categories), VmMap.EMPTY,
                new MallocInfo(3, 40 * MIB, 10 * MIB, 8 * MIB, 5, 2 * MIB, 3 * MIB), null);
        List<OffheapBean> offheap = List.of(
                new OffheapBean("BufferPool", "http \"edge\"", numbers("BytesFromOs", 60 * MIB, "BytesInUse", 40 * MIB,
                        "BytesCached", 20 * MIB, "PeakBytes", 64 * MIB, "LimitBytes", Long.MAX_VALUE, "Leaks", 0,
                        "ThreadCacheHitRate", 0.99999), null, new long[] {0x7f0000000000L, 0x7f0004000000L}),
                new OffheapBean("ChunkPool", "cache", numbers("BytesFromOs", 0, "BytesInUse", 0, "BytesCached", 0,
                        "PeakBytes", 0, "LimitBytes", 256 * MIB, "Leaks", 2), null),
                new OffheapBean("MemoryBudget", "root", numbers("UsedBytes", 100 * MIB, "PeakBytes", 120 * MIB,
                        "LimitBytes", GIB), "/app/cache"),
                new OffheapBean("MemoryBudget", "spill", numbers("UsedBytes", 0, "PeakBytes", KIB, "LimitBytes", -1), null));
        Attribution attribution = new Attribution(500 * MIB, List.of(
                new Part("heap", "Java heap", 250 * MIB, true, -1, "smaps in the heap's range"),
                new Part("codeCache", "code cache", 15 * MIB, true, -1, "smaps in the code heaps"),
                new Part("programFiles", "program files", 50 * MIB, true, -1, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 25 * MIB, true, -1, "smaps, other files"),
                new Part("threadStacks", "thread stacks", 5 * MIB, true, -1, "smaps, guard-page layout"),
                new Part("metaspace", "metaspace", 20 * MIB, true, -1, "NMT Class + Metaspace mmap committed"),
                new Part("gc", "GC structures", 10 * MIB, true, -1, "NMT GC mmap committed"),
                new Part("otherJvm", "other JVM mappings", 5 * MIB, true, -1, "NMT other categories' mmap committed"),
                new Part("offheap", "offheap pools", 60 * MIB, true, -1, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 35 * MIB, false, 45 * MIB, "malloc_info, held less top chunks")),
                25 * MIB);
        return new Sample(PID, Instant.parse("2025-03-04T05:06:07Z"), memory, jvm, Optional.of(buffers), reports,
                Optional.of(offheap), attribution, new ContainerMemory.Result(null, "not read"), null,
                Optional.of(new VirtualThreads(100_000, 186_316_864)));
    }

    /** The look before {@link #now()}: RSS 480 MiB, 8 direct buffers, no GC part; heap, malloc and unexplained differ. */
    static Sample previous() {
        Sample now = now();
        ProcessMemory memory = new ProcessMemory(480 * MIB, 380 * MIB, 75 * MIB, 25 * MIB, 30 * MIB,
                now.memory().byKind(), Map.of(), Map.of(), 320, List.of());
        BufferPools buffers = new BufferPools(new BufferPools.Usage(8, 2 * MIB, 2 * MIB),
                now.buffers().orElseThrow().mapped(), BufferPools.Churn.NONE);
        Attribution attribution = new Attribution(480 * MIB, List.of(
                new Part("heap", "Java heap", 240 * MIB, true, -1, "smaps in the heap's range"),
                new Part("codeCache", "code cache", 15 * MIB, true, -1, "smaps in the code heaps"),
                new Part("programFiles", "program files", 50 * MIB, true, -1, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 25 * MIB, true, -1, "smaps, other files"),
                new Part("threadStacks", "thread stacks", 5 * MIB, true, -1, "smaps, guard-page layout"),
                new Part("metaspace", "metaspace", 20 * MIB, true, -1, "NMT Class + Metaspace mmap committed"),
                new Part("otherJvm", "other JVM mappings", 5 * MIB, true, -1, "NMT other categories' mmap committed"),
                new Part("offheap", "offheap pools", 60 * MIB, true, -1, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 40 * MIB, true, -1, "malloc_info, held less top chunks")),
                20 * MIB);
        return new Sample(PID, Instant.parse("2025-03-04T05:05:57.500Z"), memory, now.jvm(), Optional.of(buffers),
                now.reports(), now.offheap(), attribution);
    }

    /**
     * A first look without JMX (so no buffer pools and no offheap MBeans, and no offheap part) at a JVM without NMT
     * and without malloc statistics: its heap range unknown, so the heap claimed its committed bytes from 16 MiB of
     * anonymous memory.
     */
    static Sample bare() {
        Map<MappingKind, Long> byKind = byKind(Map.of(MappingKind.ANONYMOUS, 16 * MIB, MappingKind.PROGRAM_FILE, 32 * MIB,
                MappingKind.DATA_FILE, 16 * MIB));
        ProcessMemory memory = new ProcessMemory(64 * MIB, 16 * MIB, 48 * MIB, 0, 0, byKind, Map.of(), Map.of(), 7, List.of());
        JvmAreas jvm = new JvmAreas("VM", 1, "", MIB, 32 * MIB, -1, 4 * MIB, 3 * MIB, 2 * MIB, 9, 0, "off");
        NativeReports reports = new NativeReports(List.of(), List.of(), null, VmMap.EMPTY, null,
                "System.native_heap_info said: \"no\"");
        Attribution attribution = new Attribution(64 * MIB, List.of(
                new Part("heap", "Java heap", 16 * MIB, false, 32 * MIB, "GC.heap_info committed"),
                new Part("codeCache", "code cache", 0, false, 2 * MIB, "Compiler.codecache committed"),
                new Part("programFiles", "program files", 32 * MIB, true, -1, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 16 * MIB, true, -1, "smaps, other files"),
                new Part("threadStacks", "thread stacks", 0, true, -1, "smaps, guard-page layout"),
                new Part("metaspace", "metaspace", 0, false, 4 * MIB, "metaspace committed"),
                new Part("malloc", "malloc (glibc)", 0, true, -1, "smaps, the brk heap and arena heaps")), 0);
        return new Sample(PID, Instant.parse("2025-03-04T05:06:07Z"), memory, jvm, Optional.empty(), reports,
                Optional.empty(), attribution);
    }

    private static Map<MappingKind, Long> byKind(Map<MappingKind, Long> resident) {
        Map<MappingKind, Long> byKind = new EnumMap<>(MappingKind.class);
        for (MappingKind kind : MappingKind.values()) {
            byKind.put(kind, resident.getOrDefault(kind, 0L));
        }
        return byKind;
    }

    /** Attribute names and values, in this order. */
    private static Map<String, Number> numbers(Object... namesAndValues) {
        Map<String, Number> numbers = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            numbers.put((String) namesAndValues[i], (Number) namesAndValues[i + 1]);
        }
        return numbers;
    }
}
