package dev.offheap.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One slot of a slab, and the lease object for it. The object is reused by every lease of its slot, so the
 * steady state allocates nothing; the views it hands out are cached while the leased size stays the same.
 *
 * <p>A lease sampled for leak detection gets a new object of this same class, a handle standing for the
 * slot: the pool keeps every slot reachable, so only a handle can become unreachable. Being the same class
 * keeps the callers' type profiles monomorphic (a second lease class on the hot path cost ~3 ns per
 * acquire+release in AcquireReleaseBenchmark).
 */
final class PooledBuffer extends Lease {
    final SizeClassPool home;
    final Slab slab;
    final long offset;
    final int id;
    /** The id of the next free slot below this one in its {@link FreeStack}; written before each push. */
    int next;
    /**
     * The thread cache that handed out the current lease, or null. A release on that cache's own thread
     * goes straight back to it, without a ThreadLocal lookup.
     */
    ThreadCache lender;

    /** For a handle: the slot it stands for, and its leak-detector record. Null for a slot. */
    private final PooledBuffer slot;
    private final LeakDetector.Record record;

    private int size;
    private MemorySegment view;
    private ByteBuffer buffer;
    private boolean bufferRewound;

    PooledBuffer(SizeClassPool home, Slab slab, long offset, int id) {
        this.home = home;
        this.slab = slab;
        this.offset = offset;
        this.id = id;
        this.slot = null;
        this.record = null;
    }

    /** A handle for the current lease of {@code slot}, watched by {@code detector}. */
    PooledBuffer(PooledBuffer slot, LeakDetector detector) {
        this.home = slot.home;
        this.slab = slot.slab;
        this.offset = slot.offset;
        this.id = slot.id;
        this.slot = slot;
        this.record = detector.watch(this, slot);
        lease(slot.size);
    }

    /** Starts a lease of {@code size} bytes; the caller took this slot from a free list. */
    PooledBuffer lease(int size) {
        this.size = size;
        this.bufferRewound = false;
        open();
        return this;
    }

    @Override
    public MemorySegment segment() {
        checkLive("use");
        return view();
    }

    @Override
    public ByteBuffer byteBuffer() {
        checkLive("use");
        ByteBuffer b = buffer;
        if (b == null || b.capacity() != size) {
            buffer = b = view().asByteBuffer().order(ByteOrder.nativeOrder());
        } else if (!bufferRewound) {
            b.clear().order(ByteOrder.nativeOrder());
        }
        bufferRewound = true;
        return b;
    }

    @Override
    public int size() {
        return size;
    }

    /** The address of this slot, for views with a lifetime of their own (checked mode). */
    long address() {
        return slab.segment().address() + offset;
    }

    boolean isLeased() {
        return refCount() > 0;
    }

    @Override
    void deallocate() {
        if (record == null) {
            home.owner.free(this);
            return;
        }
        record.disarm();
        slot.release();
        // Until the record is disarmed this handle must stay reachable, or the detector could take it for a
        // leak and release the slot a second time.
        Reference.reachabilityFence(this);
    }

    @Override
    String describe() {
        return "buffer of " + size + " bytes (slot " + id + " of the " + home.slotSize + "-byte class)";
    }

    private MemorySegment view() {
        MemorySegment v = view;
        if (v == null || v.byteSize() != size) {
            view = v = slab.segment().asSlice(offset, size);
        }
        return v;
    }
}
