package dev.offheap.metrics;

/**
 * A {@code BufferPool} as JMX shows it: {@code dev.offheap:type=BufferPool,name=<pool name>}.
 *
 * <p>{@code BytesFromOs}, {@code PeakBytes} and {@code LimitBytes} are read live. The other figures come
 * from one snapshot of the pool, taken at most once a second (taking one walks every slot), so that they
 * agree with each other: {@code BytesInUse + BytesCached} was {@code BytesFromOs} when it was taken.
 */
public interface BufferPoolMXBean {

    /** The pool's name (the {@code ObjectName} may carry a suffix). */
    String getName();

    /** Bytes the pool holds from the OS now: slabs and the regions of leases above the largest size class. */
    long getBytesFromOs();

    /** Bytes of buffers leased now, in whole slots (a slot can be up to 20 % larger than its lease). */
    long getBytesInUse();

    /** Bytes held but not leased: free slots (in thread caches and shared free lists) and uncut slab space. */
    long getBytesCached();

    /** The most {@code BytesFromOs} ever held at once. */
    long getPeakBytes();

    /** The limit of the budget the pool charges, -1 when it has none. */
    long getLimitBytes();

    /** The path of the budget the pool charges. */
    String getBudgetPath();

    /** Leases found unreachable without release so far. */
    long getLeaks();

    /** Buffers leased now. */
    long getLeases();

    /** Buffers ever acquired. */
    long getAcquires();

    /** Share of acquires on platform threads served by their thread cache; NaN before any. */
    double getThreadCacheHitRate();

    /** Threads holding a cache of free buffers now. */
    int getThreadCaches();

    /** Bytes of free buffers in thread caches now (part of {@code BytesCached}). */
    long getThreadCacheBytes();

    /** The most all thread caches together may hold, as configured: caches x one full cache. */
    long getThreadCacheLimitBytes();

    /** Milliseconds since the snapshot behind the figures that need one was taken. */
    long getSnapshotAgeMillis();

    /**
     * The addresses the pool holds from the OS now, as pairs {@code [start0, end0, start1, end1, ...]} in
     * address order, ends exclusive, reserved addresses included: {@code offheap inspect} counts the pages
     * resident inside them. Changes only when the pool maps or unmaps memory, never per acquire.
     */
    long[] getAddressRanges();
}
