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

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The ground truth of one process at one moment: its resident pages split into inspect's categories by
 * sources that do not use inspect's method. Every page that pagemap reports resident goes to the first
 * category that claims it:
 *
 * <ol>
 *   <li>{@code heap}: the range {@code GC.heap_info} prints;</li>
 *   <li>{@code codeCache}: the code heaps' bounds from {@code Compiler.codecache};</li>
 *   <li>{@code programFiles} / {@code mapped}: file mappings, told apart by the file's first bytes (ELF, zip/jar,
 *       jimage, CDS archive, perf data) or its place (locales, the target's JDK), read through
 *       {@code /proc/PID/map_files}; every other file is {@code mapped}; the kernel's vdso counts as a program file;</li>
 *   <li>with NMT: every reserved region of {@code VM.native_memory detail}, by its category (Thread Stack,
 *       Metaspace/Class/Shared class space, GC, the rest otherJvm);</li>
 *   <li>{@code threadStacks}: the stack block of every live thread, found from its stack pointer
 *       ({@code /proc/PID/task/TID/syscall}) and bounded by glibc's thread descriptor at the block's top (its
 *       {@code stackblock} and {@code stackblock_size}); the primordial thread's {@code [stack]}; and glibc's cached
 *       stacks of ended threads, found by the same descriptor;</li>
 *   <li>{@code metaspace}: the nodes {@code VM.metaspace vslist} lists;</li>
 *   <li>{@code gc}: the GC's side tables as {@code -Xlog:pagesize} logged them at start-up;</li>
 *   <li>{@code malloc} (glibc): {@code [heap]} (the main arena), every non-main arena heap (a {@code heap_info}
 *       header at a 64 MiB boundary, read through {@code /proc/PID/mem}: its arena pointer, previous heap, size
 *       and protected size must make sense), and every chunk mapped on its own (a chunk header with IS_MMAPPED
 *       whose size runs to a page boundary inside unclaimed anonymous memory);</li>
 *   <li>{@code otherAllocator}: with jemalloc preloaded, the anonymous pages nothing above claims;</li>
 *   <li>what is left is the truth's own residual.</li>
 * </ol>
 * Only pages pagemap reports present are read through {@code /proc/PID/mem}.
 */
final class Truth {
    static final long MIB = 1024 * 1024;
    private static final long ARENA_HEAP = 64 * MIB;

    private final long pid;
    private final Path jdk;
    private final Path pagesizeLog;

    Truth(long pid, Path jdk, Path pagesizeLog) {
        this.pid = pid;
        this.jdk = jdk;
        this.pagesizeLog = pagesizeLog;
    }

    /** The target JVM's diagnostic command through its own JDK's jcmd; null when it fails. */
    String jcmd(String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>();
        args.add(jdk.resolve("bin/jcmd").toString());
        args.add(Long.toString(pid));
        args.addAll(List.of(command));
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            return null;
        }
        String text = new String(out, StandardCharsets.UTF_8);
        int newline = text.indexOf('\n');
        return newline >= 0 && text.substring(0, newline).trim().equals(pid + ":") ? text.substring(newline + 1) : text;
    }

    /** One sample: the truth per category with its source and bounds, and the figures behind it. */
    Map<String, Object> sample(boolean nmtOn, int jdkFeature) throws IOException, InterruptedException {
        long begin = System.nanoTime();
        String heapInfo = jcmd("GC.heap_info");
        String codecache = jcmd("Compiler.codecache");
        String metaspace = jcmd("VM.metaspace", "vslist");
        String nmtText = nmtOn ? jcmd("VM.native_memory", "detail") : null;
        String mallocText = jdkFeature >= 21 ? jcmd("System.native_heap_info") : null;
        String log = pagesizeLog != null && Files.exists(pagesizeLog) ? Files.readString(pagesizeLog) : null;

        // the moment: thread stack pointers, smaps and pagemap, as close together as they can be read
        long moment = System.currentTimeMillis();
        long stamp = System.nanoTime();
        Map<Long, Long> stackPointers = stackPointers();
        List<Vma> vmas = Vma.parseSmaps(Files.readString(proc("smaps")));
        Space space = Space.read(pid, vmas);
        long vmRss = vmRss();
        long momentMillis = (System.nanoTime() - stamp) / 1_000_000;

        Map<String, Object> extra = new LinkedHashMap<>();
        Map<String, String> sources = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        boolean jemalloc = vmas.stream().anyMatch(v -> v.path().contains("libjemalloc"));
        // DuckDB's Linux builds link jemalloc into their JNI library for DuckDB's own memory: glibc still serves
        // everyone else's malloc, and what no other source claims is that allocator's
        boolean linkedAllocator = vmas.stream().anyMatch(v -> v.path().contains("libduckdb_java"));

        // 1. heap, 2. code cache
        List<Reports.Range> heap = Reports.heap(heapInfo);
        heap.forEach(r -> space.claim(r.start(), r.end(), "heap"));
        extra.put("heapRanges", ranges(heap));
        sources.put("heap", "pagemap in GC.heap_info's range");
        List<Reports.Range> code = Reports.code(codecache);
        code.forEach(r -> space.claim(r.start(), r.end(), "codeCache"));
        sources.put("codeCache", "pagemap in Compiler.codecache's bounds");

        // 3. files (the kernel's vdso and vvar: smaps' figure, pagemap of special mappings says little)
        Map<String, String> kinds = new HashMap<>();
        long kernelRss = 0;
        for (Vma v : vmas) {
            if (v.kernel()) {
                kernelRss += v.rss();
                space.claim(v.start(), v.end(), "programFiles");
            } else if (v.sharedMemory()) {
                space.claim(v.start(), v.end(), "sharedMemory");
            } else if (v.file()) {
                boolean program = kinds.computeIfAbsent(v.path(), p -> isProgramFile(v) ? "program" : "data")
                        .equals("program");
                space.claim(v.start(), v.end(), program ? "programFiles" : "mapped");
            }
        }
        sources.put("programFiles", "pagemap of file mappings whose file is ELF, jar/zip, jimage, CDS or perf data"
                + " (first bytes via /proc/PID/map_files), locales or the JDK's; vdso from smaps");
        sources.put("mapped", "pagemap of every other file mapping");
        extra.put("dataFiles", kinds.entrySet().stream().filter(e -> e.getValue().equals("data")).map(Map.Entry::getKey)
                .sorted().toList());

        // 4. NMT
        Reports.Nmt nmt = nmtText == null ? null : Reports.nmt(nmtText);
        if (nmt != null) {
            // what NMT's regions add after the heap, the code cache and the files (CDS is a file mapping)
            Map<String, Long> claimedByNmt = new LinkedHashMap<>();
            for (Reports.Range r : nmt.regions()) {
                String category = nmtCategory(r.name());
                claimedByNmt.merge(category, space.claim(r.start(), r.end(), category), Long::sum);
            }
            extra.put("nmtPresentByCategory", claimedByNmt);
            Map<String, Object> committed = new LinkedHashMap<>();
            nmt.summary().forEach((k, v) -> committed.put(k, Map.of("committed", v[0], "mmapCommitted", v[1], "malloc", v[2])));
            extra.put("nmtSummary", committed);
            extra.put("nmtCommittedInRegions", nmt.committedInRegions());
            if (nmt.regions().isEmpty()) {
                notes.add("NMT's detail report had no virtual memory map");
            }
        } else if (nmtOn) {
            notes.add("NMT detail was asked for but VM.native_memory detail printed nothing usable");
        }

        // 5. thread stacks
        try (ProcMem mem = new ProcMem(pid)) {
            Stacks stacks = new Stacks(space, mem);
            long live = stacks.claimLive(stackPointers);
            extra.put("threads", (long) stackPointers.size());
            extra.put("threadsWithoutStackPointer", stacks.unresolved);
            extra.put("liveStackBlocks", stacks.blocks);
            extra.put("liveStackBlocksPresent", stacks.blocksPresent);
            extra.put("liveStackBlocksWithoutDescriptor", stacks.withoutDescriptor);
            extra.put("liveStacksClaimedAfterNmt", live);
            if (stacks.unresolved > 0) {
                notes.add(stacks.unresolved + " threads ran on a CPU at every read of their stack pointer: their stacks"
                        + " are found by glibc's thread descriptor instead (liveStackBlocksFoundByDescriptor)");
            }

            // 6. metaspace, 7. GC side tables (their presence figures also as cross-checks under NMT)
            List<Reports.Range> nodes = Reports.metaspace(metaspace);
            extra.put("metaspaceNodesPresent", nodes.stream().mapToLong(r -> space.present(r.start(), r.end())).sum());
            nodes.forEach(r -> space.claim(r.start(), r.end(), "metaspace"));
            List<Reports.Range> logged = Reports.pagesizeLog(log);
            long gcLogged = 0;
            for (Reports.Range r : logged) {
                if (r.name().startsWith("CodeHeap")) {
                    space.claim(r.start(), r.end(), "codeCache");
                } else if (r.name().equals("Heap")) {
                    space.claim(r.start(), r.end(), "heap");
                } else {
                    gcLogged += space.present(r.start(), r.end());
                    space.claim(r.start(), r.end(), "gc");
                }
            }
            extra.put("gcSideTablesPresent", gcLogged);
            extra.put("gcSideTables", logged.stream().filter(r -> !r.name().startsWith("CodeHeap") && !r.name().equals("Heap"))
                    .map(Reports.Range::name).toList());
            if (log == null) {
                notes.add("no -Xlog:pagesize log: the GC's side tables are not found without NMT");
            }

            // 8. glibc malloc
            Malloc malloc = new Malloc(space, mem);
            malloc.claimMainArena();
            malloc.claimArenaHeaps();
            if (!jemalloc) {
                malloc.claimMmappedChunks();
            }
            extra.put("mallocMainArena", malloc.mainArena);
            extra.put("mallocArenaHeaps", (long) malloc.arenaHeaps);
            extra.put("mallocArenaHeapsResident", malloc.arenaResident);
            extra.put("mallocMmappedChunks", (long) malloc.chunks);
            extra.put("mallocMmappedChunkBytes", malloc.chunkBytes);
            extra.put("mallocMmappedChunksResident", malloc.chunkResident);
            Reports.MallocInfo info = Reports.mallocInfo(mallocText);
            if (info != null) {
                extra.put("mallocInfo", Map.of("arenas", (long) info.arenas(), "mmapCount", info.mmapCount(),
                        "mmapBytes", info.mmapBytes(), "systemCurrent", info.systemCurrent(), "free", info.freeBytes()));
            }

            // cached stacks of ended threads: after malloc, so that nothing malloc owns is scanned
            stacks.claimCached();
            extra.put("cachedStacksOfEndedThreads", stacks.cachedBytes);
            extra.put("cachedStackBlocks", stacks.cachedBlocks);
            extra.put("liveStackBlocksFoundByDescriptor", stacks.liveByDescriptor);
            extra.put("liveStacksFoundByDescriptor", stacks.liveByDescriptorBytes);

            // 9. another allocator takes what is left
            if (jemalloc || linkedAllocator) {
                space.claimRest(Vma::anonymous, "otherAllocator");
            }
            // 10. the residual
            long residual = space.unclaimedPresent();
            extra.put("residualMappings", space.residual(v -> v.user() && !v.kernel()).stream().limit(12).toList());

            Map<String, Long> claimed = space.claimed();
            String sp = "stack blocks of live threads (stack pointer from /proc/PID/task/*/syscall, block bounds from"
                    + " glibc's thread descriptor), [stack], and glibc's cached stacks of ended threads";
            sources.put("threadStacks", nmt != null ? "NMT Thread Stack regions, then " + sp : sp);
            sources.put("metaspace", nmt != null ? "NMT Metaspace, Class and Shared class space regions (anonymous part),"
                    + " then VM.metaspace vslist nodes" : "VM.metaspace vslist nodes (class space and non-class)");
            sources.put("gc", nmt != null ? "NMT GC regions, then -Xlog:pagesize side tables"
                    : "-Xlog:pagesize side tables (block offset table, card table(s), mark bitmap(s))");
            sources.put("otherJvm", nmt != null ? "NMT's other categories' regions"
                    : "none without NMT (no source names the JVM's other mappings)");
            sources.put("offheap", "none of these workloads uses offheap's pools");
            sources.put("malloc", jemalloc ? "[heap] only (jemalloc serves malloc)"
                    : "[heap] + non-main arena heaps (heap_info checked) + chunks mapped on their own (headers walked)");
            sources.put("otherAllocator", jemalloc || linkedAllocator ? "anonymous pages no other source claims"
                    + (linkedAllocator ? " (jemalloc linked into DuckDB's JNI library)" : "") + (nmt != null
                    ? " (NMT names every JVM mapping)" : " (without NMT: also the JVM's unnamed mappings, an upper bound)")
                    : "no other allocator mapped");
            sources.put("sharedMemory", "pagemap of shared memory mappings (memfd, /dev/shm, System V, shared anonymous)");
            sources.put("unexplained", "resident pages no source claims");

            Map<String, Object> categories = new LinkedHashMap<>();
            for (String key : List.of("heap", "codeCache", "programFiles", "mapped", "threadStacks", "metaspace", "gc",
                    "otherJvm", "offheap", "malloc", "otherAllocator", "sharedMemory", "unexplained")) {
                Map<String, Object> c = new LinkedHashMap<>();
                Long value;
                if (key.equals("unexplained")) {
                    value = residual;
                } else if (key.equals("otherJvm") && nmt == null) {
                    value = null;
                } else if (key.equals("programFiles")) {
                    value = claimed.getOrDefault(key, 0L) + kernelRss;
                } else {
                    value = claimed.getOrDefault(key, 0L);
                }
                c.put("bytes", value);
                c.put("source", sources.getOrDefault(key, ""));
                categories.put(key, c);
            }
            if (nmt == null) {
                // no source names the JVM's other mappings: they are somewhere in what is left (in otherAllocator
                // when jemalloc takes the rest), so the truth is a bound only
                Map<String, Object> c = Json.map(categories.get("otherJvm"));
                c.put("lower", 0L);
                c.put("upper", residual + (jemalloc || linkedAllocator ? claimed.getOrDefault("otherAllocator", 0L) : 0L));
            }

            Map<String, Object> sample = new LinkedHashMap<>();
            sample.put("epochMillis", moment);
            sample.put("smapsRss", space.smapsRss());
            sample.put("pagemapRss", space.presentBytes() + kernelRss);
            sample.put("vmRss", vmRss);
            sample.put("jemalloc", jemalloc);
            sample.put("categories", categories);
            sample.put("extra", extra);
            sample.put("notes", notes);
            sample.put("momentMillis", momentMillis);
            sample.put("sampleMillis", (System.nanoTime() - begin) / 1_000_000);
            return sample;
        }
    }

    private static List<String> ranges(List<Reports.Range> ranges) {
        return ranges.stream().map(r -> Long.toHexString(r.start()) + "-" + Long.toHexString(r.end())).toList();
    }

    static String nmtCategory(String nmt) {
        return switch (nmt) {
            case "Java Heap" -> "heap";
            case "Code" -> "codeCache";
            case "Thread Stack" -> "threadStacks";
            case "Metaspace", "Class", "Shared class space" -> "metaspace";
            case "GC" -> "gc";
            default -> "otherJvm";
        };
    }

    private Path proc(String name) {
        return Path.of("/proc", Long.toString(pid), name);
    }

    private long vmRss() throws IOException {
        for (String line : Files.readAllLines(proc("status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
            }
        }
        return -1;
    }

    /**
     * Each thread's stack pointer from {@code /proc/PID/task/TID/syscall} (the last two fields are the stack
     * and instruction pointers; a thread on a CPU shows {@code running}, so it is read again a few times).
     */
    private Map<Long, Long> stackPointers() throws IOException {
        Map<Long, Long> sps = new LinkedHashMap<>();
        List<Path> tasks;
        try (Stream<Path> s = Files.list(proc("task"))) {
            tasks = s.toList();
        }
        for (Path task : tasks) {
            long tid = Long.parseLong(task.getFileName().toString());
            long sp = -1;
            for (int attempt = 0; attempt < 20 && sp < 0; attempt++) {
                try {
                    String[] fields = Files.readString(task.resolve("syscall")).trim().split("\\s+");
                    if (fields.length >= 3 && !fields[0].equals("running")) {
                        sp = Long.parseUnsignedLong(fields[fields.length - 2].substring(2), 16);
                    } else {
                        Thread.onSpinWait();
                        Thread.yield();
                    }
                } catch (NoSuchFileException e) {
                    break; // the thread ended
                }
            }
            sps.put(tid, sp);
        }
        return sps;
    }

    /** Program files by their first bytes (ELF, zip, jimage, CDS archive, perf data) or their place. */
    private boolean isProgramFile(Vma v) {
        String path = v.path().replace(" (deleted)", "");
        if (path.startsWith("/usr/lib/locale/") || path.contains("/gconv/") || path.contains("/hsperfdata_")
                || path.startsWith(jdk.toString() + "/")) {
            return true;
        }
        byte[] head = firstBytes(Path.of("/proc", Long.toString(pid), "map_files", v.range()));
        if (head == null) {
            head = firstBytes(Path.of(path));
        }
        if (head == null || head.length < 4) {
            return false;
        }
        int b0 = head[0] & 0xff;
        int b1 = head[1] & 0xff;
        int b2 = head[2] & 0xff;
        int b3 = head[3] & 0xff;
        boolean elf = b0 == 0x7f && b1 == 'E' && b2 == 'L' && b3 == 'F';
        boolean zip = b0 == 'P' && b1 == 'K' && (b2 == 3 || b2 == 5) && (b3 == 4 || b3 == 6);
        boolean jimage = b0 == 0xda && b1 == 0xda && b2 == 0xfe && b3 == 0xca;
        long magic = (long) b0 | (long) b1 << 8 | (long) b2 << 16 | (long) b3 << 24;
        boolean cds = (magic & 0xfffffff0L) == 0xf00baba0L;
        boolean perf = b0 == 0xca && b1 == 0xfe && b2 == 0xc0 && b3 == 0xc0;
        return elf || zip || jimage || cds || perf;
    }

    private static byte[] firstBytes(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(4);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Up to {@code length} bytes at the address, stopping at the first page that is not resident (reading it
     * would map the zero page into the target) or cannot be read (a guard page); empty when none can be.
     */
    static ByteBuffer readPresent(Space space, ProcMem mem, long address, int length) {
        long end = address;
        while (end < address + length && space.isPresent(end & ~(Space.PAGE - 1L))) {
            end = (end & ~(Space.PAGE - 1L)) + Space.PAGE;
        }
        int n = (int) Math.min(length, end - address);
        try {
            return n <= 0 ? ByteBuffer.allocate(0) : mem.read(address, n);
        } catch (IOException e) {
            return ByteBuffer.allocate(0); // a page went away or turned inaccessible since pagemap was read
        }
    }

    /** Thread stacks: blocks of live threads from their stack pointers, and glibc's cached blocks. */
    static final class Stacks {
        private static final int TCB_SCAN = 64 * 1024;
        private final Space space;
        private final ProcMem mem;
        private long canary;
        long unresolved;
        long blocks;
        long blocksPresent;
        long withoutDescriptor;
        long cachedBlocks;
        long cachedBytes;
        long liveByDescriptor;
        long liveByDescriptorBytes;
        private int tidOffset = -1;
        private final java.util.Set<Long> liveTids = new java.util.HashSet<>();

        Stacks(Space space, ProcMem mem) {
            this.space = space;
            this.mem = mem;
        }

        long claimLive(Map<Long, Long> stackPointers) throws IOException {
            long bytes = 0;
            liveTids.addAll(stackPointers.keySet());
            for (Map.Entry<Long, Long> e : stackPointers.entrySet()) {
                long sp = e.getValue();
                if (sp < 0) {
                    unresolved++;
                    continue;
                }
                Vma v = space.vmaAt(sp);
                if (v == null) {
                    continue;
                }
                if (v.path().equals("[stack]")) {
                    blocksPresent += space.present(v.start(), v.end());
                    bytes += space.claim(v.start(), v.end(), "threadStacks");
                    blocks++;
                    continue;
                }
                long[] block = descriptorAbove(sp, v);
                if (block == null) {
                    // no glibc descriptor found: the mapping that holds the pointer, at most 8 MiB around it
                    block = new long[] {Math.max(v.start(), sp - 8 * MIB), Math.min(v.end(), sp + 8 * MIB)};
                    withoutDescriptor++;
                } else if (tidOffset < 0) {
                    tidOffset = tidOffset(block[2], e.getKey());
                }
                blocksPresent += space.present(block[0], block[1]);
                bytes += space.claim(block[0], block[1], "threadStacks");
                blocks++;
            }
            return bytes;
        }

        /** Where {@code struct pthread} keeps the thread's id: the int that equals the tid of a known thread. */
        private int tidOffset(long tcb, long tid) {
            ByteBuffer d = readPresent(space, mem, tcb, 4096);
            for (int off = 64; off + 4 <= d.limit(); off += 4) {
                if (d.getInt(off) == tid) {
                    return off;
                }
            }
            return -1;
        }

        /**
         * The stack block holding {@code sp}, from glibc's {@code struct pthread} at the block's top: its
         * {@code tcbhead_t} starts with {@code tcb} and {@code self} (words 0 and 2) pointing to itself; its
         * {@code stackblock} and {@code stackblock_size} are a page-aligned pair of words that span it.
         */
        private long[] descriptorAbove(long sp, Vma v) throws IOException {
            long from = sp & ~(Space.PAGE - 1L);
            long limit = Math.min(v.end(), from + 16 * MIB);
            for (long page = from; page < limit; page += Space.PAGE) {
                if (!space.isPresent(page)) {
                    continue;
                }
                ByteBuffer b = readPresent(space, mem, page, Space.PAGE);
                for (int off = 0; off + 56 <= b.limit(); off += 8) {
                    long at = page + off;
                    if (b.getLong(off) == at && b.getLong(off + 16) == at && (canary == 0 || b.getLong(off + 40) == canary)) {
                        long[] block = blockOf(at, sp);
                        if (block != null) {
                            canary = b.getLong(off + 40);
                            return new long[] {block[0], block[1], at};
                        }
                    }
                }
            }
            return null;
        }

        /** The (stackblock, stackblock_size) pair in the descriptor at {@code tcb} that spans {@code inside}. */
        private long[] blockOf(long tcb, long inside) throws IOException {
            ByteBuffer d = readPresent(space, mem, tcb, 4096);
            for (int off = 0; off + 16 <= d.limit(); off += 8) {
                long start = d.getLong(off);
                long size = d.getLong(off + 8);
                if (start > 0 && start % Space.PAGE == 0 && size > 0 && size % Space.PAGE == 0 && size <= 64 * MIB
                        && start <= inside && inside < start + size && tcb < start + size && tcb > start) {
                    return new long[] {start, start + size};
                }
            }
            return null;
        }

        /**
         * Stack blocks whose descriptor (same stack canary) lies in anonymous memory nobody claimed: glibc's cached
         * stacks of ended threads (their descriptor's tid is 0), and the blocks of live threads whose stack pointer
         * could not be read (their descriptor holds a live tid).
         */
        long claimCached() throws IOException {
            if (canary == 0) {
                return 0;
            }
            long bytes = 0;
            for (long[] run : space.unownedRuns(v -> v.anonymous() && v.writable())) {
                for (long page = run[0]; page < run[1]; page += Space.PAGE) {
                    if (!space.isPresent(page) || space.isOwned(page)) {
                        continue;
                    }
                    ByteBuffer b = readPresent(space, mem, page, Space.PAGE);
                    for (int off = 0; off + 56 <= b.limit(); off += 8) {
                        long at = page + off;
                        if (b.getLong(off) == at && b.getLong(off + 16) == at && b.getLong(off + 40) == canary) {
                            long[] block = blockOf(at, at);
                            if (block != null) {
                                ByteBuffer t = tidOffset < 0 ? ByteBuffer.allocate(0) : readPresent(space, mem, at + tidOffset, 4);
                                long tid = t.remaining() == 4 ? t.getInt(0) : -1;
                                long claimed = space.claim(block[0], block[1], "threadStacks");
                                bytes += claimed;
                                if (tid > 0 && liveTids.contains(tid)) {
                                    liveByDescriptor++; // a live thread that was on a CPU at every try
                                    liveByDescriptorBytes += claimed;
                                } else {
                                    cachedBlocks++;
                                    cachedBytes += claimed;
                                }
                            }
                        }
                    }
                }
            }
            return bytes;
        }
    }

    /** glibc malloc's memory: the main arena's brk heap, the other arenas' heaps, chunks mapped on their own. */
    static final class Malloc {
        private final Space space;
        private final ProcMem mem;
        long mainArena;
        int arenaHeaps;
        long arenaResident;
        int chunks;
        long chunkBytes;
        long chunkResident;

        Malloc(Space space, ProcMem mem) {
            this.space = space;
            this.mem = mem;
        }

        void claimMainArena() {
            for (Vma v : space.vmas()) {
                if (v.path().equals("[heap]")) {
                    mainArena += space.claim(v.start(), v.end(), "malloc");
                }
            }
        }

        /**
         * A non-main arena's heap: 64 MiB reserved on a 64 MiB boundary, its {@code heap_info} first: the arena
         * ({@code ar_ptr}, inside this heap's first page for an arena's first heap, else in another heap), the
         * previous heap (0 or 64 MiB aligned), {@code size} and {@code mprotect_size} (page multiples up to 64 MiB).
         */
        void claimArenaHeaps() throws IOException {
            for (Vma v : space.vmas()) {
                if (!v.anonymous() || !v.writable() || !v.user()) {
                    continue;
                }
                for (long at = (v.start() + ARENA_HEAP - 1) & ~(ARENA_HEAP - 1); at < v.end(); at += ARENA_HEAP) {
                    if (!space.isPresent(at) || space.isOwned(at)) {
                        continue;
                    }
                    ByteBuffer h = readPresent(space, mem, at, 32);
                    if (h.remaining() < 32) {
                        continue;
                    }
                    long arena = h.getLong(0);
                    long prev = h.getLong(8);
                    long size = h.getLong(16);
                    long protectedSize = h.getLong(24);
                    boolean sizes = size > 0 && size <= ARENA_HEAP && size % Space.PAGE == 0 && protectedSize >= size
                            && protectedSize <= ARENA_HEAP && protectedSize % Space.PAGE == 0;
                    boolean first = prev == 0 && arena > at && arena < at + Space.PAGE;
                    boolean later = prev != 0 && prev % ARENA_HEAP == 0 && arena != 0 && arena % 16 == 0;
                    if (sizes && (first || later)) {
                        arenaHeaps++;
                        arenaResident += space.claim(at, at + ARENA_HEAP, "malloc");
                    }
                }
            }
        }

        /** Chunks glibc mapped on their own: prev_size 0, size with IS_MMAPPED (and no other flag), page multiple. */
        void claimMmappedChunks() throws IOException {
            for (long[] run : space.unownedRuns(v -> v.anonymous() && v.writable())) {
                long at = run[0];
                while (at < run[1]) {
                    if (space.isPresent(at) && !space.isOwned(at)) {
                        ByteBuffer h = readPresent(space, mem, at, 16);
                        if (h.remaining() == 16) {
                            long prevSize = h.getLong(0);
                            long head = h.getLong(8);
                            long size = head & ~7L;
                            if (prevSize == 0 && (head & 7) == 2 && size >= Space.PAGE && size % Space.PAGE == 0
                                    && at + size <= run[1]) {
                                chunks++;
                                chunkBytes += size;
                                chunkResident += space.claim(at, at + size, "malloc");
                                at += size;
                                continue;
                            }
                        }
                    }
                    at += Space.PAGE;
                }
            }
        }
    }
}
