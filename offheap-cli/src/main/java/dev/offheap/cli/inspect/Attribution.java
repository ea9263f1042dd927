package dev.offheap.cli.inspect;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Splits the target's RSS into parts that never overlap, so that what is left, {@code unexplained}, is what
 * nothing accounts for.
 *
 * <p>The partition. Every mapping of {@code /proc/PID/smaps} has one {@link MappingKind}, and a part that
 * owns a kind counts its resident pages exactly:
 * <ol>
 *   <li>{@code heap}: the Java heap (its range from {@code GC.heap_info});</li>
 *   <li>{@code codeCache}: the code heaps ({@code Compiler.codecache} bounds);</li>
 *   <li>{@code programFiles}: libraries, jars, the JDK's image and CDS archive, the kernel's vdso;</li>
 *   <li>{@code mapped}: every other file mapping: the JDK's mapped buffers, offheap's mapped arrays and spill
 *       files, anything else mapping a file;</li>
 *   <li>{@code threadStacks} without NMT: recognised by the guard pages below them.</li>
 * </ol>
 * The rest is anonymous native memory (anonymous mappings, malloc's brk heap, shared memory), the
 * <em>native pool</em>. Its owners cannot be told apart by address, so each of the following takes what its
 * owner reports, in this order, never more than the pool still holds (the part then shows what it claimed):
 * <ol start="7">
 *   <li>{@code metaspace} without NMT: metaspace's committed bytes ({@code GC.heap_info}, or
 *       {@code VM.metaspace basic});</li>
 *   <li>{@code offheap}: bytes offheap's pools took from the OS ({@code BytesFromOs}): on Linux anonymous
 *       mappings of their own, never malloc'd (over JMX only: without it there is no such part);</li>
 *   <li>{@code malloc}: what glibc's malloc holds (arenas, in use and free, and chunks mapped on their own)
 *       less the arenas' top chunks, whose pages malloc may never have touched. Direct buffers, FFM arenas,
 *       NMT's malloc'd categories and native libraries' allocations all live here, so none is a part of its
 *       own: direct buffers are reported as a share of malloc;</li>
 *   <li>with NMT, from {@code System.map}'s labels: {@code threadStacks}, {@code metaspace}, {@code gc}
 *       (bitmaps, card table), {@code otherJvm}, each the resident pages of its labelled mappings at most
 *       NMT's committed figure. They come last because the kernel merges adjacent anonymous mappings, so a
 *       labelled mapping can hold a malloc'd neighbour's pages, and NMT's committed figures can be far above
 *       what is resident: malloc's own report is the more exact one.</li>
 * </ol>
 * Without NMT, or on a JDK without {@code System.map}, NMT's summary figures claim {@code metaspace}, {@code gc}
 * and {@code otherJvm} from the pool instead when NMT runs, and nothing claims them when it does not.
 * {@code unexplained = RSS - sum of the parts}: memory mapped by native code outside malloc, another
 * allocator (jemalloc), and without NMT the GC's structures and the JVM's smaller mappings.
 *
 * @param rss the RSS being split
 * @param parts the parts, in the order above
 * @param unexplained what no part accounts for
 */
record Attribution(long rss, List<Part> parts, long unexplained) {

    /**
     * One part of RSS.
     *
     * @param key its JSON name
     * @param label its name for people
     * @param bytes resident bytes attributed to it
     * @param claimed what its owner reports, when that was capped (else equal to bytes)
     * @param source where the figure comes from
     */
    record Part(String key, String label, long bytes, long claimed, String source) {}

    long part(String key) {
        return parts.stream().filter(p -> p.key().equals(key)).mapToLong(Part::bytes).findFirst().orElse(0);
    }

    double unexplainedShare() {
        return rss == 0 ? 0 : (double) unexplained / rss;
    }

    static Attribution of(ProcessMemory memory, JvmAreas jvm, NativeReports reports,
            Optional<List<OffheapBean>> offheap) {
        List<Part> parts = new ArrayList<>();
        long nativePool = memory.of(MappingKind.NATIVE_HEAP) + memory.of(MappingKind.ANONYMOUS)
                + memory.of(MappingKind.SHARED_MEMORY);
        NmtSummary nmt = reports.nmt();
        boolean labelled = !reports.vmMap().isEmpty() && nmt != null;
        if (labelled) {
            // The kernel merges adjacent anonymous mappings with equal permissions, so a labelled mapping can
            // hold a neighbour's pages (a malloc'd chunk next to a GC bitmap), and NMT's committed figures can
            // be far above what is resident (GC: 40 MB committed, 1 MB resident). So the labelled kinds go to
            // the native pool too and claim from it last, after malloc, whose own report is exact.
            nativePool += memory.of(MappingKind.THREAD_STACK) + memory.of(MappingKind.METASPACE)
                    + memory.of(MappingKind.GC_DATA) + memory.of(MappingKind.JVM_OTHER);
        }
        Claims claims = new Claims(nativePool, parts);
        if (memory.of(MappingKind.JAVA_HEAP) > 0) {
            parts.add(exact("heap", "Java heap", memory.of(MappingKind.JAVA_HEAP), "smaps in the heap's range"));
        } else {
            claims.take("heap", "Java heap", jvm.heapCommitted(), "GC.heap_info committed");
        }
        if (memory.of(MappingKind.CODE_CACHE) > 0) {
            parts.add(exact("codeCache", "code cache", memory.of(MappingKind.CODE_CACHE), "smaps in the code heaps"));
        } else {
            claims.take("codeCache", "code cache", jvm.codeCacheCommitted(), "Compiler.codecache committed");
        }
        parts.add(exact("programFiles", "program files", memory.of(MappingKind.PROGRAM_FILE) + memory.of(MappingKind.KERNEL),
                "smaps, libraries and jars"));
        parts.add(exact("mapped", "mapped files", memory.of(MappingKind.DATA_FILE), "smaps, other files"));
        if (labelled) {
            // claimed below, after malloc
        } else if (nmt != null) {
            parts.add(exact("threadStacks", "thread stacks", memory.of(MappingKind.THREAD_STACK), "smaps, guard-page layout"));
            claims.take("metaspace", "metaspace", nmt.metaspace(), "NMT Class + Metaspace mmap committed");
            claims.take("gc", "GC structures", nmt.gc(), "NMT GC mmap committed");
            claims.take("otherJvm", "other JVM mappings", nmt.otherMapped(), "NMT other categories' mmap committed");
        } else {
            parts.add(exact("threadStacks", "thread stacks", memory.of(MappingKind.THREAD_STACK), "smaps, guard-page layout"));
            claims.take("metaspace", "metaspace", jvm.metaspaceCommitted(), "metaspace committed");
        }
        if (offheap.isPresent()) { // read over JMX only
            long offheapBytes = offheap.get().stream().filter(OffheapBean::isPool).mapToLong(b -> b.number("BytesFromOs")).sum();
            claims.take("offheap", "offheap pools", offheapBytes, "dev.offheap MBeans BytesFromOs");
        }
        MallocInfo malloc = reports.malloc();
        claims.take("malloc", "malloc (glibc)", malloc == null ? 0 : malloc.heldBytes() - malloc.topBytes(),
                "malloc_info, held less top chunks");
        if (labelled) {
            String source = "smaps, System.map labels, at most NMT's figure";
            claims.take("threadStacks", "thread stacks",
                    Math.min(memory.of(MappingKind.THREAD_STACK), nmt.threadStacks()), source);
            claims.take("metaspace", "metaspace", Math.min(memory.of(MappingKind.METASPACE), nmt.metaspace()), source);
            claims.take("gc", "GC structures", Math.min(memory.of(MappingKind.GC_DATA), nmt.gc()), source);
            claims.take("otherJvm", "other JVM mappings",
                    Math.min(memory.of(MappingKind.JVM_OTHER), nmt.otherMapped()), source);
        }
        long explained = parts.stream().mapToLong(Part::bytes).sum();
        return new Attribution(memory.rss(), List.copyOf(parts), memory.rss() - explained);
    }

    private static Part exact(String key, String label, long bytes, String source) {
        return new Part(key, label, bytes, bytes, source);
    }

    /** Hands out the native pool in order, each claim capped by what is left. */
    private static final class Claims {
        private long left;
        private final List<Part> parts;

        Claims(long pool, List<Part> parts) {
            this.left = pool;
            this.parts = parts;
        }

        void take(String key, String label, long claimed, String source) {
            long bytes = Math.clamp(claimed, 0, Math.max(0, left));
            left -= bytes;
            parts.add(new Part(key, label, bytes, Math.max(0, claimed), source));
        }
    }
}
