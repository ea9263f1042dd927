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

/**
 * Where large blocks of native memory come from.
 *
 * <p>{@link #system()} maps anonymous memory with {@code mmap} on Linux, so a block costs no RSS until it
 * is touched and {@code munmap} gives it back to the kernel at once (memory from {@code malloc} can stay
 * inside glibc's arenas after free: the fragmentation of seed 002). {@link #portable()} works everywhere
 * through {@code Arena.ofShared()}.
 */
public sealed interface NativeMemory permits MmapMemory, ArenaMemory {

    /** The best source on this platform: {@code mmap} on Linux x86_64 and aarch64, else {@link #portable()}. */
    static NativeMemory system() {
        Callers.check("NativeMemory.system");
        return MmapMemory.isSupported() ? MmapMemory.INSTANCE : ArenaMemory.INSTANCE;
    }

    /** The source that works on every platform: {@code Arena.ofShared()} per block. */
    static NativeMemory portable() {
        Callers.check("NativeMemory.portable");
        return ArenaMemory.INSTANCE;
    }

    /**
     * Takes {@code byteSize} bytes, page aligned, reading as zeros.
     *
     * @throws IllegalArgumentException if {@code byteSize <= 0}
     * @throws OutOfMemoryError if the operating system refuses
     */
    NativeRegion allocate(long byteSize);

    /** The same source, recording the blocks it maps as held by {@code owner} ({@link OwnedMappings}). */
    NativeMemory ownedBy(OwnedMappings.Owner owner);

    /** A short name for logs and statistics: {@code "mmap"} or {@code "arena"}. */
    String name();

    /**
     * The unit blocks are rounded to: the OS's base page size ({@code sysconf(_SC_PAGESIZE)}: 4 KiB on x86_64,
     * 4, 16 or 64 KiB on aarch64 Linux), 4 KiB where it cannot be asked.
     */
    long PAGE_SIZE = Libc.pageSize();

    /** {@code bytes} rounded up to a whole number of pages. */
    static long roundToPage(long bytes) {
        return (bytes + PAGE_SIZE - 1) & -PAGE_SIZE;
    }

    static void checkSize(long byteSize) {
        if (byteSize <= 0) {
            throw new IllegalArgumentException("native block size must be positive: " + byteSize);
        }
    }
}
