package dev.offheap.buffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A lease whose views live in a shared arena of their own: every lease of a checked pool, and the leases a
 * pool samples for use-after-release detection. Release closes that arena first (a handshake with every
 * thread, so no access is still in flight), and only then hands the slot back: any view kept past release
 * throws instead of touching memory lent to someone else.
 *
 * <p>A sampled lease also keeps where it was acquired and released, for the message of any later use of
 * its handle.
 */
final class CheckedBuffer extends SegmentLease {
    private final Slot slot;
    private final Arena arena;
    private final AtomicBoolean viewsClosed = new AtomicBoolean();
    private final CallSite acquiredAt;
    private volatile CallSite releasedAt;

    CheckedBuffer(Slot slot, int size, boolean recordSites) {
        this(slot, size, Arena.ofShared(), recordSites);
    }

    @SuppressWarnings("restricted")
    private CheckedBuffer(Slot slot, int size, Arena arena, boolean recordSites) {
        super(MemorySegment.ofAddress(slot.address()).reinterpret(size, arena, null), slot.home.owner.byteOrder());
        this.slot = slot;
        this.arena = arena;
        this.acquiredAt = recordSites ? CallSite.acquired() : null;
    }

    /** Ends every view of this lease; at release, or when the pool closes with the lease outstanding. */
    void closeViews() {
        if (viewsClosed.compareAndSet(false, true)) {
            arena.close();
        }
    }

    @Override
    void deallocate() {
        if (acquiredAt != null) {
            releasedAt = CallSite.released();
        }
        closeViews();
        BufferPool pool = slot.home.owner;
        pool.forgetChecked(this);
        pool.free(slot);
    }

    @Override
    Throwable acquiredAt() {
        return acquiredAt;
    }

    @Override
    Throwable releasedAt() {
        return releasedAt;
    }

    @Override
    String poolName() {
        return slot.home.owner.name();
    }
}
