package dev.offheap.buffer;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The fast path, opt-in ({@link BufferPool.Builder#reuseHandles(boolean)}): one handle per slot, reused by
 * every lease of that slot, so a steady acquire and release allocates nothing. The price is the hazard the
 * default avoids: a handle kept past its release is the same object as the next lease of its slot, so a
 * second {@code release()} through it ends somebody else's lease. Its methods throw only while the slot is
 * free.
 */
final class ReusedBuffer extends Lease {
    private final Slot slot;
    private int size;
    private ByteBuffer buffer;
    private boolean bufferRewound;

    ReusedBuffer(Slot slot) {
        this.slot = slot;
    }

    /** Starts a lease of {@code size} bytes; the caller took the slot from a free list. */
    ReusedBuffer lease(int size) {
        this.size = size;
        this.bufferRewound = false;
        open();
        return this;
    }

    @Override
    public MemorySegment segment() {
        checkLive("use");
        return slot.view(size);
    }

    @Override
    public ByteBuffer byteBuffer() {
        checkLive("use");
        ByteBuffer b = buffer;
        if (b == null || b.capacity() != size) {
            buffer = b = slot.newByteBuffer(size).order(slot.home.owner.byteOrder());
        } else if (!bufferRewound) {
            b.clear().order(slot.home.owner.byteOrder());
        }
        bufferRewound = true;
        return b;
    }

    @Override
    public int size() {
        checkLive("ask the size of");
        return size;
    }

    @Override
    void deallocate() {
        slot.home.owner.free(slot);
    }

    @Override
    int leasedSize() {
        return size;
    }

    @Override
    String poolName() {
        return slot.home.owner.name();
    }
}
