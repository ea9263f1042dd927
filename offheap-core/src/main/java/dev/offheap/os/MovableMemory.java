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
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Blocks of anonymous memory that can be moved, pages and all, into an {@link AddressRange}
 * ({@code mremap}), so that scattered blocks read as one contiguous range without a copy. A block moved in
 * stays where it is when the range's segment ends: its new address is simply its place in the range. Linux only
 * ({@link NativeFile#isSupported()}).
 *
 * <p>Blocks of {@link #HUGE_PAGE} multiples (2 MiB with 4 KiB pages) are placed on such boundaries and marked
 * {@code MADV_HUGEPAGE}, so where transparent huge pages are enabled (even in {@code madvise} mode, the
 * common default) they are backed by huge pages, which keeps random access over gigabytes from missing the TLB on every read. Shared memory
 * (a memfd) gets huge pages only if {@code shmem_enabled} allows it, which it often does not.
 */
public final class MovableMemory {
    /**
     * The size of a transparent huge page, as the kernel says in
     * {@code /sys/kernel/mm/transparent_hugepage/hpage_pmd_size}: 2 MiB with 4 KiB base pages (x86_64, most
     * aarch64), 32 MiB with 16 KiB and 512 MiB with 64 KiB pages. Where the file cannot be read, what one
     * page-table page maps at this page size: {@link #hugePageFor(long)}.
     */
    public static final long HUGE_PAGE = hugePage(Path.of("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"),
            NativeMemory.PAGE_SIZE);

    private MovableMemory() {}

    /**
     * Maps a new zeroed block held by {@code owner}; returns its address. Huge-page aligned and advised when
     * its size allows.
     */
    public static long allocate(long bytes, OwnedMappings.Owner owner) {
        Callers.check("MovableMemory.allocate");
        checkSize(bytes);
        long address = AddressRange.mapAligned(bytes, Libc.PROT_READ | Libc.PROT_WRITE,
                Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, owner.describe("movable memory"));
        OwnedMappings.add(address, bytes, owner);
        if (bytes % HUGE_PAGE == 0) {
            // Advice only: a kernel without transparent huge pages refuses it, and 4 KiB pages work as well.
            Libc.madvise(MemorySegment.ofAddress(address), bytes, Libc.MADV_HUGEPAGE);
        }
        return address;
    }

    /** Moves the block at {@code address} to {@code offset} in {@code range}; {@code address} is gone after. */
    public static void moveInto(long address, long bytes, AddressRange range, long offset) {
        Callers.check("MovableMemory.moveInto");
        range.checkPiece(offset, bytes);
        MemorySegment target = MemorySegment.ofAddress(range.address() + offset);
        MemorySegment moved = Libc.mremap(MemorySegment.ofAddress(address), bytes, target);
        if (moved.address() != target.address()) {
            throw new IllegalStateException("mremap moved to 0x" + Long.toHexString(moved.address())
                    + " instead of 0x" + Long.toHexString(target.address()));
        }
    }

    /** Gives the block's pages back to the kernel; it stays mapped and reads as zeros. */
    public static void discard(long address, long bytes) {
        Callers.check("MovableMemory.discard");
        checkSize(bytes);
        int errno = Libc.madvise(MemorySegment.ofAddress(address), bytes, Libc.MADV_DONTNEED);
        if (errno != 0) {
            throw new IllegalStateException("madvise(MADV_DONTNEED) of " + bytes + " bytes of "
                    + describe(OwnedMappings.ownerOf(address)) + " failed: " + Libc.errnoName(errno));
        }
    }

    /** Unmaps the block. */
    public static void free(long address, long bytes) {
        Callers.check("MovableMemory.free");
        checkSize(bytes);
        Libc.munmap(MemorySegment.ofAddress(address), bytes);
    }

    /** The huge page size the kernel's file states, else the one the page size implies. */
    static long hugePage(Path sysfs, long pageSize) {
        try {
            long stated = Long.parseLong(Files.readString(sysfs).strip());
            if (stated > pageSize && Long.bitCount(stated) == 1) {
                return stated;
            }
        } catch (IOException | NumberFormatException | SecurityException e) {
            // no such file (not Linux, THP compiled out, a sandbox): fall back to the page table's geometry
        }
        return hugePageFor(pageSize);
    }

    /**
     * The bytes one page-table page maps (a PMD entry's reach): {@code pageSize / 8} entries of
     * {@code pageSize} bytes each.
     */
    static long hugePageFor(long pageSize) {
        return pageSize / Long.BYTES * pageSize;
    }

    private static String describe(OwnedMappings.Owner owner) {
        return owner == null ? "movable memory" : owner.describe("movable memory");
    }

    private static void checkSize(long bytes) {
        if (bytes <= 0 || bytes % NativeMemory.PAGE_SIZE != 0) {
            throw new IllegalArgumentException("block size must be a positive number of pages: " + bytes);
        }
    }
}
