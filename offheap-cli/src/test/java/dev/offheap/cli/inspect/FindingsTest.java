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
import static org.assertj.core.api.Assertions.tuple;

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

    /** The findings' texts, in order. */
    static List<String> findings(Sample previous, Sample now) {
        return Findings.of(previous, now).stream().map(Finding::text).toList();
    }

    @Test
    void aHealthySampleHasNoFinding() {
        assertThat(findings(null, new Figures().sample())).isEmpty();
    }

    @Test
    void aHealthySampleAfterAnotherHasNoFinding() {
        Figures before = new Figures();
        Figures now = new Figures();
        now.time = T0.plusSeconds(5);
        now.direct = new BufferPools.Usage(29, 3 * MIB, 3 * MIB);

        assertThat(findings(before.sample(), now.sample())).isEmpty();
    }

    @Nested
    class DirectBufferChurn {
        private static final String TEXT = "Direct buffer churn: at least %s direct buffers a second created (%s/s)"
                + " and %s freed (BufferPoolMXBean 'direct', polled over %d ms). Each is freed by the GC's Cleaner only"
                + " after a collection finds it unreachable, so allocating them and GC pauses feed each other. Reuse"
                + " buffers: keep them, or lease them from a pool such as offheap's BufferPool.";

        @Test
        void aHundredBuffersASecondCreatedOrFreedAreChurn() {
            Figures created = new Figures();
            created.churn = new BufferPools.Churn(2000, 100, 75, 100 * MIB, 75 * MIB);
            Figures freed = new Figures();
            freed.churn = new BufferPools.Churn(500, 0, 100, 0, 100 * KIB);

            assertThat(findings(null, created.sample())).containsExactly(TEXT.formatted("100", "100.0 MiB", "75", 2000));
            assertThat(findings(null, freed.sample())).containsExactly(TEXT.formatted("0", "0 B", "100", 500));
        }

        @Test
        void aServersFewBuffersASecondAreNot() {
            Figures f = new Figures();
            f.churn = new BufferPools.Churn(2000, 99.5, 99.5, 99 * MIB, 99 * MIB);

            assertThat(findings(null, f.sample())).isEmpty();
        }

        @Test
        void noWindowIsNoChurn() {
            Figures f = new Figures();
            f.churn = new BufferPools.Churn(0, 500, 500, MIB, MIB);

            assertThat(findings(null, f.sample())).isEmpty();
        }
    }

    @Nested
    class DirectBufferCountChange {
        @Test
        void aHundredMoreOrFewerASecondSinceThePreviousSampleAreReported() {
            Figures before = new Figures();
            before.direct = new BufferPools.Usage(10, MIB, MIB);
            Figures now = new Figures();
            now.time = T0.plusSeconds(5);
            now.direct = new BufferPools.Usage(510, 51 * MIB, 51 * MIB);

            assertThat(findings(before.sample(), now.sample())).containsExactly("Direct buffers went from 10 (1.0 MiB)"
                    + " to 510 (51.0 MiB) in 5.0 s (BufferPoolMXBean 'direct'): 100 a second.");
            assertThat(findings(now.sample(), before.sample())).as("fewer").hasSize(1);
        }

        @Test
        void fewerThanAHundredASecondAreNot() {
            Figures before = new Figures();
            before.direct = new BufferPools.Usage(20, MIB, MIB);
            Figures now = new Figures();
            now.time = T0.plusSeconds(5);
            now.direct = new BufferPools.Usage(519, 2 * MIB, 2 * MIB);

            assertThat(findings(before.sample(), now.sample())).isEmpty();
        }

        @Test
        void withoutAPreviousSampleThereIsNoChange() {
            Figures now = new Figures();
            now.direct = new BufferPools.Usage(500, 50 * MIB, 50 * MIB);

            assertThat(findings(null, now.sample())).isEmpty();
        }
    }

    @Nested
    class MallocFragmentation {
        private static final String TEXT = "High malloc fragmentation: glibc's arenas hold %s free of the %s they took"
                + " from the OS (%s %%; malloc_info: free = the fast and regular bins' totals, taken = system current)."
                + " Memory freed between chunks still in use stays with the process. Remedies: MALLOC_ARENA_MAX=2;"
                + " jemalloc (package libjemalloc2, LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2), which"
                + " bounds fragmentation; `jcmd 4242 System.trim_native_heap` gives the free whole pages back now,"
                + " -XX:TrimNativeHeapInterval=60000 every minute.";

        @Test
        void halfOfTheArenasFreeAndAtLeast32MiBIsHigh() {
            Figures f = new Figures();
            f.malloc = new MallocInfo(2, 128 * MIB, 96 * MIB, 0, 0, MIB, 3 * MIB);

            assertThat(findings(null, f.sample())).containsExactly(TEXT.formatted("96.0 MiB", "128.0 MiB", "75.0"));
        }

        @Test
        void exactlyHalfAndExactly32MiBIsHigh() {
            Figures f = new Figures();
            f.malloc = new MallocInfo(2, 64 * MIB, 32 * MIB, 0, 0, MIB, MIB);

            assertThat(findings(null, f.sample())).containsExactly(TEXT.formatted("32.0 MiB", "64.0 MiB", "50.0"));
        }

        @Test
        void oneByteLessFreeOrJustBelowHalfIsNot() {
            Figures small = new Figures();
            small.malloc = new MallocInfo(2, 64 * MIB - 2, 32 * MIB - 1, 0, 0, MIB, MIB);
            Figures share = new Figures();
            share.malloc = new MallocInfo(2, 128 * MIB + 1, 64 * MIB, 0, 0, 0, 0);

            assertThat(findings(null, small.sample())).isEmpty();
            assertThat(findings(null, share.sample())).isEmpty();
        }

        @Test
        void withAnotherAllocatorItSaysWhatThatAllocatorHolds() {
            Figures f = new Figures();
            f.otherAllocators = List.of(new NativeAllocator("jemalloc", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", false));
            f.malloc = new MallocInfo(2, 128 * MIB, 96 * MIB, 0, 0, MIB, 3 * MIB);

            assertThat(findings(null, f.sample())).containsExactly("jemalloc holds 0 B: the anonymous memory no other"
                    + " part explains (by elimination). glibc's arenas hold 0 B. jemalloc"
                    + " (/usr/lib/x86_64-linux-gnu/libjemalloc.so.2) takes the place of glibc's malloc for the whole"
                    + " process: glibc's fragmentation no longer applies; to see that it works, watch its figure stay"
                    + " flat while the program's own use does.");
            assertThat(Findings.of(null, f.sample())).extracting(Finding::id, Finding::severity)
                    .containsExactly(tuple("other-allocator", Finding.Severity.INFO));
        }

        @Test
        void anAllocatorInsideALibraryIsNamedWithTheComponentsSettingAndNeverSendsTheUserToNmt() {
            Figures f = new Figures();
            f.byKind.put(MappingKind.NATIVE_HEAP, MIB);
            f.byKind.put(MappingKind.MALLOC_ARENA, 2 * MIB);
            f.otherAllocators = List.of(new NativeAllocator("jemalloc", "/tmp/libduckdb_java123.so", true));
            f.nmtMode = "off";
            f.unexplained = 0;

            assertThat(findings(null, f.sample())).containsExactly("jemalloc in libduckdb_java123.so holds 0 B: the"
                    + " anonymous memory no other part explains (by elimination). glibc's arenas hold 3.0 MiB. jemalloc is"
                    + " linked into /tmp/libduckdb_java123.so for DuckDB's own memory: NMT and glibc's malloc statistics"
                    + " never see it, so only this figure shows it. DuckDB's memory_limit setting bounds it (by default"
                    + " 80 % of the memory DuckDB finds): SET memory_limit = '1GB', or the connection property"
                    + " memory_limit.");
        }

        @Test
        void anAllocatorInsideAnUnknownLibraryLeavesGlibcsFindingsAsTheyAre() {
            Figures f = new Figures();
            f.otherAllocators = List.of(new NativeAllocator("mimalloc", "/opt/app/libengine.so", true));
            f.malloc = new MallocInfo(2, 128 * MIB, 96 * MIB, 0, 0, MIB, 3 * MIB);

            assertThat(Findings.of(null, f.sample())).extracting(Finding::id)
                    .containsExactly("other-allocator", "malloc-fragmentation");
            assertThat(findings(null, f.sample()).getFirst()).endsWith("mimalloc is linked into /opt/app/libengine.so"
                    + " for that library's own memory: NMT and glibc's malloc statistics never see it, so only this"
                    + " figure shows it. The library's own settings bound it.");
        }
    }

    @Nested
    class MallocArenas {
        private static final String TEXT = "Many malloc arenas: %d for %d processors (glibc allows 8 per core), holding"
                + " %s free (%s %% of what they took; malloc_info). Each arena keeps its own free memory:"
                + " MALLOC_ARENA_MAX=2 (or 4) caps them.";

        @Test
        void moreThanFourArenasPerProcessorHoldingMuchFreeAreMany() {
            Figures f = new Figures();
            f.malloc = new MallocInfo(17, 256 * MIB, 64 * MIB, 8 * MIB, 3, MIB, 2 * MIB);

            assertThat(findings(null, f.sample())).containsExactly(TEXT.formatted(17, 4, "64.0 MiB", "25.0"));
        }

        @Test
        void manyArenasWithLittleFreeAreHealthy() {
            Figures four = new Figures();
            four.malloc = new MallocInfo(16, 256 * MIB, 64 * MIB, 8 * MIB, 3, MIB, 2 * MIB);
            Figures littleFree = new Figures();
            littleFree.malloc = new MallocInfo(17, 256 * MIB, 64 * MIB - 1, 8 * MIB, 3, MIB, 2 * MIB);
            Figures smallShare = new Figures();
            smallShare.malloc = new MallocInfo(17, 256 * MIB + 4, 64 * MIB, 8 * MIB, 3, MIB, 2 * MIB);

            assertThat(findings(null, four.sample())).isEmpty();
            assertThat(findings(null, littleFree.sample())).isEmpty();
            assertThat(findings(null, smallShare.sample())).isEmpty();
        }

        @Test
        void noProcessorCountsAsOne() {
            Figures many = new Figures();
            many.cpus = 0;
            many.malloc = new MallocInfo(5, 256 * MIB, 64 * MIB, 8 * MIB, 3, MIB, 2 * MIB);

            assertThat(findings(null, many.sample())).containsExactly(TEXT.formatted(5, 1, "64.0 MiB", "25.0"));
        }
    }

    @Nested
    class DirectMemoryLimit {
        private static final String TEXT = "Direct buffers hold %s (BufferPoolMXBean 'direct') and have no limit of their"
                + " own (-XX:MaxDirectMemorySize is not set): they may take up to %s on top of the heap. Set"
                + " -XX:MaxDirectMemorySize. Memory from FFM arenas other than Arena.ofAuto() is never limited by it.";

        @Test
        void aQuarterOfTheMaxHeapWithoutALimitIsReported() {
            Figures f = new Figures();
            f.maxDirect = 0;
            f.direct = new BufferPools.Usage(256, 256 * MIB, 256 * MIB);

            assertThat(findings(null, f.sample())).containsExactly(TEXT.formatted("256.0 MiB", "1.0 GiB (the maximum heap)"));
        }

        @Test
        void lessOrALimitIsQuiet() {
            Figures less = new Figures();
            less.maxDirect = 0;
            less.direct = new BufferPools.Usage(256, 256 * MIB, 256 * MIB - 1);
            Figures limited = new Figures();
            limited.maxDirect = 1;
            limited.direct = new BufferPools.Usage(256, 256 * MIB, 512 * MIB);

            assertThat(findings(null, less.sample())).isEmpty();
            assertThat(findings(null, limited.sample())).isEmpty();
        }

        @Test
        void anUnknownMaxHeapMeans256MiB() {
            Figures unknown = new Figures();
            unknown.maxDirect = 0;
            unknown.heapMax = -1;
            unknown.direct = new BufferPools.Usage(256, 256 * MIB, 256 * MIB);
            Figures below = new Figures();
            below.maxDirect = 0;
            below.heapMax = 0;
            below.direct = new BufferPools.Usage(256, 256 * MIB, 256 * MIB - 1);

            assertThat(findings(null, unknown.sample())).containsExactly(TEXT.formatted("256.0 MiB", "the maximum heap"));
            assertThat(findings(null, below.sample())).isEmpty();
        }
    }

    @Nested
    class HeapShare {
        private static final String TEXT = "The Java heap is only %s of the %s resident that is not a file (%s %%): most"
                + " of this process's own memory is outside the heap (largest: %s), where -Xmx does not bound it.";

        @Test
        void aHeapUnderHalfAndAtLeast128MiBOutsideIsReported() {
            Figures f = new Figures();
            f.heap = 100 * MIB;

            assertThat(findings(null, f.sample())).containsExactly(TEXT.formatted("100.0 MiB", "400.0 MiB", "25",
                    "malloc (glibc) 280.0 MiB, unexplained 20.0 MiB"));
        }

        @Test
        void exactly128MiBOutsideIsReportedOneByteLessIsNot() {
            Figures at = new Figures();
            at.rss = 200 * MIB;
            at.heap = 72 * MIB;
            at.unexplained = 0;
            Figures below = new Figures();
            below.rss = 200 * MIB;
            below.heap = 72 * MIB + 1;
            below.unexplained = 0;

            assertThat(findings(null, at.sample())).containsExactly(TEXT.formatted("72.0 MiB", "200.0 MiB", "36",
                    "malloc (glibc) 128.0 MiB"));
            assertThat(findings(null, below.sample())).isEmpty();
        }

        @Test
        void aLargeMappedIndexBesideASmallHeapIsHealthy() {
            Figures f = new Figures();
            f.rss = 1024 * MIB;
            f.heap = 100 * MIB;
            f.mapped = 800 * MIB;
            f.unexplained = 0;

            assertThat(findings(null, f.sample())).isEmpty();
        }

        @Test
        void halfOrNoRssIsNot() {
            Figures half = new Figures();
            half.heap = 200 * MIB;
            Figures none = new Figures();
            none.rss = 0;
            none.heap = 0;
            none.unexplained = 0;

            assertThat(findings(null, half.sample())).isEmpty();
            assertThat(findings(null, none.sample())).isEmpty();
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

            assertThat(findings(null, f.sample())).containsExactly(
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

            assertThat(findings(null, f.sample())).isEmpty();
        }
    }

    @Nested
    class VirtualThreadStacks {
        @Test
        void stacksOf64MiBAndAQuarterOfTheHeapInUseAreReported() {
            Figures f = new Figures();
            f.virtualThreads = Optional.of(new VirtualThreads(100_000, 64 * MIB));

            assertThat(findings(null, f.sample())).containsExactly("100000 virtual threads hold 64.0 MiB of stacks in"
                    + " the heap (64 % of the heap in use; GC.class_histogram -all). A virtual thread that waits keeps"
                    + " its frames as heap objects: they count against -Xmx, not as thread stacks, so size the heap for"
                    + " them (or end the threads that wait).");
            assertThat(Findings.of(null, f.sample())).extracting(Finding::id, Finding::severity)
                    .containsExactly(tuple("virtual-thread-stacks", Finding.Severity.INFO));
        }

        @Test
        void lessThan64MiBOrAQuarterOfTheHeapInUseIsNotNorAreThreadsNotCounted() {
            Figures small = new Figures();
            small.virtualThreads = Optional.of(new VirtualThreads(100_000, 64 * MIB - 1));
            Figures share = new Figures();
            share.heapUsed = 512 * MIB;
            share.virtualThreads = Optional.of(new VirtualThreads(100_000, 128 * MIB - 1));
            Figures quarter = new Figures();
            quarter.heapUsed = 512 * MIB;
            quarter.virtualThreads = Optional.of(new VirtualThreads(100_000, 128 * MIB));

            assertThat(findings(null, small.sample())).isEmpty();
            assertThat(findings(null, share.sample())).isEmpty();
            assertThat(findings(null, quarter.sample())).hasSize(1);
            assertThat(findings(null, new Figures().sample())).isEmpty();
        }
    }

    @Nested
    class NativeMemoryHeld {
        private static NativeCallers.Site site(String javaFrame, long held, long allocated) {
            return new NativeCallers.Site("libzip.so", javaFrame, "app.Main.run", held, 10, allocated, 20);
        }

        @Test
        void aJavaSiteHoldingAMebibyteAndMostOfWhatItTookIsReportedWithItsRemedy() {
            Figures f = new Figures();
            f.nativeCallers = Optional.of(new NativeCallers.Result(java.time.Duration.ofSeconds(10), 4 * MIB, 2 * MIB, 5,
                    List.of(site("java.util.zip.Inflater.init", MIB, 2 * MIB))));

            assertThat(findings(null, f.sample())).containsExactly("app.Main.run -> java.util.zip.Inflater.init"
                    + " (libzip.so) allocated 2.0 MiB of native memory in 10 s and still holds 1.0 MiB of it (10"
                    + " allocations, 6.0 MiB/min; async-profiler 4.2). Memory a call site keeps taking and never gives"
                    + " back is a leak if it goes on: run --native-callers again, or watch malloc with --watch, to see"
                    + " whether it keeps growing. Inflater and Deflater hold zlib's memory until end() (or close(),"
                    + " JDK 25) is called; without it only the GC's Cleaner frees it, after a collection finds them"
                    + " unreachable.");
            assertThat(Findings.of(null, f.sample())).extracting(Finding::id, Finding::severity)
                    .containsExactly(tuple("native-memory-held", Finding.Severity.WARNING));
        }

        @Test
        void nothingHeldWhileMallocKeepsMuchFreeIsRetentionNotALeak() {
            Figures retained = new Figures();
            retained.malloc = new MallocInfo(2, 128 * MIB, 32 * MIB, 0, 0, 0, 0);
            retained.nativeCallers = Optional.of(new NativeCallers.Result(java.time.Duration.ofSeconds(10), 64 * MIB,
                    MIB, 100, List.of(site("a.B.c", MIB - 1, 64 * MIB), site(NativeCallers.NO_JAVA_FRAME, 8 * MIB, 8 * MIB))));
            Figures leaking = new Figures();
            leaking.malloc = retained.malloc;
            leaking.nativeCallers = Optional.of(new NativeCallers.Result(java.time.Duration.ofSeconds(10), 64 * MIB,
                    MIB, 100, List.of(site("a.B.c", MIB, 64 * MIB))));
            Figures notRecorded = new Figures();
            notRecorded.malloc = retained.malloc;
            Figures little = new Figures();
            little.malloc = new MallocInfo(2, 128 * MIB, 32 * MIB - 1, 0, 0, 0, 0);
            little.nativeCallers = retained.nativeCallers;

            assertThat(Findings.of(null, retained.sample())).extracting(Finding::id).containsExactly("malloc-retention");
            assertThat(findings(null, retained.sample()).getFirst()).startsWith("No Java call site kept native memory in"
                    + " the 10 s recorded (1.0 MiB held, 64.0 MiB allocated; async-profiler 4.2), yet glibc's arenas"
                    + " keep 32.0 MiB free (25.0 % of what they took; malloc_info)").contains("That is retention, not a leak");
            assertThat(Findings.of(null, leaking.sample())).extracting(Finding::id).doesNotContain("malloc-retention");
            assertThat(Findings.of(null, notRecorded.sample())).extracting(Finding::id).doesNotContain("malloc-retention");
            assertThat(Findings.of(null, little.sample())).extracting(Finding::id).doesNotContain("malloc-retention");
        }

        @Test
        void aSiteWithoutAKnownRemedyIsFoundWithoutOne() {
            Figures f = new Figures();
            f.nativeCallers = Optional.of(new NativeCallers.Result(java.time.Duration.ofSeconds(60), 4 * MIB, 2 * MIB, 5,
                    List.of(site("com.example.Codec.open", 2 * MIB, 2 * MIB))));

            assertThat(findings(null, f.sample())).singleElement().asString().endsWith("to see whether it keeps growing.")
                    .contains("(10 allocations, 2.0 MiB/min;");
        }

        @Test
        void lessThanAMebibyteMostlyFreedTheJvmsOwnOrNotRecordedIsNot() {
            Figures small = new Figures();
            small.nativeCallers = Optional.of(new NativeCallers.Result(java.time.Duration.ofSeconds(10), 0, 0, 0,
                    List.of(site("a.B.c", MIB - 1, MIB))));
            Figures freed = new Figures();
            freed.nativeCallers = Optional.of(new NativeCallers.Result(java.time.Duration.ofSeconds(10), 0, 0, 0,
                    List.of(site("a.B.c", 2 * MIB, 4 * MIB + 1))));
            Figures jvm = new Figures();
            jvm.nativeCallers = Optional.of(new NativeCallers.Result(java.time.Duration.ofSeconds(10), 0, 0, 0,
                    List.of(site(NativeCallers.NO_JAVA_FRAME, 8 * MIB, 8 * MIB))));

            assertThat(findings(null, small.sample())).isEmpty();
            assertThat(findings(null, freed.sample())).isEmpty();
            assertThat(findings(null, jvm.sample())).isEmpty();
        }
    }

    @Nested
    class NativeCache {
        @Test
        void aCacheALibraryKeepsByDesignIsNamedWithItsShareOfMalloc() {
            Figures f = new Figures();
            f.nativeCaches = List.of(new NativeCaches.Cache("RocksDB", "LRUCache block cache", 256 * MIB, "/db/LOG"));

            assertThat(findings(null, f.sample())).containsExactly("RocksDB's LRUCache block cache of 256.0 MiB (its"
                    + " LOG: /db/LOG): up to 256.0 MiB held by design, inside malloc's 80.0 MiB (100 % of it at most)."
                    + " Memory a cache keeps up to its capacity is not a leak; to hold less, configure a smaller cache.");
            assertThat(Findings.of(null, f.sample())).extracting(Finding::id, Finding::severity)
                    .containsExactly(tuple("native-cache", Finding.Severity.INFO));
        }

        @Test
        void theShareIsTheCapacityOverTheMallocPart() {
            Figures f = new Figures();
            f.nativeCaches = List.of(new NativeCaches.Cache("RocksDB", "LRUCache block cache", 40 * MIB, "/db/LOG"));

            assertThat(findings(null, f.sample()).getFirst()).contains("inside malloc's 80.0 MiB (50 % of it at most)");
        }

        @Test
        void noCacheNoFinding() {
            assertThat(Findings.of(null, new Figures().sample())).extracting(Finding::id).doesNotContain("native-cache");
        }
    }

    @Nested
    class Unexplained {
        private static final String TEXT = "40.0 MiB (10 %% of RSS) is unexplained: anonymous memory that no part can"
                + " show is its own, mapped outside malloc by native code or by the JVM.%s";

        @Test
        void tenPercentUnexplainedIsReportedAndNmtOffSaysHowToSeeMore() {
            Figures on = new Figures();
            on.unexplained = 40 * MIB;
            Figures off = new Figures();
            off.unexplained = 40 * MIB;
            off.nmtMode = "off";

            assertThat(findings(null, on.sample())).containsExactly(TEXT.formatted(""));
            assertThat(findings(null, off.sample())).containsExactly(TEXT.formatted(" Part of it may be the JVM's own"
                    + " regions (GC structures, among others), which only Native Memory Tracking labels: restart the"
                    + " JVM with -XX:NativeMemoryTracking=summary to count them (it cannot be switched on in a running"
                    + " JVM; it costs a little memory and speed). NMT never sees memory a native library maps itself."));
        }

        @Test
        void justUnderTenPercentIsNotNeitherIsNmtOffAlone() {
            Figures under = new Figures();
            under.unexplained = 40 * MIB - 1;
            Figures off = new Figures();
            off.nmtMode = "off";
            Figures noMalloc = new Figures();
            noMalloc.malloc = null;
            noMalloc.mallocProblem = "the target has no System.native_heap_info command";

            assertThat(findings(null, under.sample())).isEmpty();
            assertThat(findings(null, off.sample())).isEmpty();
            assertThat(findings(null, noMalloc.sample())).isEmpty();
        }
    }

    @Test
    void aSickSampleListsItsFindingsInReportOrder() {
        Figures before = new Figures();
        Figures now = new Figures();
        now.time = T0.plusSeconds(1);
        now.churn = new BufferPools.Churn(1000, 200, 0, 20 * MIB, 0);
        now.direct = new BufferPools.Usage(400, 300 * MIB, 300 * MIB);
        now.malloc = new MallocInfo(17, 129 * MIB, 97 * MIB, 0, 0, MIB, 3 * MIB);
        now.maxDirect = 0;
        now.heapMax = -1;
        now.heap = 100 * MIB;
        now.offheap = List.of(bean("BufferPool", "http", Map.of("Leaks", 2L)));
        now.nmtMode = "off";
        now.unexplained = 200 * MIB;

        assertThat(findings(before.sample(), now.sample())).extracting(s -> s.substring(0, 24)).containsExactly(
                "Direct buffer churn: at ",
                "Direct buffers went from",
                "High malloc fragmentatio",
                "Many malloc arenas: 17 f",
                "Direct buffers hold 300.",
                "The Java heap is only 10",
                "offheap BufferPool 'http",
                "200.0 MiB (50 % of RSS) ");
        assertThat(Findings.of(before.sample(), now.sample())).extracting(Finding::id, Finding::severity).containsExactly(
                tuple("direct-buffer-churn", Finding.Severity.WARNING),
                tuple("direct-buffer-count-change", Finding.Severity.WARNING),
                tuple("malloc-fragmentation", Finding.Severity.WARNING),
                tuple("malloc-arenas", Finding.Severity.WARNING),
                tuple("direct-buffers-unlimited", Finding.Severity.WARNING),
                tuple("heap-small-share", Finding.Severity.INFO),
                tuple("offheap-leaks", Finding.Severity.WARNING),
                tuple("unexplained-memory", Finding.Severity.WARNING));
    }

    static OffheapBean bean(String type, String name, Map<String, Long> numbers) {
        return new OffheapBean(type, name, numbers, null);
    }

    /** A healthy sample's figures; each test changes a few. RSS is heap, malloc and unexplained. */
    static final class Figures {
        static final Instant T0 = FindingsTest.T0;
        Instant time = T0;
        long rss = 400 * MIB;
        long heap = 300 * MIB;
        long unexplained = 20 * MIB;
        long mapped;
        List<NativeAllocator> otherAllocators = List.of();
        long heapUsed = 100 * MIB;
        Optional<VirtualThreads> virtualThreads = Optional.empty();
        Optional<NativeCallers.Result> nativeCallers = Optional.empty();
        List<NativeCaches.Cache> nativeCaches = List.of();
        Map<MappingKind, Long> byKind = new EnumMap<>(MappingKind.class);
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

        Sample sample() {
            ProcessMemory memory = new ProcessMemory(rss, rss, 0, 0, 0, byKind, Map.of(), Map.of(), 100,
                    otherAllocators);
            JvmAreas jvm = new JvmAreas("OpenJDK 64-Bit Server VM 25", cpus, "/opt/jdk", heapUsed, 300 * MIB, heapMax,
                    20 * MIB, 18 * MIB, 10 * MIB, 20, maxDirect, nmtMode);
            NativeReports reports = new NativeReports(List.of(), List.of(), null, VmMap.EMPTY, malloc, mallocProblem);
            List<Attribution.Part> parts = new ArrayList<>();
            parts.add(new Attribution.Part("heap", "Java heap", heap, true, -1, "smaps in the heap's range"));
            parts.add(new Attribution.Part("mapped", "mapped files", mapped, true, -1, "smaps, other files"));
            long malloced = rss - heap - mapped - unexplained;
            parts.add(new Attribution.Part("malloc", "malloc (glibc)", malloced, true, -1, "smaps, arenas"));
            return new Sample(4242, time, memory, jvm, Optional.of(new BufferPools(direct, BufferPools.Usage.NONE, churn)),
                    reports, Optional.of(offheap), new Attribution(rss, parts, unexplained),
                    new ContainerMemory.Result(null, "not read"), null, virtualThreads, nativeCallers, nativeCaches);
        }
    }
}
