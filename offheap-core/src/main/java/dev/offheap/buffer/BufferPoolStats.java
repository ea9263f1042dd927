package dev.offheap.buffer;

import dev.offheap.account.Bytes;
import java.util.List;
import java.util.Locale;

/**
 * What a {@link BufferPool} holds: {@code osBytes = leasedBytes + cachedBytes + uncutBytes} for the slabs,
 * plus the dedicated regions of buffers above the largest size class.
 *
 * @param pool the pool's name
 * @param memorySource where slabs come from: {@code mmap} or {@code arena}
 * @param osBytes bytes taken from the OS now (slabs and dedicated regions)
 * @param slabBytes of which in slabs
 * @param leasedBytes slot bytes of buffers leased now (a slot can be up to 20 % larger than its lease)
 * @param cachedBytes slot bytes free for reuse, in thread caches or shared free lists
 * @param uncutBytes slab bytes not yet cut into slots
 * @param leases buffers leased now, pooled and dedicated
 * @param dedicatedLeases buffers leased now with a region of their own
 * @param dedicatedBytes bytes of those regions
 * @param acquires buffers ever acquired
 * @param threadCacheHitRate share of acquires on platform threads served by their thread cache
 * @param threadCaches threads holding a cache now
 * @param threadCacheBytes slot bytes free in thread caches now (part of {@code cachedBytes})
 * @param threadCacheLimitBytes the most all thread caches together may hold: the configured number of caches
 *        x the slot bytes of one full cache ({@link BufferPool.Builder#threadCacheSize(int, int)})
 * @param leaksReported leases found unreachable without release
 * @param leaksWatched tracked leases alive now
 * @param sizeClasses the size classes that have been used
 */
public record PoolStats(String pool, String memorySource, long osBytes, long slabBytes, long leasedBytes,
        long cachedBytes, long uncutBytes, long leases, long dedicatedLeases, long dedicatedBytes, long acquires,
        double threadCacheHitRate, int threadCaches, long threadCacheBytes, long threadCacheLimitBytes,
        long leaksReported, int leaksWatched, List<SizeClassStats> sizeClasses) {

    public PoolStats {
        sizeClasses = List.copyOf(sizeClasses);
    }

    static PoolStats of(String pool, String source, long osBytes, int dedicatedLeases, long dedicatedBytes,
            long dedicatedAcquires, int threadCaches, long threadCacheLimitBytes, long leaksReported,
            int leaksWatched, List<SizeClassStats> all) {
        long slabBytes = 0;
        long leased = 0;
        long cached = 0;
        long uncut = 0;
        long leases = dedicatedLeases;
        long acquires = dedicatedAcquires;
        long hits = 0;
        long misses = 0;
        long inThreadCaches = 0;
        List<SizeClassStats> active = all.stream().filter(SizeClassStats::isActive).toList();
        for (SizeClassStats c : active) {
            slabBytes += c.osBytes();
            leased += c.leasedBytes();
            cached += c.cachedBytes();
            uncut += c.uncutBytes();
            leases += c.leased();
            acquires += c.acquires();
            hits += c.threadCacheHits();
            misses += c.threadCacheMisses();
            inThreadCaches += (long) c.inThreadCaches() * c.slotSize();
        }
        double hitRate = hits + misses == 0 ? Double.NaN : (double) hits / (hits + misses);
        return new PoolStats(pool, source, osBytes, slabBytes, leased + dedicatedBytes, cached, uncut, leases,
                dedicatedLeases, dedicatedBytes, acquires, hitRate, threadCaches, inThreadCaches,
                threadCacheLimitBytes, leaksReported, leaksWatched, active);
    }

    /** A table for people: totals, then one line per size class in use. */
    public String format() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT,
                "pool %s (%s): %s from the OS = %s leased + %s cached + %s not yet cut%n", pool, memorySource,
                Bytes.human(osBytes), Bytes.human(leasedBytes), Bytes.human(cachedBytes), Bytes.human(uncutBytes)));
        out.append(String.format(Locale.ROOT,
                "  %d leases (%d dedicated, %s), %d acquires, thread-cache hit rate %s, %d thread caches holding %s"
                        + " (at most %s), %d leaks%n",
                leases, dedicatedLeases, Bytes.human(dedicatedBytes), acquires, percent(threadCacheHitRate),
                threadCaches, Bytes.human(threadCacheBytes), Bytes.human(threadCacheLimitBytes), leaksReported));
        if (!sizeClasses.isEmpty()) {
            out.append(String.format(Locale.ROOT, "  %9s %6s %10s %8s %8s %8s %10s %9s%n",
                    "class", "slabs", "os", "slots", "leased", "cached", "acquires", "hit rate"));
            for (SizeClassStats c : sizeClasses) {
                out.append(String.format(Locale.ROOT, "  %9s %6d %10s %8d %8d %8d %10d %9s%n",
                        Bytes.human(c.slotSize()), c.slabs(), Bytes.human(c.osBytes()), c.slots(), c.leased(),
                        c.cached(), c.acquires(), percent(c.threadCacheHitRate())));
            }
        }
        return out.toString();
    }

    private static String percent(double rate) {
        return Double.isNaN(rate) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * rate);
    }
}
