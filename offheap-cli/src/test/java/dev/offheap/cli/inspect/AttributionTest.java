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
import org.junit.jupiter.api.Test;

/**
 * RSS split into parts from hand-made figures: resident bytes per mapping kind, NMT's summary, malloc's figures,
 * offheap's MBeans. Each part gets exactly the bytes the partition in {@link Attribution}'s comment gives it, the
 * native pool is handed out in order and never more than it holds, and unexplained is RSS less the parts.
 */
class AttributionTest {
    private static final long KIB = 1L << 10;
    private static final long MIB = 1L << 20;

    /** Heap, code cache, metaspace committed as the MXBeans report them. */
    private static final JvmAreas JVM = new JvmAreas("VM", 4, "/opt/jdk", 200 * MIB, 512 * MIB, 1024 * MIB,
            30 * MIB, 28 * MIB, 12 * MIB, 20, 0, "off");

    /** Held 30 + 6 MiB, top chunks 2 MiB: malloc claims 34 MiB. */
    private static final MallocInfo MALLOC = new MallocInfo(2, 30 * MIB, 5 * MIB, 6 * MIB, 2, MIB, 2 * MIB);

    /** Two pools take 40 + 8 MiB from the OS; a budget is no pool, so its figure does not count. */
    private static final Optional<List<OffheapBean>> OFFHEAP = Optional.of(List.of(
            new OffheapBean("BufferPool", "http", Map.of("BytesFromOs", 40 * MIB, "BytesInUse", 30 * MIB), null),
            new OffheapBean("ChunkPool", "cache", Map.of("BytesFromOs", 8 * MIB), null),
            new OffheapBean("MemoryBudget", "root", Map.of("BytesFromOs", 1024 * MIB, "UsedBytes", MIB), "/")));

    /**
     * NMT's summary: metaspace 4 + 16 MiB mapped, GC 10 MiB, other categories 3 + 1 MiB (the heap, code, CDS
     * archive, thread stacks, class space and metaspace are not "other"), thread stacks 3 MiB resident.
     */
    private static final NmtSummary NMT = nmt();

    private static final VmMap LABELS = new VmMap(new TreeMap<>(Map.of(0x1000L, Map.entry(0x2000L, "GC"))));

    @Test
    void withoutNmtSmapsGivesTheFileAndStackPartsAndTheMxBeansAndMallocClaimThePool() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.CODE_CACHE, 10 * MIB,
                MappingKind.PROGRAM_FILE, 40 * MIB, MappingKind.KERNEL, 8 * KIB, MappingKind.DATA_FILE, 16 * MIB,
                MappingKind.THREAD_STACK, 2 * MIB, MappingKind.NATIVE_HEAP, 20 * MIB, MappingKind.ANONYMOUS, 100 * MIB,
                MappingKind.SHARED_MEMORY, 4 * MIB));

        Attribution a = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, MALLOC), OFFHEAP);

        // native pool: 20 + 100 + 4 = 124 MiB; metaspace 30, offheap 48, malloc 34 leave 12
        assertThat(a.parts()).containsExactly(
                new Part("heap", "Java heap", 300 * MIB, 300 * MIB, "smaps in the heap's range"),
                new Part("codeCache", "code cache", 10 * MIB, 10 * MIB, "smaps in the code heaps"),
                new Part("programFiles", "program files", 40 * MIB + 8 * KIB, 40 * MIB + 8 * KIB, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 16 * MIB, 16 * MIB, "smaps, other files"),
                new Part("threadStacks", "thread stacks", 2 * MIB, 2 * MIB, "smaps, guard-page layout"),
                new Part("metaspace", "metaspace", 30 * MIB, 30 * MIB, "metaspace committed"),
                new Part("offheap", "offheap pools", 48 * MIB, 48 * MIB, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 34 * MIB, 34 * MIB, "malloc_info, held less top chunks"));
        assertThat(a.rss()).isEqualTo(492 * MIB + 8 * KIB);
        assertThat(a.unexplained()).isEqualTo(12 * MIB);
    }

    @Test
    void claimsBeyondThePoolAreCappedAndShowWhatTheyClaimed() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 100 * MIB, MappingKind.CODE_CACHE, 5 * MIB,
                MappingKind.NATIVE_HEAP, 10 * MIB, MappingKind.ANONYMOUS, 30 * MIB));

        Attribution a = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, MALLOC), OFFHEAP);

        // native pool 40 MiB: metaspace takes 30, offheap the 10 left of its 48, malloc nothing of its 34
        assertThat(a.parts()).containsExactly(
                new Part("heap", "Java heap", 100 * MIB, 100 * MIB, "smaps in the heap's range"),
                new Part("codeCache", "code cache", 5 * MIB, 5 * MIB, "smaps in the code heaps"),
                new Part("programFiles", "program files", 0, 0, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 0, 0, "smaps, other files"),
                new Part("threadStacks", "thread stacks", 0, 0, "smaps, guard-page layout"),
                new Part("metaspace", "metaspace", 30 * MIB, 30 * MIB, "metaspace committed"),
                new Part("offheap", "offheap pools", 10 * MIB, 48 * MIB, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 0, 34 * MIB, "malloc_info, held less top chunks"));
        assertThat(a.unexplained()).isZero();
    }

    @Test
    void withoutTheirRangesHeapAndCodeCacheClaimTheirCommittedBytesFromThePoolFirst() {
        ProcessMemory memory = memory(Map.of(MappingKind.NATIVE_HEAP, 20 * MIB, MappingKind.ANONYMOUS, 700 * MIB));

        Attribution a = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, MALLOC), OFFHEAP);

        // pool 720 MiB: heap 512, code cache 12, metaspace 30, offheap 48, malloc 34 leave 84
        assertThat(a.parts()).containsExactly(
                new Part("heap", "Java heap", 512 * MIB, 512 * MIB, "GC.heap_info committed"),
                new Part("codeCache", "code cache", 12 * MIB, 12 * MIB, "Compiler.codecache committed"),
                new Part("programFiles", "program files", 0, 0, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 0, 0, "smaps, other files"),
                new Part("threadStacks", "thread stacks", 0, 0, "smaps, guard-page layout"),
                new Part("metaspace", "metaspace", 30 * MIB, 30 * MIB, "metaspace committed"),
                new Part("offheap", "offheap pools", 48 * MIB, 48 * MIB, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 34 * MIB, 34 * MIB, "malloc_info, held less top chunks"));
        assertThat(a.unexplained()).isEqualTo(84 * MIB);
    }

    @Test
    void aHeapClaimLargerThanThePoolTakesItAll() {
        ProcessMemory memory = memory(Map.of(MappingKind.ANONYMOUS, 100 * MIB, MappingKind.PROGRAM_FILE, 7 * MIB));

        Attribution a = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, MALLOC), OFFHEAP);

        assertThat(a.parts()).containsExactly(
                new Part("heap", "Java heap", 100 * MIB, 512 * MIB, "GC.heap_info committed"),
                new Part("codeCache", "code cache", 0, 12 * MIB, "Compiler.codecache committed"),
                new Part("programFiles", "program files", 7 * MIB, 7 * MIB, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 0, 0, "smaps, other files"),
                new Part("threadStacks", "thread stacks", 0, 0, "smaps, guard-page layout"),
                new Part("metaspace", "metaspace", 0, 30 * MIB, "metaspace committed"),
                new Part("offheap", "offheap pools", 0, 48 * MIB, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 0, 34 * MIB, "malloc_info, held less top chunks"));
        assertThat(a.unexplained()).isZero();
    }

    @Test
    void withNmtButNoLabelsNmtsFiguresClaimMetaspaceGcAndOtherJvmMappings() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.CODE_CACHE, 10 * MIB,
                MappingKind.PROGRAM_FILE, 40 * MIB, MappingKind.DATA_FILE, 16 * MIB, MappingKind.THREAD_STACK, 2 * MIB,
                MappingKind.NATIVE_HEAP, 20 * MIB, MappingKind.ANONYMOUS, 100 * MIB, MappingKind.SHARED_MEMORY, 4 * MIB));

        Attribution a = Attribution.of(memory, JVM, reports(NMT, VmMap.EMPTY, MALLOC), OFFHEAP);

        // pool 124 MiB: metaspace 20, gc 10, other 4, offheap 48, malloc 34 leave 8
        assertThat(a.parts()).containsExactly(
                new Part("heap", "Java heap", 300 * MIB, 300 * MIB, "smaps in the heap's range"),
                new Part("codeCache", "code cache", 10 * MIB, 10 * MIB, "smaps in the code heaps"),
                new Part("programFiles", "program files", 40 * MIB, 40 * MIB, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 16 * MIB, 16 * MIB, "smaps, other files"),
                new Part("threadStacks", "thread stacks", 2 * MIB, 2 * MIB, "smaps, guard-page layout"),
                new Part("metaspace", "metaspace", 20 * MIB, 20 * MIB, "NMT Class + Metaspace mmap committed"),
                new Part("gc", "GC structures", 10 * MIB, 10 * MIB, "NMT GC mmap committed"),
                new Part("otherJvm", "other JVM mappings", 4 * MIB, 4 * MIB, "NMT other categories' mmap committed"),
                new Part("offheap", "offheap pools", 48 * MIB, 48 * MIB, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 34 * MIB, 34 * MIB, "malloc_info, held less top chunks"));
        assertThat(a.unexplained()).isEqualTo(8 * MIB);
    }

    @Test
    void withLabelsTheLabelledKindsJoinThePoolAndClaimLastAtMostNmtsFigure() {
        ProcessMemory memory = memory(Map.ofEntries(Map.entry(MappingKind.JAVA_HEAP, 300 * MIB),
                Map.entry(MappingKind.CODE_CACHE, 10 * MIB), Map.entry(MappingKind.PROGRAM_FILE, 40 * MIB),
                Map.entry(MappingKind.DATA_FILE, 16 * MIB), Map.entry(MappingKind.THREAD_STACK, 5 * MIB),
                Map.entry(MappingKind.METASPACE, 18 * MIB), Map.entry(MappingKind.GC_DATA, 12 * MIB),
                Map.entry(MappingKind.JVM_OTHER, 2 * MIB), Map.entry(MappingKind.NATIVE_HEAP, 20 * MIB),
                Map.entry(MappingKind.ANONYMOUS, 100 * MIB), Map.entry(MappingKind.SHARED_MEMORY, 4 * MIB)));

        Attribution a = Attribution.of(memory, JVM, reports(NMT, LABELS, MALLOC), OFFHEAP);

        // pool 124 + 5 + 18 + 12 + 2 = 161 MiB: offheap 48, malloc 34, then stacks min(5, 3), metaspace min(18, 20),
        // gc min(12, 10), other min(2, 4) leave 46
        String source = "smaps, System.map labels, at most NMT's figure";
        assertThat(a.parts()).containsExactly(
                new Part("heap", "Java heap", 300 * MIB, 300 * MIB, "smaps in the heap's range"),
                new Part("codeCache", "code cache", 10 * MIB, 10 * MIB, "smaps in the code heaps"),
                new Part("programFiles", "program files", 40 * MIB, 40 * MIB, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 16 * MIB, 16 * MIB, "smaps, other files"),
                new Part("offheap", "offheap pools", 48 * MIB, 48 * MIB, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 34 * MIB, 34 * MIB, "malloc_info, held less top chunks"),
                new Part("threadStacks", "thread stacks", 3 * MIB, 3 * MIB, source),
                new Part("metaspace", "metaspace", 18 * MIB, 18 * MIB, source),
                new Part("gc", "GC structures", 10 * MIB, 10 * MIB, source),
                new Part("otherJvm", "other JVM mappings", 2 * MIB, 2 * MIB, source));
        assertThat(a.rss()).isEqualTo(527 * MIB);
        assertThat(a.unexplained()).isEqualTo(46 * MIB);
    }

    @Test
    void withLabelsMallocAndOffheapComeFirstSoTheLabelledKindsAreCappedByWhatTheyLeave() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.THREAD_STACK, 5 * MIB,
                MappingKind.METASPACE, 18 * MIB, MappingKind.GC_DATA, 12 * MIB, MappingKind.JVM_OTHER, 2 * MIB,
                MappingKind.ANONYMOUS, 50 * MIB));

        Attribution a = Attribution.of(memory, JVM, reports(NMT, LABELS, MALLOC), OFFHEAP);

        // pool 50 + 5 + 18 + 12 + 2 = 87 MiB: the code cache (no range) 12, offheap 48, malloc the 27 left of its
        // 34, the labelled kinds nothing of their min(smaps, NMT)
        String source = "smaps, System.map labels, at most NMT's figure";
        assertThat(a.parts()).containsExactly(
                new Part("heap", "Java heap", 300 * MIB, 300 * MIB, "smaps in the heap's range"),
                new Part("codeCache", "code cache", 12 * MIB, 12 * MIB, "Compiler.codecache committed"),
                new Part("programFiles", "program files", 0, 0, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 0, 0, "smaps, other files"),
                new Part("offheap", "offheap pools", 48 * MIB, 48 * MIB, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 27 * MIB, 34 * MIB, "malloc_info, held less top chunks"),
                new Part("threadStacks", "thread stacks", 0, 3 * MIB, source),
                new Part("metaspace", "metaspace", 0, 18 * MIB, source),
                new Part("gc", "GC structures", 0, 10 * MIB, source),
                new Part("otherJvm", "other JVM mappings", 0, 2 * MIB, source));
        assertThat(a.unexplained()).isZero();
    }

    @Test
    void labelsWithoutNmtsSummaryAreNotUsedAndTheirKindsStayUnexplained() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.CODE_CACHE, 10 * MIB,
                MappingKind.METASPACE, 18 * MIB, MappingKind.NATIVE_HEAP, 20 * MIB, MappingKind.ANONYMOUS, 100 * MIB));

        Attribution a = Attribution.of(memory, JVM, reports(null, LABELS, MALLOC), OFFHEAP);

        // pool 120 MiB (not the 18 MiB labelled metaspace): metaspace 30, offheap 48, malloc 34 leave 8
        assertThat(a.parts()).containsExactly(
                new Part("heap", "Java heap", 300 * MIB, 300 * MIB, "smaps in the heap's range"),
                new Part("codeCache", "code cache", 10 * MIB, 10 * MIB, "smaps in the code heaps"),
                new Part("programFiles", "program files", 0, 0, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 0, 0, "smaps, other files"),
                new Part("threadStacks", "thread stacks", 0, 0, "smaps, guard-page layout"),
                new Part("metaspace", "metaspace", 30 * MIB, 30 * MIB, "metaspace committed"),
                new Part("offheap", "offheap pools", 48 * MIB, 48 * MIB, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 34 * MIB, 34 * MIB, "malloc_info, held less top chunks"));
        assertThat(a.unexplained()).isEqualTo(26 * MIB);
    }

    @Test
    void withoutMallocStatisticsOrOffheapBeansTheyClaimNothing() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.CODE_CACHE, 10 * MIB,
                MappingKind.ANONYMOUS, 100 * MIB));

        Attribution a = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, null), Optional.of(List.of()));

        assertThat(a.parts()).extracting(Part::key, Part::bytes, Part::claimed).containsExactly(
                tuple("heap", 300 * MIB, 300 * MIB),
                tuple("codeCache", 10 * MIB, 10 * MIB),
                tuple("programFiles", 0L, 0L),
                tuple("mapped", 0L, 0L),
                tuple("threadStacks", 0L, 0L),
                tuple("metaspace", 30 * MIB, 30 * MIB),
                tuple("offheap", 0L, 0L),
                tuple("malloc", 0L, 0L));
        assertThat(a.unexplained()).isEqualTo(70 * MIB);
    }

    @Test
    void withoutJmxThereIsNoOffheapPartAndMallocClaimsWhatItWouldHaveLeft() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.CODE_CACHE, 10 * MIB,
                MappingKind.ANONYMOUS, 100 * MIB));

        Attribution a = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, MALLOC), Optional.empty());

        // native pool 100 MiB: metaspace 30, malloc 34, the rest unexplained; offheap's pools were not read
        assertThat(a.parts()).extracting(Part::key).doesNotContain("offheap");
        assertThat(a.part("malloc")).isEqualTo(34 * MIB);
        assertThat(a.unexplained()).isEqualTo(36 * MIB);
    }

    @Test
    void aNegativeClaimTakesNothingAndClaimsNothing() {
        ProcessMemory memory = memory(Map.of(MappingKind.JAVA_HEAP, 300 * MIB, MappingKind.CODE_CACHE, 10 * MIB,
                MappingKind.ANONYMOUS, 100 * MIB));
        // top chunks larger than what malloc holds: held less top is -1 MiB
        MallocInfo odd = new MallocInfo(1, 2 * MIB, 2 * MIB, 0, 0, 3 * MIB, 3 * MIB);

        Attribution a = Attribution.of(memory, JVM, reports(null, VmMap.EMPTY, odd), Optional.of(List.of()));

        assertThat(a.parts()).last().isEqualTo(new Part("malloc", "malloc (glibc)", 0, 0, "malloc_info, held less top chunks"));
        assertThat(a.parts()).allSatisfy(p -> assertThat(p.bytes()).isNotNegative());
        assertThat(a.unexplained()).isEqualTo(70 * MIB);
    }

    @Test
    void partReadsAPartsBytesAndZeroForAPartThatIsNotThere() {
        Attribution a = new Attribution(100, List.of(new Part("heap", "Java heap", 60, 70, "s"),
                new Part("malloc", "malloc (glibc)", 30, 30, "s")), 10);

        assertThat(a.part("heap")).isEqualTo(60);
        assertThat(a.part("malloc")).isEqualTo(30);
        assertThat(a.part("gc")).isZero();
    }

    @Test
    void unexplainedShareIsOfRssAndZeroWithoutRss() {
        assertThat(new Attribution(400, List.of(), 100).unexplainedShare()).isEqualTo(0.25);
        assertThat(new Attribution(0, List.of(), 0).unexplainedShare()).isEqualTo(0.0);
    }

    private static ProcessMemory memory(Map<MappingKind, Long> resident) {
        Map<MappingKind, Long> byKind = new EnumMap<>(MappingKind.class);
        for (MappingKind kind : MappingKind.values()) {
            byKind.put(kind, resident.getOrDefault(kind, 0L));
        }
        long rss = resident.values().stream().mapToLong(Long::longValue).sum();
        return new ProcessMemory(rss, 0, 0, 0, 0, byKind, 1, null);
    }

    private static NativeReports reports(NmtSummary nmt, VmMap labels, MallocInfo malloc) {
        return new NativeReports(List.of(), List.of(), nmt, labels, malloc, malloc == null ? "none" : null);
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
