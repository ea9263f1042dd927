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

package dev.offheap.cli;

import dev.offheap.account.Bytes;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.DoubleArray;
import dev.offheap.store.ElementType;
import dev.offheap.store.MappedArray;
import dev.offheap.store.LongArray;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.function.Consumer;

/** The store part of {@code offheap demo}: arrays beyond 2^31 elements, spilling, trim, a NumPy file. */
final class StoreDemo {
    private static final long MIB = 1 << 20;

    private final PrintStream out;
    private final Consumer<String> step;

    StoreDemo(PrintStream out, Consumer<String> step) {
        this.out = out;
        this.step = step;
    }

    void run() throws IOException {
        try (ChunkPool pool = ChunkPool.builder().name("demo-store").build()) {
            step.accept("A store array of 3,000,000,000 doubles (22.4 GiB of addresses; only touched pages use memory)");
            hugeArray(pool);
            step.accept("Summing 32 Mi doubles element by element, then through a kernel over the segment");
            sums(pool);
            step.accept("Release gives the chunks back to the pool at once; trim() gives their memory to the OS");
            out.println("   before trim: " + pool.stats().memory().format());
            out.println("   trimmed " + Bytes.human(pool.trim()) + " of chunks (their budget charge; only touched pages"
                    + " were ever resident)");
            out.println("   after trim:  " + pool.stats().memory().format());
        }
        step.accept("A 16 MiB memory limit and a spill directory: a 64 MiB array spills 48 MiB to disk");
        spill();
        step.accept("A persistent array: a MappedArray file is a NumPy .npy file, forced, grown and reopened");
        mappedFile();
    }

    private void mappedFile() throws IOException {
        Path directory = Files.createTempDirectory("offheap-demo-npy");
        Path path = directory.resolve("squares.npy");
        try {
            try (MappedArray file = MappedArray.create(path, ElementType.LONG, 1_000);
                 LongArray squares = file.longs()) {
                for (long i = 0; i < squares.length(); i++) {
                    squares.set(i, i * i);
                }
                file.grow(2_000);
                try (LongArray longer = file.longs()) {
                    longer.set(1_999, 1_999L * 1_999);
                }
                file.force();
            }
            try (MappedArray file = MappedArray.open(path, MappedArray.Mode.READ_ONLY, ElementType.LONG);
                 LongArray squares = file.longs()) {
                out.printf("   %s: %s, %,d elements, %s bytes, permissions %s%n", path.getFileName(),
                        file.elementType(), file.length(), Files.size(path),
                        PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
                out.printf("   reopened read-only: squares[999] = %d, squares[1999] = %d, squares[1500] = %d%n",
                        squares.get(999), squares.get(1_999), squares.get(1_500));
            }
            out.println("   NumPy: " + numpy(path));
        } finally {
            Files.deleteIfExists(path);
            Files.deleteIfExists(directory);
        }
    }

    /** What NumPy says about the file, when Debian's python3-numpy is installed. */
    private static String numpy(Path path) {
        String script = "import numpy as np; a = np.load('" + path + "', mmap_mode='r'); "
                + "print(type(a).__name__, a.dtype, a.shape, a[999], a[1999])";
        try {
            Process python = new ProcessBuilder("/usr/bin/python3", "-c", script).redirectErrorStream(true).start();
            String output = new String(python.getInputStream().readAllBytes()).strip();
            return python.waitFor() == 0 ? "np.load(mmap_mode='r') -> " + output
                    : "not available (" + output.lines().reduce((a, b) -> b).orElse("") + ")";
        } catch (IOException | InterruptedException e) {
            return "not available (" + e.getMessage() + ")";
        }
    }

    private void hugeArray(ChunkPool pool) throws IOException {
        long rssBefore = rss();
        long length = 3_000_000_000L;
        try (DoubleArray samples = pool.doubles(length)) {
            samples.set(0, 1.5);
            samples.set(1L << 31, 2.5);
            samples.set(length - 1, 3.5);
            out.printf("   samples[0] = %s, samples[2^31] = %s, samples[%,d] = %s, samples[1000] = %s%n",
                    samples.get(0), samples.get(1L << 31), length - 1, samples.get(length - 1), samples.get(1000));
            out.printf("   one contiguous segment: %s; %s mapping(s); RSS grew by %s%n", samples.isContiguous(),
                    pool.stats().mappings(), Bytes.human(rss() - rssBefore));
            try {
                samples.get(length);
            } catch (IndexOutOfBoundsException e) {
                out.println("   samples.get(3,000,000,000) -> IndexOutOfBoundsException: " + e.getMessage());
            }
        }
    }

    private void sums(ChunkPool pool) {
        try (DoubleArray values = pool.doubles(32 * MIB)) {
            values.forEachChunk((segment, first) -> {
                long count = segment.byteSize() / Double.BYTES;
                for (long i = 0; i < count; i++) {
                    segment.setAtIndex(ValueLayout.JAVA_DOUBLE, i, (first + i) * 0.5);
                }
            });
            for (int round = 1; round <= 3; round++) {
                long start = System.nanoTime();
                double byElement = sumByElement(values);
                long middle = System.nanoTime();
                double byKernel = sumByKernel(values);
                long end = System.nanoTime();
                out.printf("   round %d: get(i) loop %.1f ms, kernel %.1f ms (sums %.6e and %.6e)%n", round,
                        (middle - start) / 1e6, (end - middle) / 1e6, byElement, byKernel);
            }
        }
    }

    private static double sumByElement(DoubleArray values) {
        double sum = 0;
        for (long i = 0, n = values.length(); i < n; i++) {
            sum += values.get(i);
        }
        return sum;
    }

    private static double sumByKernel(DoubleArray values) {
        double[] sum = {0};
        values.forEachChunk((segment, first) -> sum[0] += sumSegment(segment));
        return sum[0];
    }

    private static double sumSegment(MemorySegment segment) {
        double sum = 0;
        for (long i = 0, n = segment.byteSize() / Double.BYTES; i < n; i++) {
            sum += segment.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
        }
        return sum;
    }

    private void spill() throws IOException {
        Path directory = Files.createTempDirectory("offheap-demo-spill");
        try (ChunkPool pool = ChunkPool.builder().name("demo-spill").memoryLimit(16 * MIB)
                .spillDirectory(directory).build();
             LongArray counts = pool.longs(8 * MIB)) {
            counts.fill(7);
            out.println("   " + pool.stats().format().replace("\n", "\n   "));
            out.println("   the spill file is already unlinked: " + directory + " holds " + list(directory));
        } finally {
            Files.deleteIfExists(directory);
        }
    }

    private static List<String> list(Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }

    /** Resident set size from /proc/self/status (Linux), or 0. */
    private static long rss() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return 0;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return 0;
    }
}
