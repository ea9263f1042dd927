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
import java.util.Optional;

/**
 * Splits the target's RSS into parts that never overlap, so that what is left, {@code unexplained}, is what
 * nothing accounts for. Every part is made of resident pages: none counts what is merely reserved or
 * committed, and no part's figure can take pages another part has shown are its own.
 *
 * <p>Exact parts, counted page by page from {@code /proc/PID/smaps} (and {@code /proc/PID/pagemap} where a
 * known range covers only part of a mapping):
 * <ol>
 *   <li>{@code heap} and {@code codeCache}: mappings inside the ranges {@code GC.heap_info} and
 *       {@code Compiler.codecache} print;</li>
 *   <li>{@code programFiles} (libraries, jars, the JDK's files), {@code mapped} (every other file) and
 *       {@code sharedMemory} (memfd, {@code /dev/shm});</li>
 *   <li>{@code threadStacks}, {@code metaspace}, {@code gc}, {@code otherJvm}: the JVM's labelled regions
 *       ({@code System.map}, or NMT detail where that command is missing), stacks also by their guard pages;</li>
 *   <li>{@code offheap}: the addresses offheap's pools publish ({@code AddressRanges} of their MBeans, read
 *       over JMX only: without it there is no such part and their pages are anonymous memory);</li>
 *   <li>{@code malloc}: glibc's arenas, the brk heap and the 64 MiB arena heaps.</li>
 * </ol>
 * What is left of the anonymous mappings no part explains is then handed out by elimination, each taking at
 * most its owner's own figure ({@code bound}): malloc's chunks mapped on their own (malloc_info's
 * {@code mmap} total), then, only where the JVM did not label them, metaspace (its committed bytes) and, with
 * NMT, GC structures and the JVM's other mappings (NMT's committed figures), and last, when the target uses
 * another allocator (jemalloc preloaded, or linked inside a library), that allocator: everything still left, by
 * elimination; with no other allocator and no NMT, GC structures take what is left, at most G1's side tables
 * for the committed heap ({@link GcTables}).
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
     * @param exact true when counted from its own addresses; false when taken by elimination
     * @param bound for a part taken by elimination, the most it could take (its owner's own figure); else -1
     * @param source where the figure comes from
     */
    record Part(String key, String label, long bytes, boolean exact, long bound, String source) {

        boolean is(PartName name) {
            return key.equals(name.key());
        }
    }

    /** A part's bytes, 0 when there is no such part. */
    long part(PartName name) {
        return part(name.key());
    }

    long part(String key) {
        return parts.stream().filter(p -> p.key().equals(key)).mapToLong(Part::bytes).findFirst().orElse(0);
    }

    double unexplainedShare() {
        return rss == 0 ? 0 : (double) unexplained / rss;
    }

    static Attribution of(ProcessMemory memory, JvmAreas jvm, NativeReports reports,
            Optional<List<OffheapBean>> offheap) {
        return of(memory, jvm, reports, offheap, MallocChunks.Result.NOT_LOOKED);
    }

    /**
     * With {@code chunks} found, malloc's chunks mapped on their own are exact (their ranges are among the
     * memory's owned ranges, part {@code malloc}); else they are taken by elimination, at most malloc_info's total.
     */
    static Attribution of(ProcessMemory memory, JvmAreas jvm, NativeReports reports,
            Optional<List<OffheapBean>> offheap, MallocChunks.Result chunks) {
        List<Part> parts = new ArrayList<>();
        Leftover anonymous = new Leftover(memory.of(MappingKind.ANONYMOUS), parts);
        long heap = memory.of(MappingKind.JAVA_HEAP) + memory.owned(PartName.HEAP);
        if (heap > 0 || !reports.heapRanges().isEmpty()) {
            parts.add(exact(PartName.HEAP, heap, "smaps in the heap's range"));
        } else {
            anonymous.take(PartName.HEAP, jvm.heapCommitted(), "no heap range printed: committed heap, by elimination");
        }
        long code = memory.of(MappingKind.CODE_CACHE) + memory.owned(PartName.CODE_CACHE);
        if (code > 0 || !reports.codeRanges().isEmpty()) {
            parts.add(exact(PartName.CODE_CACHE, code, "smaps in the code heaps"));
        } else {
            anonymous.take(PartName.CODE_CACHE, jvm.codeCacheCommitted(),
                    "no code heap printed: committed code cache, by elimination");
        }
        addFiles(parts, memory);
        boolean labelled = !reports.vmMap().isEmpty();
        parts.add(exact(PartName.THREAD_STACKS, memory.of(MappingKind.THREAD_STACK) + memory.owned(PartName.THREAD_STACKS),
                labelled ? "smaps, the JVM's stack labels and guard pages" : "smaps, guard-page layout"));
        NmtSummary nmt = reports.nmt();
        List<JvmPart> unlabelled = new ArrayList<>();
        if (labelled) {
            // System.map labels whole mappings: a region the kernel merged into a neighbour's mapping can carry
            // the neighbour's label, so a part NMT says holds memory but no label shows is left to elimination.
            for (JvmPart p : JvmPart.values()) {
                labelledPart(parts, unlabelled, memory, nmt, p);
            }
        }
        if (offheap.isPresent()) { // read over JMX only: without it offheap's pages are anonymous memory like any other
            parts.add(exact(PartName.OFFHEAP, memory.owned(PartName.OFFHEAP), "smaps in the pools' AddressRanges"));
        }
        MallocInfo malloc = reports.malloc();
        if (chunks.chunks().isPresent()) {
            addMalloc(parts, memory, chunks);
        } else {
            long taken = malloc == null ? 0 : Math.min(malloc.mmappedBytes(), anonymous.left);
            anonymous.left -= taken;
            parts.add(new Part(PartName.MALLOC.key(), PartName.MALLOC.label(), arenas(memory) + taken, malloc == null,
                    malloc == null ? -1 : malloc.mmappedBytes(), malloc == null ? mallocSource(chunks)
                            : "smaps, the brk heap and arena heaps; chunks mapped on their own by elimination, at most malloc_info's"));
        }
        if (!labelled && nmt == null) {
            anonymous.take(PartName.METASPACE, jvm.metaspaceCommitted(),
                    "by elimination, at most metaspace's committed (GC.heap_info)");
        }
        if (nmt != null) {
            // Without labels every JVM part comes by elimination; with them only those no label shows.
            String how = labelled ? "no label shows it: by elimination" : "by elimination";
            for (JvmPart p : eliminationOrder(jvm)) {
                if (!labelled || unlabelled.contains(p)) {
                    long bound = p.nmtFigure(nmt);
                    long inUse = inUseTables(jvm);
                    if (p == JvmPart.GC && inUse >= 0 && inUse < bound) {
                        anonymous.take(p.name, inUse, how + ", at most " + GcTables.how(jvm.vm()).replace(
                                "committed heap", "heap in use") + " (NMT's committed GC, "
                                + dev.offheap.account.Bytes.human(bound) + ", counts G1's mark stack and task queues"
                                + " too, barely touched)");
                    } else {
                        anonymous.take(p.name, bound, how + ", at most NMT's committed " + p.nmtName);
                    }
                }
            }
        }
        if (!memory.otherAllocators().isEmpty()) {
            anonymous.take(PartName.OTHER_ALLOCATOR, otherAllocatorLabel(memory), anonymous.left,
                    "by elimination: anonymous memory no other part explains, with " + allocators(memory));
        } else if (!labelled && nmt == null && jvm.gcTablesEstimate() > 0) {
            // The estimate bounds what G1 committed, not what it touched (a committed heap little used has its
            // tables mostly untouched): it labels only what would be unexplained, never another part's pages.
            anonymous.take(PartName.GC, jvm.gcTablesEstimate(),
                    "an estimate without NMT: what no other part explains, at most " + GcTables.how(jvm.vm()));
        }
        long explained = parts.stream().mapToLong(Part::bytes).sum();
        return new Attribution(memory.rss(), List.copyOf(parts), memory.rss() - explained);
    }

    /**
     * What smaps alone tells, without attaching ({@code --no-attach}): files, shared memory, thread stacks (by
     * their guard pages), malloc (its arenas by their layout, its chunks by their headers where the memory can be
     * read), another allocator by elimination; the heap, the code cache and the JVM's other regions cannot be
     * told from other anonymous memory without the JVM's ranges, so they stay unexplained.
     */
    static Attribution fromProc(ProcessMemory memory, MallocChunks.Result chunks) {
        List<Part> parts = new ArrayList<>();
        addFiles(parts, memory);
        parts.add(exact(PartName.THREAD_STACKS, memory.of(MappingKind.THREAD_STACK), "smaps, guard-page layout"));
        addMalloc(parts, memory, chunks);
        if (!memory.otherAllocators().isEmpty()) {
            parts.add(new Part(PartName.OTHER_ALLOCATOR.key(), otherAllocatorLabel(memory), memory.of(MappingKind.ANONYMOUS), false,
                    memory.of(MappingKind.ANONYMOUS), "by elimination: every anonymous mapping no other part explains,"
                    + " the JVM's own included (not attached), with " + allocators(memory)));
        }
        long explained = parts.stream().mapToLong(Part::bytes).sum();
        return new Attribution(memory.rss(), List.copyOf(parts), memory.rss() - explained);
    }

    /** {@code jemalloc}, {@code jemalloc in libduckdb_java.so}, or each of several joined. */
    private static String otherAllocatorLabel(ProcessMemory memory) {
        return String.join(", ", memory.otherAllocators().stream().map(NativeAllocator::label).toList());
    }

    private static String allocators(ProcessMemory memory) {
        return String.join("; ", memory.otherAllocators().stream().map(NativeAllocator::describe).toList());
    }

    /**
     * The order the JVM's parts are taken by elimination: the tightest bound first. With G1's estimate the GC part
     * goes first, at most its tables for the heap in use: NMT's committed metaspace would otherwise take the GC's
     * pages too (InflaterLeakTest on JDK 17 with NMT summary left GC 0 of its 0.5-1 MiB).
     */
    private static List<JvmPart> eliminationOrder(JvmAreas jvm) {
        return inUseTables(jvm) >= 0 ? List.of(JvmPart.GC, JvmPart.METASPACE, JvmPart.OTHER_JVM)
                : List.of(JvmPart.values());
    }

    /**
     * G1's side tables for the heap in use, -1 without an estimate: the pages a collection has touched, closer to
     * what is resident than the tables for the committed heap, which a heap committed but little used leaves
     * untouched (taken first, the committed figure took metaspace's pages: 9.5 of InflaterLeak's 10 MiB on JDK 17).
     */
    private static long inUseTables(JvmAreas jvm) {
        if (jvm.gcTablesEstimate() <= 0 || jvm.heapCommitted() <= 0 || jvm.heapUsed() < 0) {
            return -1;
        }
        return (long) ((double) jvm.gcTablesEstimate() * Math.min(jvm.heapUsed(), jvm.heapCommitted()) / jvm.heapCommitted());
    }

    /** The JVM's parts NMT labels and counts: exact where labelled, else by elimination at most NMT's figure. */
    private enum JvmPart {
        METASPACE(PartName.METASPACE, "Class + Metaspace"),
        GC(PartName.GC, "GC"),
        OTHER_JVM(PartName.OTHER_JVM, "other mappings");

        final PartName name;
        final String nmtName;

        JvmPart(PartName name, String nmtName) {
            this.name = name;
            this.nmtName = nmtName;
        }

        long nmtFigure(NmtSummary nmt) {
            return switch (this) {
                case METASPACE -> nmt.metaspace();
                case GC -> nmt.gc();
                case OTHER_JVM -> nmt.otherMapped();
            };
        }
    }

    private static void labelledPart(List<Part> parts, List<JvmPart> unlabelled, ProcessMemory memory, NmtSummary nmt,
            JvmPart part) {
        long bytes = memory.owned(part.name);
        if (bytes == 0 && nmt != null && part.nmtFigure(nmt) > 0) {
            unlabelled.add(part);
        } else {
            parts.add(exact(part.name, bytes, "smaps in the JVM's labelled regions"));
        }
    }

    /** Program files, other mapped files and shared memory: what smaps tells by path alone. */
    private static void addFiles(List<Part> parts, ProcessMemory memory) {
        parts.add(exact(PartName.PROGRAM_FILES, memory.of(MappingKind.PROGRAM_FILE) + memory.of(MappingKind.KERNEL),
                "smaps, libraries and jars"));
        parts.add(exact(PartName.MAPPED, memory.of(MappingKind.DATA_FILE), "smaps, other files"));
        parts.add(exact(PartName.SHARED_MEMORY, memory.of(MappingKind.SHARED_MEMORY), "smaps, memfd and /dev/shm"));
    }

    /** malloc counted from its own pages: its arenas, and its chunks where their headers were read. */
    private static void addMalloc(List<Part> parts, ProcessMemory memory, MallocChunks.Result chunks) {
        parts.add(exact(PartName.MALLOC, arenas(memory) + memory.owned(PartName.MALLOC), mallocSource(chunks)));
    }

    private static long arenas(ProcessMemory memory) {
        return memory.of(MappingKind.NATIVE_HEAP) + memory.of(MappingKind.MALLOC_ARENA);
    }

    private static String mallocSource(MallocChunks.Result chunks) {
        return chunks.chunks().isPresent()
                ? "smaps, the brk heap, arena heaps and chunks mapped on their own (found by their headers)"
                : "smaps, the brk heap and arena heaps (chunks mapped on their own unknown: " + chunks.problem() + ")";
    }

    private static Part exact(PartName name, long bytes, String source) {
        return new Part(name.key(), name.label(), bytes, true, -1, source);
    }

    /** The anonymous memory no exact part explains, handed out in order, each share capped by its bound. */
    private static final class Leftover {
        private long left;
        private final List<Part> parts;

        Leftover(long left, List<Part> parts) {
            this.left = left;
            this.parts = parts;
        }

        void take(PartName name, long bound, String source) {
            take(name, name.label(), bound, source);
        }

        void take(PartName name, String label, long bound, String source) {
            long bytes = Math.clamp(bound, 0, Math.max(0, left));
            left -= bytes;
            parts.add(new Part(name.key(), label, bytes, false, Math.max(0, bound), source));
        }
    }
}
