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

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code inspect --json} for hand-made samples, parsed back and compared field by field, in order: every value, the
 * nesting, what is left out when a figure is missing, and the exact text of fractions and large numbers.
 */
class JsonReportTest {

    @Test
    void aSampleInWatchModeHasEveryFigureAndItsChange() {
        String text = JsonReport.of(ReportSamples.previous(), ReportSamples.now(),
                List.of(Finding.warning("first-id", "first"), Finding.critical("second-id", "with \"quotes\"\nand a newline")));

        Map<String, Object> expected = obj(
                "version", 3, "pid", 4_194_305, "time", "2025-03-04T05:06:07Z", "vm", "OpenJDK 64-Bit Server VM 25+36-LTS",
                "rss", 524_288_000, "heap", 262_144_000, "direct", 3_670_016, "mapped", 26_214_400,
                "malloc", 36_700_160, "offheap", 62_914_560, "unexplained", 26_214_400, "unexplainedShare", 0.05,
                "details", obj(
                        "rss", obj("anonymous", 419_430_400, "fileBacked", 78_643_200, "sharedMemory", 26_214_400,
                                "sharedWithOthers", 31_457_280, "mappings", 321,
                                "byKind", obj("javaHeap", 262_144_000, "codeCache", 15_728_640, "threadStack", 5_242_880,
                                        "nativeHeap", 31_457_280, "mallocArena", 0,
                                        "anonymous", 104_857_600, "programFile", 52_420_608, "dataFile", 26_214_400,
                                        "sharedMemory", 26_214_400, "kernel", 8192)),
                        "heap", obj("resident", 262_144_000, "committed", 268_435_456, "used", 125_829_120,
                                "max", 1_073_741_824),
                        "jvm", obj("nmt", "summary", "threads", 31, "threadStacks", 5_242_880, "metaspace", 20_971_520,
                                "metaspaceCommitted", 22_020_096, "metaspaceUsed", 19_922_944, "codeCache", 15_728_640,
                                "codeCacheCommitted", 16_777_216, "gcTablesEstimate", null,
                                "virtualThreads", 100_000, "virtualThreadStacks", 186_316_864, "gc", 10_485_760, "otherJvm", 5_242_880,
                                "nmtMalloc", 3_670_016,
                                "nmtCategories", obj(
                                        "Java Heap", obj("committed", 268_435_456, "mmap", 268_435_456, "stack", 0, "malloc", 0),
                                        "Class", obj("committed", 5_242_880, "mmap", 4_194_304, "stack", 0, "malloc", 524_288),
                                        "Thread", obj("committed", 6_291_456, "mmap", 0, "stack", 5_242_880, "malloc", 1_048_576),
                                        "GC", obj("committed", 12_582_912, "mmap", 10_485_760, "stack", 0, "malloc", 2_097_152),
                                        "Internal", obj("committed", 5_242_880, "mmap", 5_242_880, "stack", 0, "malloc", 0),
                                        "Metaspace", obj("committed", 16_777_216, "mmap", 16_777_216, "stack", 0, "malloc", 0))),
                        "direct", obj("count", 12, "capacity", 3_145_728, "memoryUsed", 3_670_016,
                                "churn", obj("windowMillis", 1000, "createdPerSecond", 3.0, "freedPerSecond", 1.0,
                                        "bytesCreatedPerSecond", 3_145_728.0, "bytesFreedPerSecond", 1_048_576.0),
                                "maxDirectMemorySize", 536_870_912),
                        "mapped", obj("count", 2, "capacity", 25_165_824, "memoryUsed", 25_169_920, "resident", 26_214_400),
                        "malloc", obj("resident", 36_700_160, "inUse", 39_845_888, "free", 10_485_760,
                                "topChunks", 3_145_728, "keepcost", 2_097_152, "arenas", 3, "system", 41_943_040,
                                "mmapped", 8_388_608, "mmappedChunks", 5, "fragmentation", 0.21052631578947367),
                        "offheap", arr(
                                obj("type", "BufferPool", "name", "http \"edge\"", "resident", 62_914_560,
                                        "reserved", 67_108_864, "ranges", 1, "BytesFromOs", 62_914_560,
                                        "BytesInUse", 41_943_040, "BytesCached", 20_971_520, "PeakBytes", 67_108_864,
                                        "LimitBytes", Long.MAX_VALUE, "Leaks", 0, "ThreadCacheHitRate", 0.99999),
                                obj("type", "ChunkPool", "name", "cache", "resident", 0, "reserved", 0, "ranges", 0,
                                        "BytesFromOs", 0, "BytesInUse", 0,
                                        "BytesCached", 0, "PeakBytes", 0, "LimitBytes", 268_435_456, "Leaks", 2),
                                obj("type", "MemoryBudget", "name", "root", "path", "/app/cache", "UsedBytes", 104_857_600,
                                        "PeakBytes", 125_829_120, "LimitBytes", 1_073_741_824),
                                obj("type", "MemoryBudget", "name", "spill", "UsedBytes", 0, "PeakBytes", 1024,
                                        "LimitBytes", -1))),
                "attribution", arr(
                        part("heap", 262_144_000, -1, "smaps in the heap's range"),
                        part("codeCache", 15_728_640, -1, "smaps in the code heaps"),
                        part("programFiles", 52_428_800, -1, "smaps, libraries and jars"),
                        part("mapped", 26_214_400, -1, "smaps, other files"),
                        part("threadStacks", 5_242_880, -1, "smaps, guard-page layout"),
                        part("metaspace", 20_971_520, -1, "NMT Class + Metaspace mmap committed"),
                        part("gc", 10_485_760, -1, "NMT GC mmap committed"),
                        part("otherJvm", 5_242_880, -1, "NMT other categories' mmap committed"),
                        part("offheap", 62_914_560, -1, "dev.offheap MBeans BytesFromOs"),
                        part("malloc", 36_700_160, 47_185_920, "malloc_info, held less top chunks")),
                "caches", arr(),
                "allocators", arr(obj("name", "jemalloc", "library", "/opt/app/libengine.so", "linkedIn", true)),
                "findings", arr(obj("id", "first-id", "severity", "warning", "text", "first"),
                        obj("id", "second-id", "severity", "critical", "text", "with \"quotes\"\nand a newline")),
                "delta", obj("millis", 9500, "rss", 20_971_520, "heap", 10_485_760, "direct", 1_572_864, "mapped", 0,
                        "malloc", -5_242_880, "offheap", 0, "unexplained", 5_242_880, "directCount", 4));

        Object json = MiniJson.parse(text);

        assertThat(json).isEqualTo(expected);
        assertThat(keys(json)).isEqualTo(keys(expected));
        assertThat(text).doesNotContain("\n").contains("\"unexplainedShare\":0.05,",
                "\"fragmentation\":0.21052631578947367}", "\"ThreadCacheHitRate\":0.99999}", "\"millis\":9500,",
                "\"LimitBytes\":9223372036854775807,", "\"name\":\"http \\\"edge\\\"\"",
                "\"with \\\"quotes\\\"\\nand a newline\"");
    }

    @Test
    void aFirstLookAtABareJvmLeavesOutWhatItDoesNotKnow() {
        String text = JsonReport.of(null, ReportSamples.bare(), List.of());

        Map<String, Object> expected = obj(
                "version", 3, "pid", 4_194_305, "time", "2025-03-04T05:06:07Z", "vm", "VM",
                "rss", 67_108_864, "heap", 16_777_216, "direct", null, "mapped", 16_777_216, "malloc", 0, "offheap", null,
                "unexplained", 0, "unexplainedShare", 0.0,
                "details", obj(
                        "rss", obj("anonymous", 16_777_216, "fileBacked", 50_331_648, "sharedMemory", 0,
                                "sharedWithOthers", 0, "mappings", 7,
                                "byKind", obj("javaHeap", 0, "codeCache", 0, "threadStack", 0, "nativeHeap", 0,
                                        "mallocArena", 0, "anonymous", 16_777_216, "programFile", 33_554_432,
                                        "dataFile", 16_777_216, "sharedMemory", 0, "kernel", 0)),
                        "heap", obj("resident", 16_777_216, "committed", 33_554_432, "used", 1_048_576, "max", null),
                        "jvm", obj("nmt", "off", "threads", 9, "threadStacks", 0, "metaspace", 0,
                                "metaspaceCommitted", 4_194_304, "metaspaceUsed", 3_145_728, "codeCache", 0,
                                "codeCacheCommitted", 2_097_152, "gcTablesEstimate", null,
                                "virtualThreads", null, "virtualThreadStacks", null),
                        "direct", obj("unavailable", Connection.NO_JMX, "maxDirectMemorySize", null),
                        "mapped", obj("unavailable", Connection.NO_JMX, "resident", 16_777_216),
                        "malloc", obj("unavailable", "System.native_heap_info said: \"no\""),
                        "offheap", null),
                "attribution", arr(
                        part("heap", 16_777_216, 33_554_432, "GC.heap_info committed"),
                        part("codeCache", 0, 2_097_152, "Compiler.codecache committed"),
                        part("programFiles", 33_554_432, -1, "smaps, libraries and jars"),
                        part("mapped", 16_777_216, -1, "smaps, other files"),
                        part("threadStacks", 0, -1, "smaps, guard-page layout"),
                        part("metaspace", 0, 4_194_304, "metaspace committed"),
                        part("malloc", 0, -1, "smaps, the brk heap and arena heaps")),
                "caches", arr(),
                "allocators", arr(),
                "findings", arr());

        Object json = MiniJson.parse(text);

        assertThat(json).isEqualTo(expected);
        assertThat(keys(json)).isEqualTo(keys(expected));
        assertThat(text).contains("\"unexplainedShare\":0.0,", "\"max\":null}", "\"bound\":null,");
    }

    /** A JSON object: names and values in order, numbers as MiniJson reads them (doubles). */
    private static Map<String, Object> obj(Object... namesAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            map.put((String) namesAndValues[i], json(namesAndValues[i + 1]));
        }
        return map;
    }

    private static List<Object> arr(Object... values) {
        return new ArrayList<>(Arrays.stream(values).map(JsonReportTest::json).toList());
    }

    private static Map<String, Object> part(String key, long bytes, long bound, String source) {
        return obj("part", key, "bytes", bytes, "exact", bound < 0, "bound", bound < 0 ? null : bound, "source", source);
    }

    private static Object json(Object value) {
        return value instanceof Integer || value instanceof Long ? (Object) ((Number) value).longValue() : value;
    }

    /** The names of every object, nested, in order: what equals on maps does not compare. */
    private static String keys(Object node) {
        if (node instanceof Map<?, ?> map) {
            StringBuilder out = new StringBuilder("{");
            map.forEach((k, v) -> out.append(k).append(keys(v)).append(' '));
            return out.append('}').toString();
        }
        if (node instanceof List<?> list) {
            return list.stream().map(JsonReportTest::keys).toList().toString();
        }
        return "";
    }
}
