package dev.offheap.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The handle of one lease of a {@link Slot}: a new object per lease, so that a handle kept past its release
 * throws on every use instead of acting on whoever leases the slot next. Its views are the slot's memory
 * (cached per slot); what a view kept past release does is described at
 * {@link BufferPool.Builder#checked(boolean)}.
 *
 * <p>A lease sampled for leak detection is the same class with a {@link LeakDetector.Record}: being one
 * class keeps the callers' type profiles monomorphic.
 */
final class PooledBuffer extends Lease {
    private final Slot slot;
    private final int size;
    private final LeakDetector.Record record;
    private ByteBuffer buffer;

    PooledBuffer(Slot slot, int size) {
        this.slot = slot;
        this.size = size;
        this.record = null;
        open();
    }

    /** A lease watched by {@code detector}: if the handle is lost unreleased, the slot goes back. */
    PooledBuffer(Slot slot, int size, LeakDetector detector) {
        this.slot = slot;
        this.size = size;
        this.record = detector.watch(this, size, () -> slot.home.owner.free(slot));
        open();
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
        if (b == null) {
            b = slot.newByteBuffer(size);
            ByteOrder order = slot.home.owner.byteOrder();
            if (order != ByteOrder.BIG_ENDIAN) {
                b.order(order);
            }
            buffer = b;
        }
        return b;
    }

    @Override
    public int size() {
        checkLive("ask the size of");
        return size;
    }

    @Override
    void deallocate() {
        if (record == null) {
            slot.home.owner.free(slot);
            return;
        }
        record.disarm();
        slot.home.owner.free(slot);
        // Until the record is disarmed this handle must stay reachable, or the detector could take it for a
        // leak and free the slot a second time.
        Reference.reachabilityFence(this);
    }

    @Override
    String describe() {
        return "buffer of " + size + " bytes from pool '" + slot.home.owner.name() + "' (slot " + slot.id
                + " of the " + slot.describeClass() + ")";
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
