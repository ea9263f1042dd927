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
import dev.offheap.store.Workers;
import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code DoubleArray.sum()} over a spilled array read from the disk, for {@code run-bulk-benchmarks.sh} with
 * {@code SPILL=1} (which measures the disk's sequential read with {@code dd} in the same run, on the same file
 * system, for the ratio).
 *
 * <pre>
 *   java -Xmx1g --enable-native-access=ALL-UNNAMED -cp offheap-bench/target/benchmarks.jar \
 *       dev.offheap.bench.BulkSpill [--size 2g] [--dir /var/tmp/offheap-bulkspill] [--rounds 3]
 * </pre>
 *
 * <p>The pool has {@code memoryLimit(0)} and a spill directory, so every chunk of the array is a piece of the spill
 * file. The array is filled with 1.5 ({@code fill}), the spill file {@code fsync}ed, and the sum timed first with
 * the file in the page cache (the JIT's warm-up, and the ceiling). Then, {@code rounds} times for each of
 * {@code all} and {@code one} workers: {@code fsync}, {@code madvise(MADV_DONTNEED)} over the array (the page cache
 * keeps pages a process maps, so the array's own mappings must go first), {@code drop_caches} (root only;
 * without it the run says so and its figures are the page cache's), then one timed {@code sum()}, checked
 * against 1.5 x length. It is a plain program, not JMH, because each timed pass must start from a cold cache.
 *
 * <p>Output lines (parsed by {@code stream/bulk_table.py}):
 * {@code spill workers=all cache=cold round=1 bytes=2147483648 seconds=1.234 gbs=1.740}
 */
public final class BulkSpill {
    private static final String POOL_NAME = "bulkspill";
    private static final int MADV_DONTNEED = 4;

    private BulkSpill() {
    }

    public static void main(String[] args) throws Exception {
        long size = 2L << 30;
        Path directory = Path.of("/var/tmp/offheap-bulkspill");
        int rounds = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size" -> size = WholeArrayBenchmark.bytes(args[++i]);
                case "--dir" -> directory = Path.of(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException(
                        "usage: BulkSpill [--size 2g] [--dir DIRECTORY on a disk] [--rounds 3], not " + args[i]);
            }
        }
        Files.createDirectories(directory);
        long length = size / Double.BYTES;
        System.out.printf("# spill: %d doubles (%d MiB), spill directory %s (%s), %d rounds per workers%n", length,
                size >> 20, directory, Files.getFileStore(directory).type(), rounds);
        try (ChunkPool pool = ChunkPool.builder().name(POOL_NAME).jmx(false).memoryLimit(0).spillDirectory(directory)
                .build();
             DoubleArray array = pool.doubles(length, Contents.UNINITIALIZED)) {
            System.out.println("# spill: " + array + ", contiguous " + array.isContiguous());
            long t = System.nanoTime();
            array.fill(1.5);
            fsyncSpillFile();
            System.out.printf("# spill: filled and fsynced in %.2f s%n", (System.nanoTime() - t) / 1e9);
            for (int round = 1; round <= 3; round++) {
                timedSum(array, "all", "warm", round, size);
            }
            for (String workers : new String[] {"all", "one"}) {
                for (int round = 1; round <= rounds; round++) {
                    fsyncSpillFile();
                    unmapPages(array);
                    dropCaches();
                    timedSum(array, workers, "cold", round, size);
                }
            }
        }
    }

    private static void timedSum(DoubleArray array, String workers, String cache, int round, long size) {
        Workers chosen = workers.equals("one") ? Workers.callerOnly() : Workers.allCores();
        long t0 = System.nanoTime();
        double sum = chosen.call(array::sum);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (sum != 1.5 * array.length()) {
            throw new AssertionError("sum " + sum + ", expected " + 1.5 * array.length());
        }
        System.out.printf("spill workers=%s cache=%s round=%d bytes=%d seconds=%.4f gbs=%.3f%n", workers, cache, round,
                size, seconds, size / seconds / 1e9);
    }

    /** fsync of the (unlinked) spill file through /proc/self/fd; /bin/sync if it cannot be found. */
    private static void fsyncSpillFile() throws IOException, InterruptedException {
        String prefix = "offheap-" + POOL_NAME + "-" + ProcessHandle.current().pid() + "-";
        Optional<Path> found = Optional.empty();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.contains("/" + prefix) && target.contains(".spill")) {
                        found = Optional.of(fd);
                        break;
                    }
                } catch (IOException e) {
                    // closed meanwhile (the listing's own descriptor): not ours
                }
            }
        }
        if (found.isPresent()) {
            try (FileChannel channel = FileChannel.open(found.get(), StandardOpenOption.READ)) {
                channel.force(true);
            }
        } else {
            if (new ProcessBuilder("sync").inheritIO().start().waitFor() != 0) {
                throw new IOException("sync failed");
            }
        }
    }

    private static void unmapPages(DoubleArray array) {
        Optional<MemorySegment> whole = array.contiguousSegment();
        if (whole.isEmpty()) {
            System.out.println("# spill: the array is not contiguous: its pages stay mapped, and drop_caches keeps them");
            return;
        }
        long length = (whole.get().byteSize() + 4095) / 4096 * 4096;
        Linker linker = Linker.nativeLinker();
        MethodHandle madvise = linker.downcallHandle(linker.defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT));
        int rc;
        try {
            rc = (int) madvise.invokeExact(MemorySegment.ofAddress(whole.get().address()), length, MADV_DONTNEED);
        } catch (Throwable e) {
            throw new IllegalStateException("madvise failed", e);
        }
        if (rc != 0) {
            throw new IllegalStateException("madvise(MADV_DONTNEED) of the array failed: " + rc);
        }
    }

    private static void dropCaches() {
        try {
            Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "1\n");
        } catch (IOException | SecurityException e) {
            System.out.println("# spill: could not drop the page cache (" + e + "): not root? This round read RAM");
        }
    }
}
