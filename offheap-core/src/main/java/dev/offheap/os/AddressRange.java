package dev.offheap.os;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A contiguous range of virtual addresses with pieces of files mapped into it, so that scattered chunks
 * read as one segment. Linux only ({@link NativeFile#isSupported()}).
 *
 * <p>{@link #reserve} takes the addresses without memory ({@code PROT_NONE}, {@code MAP_NORESERVE});
 * {@link #map} replaces a piece of them with a shared mapping of a file range ({@code MAP_FIXED}), which is
 * safe because the range is ours. {@link #segment} hands out the whole range in an arena whose closing
 * unmaps it: the arena's handshake guarantees no thread is still reading when the addresses go away.
 */
public final class AddressRange {
    private final MemorySegment base;
    private final long length;

    private AddressRange(MemorySegment base, long length) {
        this.base = base;
        this.length = length;
    }

    /** Reserves {@code length} bytes of addresses (a multiple of the page size). */
    public static AddressRange reserve(long length) {
        if (length <= 0 || length % NativeMemory.PAGE_SIZE != 0) {
            throw new IllegalArgumentException("address range must be a positive number of pages: " + length);
        }
        MemorySegment base = Libc.mmap(MemorySegment.NULL, length, Libc.PROT_NONE,
                Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS | Libc.MAP_NORESERVE, -1, 0L, "address reservation");
        return new AddressRange(base, length);
    }

    public long length() {
        return length;
    }

    /** Maps {@code [fileOffset, fileOffset + bytes)} of {@code file}, read-write and shared, at {@code offset}. */
    public void map(long offset, long bytes, NativeFile file, long fileOffset) {
        if (offset < 0 || bytes <= 0 || offset > length - bytes) {
            throw new IndexOutOfBoundsException("mapping [" + offset + ", +" + bytes + ") outside a range of "
                    + length + " bytes");
        }
        MemorySegment at = MemorySegment.ofAddress(base.address() + offset);
        MemorySegment mapped = Libc.mmap(at, bytes, Libc.PROT_READ | Libc.PROT_WRITE,
                Libc.MAP_SHARED | Libc.MAP_FIXED, file.fd(), fileOffset, "mapping " + file);
        if (mapped.address() != at.address()) {
            throw new IllegalStateException("MAP_FIXED mapped at 0x" + Long.toHexString(mapped.address())
                    + " instead of 0x" + Long.toHexString(at.address()));
        }
    }

    /** The first {@code byteSize} bytes of the range as a segment of {@code arena}, whose closing unmaps it all. */
    @SuppressWarnings("restricted")
    public MemorySegment segment(long byteSize, Arena arena) {
        if (byteSize < 0 || byteSize > length) {
            throw new IllegalArgumentException("segment of " + byteSize + " bytes in a range of " + length);
        }
        return base.reinterpret(byteSize, arena, ignored -> Libc.munmap(base, length));
    }

    /** Unmaps the range when no segment was handed out (a failed set-up). */
    public void unmap() {
        Libc.munmap(base, length);
    }
}
