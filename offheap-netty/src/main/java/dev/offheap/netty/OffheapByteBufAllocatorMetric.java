package dev.offheap.netty;

import io.netty.buffer.ByteBufAllocatorMetric;

/**
 * What an {@link OffheapByteBufAllocator} holds: direct memory as its pool counts it, heap memory as the
 * allocator counts its live heap buffers.
 */
final class OffheapByteBufAllocatorMetric implements ByteBufAllocatorMetric {
    private final OffheapByteBufAllocator alloc;

    OffheapByteBufAllocatorMetric(OffheapByteBufAllocator alloc) {
        this.alloc = alloc;
    }

    /**
     * Bytes of the pool leased now ({@code pool.stats().bytesInUse()}): slot sizes, up to 20 % above the
     * capacities asked for, and every lease of the pool, also those of other users when the pool is shared.
     * Walks the pool's slots: poll it, do not call it per allocation.
     */
    @Override
    public long usedDirectMemory() {
        return alloc.pool().stats().bytesInUse();
    }

    /** Bytes of the live heap buffers of this allocator (their arrays' lengths). */
    @Override
    public long usedHeapMemory() {
        return alloc.usedHeapBytes();
    }

    @Override
    public String toString() {
        return "OffheapByteBufAllocatorMetric(usedDirectMemory: " + usedDirectMemory() + "; usedHeapMemory: "
                + usedHeapMemory() + ")";
    }
}
