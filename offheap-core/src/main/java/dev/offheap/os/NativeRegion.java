package dev.offheap.os;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One block of native memory taken from the operating system, page aligned, zero on first touch.
 *
 * <p>The segment belongs to a shared arena of its own. {@link #close()} closes that arena (a handshake
 * with every thread, so no thread is still inside an access) and only then gives the memory back, so a
 * segment kept past close throws {@link IllegalStateException} instead of touching freed memory.
 */
public final class NativeRegion implements AutoCloseable {
    private final Arena arena;
    private final MemorySegment segment;

    NativeRegion(Arena arena, MemorySegment segment) {
        this.arena = arena;
        this.segment = segment;
    }

    public MemorySegment segment() {
        return segment;
    }

    /**
     * The same memory as a segment of {@code arena}: it ends when that arena closes (or throws once the
     * arena is closed), while the region lives on. The region must outlive the arena.
     */
    @SuppressWarnings("restricted")
    public MemorySegment viewIn(Arena arena) {
        return MemorySegment.ofAddress(segment.address()).reinterpret(segment.byteSize(), arena, null);
    }

    public long byteSize() {
        return segment.byteSize();
    }

    /** Frees the memory. A second close throws {@link IllegalStateException}, like {@link Arena#close()}. */
    @Override
    public void close() {
        arena.close();
    }
}
