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

package dev.offheap.bench;

import dev.offheap.store.ChunkPool;
import dev.offheap.store.Contents;
import dev.offheap.store.DoubleArray;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Fills and sums a spill-backed {@link DoubleArray} larger than the machine's RAM, and compares its throughput
 * with the disk's sequential write and read bandwidth measured in the same run, on the same file system.
 *
 * <pre>
 *   offheap-bench/run-spill-benchmark.sh [--size 30g] [--dir PATH]      (the script builds, records and
 *                                                                         passes these options on)
 *   java -Xmx1g --enable-native-access=ALL-UNNAMED -cp offheap-bench/target/benchmarks.jar \
 *       dev.offheap.bench.SpillThroughput [--size SIZE] [--dir PATH] [--keep-mapped]
 * </pre>
 *
 * <p><b>Why a plain {@code main} and not JMH.</b> The measurement is one sequential pass over more data than
 * the machine has RAM, so that the page cache cannot hold it and every byte goes to or comes from the disk.
 * One pass of 30 GiB takes a minute or more; what would be JMH iterations are not independent repetitions of
 * it (the first pass allocates the file's blocks, later ones find a page cache full of the previous pass's
 * dirty or clean pages), and JMH's warm-up would mostly warm the disk, not the JIT. The JIT is warmed
 * instead by running the same two kernels over a 256 MiB in-memory segment first, which also measures what
 * the CPU alone can do (the ceiling: if the store's rates were near it, the disk would not be the limit).
 * The numbers are single observations on a shared machine: compare them with the disk rates of the same run,
 * not with other runs.
 *
 * <p><b>What it does, in this order.</b>
 * <ol>
 * <li>Disk write: writes a plain file of the same size with a {@link FileChannel} from 8 MiB direct buffers,
 *     holding the same bytes the store will hold, then {@code force(true)}; the bandwidth includes the force.
 * <li>Disk read: drops the page cache ({@code echo 1 > /proc/sys/vm/drop_caches}, root only; without it the
 *     run goes on and says so), reads the file back sequentially with 8 MiB buffers (checking the first
 *     value of each), deletes it.
 * <li>Store fill: {@code ChunkPool.builder().memoryLimit(0).spillDirectory(dir)}, so every chunk is in the spill
 *     file; allocates the array ({@code fallocate} of every chunk, one {@code mmap} of the run of chunks),
 *     then writes {@code (i mod 65537) * 0.5} to every element in one {@code forEachChunk} kernel. The fill
 *     time ends when the last store instruction retires: the kernel's writeback may still hold dirty pages.
 *     The store has no {@code force}, so the spill file is then {@code fsync}ed through
 *     {@code /proc/self/fd} (the file is unlinked; {@code /bin/sync} if it cannot be found), and the run
 *     reports both fill and fill + sync.
 * <li>Store sum: drops the page cache again. {@code drop_caches} leaves pages that are mapped into a process,
 *     and the array still maps every resident page of the spill file, so the benchmark first removes its
 *     own page table entries with {@code madvise(MADV_DONTNEED)} (the data stays in the page cache, clean
 *     after the fsync, and reads back from the file) and drops again; {@code --keep-mapped} skips that
 *     and sums with whatever stayed resident. Then sums every element in one kernel and checks the sum
 *     against its closed form and one element of every 4 KiB page against its index, so a lost, stale or
 *     misplaced page fails the run.
 * </ol>
 * The values {@code (i mod 65537) * 0.5} keep every partial sum a multiple of 0.5 below 2<sup>53</sup>, so the
 * double sum is exact in any order and must equal the closed form bit for bit; as the period is odd, the
 * value at a page's start differs from those of all pages a whole number of 4 MiB chunks away (up to 256 GiB),
 * so a chunk mapped at the wrong place is caught.
 *
 * <p>Along the way it prints {@code Cached}, {@code Dirty}, {@code Writeback} and {@code Shmem} from
 * {@code /proc/meminfo} and the process's RSS at each step, per phase the CPU time, page faults, bytes the
 * disk device moved ({@code /proc/diskstats}) and pressure stall time ({@code /proc/pressure}), and at the end
 * the peak RSS ({@code VmHWM}). Progress goes to stderr every 5 s.
 */
public final class SpillThroughput {
    private static final long KiB = 1L << 10;
    private static final long MiB = 1L << 20;
    private static final long GiB = 1L << 30;
    private static final double GB = 1e9;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;
    /** Period of the values: odd and larger than a page's 512 doubles, so page starts differ across chunks. */
    private static final int PERIOD = 65_537;
    private static final long PAGE_DOUBLES = 4096 / Double.BYTES;
    private static final int IO_BUFFER = 8 << 20;
    /** Kernels work in blocks of this many bytes between progress checks. */
    private static final long BLOCK = 64 * MiB;
    private static final long PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long SAMPLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final String POOL_NAME = "spillbench";
    private static final Set<String> MEMORY_FILE_SYSTEMS = Set.of("tmpfs", "ramfs", "devtmpfs", "hugetlbfs");
    private static final int MADV_DONTNEED = 4;

    private final long size;
    private final Path directory;
    private final boolean keepMapped;
    private final String device;
    private final List<Phase> phases = new ArrayList<>();
    private final List<String> memoryRows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    /** GB/s of the fill and sum kernels over memory (see {@link #kernelCeiling}). */
    private double ceilingFill;
    private double ceilingSum;

    private SpillThroughput(long size, Path directory, boolean keepMapped, String device) {
        this.size = size;
        this.directory = directory;
        this.keepMapped = keepMapped;
        this.device = device;
    }

    public static void main(String[] args) throws Exception {
        long size = -1;
        Path directory = Path.of("/var/tmp/offheap-spillbench");
        boolean keepMapped = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size" -> size = parseSize(value(args, ++i, "--size"));
                case "--dir" -> directory = Path.of(value(args, ++i, "--dir"));
                case "--keep-mapped" -> keepMapped = true;
                case "-h", "--help" -> {
                    System.out.println("usage: SpillThroughput [--size SIZE (e.g. 4g, 30g; default 1.25 x MemTotal"
                            + " rounded up to GiB)] [--dir DIRECTORY on a disk (default /var/tmp/offheap-spillbench)]"
                            + " [--keep-mapped (sum without unmapping the array's resident pages first)]");
                    return;
                }
                default -> fail("unknown option " + args[i] + " (try --help)");
            }
        }
        long memTotal = meminfo().getOrDefault("MemTotal", 0L) * KiB;
        if (size < 0) {
            if (memTotal <= 0) {
                fail("cannot read MemTotal from /proc/meminfo: give --size");
            }
            size = ceilDiv(memTotal * 5 / 4, GiB) * GiB;
        }
        size = ceilDiv(size, MiB) * MiB;
        if (size <= 0) {
            fail("the size must be at least 1 MiB");
        }
        directory = directory.toAbsolutePath().normalize();
        Path existing = directory;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            fail("no part of " + directory + " exists");
        }
        FileStore store = Files.getFileStore(existing);
        if (MEMORY_FILE_SYSTEMS.contains(store.type())) {
            fail(directory + " is on " + store.type() + " (" + store.name() + "), which lives in RAM: this benchmark"
                    + " measures a disk. Give --dir a directory on a disk file system, e.g. /var/tmp/offheap-spillbench");
        }
        checkSpace(store, size, directory);
        Files.createDirectories(directory);
        store = Files.getFileStore(directory);
        SpillThroughput run = new SpillThroughput(size, directory, keepMapped, diskstatsName(store.name()));
        run.header(store, memTotal);
        run.run(store);
    }

    private void header(FileStore store, long memTotal) {
        System.out.printf("# SpillThroughput: %s (%d bytes, %d doubles) in %s%n", gib(size), size,
                size / Double.BYTES, directory);
        System.out.printf("#   file system %s on %s, %s usable before the run%n", store.type(), store.name(),
                gib(usable(store)));
        System.out.printf("#   RAM (MemTotal) %s: the size is %.2f x RAM%n", gib(memTotal), (double) size / memTotal);
        System.out.printf("#   vm.dirty_ratio %s, vm.dirty_background_ratio %s, vm.dirty_bytes %s, dirty_expire %s cs;"
                        + " read_ahead_kb %s; transparent_hugepage %s%n",
                readTrimmed("/proc/sys/vm/dirty_ratio"), readTrimmed("/proc/sys/vm/dirty_background_ratio"),
                readTrimmed("/proc/sys/vm/dirty_bytes"), readTrimmed("/proc/sys/vm/dirty_expire_centisecs"),
                device == null ? "?" : readTrimmed("/sys/class/block/" + device + "/queue/read_ahead_kb"),
                readTrimmed("/sys/kernel/mm/transparent_hugepage/enabled"));
        System.out.printf("#   GB/s are 10^9 bytes per second; sizes are GiB (2^30 bytes)%n");
        if (size <= memTotal) {
            notes.add("the size is not larger than RAM: the page cache can hold much of it, so this run measures"
                    + " memory as much as the disk (a proof run, not a measurement)");
        }
        if (device == null) {
            notes.add("no /proc/diskstats entry for " + store.name() + ": device read/write columns are n/a");
        }
        System.out.println();
    }

    private void run(FileStore store) throws Exception {
        memoryRow("start");
        kernelCeiling();

        // 1. The disk, through a plain file.
        Path file = directory.resolve("spillbench-" + ProcessHandle.current().pid() + ".dat");
        Thread cleanup = new Thread(() -> {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // best effort at exit
            }
        });
        Runtime.getRuntime().addShutdownHook(cleanup);
        Phase diskWrite;
        Phase diskRead;
        try {
            diskWrite = diskWrite(file);
            dropCaches("before the disk read");
            memoryRow("disk: after drop_caches");
            diskRead = diskRead(file);
        } finally {
            Files.deleteIfExists(file);
        }
        Phase delete = measure("delete test file + sync", 0, progress -> runSync());
        record(delete);
        memoryRow("disk: file deleted, synced");
        checkSpace(store, size, directory);

        // 2. The store.
        Phase allocate;
        Phase fill;
        Phase sync;
        Phase sum;
        try (ChunkPool pool = buildPool()) {
            long length = size / Double.BYTES;
            DoubleArray[] holder = new DoubleArray[1];
            allocate = measure("store allocate", 0, progress -> holder[0] = pool.doubles(length, Contents.UNINITIALIZED));
            record(allocate);
            try (DoubleArray array = holder[0]) {
                System.out.printf("store: %s, %s; allocated in %.2f s%n", pool, array, allocate.seconds());
                System.out.println("  " + pool.stats().format().replace("\n", "\n  "));
                memoryRow("store: allocated");
                fill = measure("store fill", size, progress -> array.forEachChunk((segment, firstIndex) ->
                        fillWithProgress(segment, firstIndex, progress)));
                record(fill);
                memoryRow("store: filled");
                sync = measure("store sync", 0, progress -> syncSpillFile());
                record(sync);
                memoryRow("store: after fsync");
                dropCaches("before the sum");
                memoryRow("store: after drop_caches");
                if (!keepMapped) {
                    unmapPages(array);
                    memoryRow("store: after MADV_DONTNEED");
                    dropCaches("after MADV_DONTNEED");
                    memoryRow("store: after drop_caches again");
                }
                Sum result = new Sum();
                sum = measure("store sum", size, progress -> array.forEachChunk((segment, firstIndex) ->
                        sumWithProgress(segment, firstIndex, progress, result)));
                record(sum);
                memoryRow("store: summed");
                verify(result, length);
            }
        }
        memoryRow("store: closed");
        System.out.printf("spill file released; %s usable on %s%n", gib(usable(store)), store.name());
        report(diskWrite, diskRead, fill, sync, sum);
    }

    private ChunkPool buildPool() {
        return ChunkPool.builder().name(POOL_NAME).memoryLimit(0).spillDirectory(directory).build();
    }

    // ---- the disk ----

    private Phase diskWrite(Path file) throws Exception {
        // The values of elements [0, 8 MiB / 8 + PERIOD): since they repeat every PERIOD elements, the 8 MiB
        // that start at any index are a slice of it, so the file gets the store's bytes without computing them.
        ByteBuffer pattern = ByteBuffer.allocateDirect(IO_BUFFER + PERIOD * Double.BYTES);
        fillRange(MemorySegment.ofBuffer(pattern), 0, pattern.capacity() / Double.BYTES, 0);
        long[] forceNanos = {0};
        Phase phase;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            phase = measure("disk write", size, progress -> {
                long done = 0;
                while (done < size) {
                    int n = (int) Math.min(IO_BUFFER, size - done);
                    int offset = (int) (done / Double.BYTES % PERIOD) * Double.BYTES;
                    ByteBuffer buffer = pattern.slice(offset, n);
                    while (buffer.hasRemaining()) {
                        channel.write(buffer);
                    }
                    done += n;
                    progress.update(done);
                }
                memoryRow("disk: written, before force");
                long t = System.nanoTime();
                channel.force(true);
                forceNanos[0] = System.nanoTime() - t;
            });
        }
        phase.detail = String.format("write calls %.1f s + force %.1f s", (phase.nanos - forceNanos[0]) / 1e9,
                forceNanos[0] / 1e9);
        record(phase);
        memoryRow("disk: after force");
        return phase;
    }

    private Phase diskRead(Path file) throws Exception {
        ByteBuffer buffer = ByteBuffer.allocateDirect(IO_BUFFER);
        MemorySegment view = MemorySegment.ofBuffer(buffer);
        Phase phase;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            phase = measure("disk read", size, progress -> {
                long done = 0;
                while (done < size) {
                    buffer.clear();
                    int n = channel.read(buffer);
                    if (n < 0) {
                        throw new IOException("end of " + file + " after " + done + " of " + size + " bytes");
                    }
                    if (done % Double.BYTES == 0 && n >= Double.BYTES
                            && view.get(DOUBLE, 0) != value(done / Double.BYTES)) {
                        throw new IOException(file + " holds " + view.get(DOUBLE, 0) + " at byte " + done
                                + " instead of " + value(done / Double.BYTES));
                    }
                    done += n;
                    progress.update(done);
                }
            });
        }
        record(phase);
        memoryRow("disk: read");
        return phase;
    }

    // ---- the store's kernels ----

    private static void fillWithProgress(MemorySegment segment, long firstIndex, Progress progress) {
        long length = segment.byteSize() / Double.BYTES;
        long block = BLOCK / Double.BYTES;
        for (long from = 0; from < length; from += block) {
            long to = Math.min(length, from + block);
            fillRange(segment, from, to, firstIndex);
            progress.add((to - from) * Double.BYTES);
        }
    }

    private static void sumWithProgress(MemorySegment segment, long firstIndex, Progress progress, Sum result) {
        long length = segment.byteSize() / Double.BYTES;
        long block = BLOCK / Double.BYTES;
        for (long from = 0; from < length; from += block) {
            long to = Math.min(length, from + block);
            result.sum += sumRange(segment, from, to);
            checkPages(segment, from, to, firstIndex, result);
            progress.add((to - from) * Double.BYTES);
        }
    }

    /** Writes {@code value(firstIndex + k)} to elements {@code [from, to)} of {@code segment}. */
    static void fillRange(MemorySegment segment, long from, long to, long firstIndex) {
        int j = (int) ((firstIndex + from) % PERIOD);
        for (long k = from; k < to; ) {
            int run = (int) Math.min(PERIOD - j, to - k);
            fillRun(segment, k, j, run);
            k += run;
            j = 0;
        }
    }

    private static void fillRun(MemorySegment segment, long at, int firstValue, int count) {
        for (int r = 0; r < count; r++) {
            segment.setAtIndex(DOUBLE, at + r, (firstValue + r) * 0.5);
        }
    }

    static double value(long index) {
        return (index % PERIOD) * 0.5;
    }

    /** The sum of elements {@code [from, to)}: four accumulators, exact here since every value is a multiple of 0.5. */
    static double sumRange(MemorySegment segment, long from, long to) {
        double a0 = 0;
        double a1 = 0;
        double a2 = 0;
        double a3 = 0;
        long k = from;
        for (; k <= to - 4; k += 4) {
            a0 += segment.getAtIndex(DOUBLE, k);
            a1 += segment.getAtIndex(DOUBLE, k + 1);
            a2 += segment.getAtIndex(DOUBLE, k + 2);
            a3 += segment.getAtIndex(DOUBLE, k + 3);
        }
        for (; k < to; k++) {
            a0 += segment.getAtIndex(DOUBLE, k);
        }
        return (a0 + a1) + (a2 + a3);
    }

    /** Checks the first element of every 4 KiB page of the array in {@code [from, to)}. */
    private static void checkPages(MemorySegment segment, long from, long to, long firstIndex, Sum result) {
        long first = ceilDiv(firstIndex + from, PAGE_DOUBLES) * PAGE_DOUBLES - firstIndex;
        for (long k = first; k < to; k += PAGE_DOUBLES) {
            result.pagesChecked++;
            double expected = value(firstIndex + k);
            double actual = segment.getAtIndex(DOUBLE, k);
            if (actual != expected) {
                if (result.badPages == 0) {
                    result.firstBad = "element " + (firstIndex + k) + " is " + actual + ", expected " + expected;
                }
                result.badPages++;
            }
        }
    }

    /** Twice the sum of {@code value(i)} for {@code i} in {@code [0, length)}: a long, exact. */
    static long expectedTwiceSum(long length) {
        long periods = length / PERIOD;
        long rest = length % PERIOD;
        return periods * ((long) PERIOD * (PERIOD - 1) / 2) + rest * (rest - 1) / 2;
    }

    private void verify(Sum result, long length) {
        long twice = expectedTwiceSum(length);
        double expected = twice * 0.5;
        boolean exactlyRepresentable = twice < (1L << 53);
        System.out.printf("sum %.1f, expected %.1f (closed form): %s; %d pages checked, %d wrong%n", result.sum,
                expected, result.sum == expected ? "equal" : "DIFFERENT", result.pagesChecked, result.badPages);
        if (!exactlyRepresentable) {
            notes.add("the expected sum exceeds 2^53: the comparison is not exact at this size");
        }
        if (result.sum != expected || result.badPages != 0) {
            throw new IllegalStateException("the store lost or misplaced data: sum " + result.sum + " instead of "
                    + expected + ", " + result.badPages + " wrong pages"
                    + (result.firstBad == null ? "" : ", first: " + result.firstBad));
        }
    }

    /** Fill and sum over 256 MiB of memory (pre-touched, warm): what the CPU alone can do, and the JIT's warm-up. */
    private void kernelCeiling() {
        long bytes = 256 * MiB;
        long length = bytes / Double.BYTES;
        double bestFill = Double.MAX_VALUE;
        double bestSum = Double.MAX_VALUE;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(bytes, 4096);
            double check = 0;
            for (int round = 0; round < 8; round++) {
                long t0 = System.nanoTime();
                fillRange(segment, 0, length, 0);
                long t1 = System.nanoTime();
                check += sumRange(segment, 0, length);
                long t2 = System.nanoTime();
                bestFill = Math.min(bestFill, (t1 - t0) / 1e9);
                bestSum = Math.min(bestSum, (t2 - t1) / 1e9);
            }
            if (check != 8 * (expectedTwiceSum(length) * 0.5)) {
                throw new IllegalStateException("kernel check failed: " + check);
            }
        }
        ceilingFill = bytes / bestFill / GB;
        ceilingSum = bytes / bestSum / GB;
        System.out.printf("kernels in RAM (256 MiB, warm, best of 8): fill %.2f GB/s, sum %.2f GB/s%n%n",
                ceilingFill, ceilingSum);
    }

    // ---- sync, caches, mappings ----

    /** fsync of the unlinked spill file through /proc/self/fd, or /bin/sync if it cannot be found. */
    private void syncSpillFile() throws IOException, InterruptedException {
        Optional<Path> fd = findSpillFd();
        if (fd.isPresent()) {
            try (FileChannel channel = FileChannel.open(fd.get(), StandardOpenOption.READ)) {
                channel.force(true);
            }
            System.out.println("store: fsync of the spill file through " + fd.get());
        } else {
            notes.add("the spill file was not found under /proc/self/fd: the store's sync is /bin/sync (all file"
                    + " systems, including other processes' dirty data)");
            runSync();
        }
    }

    private static Optional<Path> findSpillFd() throws IOException {
        String prefix = "offheap-" + POOL_NAME + "-" + ProcessHandle.current().pid() + "-";
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.contains("/" + prefix) && target.contains(".spill")) {
                        return Optional.of(fd);
                    }
                } catch (IOException e) {
                    // closed meanwhile (the listing's own descriptor): not ours
                }
            }
        }
        return Optional.empty();
    }

    private static void runSync() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("sync").inheritIO().start();
        if (process.waitFor() != 0) {
            throw new IOException("sync exited with " + process.exitValue());
        }
    }

    private void dropCaches(String when) {
        long t = System.nanoTime();
        try {
            Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "1\n");
            System.out.printf("drop_caches %s: done in %.2f s%n", when, (System.nanoTime() - t) / 1e9);
        } catch (IOException | SecurityException e) {
            String note = "could not drop the page cache " + when + " (" + e + "): reads may partly come from RAM;"
                    + " run as root for a cold cache";
            notes.add(note);
            System.out.println("note: " + note);
        }
    }

    /**
     * Removes this process's page table entries for the array's pages, so that drop_caches can drop them:
     * it skips pages that are mapped. The pages stay in the page cache (clean after the fsync), and the sum
     * reads them back from the spill file.
     */
    private void unmapPages(DoubleArray array) {
        Optional<MemorySegment> whole = array.contiguousSegment();
        if (whole.isEmpty()) {
            notes.add("the array is not contiguous (portable path): its pages were not unmapped before the sum");
            return;
        }
        MemorySegment segment = whole.get();
        long length = ceilDiv(segment.byteSize(), 4096) * 4096;
        Linker linker = Linker.nativeLinker();
        MethodHandle madvise = linker.downcallHandle(linker.defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT));
        long t = System.nanoTime();
        int rc;
        try {
            rc = (int) madvise.invokeExact(MemorySegment.ofAddress(segment.address()), length, MADV_DONTNEED);
        } catch (Throwable e) {
            throw new IllegalStateException("madvise failed", e);
        }
        if (rc != 0) {
            throw new IllegalStateException("madvise(MADV_DONTNEED) of the array failed: " + rc);
        }
        System.out.printf("store: madvise(MADV_DONTNEED) over the array in %.2f s%n", (System.nanoTime() - t) / 1e9);
    }

    // ---- measurement ----

    @FunctionalInterface
    private interface Work {
        void run(Progress progress) throws Throwable;
    }

    private void record(Phase phase) {
        phases.add(phase);
        System.out.println(phase.line());
    }

    /** Runs {@code work} as a phase; {@link #record} prints it and keeps it for the tables. */
    private Phase measure(String name, long bytes, Work work) throws Exception {
        Counters before = Counters.read(device);
        Progress progress = new Progress(name, bytes);
        long t0 = System.nanoTime();
        try {
            work.run(progress);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        long nanos = System.nanoTime() - t0;
        Counters after = Counters.read(device);
        progress.sample();
        return new Phase(name, bytes, nanos, before, after, progress);
    }

    /** Progress to stderr every 5 s, and peaks of Dirty, Writeback and RSS sampled every second. */
    private static final class Progress {
        final String name;
        final long total;
        final long start = System.nanoTime();
        long done;
        long lastPrint = start;
        long lastPrintDone;
        long lastSample = start;
        long peakDirty;
        long peakWriteback;
        long peakRss;
        long peakCached;

        Progress(String name, long total) {
            this.name = name;
            this.total = total;
        }

        void add(long bytes) {
            update(done + bytes);
        }

        void update(long newDone) {
            done = newDone;
            long now = System.nanoTime();
            if (now - lastSample >= SAMPLE_NANOS) {
                lastSample = now;
                sample();
            }
            if (now - lastPrint >= PROGRESS_NANOS) {
                double rate = (done - lastPrintDone) / ((now - lastPrint) / 1e9) / GB;
                double average = done / ((now - start) / 1e9) / GB;
                double eta = average > 0 ? (total - done) / (average * GB) : Double.NaN;
                Map<String, Long> mem = meminfo();
                System.err.printf("[%s] %.1f / %.1f GiB, %.3f GB/s now, %.3f GB/s average, ETA %.0f s;"
                                + " Dirty %.2f GiB, Writeback %.2f GiB, Cached %.1f GiB, RSS %.1f GiB%n", name,
                        (double) done / GiB, (double) total / GiB, rate, average, eta,
                        kib(mem, "Dirty"), kib(mem, "Writeback"), kib(mem, "Cached"),
                        status().getOrDefault("VmRSS", 0L) / (double) MiB);
                lastPrint = now;
                lastPrintDone = done;
            }
        }

        void sample() {
            Map<String, Long> mem = meminfo();
            peakDirty = Math.max(peakDirty, mem.getOrDefault("Dirty", 0L));
            peakWriteback = Math.max(peakWriteback, mem.getOrDefault("Writeback", 0L));
            peakCached = Math.max(peakCached, mem.getOrDefault("Cached", 0L));
            peakRss = Math.max(peakRss, status().getOrDefault("VmRSS", 0L));
        }
    }

    private static final class Sum {
        double sum;
        long pagesChecked;
        long badPages;
        String firstBad;
    }

    /** Process and system counters at one moment. */
    private record Counters(long userTicks, long systemTicks, long minorFaults, long majorFaults,
            long sectorsRead, long sectorsWritten, long ioSome, long ioFull, long memorySome, long memoryFull) {

        static Counters read(String device) {
            String[] stat = afterComm(readTrimmed("/proc/self/stat"));
            long[] disk = diskSectors(device);
            long[] io = pressure("io");
            long[] memory = pressure("memory");
            // /proc/self/stat after "(comm)": state=0 ppid pgrp session tty tpgid flags minflt(7) cminflt
            // majflt(9) cmajflt utime(11) stime(12)
            return new Counters(parse(stat, 11), parse(stat, 12), parse(stat, 7), parse(stat, 9), disk[0], disk[1],
                    io[0], io[1], memory[0], memory[1]);
        }

        private static String[] afterComm(String stat) {
            int close = stat.lastIndexOf(')');
            return close < 0 ? new String[0] : stat.substring(close + 2).split(" ");
        }

        private static long parse(String[] fields, int index) {
            return index < fields.length ? Long.parseLong(fields[index]) : 0;
        }

        /** Sectors read and written by the device, or -1s. */
        private static long[] diskSectors(String device) {
            if (device != null) {
                for (String line : readLines("/proc/diskstats")) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[2].equals(device)) {
                        return new long[] {Long.parseLong(f[5]), Long.parseLong(f[9])};
                    }
                }
            }
            return new long[] {-1, -1};
        }

        /** Total stall microseconds "some" and "full" from /proc/pressure/{resource}, or -1s. */
        private static long[] pressure(String resource) {
            long[] totals = {-1, -1};
            for (String line : readLines("/proc/pressure/" + resource)) {
                int at = line.indexOf("total=");
                if (at < 0) {
                    continue;
                }
                long total = Long.parseLong(line.substring(at + 6).trim());
                if (line.startsWith("some")) {
                    totals[0] = total;
                } else if (line.startsWith("full")) {
                    totals[1] = total;
                }
            }
            return totals;
        }
    }

    private static final class Phase {
        final String name;
        final long bytes;
        final long nanos;
        final Counters before;
        final Counters after;
        final Progress progress;
        String detail;

        Phase(String name, long bytes, long nanos, Counters before, Counters after, Progress progress) {
            this.name = name;
            this.bytes = bytes;
            this.nanos = nanos;
            this.before = before;
            this.after = after;
            this.progress = progress;
        }

        double seconds() {
            return nanos / 1e9;
        }

        double rate() {
            return bytes / seconds() / GB;
        }

        String line() {
            return String.format("%s: %s%.2f s%s%s", name, bytes > 0 ? gib(bytes) + " in " : "", seconds(),
                    bytes > 0 ? String.format(", %.3f GB/s", rate()) : "", detail == null ? "" : " (" + detail + ")");
        }

        /** The per-phase columns of the second table. */
        String counters() {
            // CLK_TCK is 100 on Linux x86_64 and aarch64.
            double user = (after.userTicks - before.userTicks) / 100.0;
            double system = (after.systemTicks - before.systemTicks) / 100.0;
            String read = after.sectorsRead < 0 ? "n/a" : String.format("%.1f", (after.sectorsRead - before.sectorsRead) * 512.0 / GiB);
            String written = after.sectorsWritten < 0 ? "n/a"
                    : String.format("%.1f", (after.sectorsWritten - before.sectorsWritten) * 512.0 / GiB);
            return String.format("| %s | %.1f | %.1f | %.1f | %d | %d | %s | %s | %s | %s | %.2f | %.2f | %.1f |", name,
                    seconds(), user, system, after.minorFaults - before.minorFaults,
                    after.majorFaults - before.majorFaults, read, written,
                    stall(before.ioFull, after.ioFull), stall(before.memorySome, after.memorySome),
                    progress.peakDirty / (double) MiB, progress.peakWriteback / (double) MiB,
                    progress.peakRss / (double) MiB);
        }

        private String stall(long before, long after) {
            if (before < 0 || after < 0) {
                return "n/a";
            }
            return String.format("%.0f %%", 100.0 * (after - before) / (nanos / 1000.0));
        }
    }

    private void report(Phase diskWrite, Phase diskRead, Phase fill, Phase sync, Phase sum) {
        double fillSync = size / ((fill.nanos + sync.nanos) / 1e9) / GB;
        System.out.println();
        System.out.println("## Throughput (" + gib(size) + ", one sequential pass each; GB/s = 10^9 B/s)");
        System.out.println();
        System.out.println("| measurement | GB/s | vs disk |");
        System.out.println("|---|---|---|");
        System.out.printf("| disk write (FileChannel, 8 MiB buffers, + force) | %.3f | 1 |%n", diskWrite.rate());
        System.out.printf("| disk read (FileChannel, 8 MiB buffers, cold cache) | %.3f | 1 |%n", diskRead.rate());
        System.out.printf("| store fill (until the last store; dirty pages may remain) | %.3f | %.2f x disk write |%n",
                fill.rate(), fill.rate() / diskWrite.rate());
        System.out.printf("| store fill + fsync | %.3f | %.2f x disk write |%n", fillSync, fillSync / diskWrite.rate());
        System.out.printf("| store sum (%s) | %.3f | %.2f x disk read |%n",
                keepMapped ? "resident pages kept" : "cold cache", sum.rate(), sum.rate() / diskRead.rate());
        System.out.printf("| kernels alone, in RAM (ceiling) | fill %.2f, sum %.2f | |%n", ceilingFill, ceilingSum);
        System.out.println();
        System.out.println("## Per phase (process CPU and faults; device I/O and pressure stalls are system-wide)");
        System.out.println();
        System.out.println("| phase | wall s | user s | sys s | minor faults | major faults | device read GiB"
                + " | device written GiB | io full stall | memory some stall | peak Dirty GiB | peak Writeback GiB"
                + " | peak RSS GiB |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Phase phase : phases) {
            System.out.println(phase.counters());
        }
        System.out.println();
        System.out.println("## Memory at each step (GiB; /proc/meminfo, and this process's /proc/self/status)");
        System.out.println();
        System.out.println("| point | MemFree | MemAvailable | Cached | Dirty | Writeback | Shmem | VmRSS | RssFile | RssAnon |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        memoryRows.forEach(System.out::println);
        Map<String, Long> status = status();
        System.out.println();
        System.out.printf("peak RSS of the process (VmHWM): %.2f GiB, for a store of %s (%.0f %% of it)%n",
                status.getOrDefault("VmHWM", 0L) / (double) MiB, gib(size),
                100.0 * status.getOrDefault("VmHWM", 0L) * KiB / size);
        for (String note : notes) {
            System.out.println("note: " + note);
        }
    }

    private void memoryRow(String point) {
        Map<String, Long> mem = meminfo();
        Map<String, Long> status = status();
        memoryRows.add(String.format("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |", point,
                kib(mem, "MemFree"), kib(mem, "MemAvailable"), kib(mem, "Cached"), kib(mem, "Dirty"),
                kib(mem, "Writeback"), kib(mem, "Shmem"), kib(status, "VmRSS"), kib(status, "RssFile"),
                kib(status, "RssAnon")));
    }

    // ---- helpers ----

    private static void checkSpace(FileStore store, long size, Path directory) throws IOException {
        long usable = usable(store);
        long needed = size + size / 10;
        if (usable < needed) {
            fail(String.format("%s has %s usable but this run needs %s (the size, %s, plus 10 %%): free some space,"
                    + " use a smaller --size, or another --dir", directory, gib(usable), gib(needed), gib(size)));
        }
    }

    private static long usable(FileStore store) {
        try {
            return store.getUsableSpace();
        } catch (IOException e) {
            return -1;
        }
    }

    /** The /proc/diskstats name of a file store's device ("/dev/vda" gives "vda"), or null. */
    private static String diskstatsName(String storeName) {
        if (storeName == null || !storeName.startsWith("/dev/")) {
            return null;
        }
        String name = storeName.substring("/dev/".length());
        try {
            Path real = Path.of(storeName).toRealPath();
            name = real.getFileName().toString();
        } catch (IOException e) {
            // keep the name as given
        }
        String candidate = name;
        return readLines("/proc/diskstats").stream().anyMatch(line -> {
            String[] f = line.trim().split("\\s+");
            return f.length > 2 && f[2].equals(candidate);
        }) ? name : null;
    }

    private static Map<String, Long> meminfo() {
        return keyValues("/proc/meminfo");
    }

    private static Map<String, Long> status() {
        return keyValues("/proc/self/status");
    }

    /** "Key:   123 kB" lines as key to kB. */
    private static Map<String, Long> keyValues(String file) {
        Map<String, Long> values = new HashMap<>();
        for (String line : readLines(file)) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String[] parts = line.substring(colon + 1).trim().split("\\s+");
            if (parts.length == 2 && parts[1].equals("kB")) {
                values.put(line.substring(0, colon), Long.parseLong(parts[0]));
            }
        }
        return values;
    }

    private static double kib(Map<String, Long> values, String key) {
        return values.getOrDefault(key, 0L) / (double) MiB;
    }

    private static List<String> readLines(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * The file's text, trimmed. Not {@code Files.readString}: it reads a file that reports size 0 with a
     * one-byte read first, and sysctl files (/proc/sys) answer a read that does not start at offset 0 with
     * end-of-file, so it would return "2" for "20".
     */
    private static String readTrimmed(String file) {
        try (var in = Files.newInputStream(Path.of(file))) {
            return new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    static long parseSize(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("ib")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        long unit = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k' -> unit = KiB;
                case 'm' -> unit = MiB;
                case 'g' -> unit = GiB;
                case 't' -> unit = 1024 * GiB;
                default -> unit = 1;
            }
        }
        if (unit != 1) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            return (long) (Double.parseDouble(s) * unit);
        } catch (NumberFormatException e) {
            fail("cannot read the size '" + text + "': use e.g. 4g, 30g, 512m");
            return -1;
        }
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            fail(option + " needs a value");
        }
        return args[index];
    }

    private static long ceilDiv(long a, long b) {
        return Math.ceilDiv(a, b);
    }

    private static String gib(long bytes) {
        return String.format("%.1f GiB", (double) bytes / GiB);
    }

    private static void fail(String message) {
        System.err.println("SpillThroughput: " + message);
        System.exit(2);
    }
}
