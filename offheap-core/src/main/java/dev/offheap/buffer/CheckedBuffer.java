package dev.offheap.buffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A lease in checked mode: a new object whose views live in a shared arena of their own. Release closes
 * that arena first (a handshake with every thread, so no access is still in flight), and only then hands
 * the slot back: any view kept past release throws instead of touching memory lent to someone else.
 */
final class CheckedBuffer extends Lease {
    private final PooledBuffer slot;
    private final Arena arena;
    private final MemorySegment segment;
    private ByteBuffer buffer;

    @SuppressWarnings("restricted")
    CheckedBuffer(PooledBuffer slot) {
        this.slot = slot;
        this.arena = Arena.ofShared();
        this.segment = MemorySegment.ofAddress(slot.address()).reinterpret(slot.size(), arena, null);
        open();
    }

    @Override
    public MemorySegment segment() {
        checkLive("use");
        return segment;
    }

    @Override
    public ByteBuffer byteBuffer() {
        checkLive("use");
        if (buffer == null) {
            buffer = segment.asByteBuffer().order(ByteOrder.nativeOrder());
        }
        return buffer;
    }

    @Override
    public int size() {
        return (int) segment.byteSize();
    }

    @Override
    void deallocate() {
        arena.close();
        slot.release();
    }
}
