package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Every finding on hand-made figures: it fires with exactly this text when its figures cross the line, and stays
 * quiet just below the line and on a healthy sample. Each sample is healthy except for what the test changes, so
 * the finding under test is the only one in the list.
 */
class FindingsTest {
    private static final long KIB = 1L << 10;
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;
    private static final Instant T0 = Instant.parse("2025-03-04T05:06:07Z");

    @Test
    void aHealthySampleHasNoFinding() {
        assertThat(Findings.of(null, new Figures().sample())).isEmpty();
    }

    @Test
    void aHealthySampleAfterAnotherHasNoFinding() {
        Figures before = new Figures();
        Figures now = new Figures();
        now.time = T0.plusSeconds(5);
        now.direct = new BufferPools.Usage(29, 3 * MIB, 3 * MIB);

        assertThat(Findings.of(before.sample(), now.sample())).isEmpty();
    }

    @Nested
    class DirectBufferChurn {
        @Test
        void twentyBuffersCreatedOrFreedPerSecondAreChurn() {
            Figures f = new Figures();
            f.churn = new BufferPools.Churn(1000, 12, 8, 12 * MIB, 8 * MIB);

            assertThat(Findings.of(null, f.sample())).containsExactly("Direct buffer churn: over 1000 ms at least 12"
                    + " direct buffers (12.0 MiB) per second were created and 8 (8.0 MiB) freed. Each is freed by the GC's Cleaner"
                    + " after a collection, so allocation and GC pauses feed each other (seed 000). Reuse buffers: keep"
                    + " them, or lease them from a pool such as offheap's BufferPool.");
        }

        @Test
        void buffersOnlyFreedCountToo() {
            Figures f = new Figures();
            f.churn = new BufferPools.Churn(1050, 0, 20, 0, 20 * KIB);

            assertThat(Findings.of(null, f.sample())).containsExactly("Direct buffer churn: over 1050 ms at least 0"
                    + " direct buffers (0 B) per second were created and 20 (20.0 KiB) freed. Each is freed by the GC's Cleaner"
                    + " after a collection, so allocation and GC pauses feed each other (seed 000). Reuse buffers: keep"
                    + " them, or lease them from a pool such as offheap's BufferPool.");
        }

        @Test
        void nineteenAreNot() {
            Figures f = new Figures();
            f.churn = new BufferPools.Churn(1000, 12, 7, 12 * MIB, 7 * MIB);

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }

        @Test
        void withoutJmxNothingIsSaidOfDirectBuffers() {
            Figures before = new Figures();
            before.jmx = false;
            Figures now = new Figures();
            now.jmx = false;
            now.time = T0.plusSeconds(5);

            assertThat(Findings.of(before.sample(), now.sample())).isEmpty();
        }
    }

    @Nested
    class DirectBufferCountChange {
        @Test
        void twentyMoreBuffersSinceThePreviousSampleAreReported() {
            Figures before = new Figures();
            before.direct = new BufferPools.Usage(10, MIB, MIB);
            Figures now = new Figures();
            now.time = T0.plusSeconds(5);
            now.direct = new BufferPools.Usage(30, 3 * MIB, 3 * MIB);

            assertThat(Findings.of(before.sample(), now.sample()))
                    .containsExactly("Direct buffers went from 10 (1.0 MiB) to 30 (3.0 MiB) in 5 s.");
        }

        @Test
        void twentyFewerAreReportedToo() {
            Figures before = new Figures();
            before.direct = new BufferPools.Usage(30, 3 * MIB, 3 * MIB);
            Figures now = new Figures();
            now.time = T0.plusMillis(2_900);
            now.direct = new BufferPools.Usage(10, MIB, MIB);

            assertThat(Findings.of(before.sample(), now.sample()))
                    .containsExactly("Direct buffers went from 30 (3.0 MiB) to 10 (1.0 MiB) in 2 s.");
        }

        @Test
        void lessThanASecondApartReadsOneSecond() {
            Figures before = new Figures();
            before.direct = new BufferPools.Usage(0, 0, 0);
            Figures now = new Figures();
            now.time = T0.plusMillis(400);
            now.direct = new BufferPools.Usage(20, 20 * KIB, 20 * KIB);

            assertThat(Findings.of(before.sample(), now.sample()))
                    .containsExactly("Direct buffers went from 0 (0 B) to 20 (20.0 KiB) in 1 s.");
        }

        @Test
        void nineteenMoreOrFewerAreNot() {
            Figures before = new Figures();
            before.direct = new BufferPools.Usage(20, MIB, MIB);
            Figures more = new Figures();
            more.time = T0.plusSeconds(5);
            more.direct = new BufferPools.Usage(39, 2 * MIB, 2 * MIB);
            Figures fewer = new Figures();
            fewer.time = T0.plusSeconds(5);
            fewer.direct = new BufferPools.Usage(1, KIB, KIB);

            assertThat(Findings.of(before.sample(), more.sample())).isEmpty();
            assertThat(Findings.of(before.sample(), fewer.sample())).isEmpty();
        }

        @Test
        void withoutAPreviousSampleThereIsNoChange() {
            Figures now = new Figures();
            now.direct = new BufferPools.Usage(500, 500 * MIB, 500 * MIB);

            assertThat(Findings.of(null, now.sample())).isEmpty();
        }
    }

    @Nested
    class MallocFragmentation {
        private static final String TEXT = "High malloc fragmentation: glibc holds %s free between chunks in use that it"
                + " cannot give back (%s %% of the memory it cannot return, seed 002's measure). Remedies:"
                + " MALLOC_ARENA_MAX=2; jemalloc (package libjemalloc2, LD_PRELOAD=/usr/lib/x86_64-linux-gnu/"
                + "libjemalloc.so.2), which bounds fragmentation; `jcmd 4242 System.trim_native_heap` returns free"
                + " pages now, -XX:TrimNativeHeapInterval=60000 every minute.";

        @Test
        void halfOfWhatCannotBeReturnedFreeAndAtLeast32MiBIsHigh() {
            Figures f = new Figures();
            // (free - keepcost) / (system - keepcost) = (97 - 1) / (129 - 1) = 0.75; stuck 96 MiB
            f.malloc = new MallocInfo(2, 129 * MIB, 97 * MIB, 0, 0, MIB, 3 * MIB);

            assertThat(Findings.of(null, f.sample())).containsExactly(TEXT.formatted("96.0 MiB", "75"));
        }

        @Test
        void exactlyHalfAndExactly32MiBIsHigh() {
            Figures f = new Figures();
            // (33 - 1) / (65 - 1) = 0.5; stuck 32 MiB
            f.malloc = new MallocInfo(2, 65 * MIB, 33 * MIB, 0, 0, MIB, MIB);

            assertThat(Findings.of(null, f.sample())).containsExactly(TEXT.formatted("32.0 MiB", "50"));
        }

        @Test
        void oneByteLessStuckIsNot() {
            Figures f = new Figures();
            // stuck = 33 MiB - 1 - 1 MiB = 32 MiB - 1; fragmentation (32 MiB - 1) / (64 MiB - 2) = 0.5
            f.malloc = new MallocInfo(2, 65 * MIB - 2, 33 * MIB - 1, 0, 0, MIB, MIB);

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }

        @Test
        void justBelowHalfIsNot() {
            Figures f = new Figures();
            // (64 MiB) / (128 MiB + 1) < 0.5, stuck 64 MiB
            f.malloc = new MallocInfo(2, 128 * MIB + 1, 64 * MIB, 0, 0, 0, 0);

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }
    }

    @Nested
    class MallocArenas {
        @Test
        void moreThanFourArenasPerProcessorAreMany() {
            Figures f = new Figures();
            f.malloc = new MallocInfo(17, 64 * MIB, 4 * MIB, 8 * MIB, 3, MIB, 2 * MIB);

            assertThat(Findings.of(null, f.sample())).containsExactly("Many malloc arenas: 17 for 4 processors (glibc"
                    + " allows 8 per core); each keeps its own free memory (4.0 MiB free in all). MALLOC_ARENA_MAX=2"
                    + " (or 4) caps them.");
        }

        @Test
        void fourPerProcessorAreNot() {
            Figures f = new Figures();
            f.malloc = new MallocInfo(16, 64 * MIB, 4 * MIB, 8 * MIB, 3, MIB, 2 * MIB);

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }

        @Test
        void noProcessorCountsAsOne() {
            Figures many = new Figures();
            many.cpus = 0;
            many.malloc = new MallocInfo(5, 64 * MIB, 4 * MIB, 8 * MIB, 3, MIB, 2 * MIB);
            Figures few = new Figures();
            few.cpus = 0;
            few.malloc = new MallocInfo(4, 64 * MIB, 4 * MIB, 8 * MIB, 3, MIB, 2 * MIB);

            assertThat(Findings.of(null, many.sample())).containsExactly("Many malloc arenas: 5 for 1 processors"
                    + " (glibc allows 8 per core); each keeps its own free memory (4.0 MiB free in all)."
                    + " MALLOC_ARENA_MAX=2 (or 4) caps them.");
            assertThat(Findings.of(null, few.sample())).isEmpty();
        }
    }

    @Nested
    class DirectMemoryLimit {
        @Test
        void noMaxDirectMemorySizeMeansTheMaxHeap() {
            Figures f = new Figures();
            f.maxDirect = 0;

            assertThat(Findings.of(null, f.sample())).containsExactly("Direct memory has no limit of its own"
                    + " (-XX:MaxDirectMemorySize is not set): direct buffers may take up to 1.0 GiB (the maximum heap)"
                    + " on top of the heap. Set -XX:MaxDirectMemorySize. Memory from FFM arenas other than"
                    + " Arena.ofAuto() is never limited by it.");
        }

        @Test
        void anUnknownMaxHeapIsNamedOnce() {
            Figures unknown = new Figures();
            unknown.maxDirect = 0;
            unknown.heapMax = -1;
            Figures zero = new Figures();
            zero.maxDirect = 0;
            zero.heapMax = 0;
            String text = "Direct memory has no limit of its own (-XX:MaxDirectMemorySize is not set): direct buffers"
                    + " may take up to the maximum heap on top of the heap. Set -XX:MaxDirectMemorySize. Memory from"
                    + " FFM arenas other than Arena.ofAuto() is never limited by it.";

            assertThat(Findings.of(null, unknown.sample())).containsExactly(text);
            assertThat(Findings.of(null, zero.sample())).containsExactly(text);
        }

        @Test
        void aLimitIsQuiet() {
            Figures f = new Figures();
            f.maxDirect = 1;

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }
    }

    @Nested
    class HeapShare {
        private static final String TEXT = "The Java heap is only %s of %s resident (%s %%): most of this process's"
                + " memory is outside the heap; the parts above say where (seed 002's service showed a 2.5 GB heap"
                + " in a 6 GB process).";

        @Test
        void aHeapUnderHalfOfRssAndAtLeast128MiBOutsideIsReported() {
            Figures f = new Figures();
            f.heap = 100 * MIB;

            assertThat(Findings.of(null, f.sample())).containsExactly(TEXT.formatted("100.0 MiB", "400.0 MiB", "25"));
        }

        @Test
        void exactly128MiBOutsideIsReported() {
            Figures f = new Figures();
            f.rss = 200 * MIB;
            f.heap = 72 * MIB;
            f.unexplained = 0;

            assertThat(Findings.of(null, f.sample())).containsExactly(TEXT.formatted("72.0 MiB", "200.0 MiB", "36"));
        }

        @Test
        void oneByteLessOutsideIsNot() {
            Figures f = new Figures();
            f.rss = 200 * MIB;
            f.heap = 72 * MIB + 1;
            f.unexplained = 0;

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }

        @Test
        void halfOfRssIsNot() {
            Figures f = new Figures();
            f.heap = 200 * MIB;

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }

        @Test
        void noRssIsNot() {
            Figures f = new Figures();
            f.rss = 0;
            f.heap = 0;
            f.unexplained = 0;

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }
    }

    @Nested
    class OffheapLeaks {
        @Test
        void everyPoolThatLeakedIsNamed() {
            Figures f = new Figures();
            f.offheap = List.of(bean("BufferPool", "http", Map.of("BytesFromOs", MIB, "Leaks", 3L)),
                    bean("ChunkPool", "cache", Map.of("Leaks", 0L)),
                    bean("ChunkPool", "spill", Map.of("Leaks", 1L)));

            assertThat(Findings.of(null, f.sample())).containsExactly(
                    "offheap BufferPool 'http' reported 3 leaked buffer(s): see the LEAK: warnings in its log for the"
                            + " acquiring stacks.",
                    "offheap ChunkPool 'spill' reported 1 leaked buffer(s): see the LEAK: warnings in its log for the"
                            + " acquiring stacks.");
        }

        @Test
        void noLeaksOrNoLeakFigureIsQuiet() {
            Figures f = new Figures();
            f.offheap = List.of(bean("BufferPool", "http", Map.of("Leaks", 0L)),
                    bean("MemoryBudget", "root", Map.of("UsedBytes", MIB)));

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }
    }

    @Nested
    class BlindSpots {
        @Test
        void anotherAllocatorIsNamed() {
            Figures f = new Figures();
            f.otherAllocator = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2";

            assertThat(Findings.of(null, f.sample())).containsExactly("The target maps"
                    + " /usr/lib/x86_64-linux-gnu/libjemalloc.so.2: malloc's figures are glibc's only, and what that"
                    + " allocator holds counts as unexplained.");
        }

        @Test
        void missingMallocStatisticsSayWhy() {
            Figures f = new Figures();
            f.malloc = null;
            f.mallocProblem = "the target has no System.native_heap_info command (it needs JDK 17+ on Linux)";

            assertThat(Findings.of(null, f.sample())).containsExactly("malloc statistics unavailable: the target has"
                    + " no System.native_heap_info command (it needs JDK 17+ on Linux)");
        }

        @Test
        void nmtOffIsNamed() {
            Figures f = new Figures();
            f.nmtMode = "off";

            assertThat(Findings.of(null, f.sample())).containsExactly("NMT is off, so GC structures and the JVM's"
                    + " smaller mappings count as unexplained. Restart the JVM with -XX:NativeMemoryTracking=summary to"
                    + " see them (it cannot be switched on in a running JVM; it costs a little memory and speed).");
        }

        @Test
        void nmtInDetailIsOn() {
            Figures f = new Figures();
            f.nmtMode = "detail";

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }

        @Test
        void tenPercentUnexplainedIsReported() {
            Figures f = new Figures();
            f.unexplained = 40 * MIB;

            assertThat(Findings.of(null, f.sample())).containsExactly("40.0 MiB (10 % of RSS) is unexplained: memory"
                    + " mapped by native code outside malloc, another allocator, or (without NMT) the JVM's own"
                    + " structures.");
        }

        @Test
        void justUnderTenPercentIsNot() {
            Figures f = new Figures();
            f.unexplained = 40 * MIB - 1;

            assertThat(Findings.of(null, f.sample())).isEmpty();
        }
    }

    @Test
    void aSickSampleListsItsFindingsInReportOrder() {
        Figures before = new Figures();
        Figures now = new Figures();
        now.time = T0.plusSeconds(10);
        now.churn = new BufferPools.Churn(1000, 20, 0, 20 * MIB, 0);
        now.direct = new BufferPools.Usage(40, 20 * MIB, 20 * MIB);
        now.malloc = new MallocInfo(17, 129 * MIB, 97 * MIB, 0, 0, MIB, 3 * MIB);
        now.maxDirect = 0;
        now.heapMax = -1;
        now.heap = 100 * MIB;
        now.offheap = List.of(bean("BufferPool", "http", Map.of("Leaks", 2L)));
        now.otherAllocator = "/usr/lib/libtcmalloc.so.4";
        now.nmtMode = "off";
        now.unexplained = 200 * MIB;

        assertThat(Findings.of(before.sample(), now.sample())).extracting(s -> s.substring(0, 24)).containsExactly(
                "Direct buffer churn: ove",
                "Direct buffers went from",
                "High malloc fragmentatio",
                "Many malloc arenas: 17 f",
                "Direct memory has no lim",
                "The Java heap is only 10",
                "offheap BufferPool 'http",
                "The target maps /usr/lib",
                "NMT is off, so GC struct",
                "200.0 MiB (50 % of RSS) ");
    }

    static OffheapBean bean(String type, String name, Map<String, Long> numbers) {
        return new OffheapBean(type, name, numbers, null);
    }

    /** A healthy sample's figures; each test changes a few. RSS is heap, malloc and unexplained. */
    static final class Figures {
        Instant time = T0;
        long rss = 400 * MIB;
        long heap = 300 * MIB;
        long unexplained = 20 * MIB;
        String otherAllocator;
        int cpus = 4;
        long heapMax = GIB;
        long maxDirect = 256 * MIB;
        String nmtMode = "summary";
        BufferPools.Usage direct = new BufferPools.Usage(10, MIB, MIB);
        BufferPools.Churn churn = new BufferPools.Churn(1000, 10, 9, 10 * MIB, 9 * MIB);
        // fragmentation (4 - 1) / (64 - 1), 2 arenas for 4 processors
        MallocInfo malloc = new MallocInfo(2, 64 * MIB, 4 * MIB, 8 * MIB, 3, MIB, 2 * MIB);
        String mallocProblem;
        List<OffheapBean> offheap = List.of(bean("BufferPool", "http", Map.of("BytesFromOs", 8 * MIB, "Leaks", 0L)));
        /** Whether buffer pools and offheap's MBeans were read (over JMX). */
        boolean jmx = true;

        Sample sample() {
            ProcessMemory memory = new ProcessMemory(rss, rss, 0, 0, 0, new EnumMap<>(MappingKind.class), 100,
                    otherAllocator);
            JvmAreas jvm = new JvmAreas("OpenJDK 64-Bit Server VM 25", cpus, "/opt/jdk", 100 * MIB, 300 * MIB, heapMax,
                    20 * MIB, 18 * MIB, 10 * MIB, 20, maxDirect, nmtMode);
            NativeReports reports = new NativeReports(List.of(), List.of(), null, VmMap.EMPTY, malloc, mallocProblem);
            List<Attribution.Part> parts = new ArrayList<>();
            parts.add(new Attribution.Part("heap", "Java heap", heap, heap, "smaps in the heap's range"));
            long malloced = rss - heap - unexplained;
            parts.add(new Attribution.Part("malloc", "malloc (glibc)", malloced, malloced, "malloc_info"));
            return new Sample(4242, time, memory, jvm,
                    jmx ? Optional.of(new BufferPools(direct, BufferPools.Usage.NONE, churn)) : Optional.empty(), reports,
                    jmx ? Optional.of(offheap) : Optional.empty(), new Attribution(rss, parts, unexplained));
        }
    }
}
