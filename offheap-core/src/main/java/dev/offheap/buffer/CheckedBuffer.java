package dev.offheap.buffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A lease in checked mode: a new object whose views live in a shared arena of their own. Release closes
 * that arena first (a handshake with every thread, so no access is still in flight), and only then hands
 * the slot back: any view kept past release throws instead of touching memory lent to someone else.
 */
final class CheckedBuffer extends SegmentLease {
    private final PooledBuffer slot;
    private final Arena arena;
    private final AtomicBoolean viewsClosed = new AtomicBoolean();

    CheckedBuffer(PooledBuffer slot) {
        this(slot, Arena.ofShared());
    }

    @SuppressWarnings("restricted")
    private CheckedBuffer(PooledBuffer slot, Arena arena) {
        super(MemorySegment.ofAddress(slot.address()).reinterpret(slot.size(), arena, null));
        this.slot = slot;
        this.arena = arena;
    }

    /** Ends every view of this lease; at release, or when the pool closes with the lease outstanding. */
    void closeViews() {
        if (viewsClosed.compareAndSet(false, true)) {
            arena.close();
        }
    }

    @Override
    void deallocate() {
        closeViews();
        slot.home.owner.forgetChecked(this);
        slot.release();
    }
}
