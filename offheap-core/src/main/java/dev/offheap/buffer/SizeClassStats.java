package dev.offheap.buffer;

/**
 * One size class of a {@link BufferPool}, as {@link BufferPool#stats()} saw it.
 *
 * @param slotSize bytes per buffer of this class
 * @param slabs slabs held now
 * @param osBytes bytes of those slabs
 * @param slots slots cut from them so far
 * @param leased slots leased now
 * @param cached slots free now (in thread caches or the shared free list)
 * @param inThreadCaches of the free slots, those in thread caches
 * @param threadCacheHits acquires served by a thread cache
 * @param threadCacheMisses acquires that had to refill a thread cache
 * @param uncachedAcquires acquires made with no thread cache (virtual threads, threads past the limit)
 * @param slabsCreated slabs ever taken from the OS
 * @param slabsFreed slabs ever given back
 */
public record SizeClassStats(int slotSize, int slabs, long osBytes, long slots, long leased, long cached,
        long inThreadCaches, long threadCacheHits, long threadCacheMisses, long uncachedAcquires,
        long slabsCreated, long slabsFreed) {

    public long acquires() {
        return threadCacheHits + threadCacheMisses + uncachedAcquires;
    }

    public long leasedBytes() {
        return leased * slotSize;
    }

    public long cachedBytes() {
        return cached * slotSize;
    }

    /** Bytes of slabs not yet cut into slots. */
    public long uncutBytes() {
        return osBytes - slots * slotSize;
    }

    /** Share of acquires served by a thread cache without touching shared state; NaN before any. */
    public double threadCacheHitRate() {
        long cachedAcquires = threadCacheHits + threadCacheMisses;
        return cachedAcquires == 0 ? Double.NaN : (double) threadCacheHits / cachedAcquires;
    }

    boolean isActive() {
        return slabs > 0 || acquires() > 0 || slabsCreated > 0;
    }
}
