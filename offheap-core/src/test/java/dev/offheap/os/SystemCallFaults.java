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

package dev.offheap.os;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The tests' handle on the fault seam of {@code dev.offheap.os} ({@link Faults}, package-private): makes the
 * Nth {@code mmap}, {@code mremap}, {@code munmap}, {@code madvise}, {@code fallocate} or {@code ftruncate}
 * (or its portable equivalent) that the calling thread makes from now on fail with an errno, as the kernel
 * refusing it would. Use it in try-with-resources: closing it forgets every fault that did not happen.
 *
 * {@snippet :
 * try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
 *     faults.failNth(SystemCallFaults.Call.MREMAP, 2, SystemCallFaults.ENOMEM);
 *     assertThatThrownBy(() -> pool.bytes(size)).isInstanceOf(OutOfMemoryError.class);
 *     assertThat(faults.happened()).isTrue();
 * }
 * }
 *
 * <p>Also reads {@code /proc/self/maps}, to see what a failed call left mapped.
 */
public final class SystemCallFaults implements AutoCloseable {
    public static final int EIO = 5;
    public static final int ENOMEM = 12;
    public static final int EINVAL = 22;
    public static final int ENOSPC = 28;

    /** The calls the seam can fail (with their portable equivalents, see {@code Faults.Call}). */
    public enum Call {
        MMAP(Faults.Call.MMAP),
        MREMAP(Faults.Call.MREMAP),
        MUNMAP(Faults.Call.MUNMAP),
        MADVISE(Faults.Call.MADVISE),
        FALLOCATE(Faults.Call.FALLOCATE),
        FTRUNCATE(Faults.Call.FTRUNCATE);

        private final Faults.Call internal;

        Call(Faults.Call internal) {
            this.internal = internal;
        }
    }

    private SystemCallFaults() {}

    /**
     * A seam with nothing armed, for the calling thread. Waits for one handshake first, so that frees other
     * tests left waiting for their grace ({@link Grace#later}) do not run, and count, in the middle of this one.
     */
    public static SystemCallFaults onThisThread() {
        Grace.await();
        Faults.clear();
        return new SystemCallFaults();
    }

    /** The {@code nth} call of kind {@code call} this thread makes from now on fails with {@code errno}. */
    public SystemCallFaults failNth(Call call, int nth, int errno) {
        Faults.failNth(call.internal, nth, errno);
        return this;
    }

    /** Whether every fault armed has happened. */
    public boolean happened() {
        return Faults.waiting() == 0;
    }

    /** The ranges this thread's calls mapped (or moved blocks to) since the first fault was armed. */
    public List<long[]> mappedMeanwhile() {
        return Faults.mapped();
    }

    /** Forgets every fault that did not happen, and the ranges recorded. */
    @Override
    public void close() {
        Faults.clear();
    }

    /** One line of {@code /proc/self/maps}: {@code [start, end)}, the permissions and the path, if any. */
    public record Mapping(long start, long end, String permissions, String path) {}

    /** The process's mappings now (Linux). */
    public static List<Mapping> mappings() {
        List<Mapping> mappings = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                String[] fields = line.trim().split("\\s+", 6);
                String[] range = fields[0].split("-");
                mappings.add(new Mapping(Long.parseUnsignedLong(range[0], 16), Long.parseUnsignedLong(range[1], 16),
                        fields[1], fields.length > 5 ? fields[5] : ""));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return mappings;
    }

    /** The bytes of {@code [start, end)} mapped now. */
    public static long bytesMapped(long start, long end) {
        long bytes = 0;
        for (Mapping m : mappings()) {
            bytes += Math.max(0, Math.min(end, m.end()) - Math.max(start, m.start()));
        }
        return bytes;
    }

    /** The bytes of mappings now whose path contains {@code fragment} (a file's name). */
    public static long bytesMappedFrom(String fragment) {
        long bytes = 0;
        for (Mapping m : mappings()) {
            if (m.path().contains(fragment)) {
                bytes += m.end() - m.start();
            }
        }
        return bytes;
    }
}
