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

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A contiguous range of virtual addresses with pieces of files mapped into it ({@link #map}) or blocks of
 * {@link MovableMemory} moved into it, so that scattered chunks read as one segment. Linux only ({@link NativeFile#isSupported()}).
 *
 * <p>{@link #reserve} takes the addresses without memory ({@code PROT_NONE}, {@code MAP_NORESERVE});
 * {@link #map} replaces a piece of them with a shared mapping of a file range ({@code MAP_FIXED}), which is
 * safe because the range is ours. {@link #segment} hands out the whole range in an arena; its owner unmaps
 * the range only once that arena has closed and its {@link Grace} has passed, so no thread is still reading
 * when the addresses go away.
 */
public final class AddressRange {
    private final MemorySegment base;
    private final long length;

    private AddressRange(MemorySegment base, long length) {
        this.base = base;
        this.length = length;
    }

    /**
     * Reserves {@code length} bytes of addresses (a multiple of the page size), on a huge page boundary when
     * the length is a multiple of {@link MovableMemory#HUGE_PAGE}, so that huge pages moved in stay huge.
     * The addresses are recorded as held by {@code owner}, and so are the blocks moved or mapped into them.
     */
    public static AddressRange reserve(long length, OwnedMappings.Owner owner) {
        Callers.check("AddressRange.reserve");
        if (length <= 0 || length % NativeMemory.PAGE_SIZE != 0) {
            throw new IllegalArgumentException("address range must be a positive number of pages: " + length);
        }
        long base = mapAligned(length, Libc.PROT_NONE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS | Libc.MAP_NORESERVE,
                owner.describe("address reservation"));
        OwnedMappings.add(base, length, owner);
        return new AddressRange(MemorySegment.ofAddress(base), length);
    }

    /**
     * Maps {@code length} bytes on a huge page boundary when the length is a multiple of
     * {@link MovableMemory#HUGE_PAGE} (over-maps by the alignment and unmaps the excess at both ends), on a
     * page boundary otherwise. Returns the address.
     */
    static long mapAligned(long length, int prot, int flags, String what) {
        long align = length % MovableMemory.HUGE_PAGE == 0 ? MovableMemory.HUGE_PAGE : NativeMemory.PAGE_SIZE;
        long mapped = length + align - NativeMemory.PAGE_SIZE;
        long raw = Libc.mmap(MemorySegment.NULL, mapped, prot, flags, -1, 0L, what).address();
        long base = (raw + align - 1) & -align;
        long tail = raw + mapped - (base + length);
        long left = raw; // where what is still mapped of it starts
        try {
            if (base > raw) {
                Libc.munmap(MemorySegment.ofAddress(raw), base - raw, what);
                left = base;
            }
            if (tail > 0) {
                Libc.munmap(MemorySegment.ofAddress(base + length), tail, what);
            }
        } catch (RuntimeException | Error e) {
            try { // a cut refused: what is left of the mapping goes, nobody holds it yet
                Libc.munmap(MemorySegment.ofAddress(left), raw + mapped - left, what);
            } catch (RuntimeException | Error undo) {
                e.addSuppressed(undo);
            }
            throw e;
        }
        return base;
    }

    public long length() {
        return length;
    }

    long address() {
        return base.address();
    }

    void checkPiece(long offset, long bytes) {
        if (offset < 0 || bytes <= 0 || offset > length - bytes) {
            throw new IndexOutOfBoundsException("piece [" + offset + ", +" + bytes + ") outside a range of "
                    + length + " bytes");
        }
    }

    /** Maps {@code [fileOffset, fileOffset + bytes)} of {@code file}, read-write and shared, at {@code offset}. */
    public void map(long offset, long bytes, NativeFile file, long fileOffset) {
        checkPiece(offset, bytes);
        MemorySegment at = MemorySegment.ofAddress(base.address() + offset);
        MemorySegment mapped = Libc.mmap(at, bytes, Libc.PROT_READ | Libc.PROT_WRITE,
                Libc.MAP_SHARED | Libc.MAP_FIXED, file.fd(), fileOffset, "mapping " + file);
        if (mapped.address() != at.address()) {
            throw new IllegalStateException("MAP_FIXED mapped at 0x" + Long.toHexString(mapped.address())
                    + " instead of 0x" + Long.toHexString(at.address()));
        }
    }

    /**
     * The first {@code byteSize} bytes of the range as a segment of {@code arena}. Closing the arena ends the
     * segment and nothing else: the owner of the range unmaps its pieces ({@link #unmap(long, long)}) or hands
     * the blocks moved in over to their owner where they are only after the views' {@link Grace}, when no
     * thread can be reading any more.
     */
    @SuppressWarnings("restricted")
    public MemorySegment segment(long byteSize, Arena arena) {
        if (byteSize < 0 || byteSize > length) {
            throw new IllegalArgumentException("segment of " + byteSize + " bytes in a range of " + length);
        }
        return base.reinterpret(byteSize, arena, null);
    }

    /** The address of the byte at {@code offset}. */
    public long addressOf(long offset) {
        checkPiece(offset, 1);
        return base.address() + offset;
    }

    /** Unmaps a piece of the range: a file piece, or addresses still reserved. */
    public void unmap(long offset, long bytes) {
        checkPiece(offset, bytes);
        Libc.munmap(MemorySegment.ofAddress(base.address() + offset), bytes);
    }

    /** Unmaps the whole range. */
    public void unmap() {
        Libc.munmap(base, length);
    }
}
