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

import dev.offheap.cli.inspect.Attribution.Part;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * RSS split into parts from hand-made figures: resident bytes per mapping kind and inside owned ranges, NMT's
 * summary, malloc's figures. Exact parts are what their pages say whatever any owner claims; the anonymous
 * memory left over is handed out in order, each share at most its bound; unexplained is RSS less the parts.
 */
class AttributionTest {
    private static final long KIB = 1L << 10;
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    /** Heap, code cache, metaspace committed as the JVM reports them. */
    private static final JvmAreas JVM = new JvmAreas("VM", 4, "/opt/jdk", 200 * MIB, 512 * MIB, 1024 * MIB,
            30 * MIB, 28 * MIB, 12 * MIB, 20, 0, "off");

    /** 6 MiB in 2 chunks mapped on their own. */
    private static final MallocInfo MALLOC = new MallocInfo(2, 30 * MIB, 5 * MIB, 6 * MIB, 2, MIB, 2 * MIB);

    private static final NmtSummary NMT = nmt();

    private static final VmMap LABELS = new VmMap(new TreeMap<>(Map.of(0x1000L, Map.entry(0x2000L, "GC"))));

    @Test
    void everyExactPartIsItsResidentPagesAndUnexplainedIsTheRest() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.CODE_CACHE, 10 * MIB,
                MappingKind.PROGRAM_FILE, 40 * MIB, MappingKind.KERNEL, 8 * KIB, MappingKind.DATA_FILE, 16 * MIB,
                MappingKind.THREAD_STACK, 2 * MIB, MappingKind.NATIVE_HEAP, 20 * MIB, MappingKind.MALLOC_ARENA, 64 * MIB,
                MappingKind.ANONYMOUS, 100 * MIB, MappingKind.SHARED_MEMORY, 4 * MIB), Map.of());

        Attribution a = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, null), Optional.of(List.of()));

        assertThat(a.parts()).extracting(Part::key, Part::bytes, Part::exact).containsExactly(
                tuple("heap", 300 * MIB, true), tuple("codeCache", 10 * MIB, true),
                tuple("programFiles", 40 * MIB + 8 * KIB, true), tuple("mapped", 16 * MIB, true),
                tuple("sharedMemory", 4 * MIB, true), tuple("threadStacks", 2 * MIB, true),
                tuple("offheap", 0L, true), tuple("malloc", 84 * MIB, true), tuple("metaspace", 30 * MIB, false));
        assertThat(a.unexplained()).isEqualTo(70 * MIB);
    }

    @Test
    void withNmtButNoLabelsG1sEstimateBoundsTheGcPartWhichGoesBeforeMetaspace() {
        // 256 MiB in use of 512 committed: G1's tables for the heap in use are half the 8 MiB estimate
        JvmAreas g1 = new JvmAreas("VM 17", 4, "/opt/jdk", 256 * MIB, 512 * MIB, 1024 * MIB, 30 * MIB, 28 * MIB,
                12 * MIB, 20, 0, "summary", 8 * MIB);
        ProcessMemory memory = memory(Map.of(MappingKind.ANONYMOUS, 25 * MIB), Map.of());

        Attribution a = Attribution.of(memory, g1, reports(NMT, VmMap.EMPTY, MALLOC), Optional.of(List.of()));

        // before: metaspace took 19 MiB and left GC nothing; now GC takes at most G1's 4 MiB first
        assertThat(a.parts()).extracting(Part::key, Part::bytes, Part::bound).containsSubsequence(
                tuple("malloc", 6 * MIB, 6 * MIB), tuple("gc", 4 * MIB, 4 * MIB), tuple("metaspace", 15 * MIB, 20 * MIB),
                tuple("otherJvm", 0L, 4 * MIB));
        assertThat(a.parts()).filteredOn(p -> p.is(PartName.GC)).singleElement()
                .satisfies(p -> assertThat(p.source()).contains("at most G1's").contains("NMT's committed GC, 10.0 MiB"));
        assertThat(a.unexplained()).isZero();
    }

    @Test
    void withoutNmtG1sTablesTakeWhatWouldBeUnexplainedAtMostTheirEstimateAndNeverAnotherAllocatorsShare() {
        JvmAreas g1 = new JvmAreas("VM 25", 4, "/opt/jdk", 200 * MIB, 512 * MIB, 1024 * MIB, 30 * MIB, 28 * MIB,
                12 * MIB, 20, 0, "off", 10 * MIB);
        ProcessMemory plenty = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.ANONYMOUS, 100 * MIB), Map.of());
        ProcessMemory little = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.ANONYMOUS, 34 * MIB), Map.of());
        ProcessMemory jemalloc = new ProcessMemory(400 * MIB, 0, 0, 0, 0,
                byKind(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.ANONYMOUS, 100 * MIB)), Map.of(), Map.of(), 1,
                List.of(new NativeAllocator("jemalloc", "/tmp/libduckdb_java1.so", true)));

        Attribution a = Attribution.of(plenty, g1, reports(null, VmMap.EMPTY, null), Optional.of(List.of()));
        Attribution b = Attribution.of(little, g1, reports(null, VmMap.EMPTY, null), Optional.of(List.of()));
        Attribution c = Attribution.of(jemalloc, g1, reports(null, VmMap.EMPTY, null), Optional.of(List.of()));

        // metaspace (30 MiB committed) first, then the GC part, at most the 10 MiB estimate
        assertThat(a.parts()).extracting(Part::key, Part::bytes, Part::exact, Part::bound).endsWith(
                tuple("metaspace", 30 * MIB, false, 30 * MIB), tuple("gc", 10 * MIB, false, 10 * MIB));
        assertThat(a.unexplained()).isEqualTo(60 * MIB);
        assertThat(b.parts()).extracting(Part::key, Part::bytes).endsWith(tuple("gc", 4 * MIB));
        assertThat(b.unexplained()).isZero();
        assertThat(c.parts()).extracting(Part::key).doesNotContain("gc");
        assertThat(c.part("otherAllocator")).isEqualTo(70 * MIB);
        assertThat(Attribution.of(plenty, JVM, reports(null, VmMap.EMPTY, null), Optional.of(List.of())).parts())
                .as("no estimate (another collector)").extracting(Part::key).doesNotContain("gc");
    }

    /**
     * Issue 12's sparse case: a pool has reserved 22 GiB and touched 128 MiB; an arena's 192 MiB are a chunk
     * malloc mapped on its own. offheap is its resident pages, and malloc keeps what is its own.
     */
    @Test
    void aSparsePoolCountsItsResidentPagesAndLeavesMallocItsOwn() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 50 * MIB, MappingKind.NATIVE_HEAP, 8 * MIB,
                MappingKind.ANONYMOUS, 200 * MIB), Map.of("offheap", 128 * MIB));
        MallocInfo malloc = new MallocInfo(1, 8 * MIB, MIB, 192 * MIB + 4 * KIB, 1, MIB, MIB);

        Attribution a = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, malloc), Optional.of(List.of()));

        assertThat(a.part("offheap")).isEqualTo(128 * MIB);
        assertThat(a.part("malloc")).isEqualTo(8 * MIB + 192 * MIB + 4 * KIB);
        assertThat(a.parts()).filteredOn(p -> p.key().equals("malloc")).extracting(Part::exact, Part::bound)
                .containsExactly(tuple(false, 192 * MIB + 4 * KIB));
        assertThat(a.part("metaspace")).isEqualTo(8 * MIB - 4 * KIB);
    }

    @Test
    void labelledRegionsAreExactAndNothingIsEstimatedBesideThem() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.ANONYMOUS, 50 * MIB),
                Map.of("metaspace", 20 * MIB, "gc", 3 * MIB, "threadStacks", 5 * MIB, "otherJvm", MIB));

        Attribution a = Attribution.of(memory, JVM, reports(NMT, LABELS, MALLOC), Optional.of(List.of()));

        assertThat(a.parts()).extracting(Part::key, Part::bytes, Part::exact).contains(
                tuple("threadStacks", 5 * MIB, true), tuple("metaspace", 20 * MIB, true), tuple("gc", 3 * MIB, true),
                tuple("otherJvm", MIB, true), tuple("malloc", 6 * MIB, false));
        assertThat(a.parts()).extracting(Part::key).doesNotHaveDuplicates();
        assertThat(a.unexplained()).isEqualTo(44 * MIB);
    }

    /** JDK 17 with NMT summary: no addresses, so the JVM's parts come by elimination, capped by NMT's figures. */
    @Test
    void withoutLabelsNmtFiguresBoundWhatTheJvmsPartsTakeAfterMalloc() {
        ProcessMemory memory = memory(Map.of(MappingKind.ANONYMOUS, 25 * MIB), Map.of());

        Attribution a = Attribution.of(memory, JVM, reports(NMT, VmMap.EMPTY, MALLOC), Optional.of(List.of()));

        assertThat(a.parts()).extracting(Part::key, Part::bytes, Part::bound).containsSubsequence(
                tuple("malloc", 6 * MIB, 6 * MIB), tuple("metaspace", 19 * MIB, 20 * MIB),
                tuple("gc", 0L, 10 * MIB), tuple("otherJvm", 0L, 4 * MIB));
        assertThat(a.unexplained()).isZero();
    }

    @Test
    void anotherAllocatorTakesTheAnonymousMemoryLeftByElimination() {
        ProcessMemory jemalloc = new ProcessMemory(100 * MIB, 0, 0, 0, 0, byKind(Map.of(MappingKind.ANONYMOUS, 100 * MIB)),
                Map.of(), Map.of(), 1,
                List.of(new NativeAllocator("jemalloc", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", false)));

        Attribution a = Attribution.of(jemalloc, JVM, reports(NMT, LABELS, null), Optional.of(List.of()));

        assertThat(a.parts()).filteredOn(p -> p.is(PartName.OTHER_ALLOCATOR)).singleElement().satisfies(p -> {
            assertThat(p.label()).isEqualTo("jemalloc");
            assertThat(p.source()).isEqualTo("by elimination: anonymous memory no other part explains, with jemalloc"
                    + " (/usr/lib/x86_64-linux-gnu/libjemalloc.so.2, in place of glibc's malloc)");
        });

        // NMT's metaspace (20), GC (10) and other mappings (4 MiB) show in no label: taken first, by elimination
        assertThat(a.parts()).extracting(Part::key, Part::bytes, Part::exact).contains(tuple("metaspace", 20 * MIB, false),
                tuple("gc", 10 * MIB, false), tuple("otherJvm", 4 * MIB, false), tuple("otherAllocator", 66 * MIB, false));
        assertThat(a.unexplained()).isZero();
    }

    /** System.map labels whole mappings: a region merged into a neighbour's mapping may show under no label. */
    @Test
    void aLabelledPartNoLabelShowsIsTakenByEliminationWhenNmtSaysItHoldsMemory() {
        ProcessMemory memory = memory(Map.of(MappingKind.ANONYMOUS, 8 * MIB), Map.of("metaspace", 20 * MIB, "otherJvm", MIB));

        Attribution a = Attribution.of(memory, JVM, reports(NMT, LABELS, null), Optional.of(List.of()));

        assertThat(a.parts()).extracting(Part::key, Part::bytes, Part::exact, Part::bound).contains(
                tuple("metaspace", 20 * MIB, true, -1L), tuple("otherJvm", MIB, true, -1L), tuple("gc", 8 * MIB, false, 10 * MIB));
    }

    @Test
    void withoutAHeapRangeTheCommittedHeapIsTakenByElimination() {
        ProcessMemory memory = memory(Map.of(MappingKind.ANONYMOUS, 600 * MIB), Map.of());

        NativeReports noRanges = new NativeReports(List.of(), List.of(), null, VmMap.EMPTY, null, "none");
        Attribution a = Attribution.of(memory, JVM, noRanges, Optional.of(List.of()));

        assertThat(a.parts().get(0)).isEqualTo(new Part("heap", "Java heap", 512 * MIB, false, 512 * MIB,
                "no heap range printed: committed heap, by elimination"));
        assertThat(a.parts().get(1)).extracting(Part::bytes, Part::bound).containsExactly(12 * MIB, 12 * MIB);
    }

    /** No owner's figure, however wrong, changes an exact part or pushes the parts past RSS. */
    @Property
    void exactPartsIgnoreEveryClaimAndThePartsNeverExceedRss(@ForAll @LongRange(min = 0, max = 1L << 40) long mmapped,
            @ForAll @LongRange(min = 0, max = 1L << 40) long nmtGc, @ForAll @LongRange(min = 0, max = 1L << 30) long anonymous,
            @ForAll @LongRange(min = 0, max = 1L << 30) long offheap, @ForAll boolean labelled) {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, GIB, MappingKind.ANONYMOUS, anonymous,
                MappingKind.NATIVE_HEAP, 3 * MIB), Map.of("offheap", offheap, "gc", labelled ? MIB : 0L));
        Map<String, NmtSummary.Category> c = new LinkedHashMap<>(NMT.categories());
        c.put("GC", new NmtSummary.Category(nmtGc, nmtGc, 0, 0));
        MallocInfo malloc = new MallocInfo(1, 3 * MIB, 0, mmapped, 1, 0, 0);

        Attribution a = Attribution.of(memory, JVM, reports(new NmtSummary(c), labelled ? LABELS : VmMap.EMPTY, malloc),
                Optional.of(List.of()));

        assertThat(a.part("heap")).isEqualTo(GIB);
        assertThat(a.part("offheap")).isEqualTo(offheap);
        assertThat(a.parts()).allSatisfy(p -> assertThat(p.bytes()).isNotNegative());
        assertThat(a.unexplained()).isNotNegative();
        assertThat(a.parts().stream().mapToLong(Part::bytes).sum() + a.unexplained()).isEqualTo(memory.rss());
    }

    @Test
    void withoutJmxThereIsNoOffheapPartAndItsPagesAreAnonymousMemory() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.ANONYMOUS, 100 * MIB), Map.of());

        Attribution a = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, MALLOC), Optional.empty());

        // anonymous 100 MiB: malloc's chunks 6, metaspace 30, the rest unexplained; offheap's pools were not read
        assertThat(a.parts()).extracting(Part::key).doesNotContain("offheap");
        assertThat(a.part("malloc")).isEqualTo(6 * MIB);
        assertThat(a.unexplained()).isEqualTo(64 * MIB);
    }

    @Test
    void theHeapAndCodeCacheAddTheirLabelledPagesAndStacksSayWhereTheyComeFrom() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 10 * MIB, MappingKind.CODE_CACHE, 2 * MIB,
                MappingKind.THREAD_STACK, MIB), Map.of("heap", 5 * MIB, "codeCache", MIB, "threadStacks", MIB));

        Attribution labelled = Attribution.of(memory, JVM, reports(NMT, LABELS, MALLOC), Optional.of(List.of()));
        Attribution plain = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, MALLOC), Optional.of(List.of()));

        assertThat(labelled.part("heap")).isEqualTo(15 * MIB);
        assertThat(labelled.part("codeCache")).isEqualTo(3 * MIB);
        assertThat(labelled.part("threadStacks")).isEqualTo(2 * MIB);
        assertThat(labelled.parts()).filteredOn(p -> p.key().equals("threadStacks")).extracting(Part::source)
                .containsExactly("smaps, the JVM's stack labels and guard pages");
        assertThat(plain.parts()).filteredOn(p -> p.key().equals("threadStacks")).extracting(Part::source)
                .containsExactly("smaps, guard-page layout");
    }

    @Test
    void chunksFoundByTheirHeadersMakeMallocExactAndTakeNothingByElimination() {
        ProcessMemory memory = memory(Map.of(MappingKind.NATIVE_HEAP, MIB, MappingKind.ANONYMOUS, 20 * MIB),
                Map.of("malloc", 7 * MIB));
        MallocChunks.Result found = new MallocChunks.Result(Optional.of(List.of(new AddressRange(0, 7 * MIB))), null);
        MallocChunks.Result unreadable = new MallocChunks.Result(Optional.empty(), "cannot read the target's memory");

        Attribution exact = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, MALLOC), Optional.of(List.of()), found);
        Attribution blind = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, null), Optional.of(List.of()), unreadable);

        assertThat(exact.parts()).filteredOn(p -> p.key().equals("malloc")).extracting(Part::bytes, Part::exact, Part::bound)
                .containsExactly(tuple(8 * MIB, true, -1L));
        assertThat(exact.part("metaspace")).as("the anonymous memory left whole for the rest").isEqualTo(20 * MIB);
        assertThat(blind.parts()).filteredOn(p -> p.key().equals("malloc")).extracting(Part::bytes, Part::source)
                .containsExactly(tuple(MIB, "smaps, the brk heap and arena heaps (chunks mapped on their own unknown:"
                        + " cannot read the target's memory)"));
    }

    @Test
    void aLabelledPartNmtGivesNothingIsExactEvenAtZero() {
        Map<String, NmtSummary.Category> c = new LinkedHashMap<>(NMT.categories());
        c.put("GC", new NmtSummary.Category(0, 0, 0, 0));
        ProcessMemory memory = memory(Map.of(MappingKind.ANONYMOUS, 8 * MIB), Map.of("metaspace", 20 * MIB));

        Attribution a = Attribution.of(memory, JVM, reports(new NmtSummary(c), LABELS, null), Optional.of(List.of()));

        assertThat(a.parts()).filteredOn(p -> p.key().equals("gc")).extracting(Part::bytes, Part::exact)
                .containsExactly(tuple(0L, true));
    }

    /** --no-attach: what smaps alone tells; the JVM's regions stay unexplained. */
    @Test
    void fromProcAloneTheJvmsRegionsStayUnexplained() {
        ProcessMemory memory = new ProcessMemory(100 * MIB, 0, 0, 0, 0, byKind(Map.of(MappingKind.PROGRAM_FILE, 30 * MIB,
                MappingKind.KERNEL, 4 * KIB, MappingKind.DATA_FILE, 10 * MIB, MappingKind.SHARED_MEMORY, 2 * MIB,
                MappingKind.THREAD_STACK, MIB, MappingKind.NATIVE_HEAP, 3 * MIB, MappingKind.MALLOC_ARENA, 4 * MIB,
                MappingKind.ANONYMOUS, 50 * MIB - 4 * KIB)), Map.of("malloc", 5 * MIB), Map.of(), 1, List.of());
        MallocChunks.Result found = new MallocChunks.Result(Optional.of(List.of()), null);

        Attribution a = Attribution.fromProc(memory, found);

        assertThat(a.parts()).extracting(Part::key, Part::bytes).containsExactly(tuple("programFiles", 30 * MIB + 4 * KIB),
                tuple("mapped", 10 * MIB), tuple("sharedMemory", 2 * MIB), tuple("threadStacks", MIB),
                tuple("malloc", 12 * MIB));
        assertThat(a.unexplained()).isEqualTo(45 * MIB - 4 * KIB);
        ProcessMemory jemalloc = new ProcessMemory(60 * MIB, 0, 0, 0, 0, byKind(Map.of(MappingKind.ANONYMOUS, 60 * MIB)),
                Map.of(), Map.of(), 1,
                List.of(new NativeAllocator("jemalloc", "/usr/lib/libjemalloc.so.2", false)));
        assertThat(Attribution.fromProc(jemalloc, found).parts()).filteredOn(p -> p.key().equals("otherAllocator"))
                .extracting(Part::bytes, Part::exact).containsExactly(tuple(60 * MIB, false));
        assertThat(Attribution.fromProc(jemalloc, found).unexplained()).isZero();
    }

    @Test
    void partReadsAPartsBytesAndZeroForAPartThatIsNotThere() {
        Attribution a = new Attribution(100, List.of(new Part("heap", "Java heap", 60, true, -1, "s"),
                new Part("malloc", "malloc (glibc)", 30, false, 30, "s")), 10);

        assertThat(a.part("heap")).isEqualTo(60);
        assertThat(a.part("malloc")).isEqualTo(30);
        assertThat(a.part("gc")).isZero();
    }

    @Test
    void unexplainedShareIsOfRssAndZeroWithoutRss() {
        assertThat(new Attribution(400, List.of(), 100).unexplainedShare()).isEqualTo(0.25);
        assertThat(new Attribution(0, List.of(), 0).unexplainedShare()).isEqualTo(0.0);
    }

    private static Map<MappingKind, Long> byKind(Map<MappingKind, Long> resident) {
        Map<MappingKind, Long> byKind = new EnumMap<>(MappingKind.class);
        for (MappingKind kind : MappingKind.values()) {
            byKind.put(kind, resident.getOrDefault(kind, 0L));
        }
        return byKind;
    }

    private static ProcessMemory memory(Map<MappingKind, Long> resident, Map<String, Long> owned) {
        long rss = resident.values().stream().mapToLong(Long::longValue).sum()
                + owned.values().stream().mapToLong(Long::longValue).sum();
        return new ProcessMemory(rss, 0, 0, 0, 0, byKind(resident), owned, Map.of(), 1, List.of());
    }

    private static NativeReports reports(NmtSummary nmt, VmMap labels, MallocInfo malloc) {
        return new NativeReports(List.of(new AddressRange(0, 1)), List.of(new AddressRange(0, 1)), nmt, labels, malloc,
                malloc == null ? "none" : null);
    }

    private static NmtSummary nmt() {
        Map<String, NmtSummary.Category> c = new LinkedHashMap<>();
        c.put("Java Heap", new NmtSummary.Category(512 * MIB, 512 * MIB, 0, 0));
        c.put("Class", new NmtSummary.Category(5 * MIB, 4 * MIB, 0, 256 * KIB));
        c.put("Thread", new NmtSummary.Category(4 * MIB, 0, 3 * MIB, MIB));
        c.put("Code", new NmtSummary.Category(48 * MIB, 40 * MIB, 0, 8 * MIB));
        c.put("GC", new NmtSummary.Category(12 * MIB, 10 * MIB, 0, 2 * MIB));
        c.put("Internal", new NmtSummary.Category(3 * MIB, 3 * MIB, 0, 0));
        c.put("Other", new NmtSummary.Category(2 * MIB, MIB, 0, MIB));
        c.put("Shared class space", new NmtSummary.Category(13 * MIB, 13 * MIB, 0, 0));
        c.put("Metaspace", new NmtSummary.Category(16 * MIB, 16 * MIB, 0, 0));
        return new NmtSummary(c);
    }
}
