/*
 * Copyright 2026 the offheap authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.offheap.buffer;

import dev.offheap.account.Bytes;
import dev.offheap.metrics.PoolStats;
import java.util.List;
import java.util.Locale;

/**
 * What a {@link BufferPool} holds: {@code bytesFromOs = bytesInUse + bytesCached}, where the cached bytes
 * are {@code freeSlotBytes + uncutBytes} of the slabs, and the bytes in use count whole slots plus the
 * dedicated regions of buffers above the largest size class, plus slabs set aside because a view of them
 * is held ({@code bytesQuarantined}).
 *
 * @param name the pool's name
 * @param budgetPath the path of the budget the pool charges
 * @param bytesFromOs bytes taken from the OS now (slabs and dedicated regions)
 * @param bytesInUse bytes of buffers leased now: whole slots (a slot can be up to 20 % larger than its
 *        lease) and dedicated regions
 * @param bytesCached bytes held but not leased: {@code freeSlotBytes + uncutBytes}
 * @param peakBytes the most {@code bytesFromOs} ever held at once
 * @param limitBytes the limit of the pool's budget, {@code Long.MAX_VALUE} when there is none
 * @param bytesQuarantined of {@code bytesInUse}, bytes the pool could not give back because an I/O operation
 *        or native call holds a view of them: slabs set aside by trim, leaked leases' memory, and after a
 *        close that threw, everything it kept; given back by the next trim or close after the operation ended
 * @param memorySource where slabs come from: {@code mmap} or {@code arena}
 * @param slabBytes of {@code bytesFromOs}, the bytes in slabs
 * @param freeSlotBytes slot bytes free for reuse, in thread caches or shared free lists
 * @param uncutBytes slab bytes not yet cut into slots
 * @param leases buffers leased now, pooled and dedicated
 * @param dedicatedLeases buffers leased now with a region of their own
 * @param dedicatedBytes bytes of those regions
 * @param acquires buffers ever acquired
 * @param threadCacheHitRate share of acquires on platform threads served by their thread cache
 * @param threadCaches threads holding a cache now
 * @param threadCacheBytes slot bytes free in thread caches now (part of {@code freeSlotBytes})
 * @param threadCacheLimitBytes the most all thread caches together may hold: the configured number of caches
 *        x the slot bytes of one full cache ({@link BufferPool.Builder#threadCacheSize(int, int)})
 * @param leaks leases found unreachable without release
 * @param leaksWatched tracked leases alive now
 * @param sizeClasses the size classes that have been used
 */
public record BufferPoolStats(String name, String budgetPath, long bytesFromOs, long bytesInUse, long bytesCached,
        long peakBytes, long limitBytes, long bytesQuarantined, String memorySource, long slabBytes, long freeSlotBytes, long uncutBytes,
        long leases, long dedicatedLeases, long dedicatedBytes, long acquires, double threadCacheHitRate,
        int threadCaches, long threadCacheBytes, long threadCacheLimitBytes, long leaks, int leaksWatched,
        List<SizeClassStats> sizeClasses) implements PoolStats {

    /**
     * The canonical constructor; copies the list.
     *
     * @throws NullPointerException if {@code sizeClasses} or one of its elements is null
     */
    public BufferPoolStats {
        sizeClasses = List.copyOf(sizeClasses);
    }

    static BufferPoolStats of(String pool, String budgetPath, String source, long osBytes, long peakBytes,
            long limitBytes, long heldSlabBytes, long quarantined, int dedicatedLeases, long dedicatedBytes, long dedicatedAcquires, int threadCaches,
            long threadCacheLimitBytes, long leaksReported, int leaksWatched, List<SizeClassStats> all) {
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
            slabBytes += c.bytesFromOs();
            leased += c.bytesInUse();
            cached += c.freeSlotBytes();
            uncut += c.uncutBytes();
            leases += c.leased();
            acquires += c.acquires();
            hits += c.threadCacheHits();
            misses += c.threadCacheMisses();
            inThreadCaches += c.inThreadCaches() * c.slotSize();
        }
        double hitRate = hits + misses == 0 ? Double.NaN : (double) hits / (hits + misses);
        return new BufferPoolStats(pool, budgetPath, osBytes, leased + dedicatedBytes + heldSlabBytes,
                cached + uncut, peakBytes, limitBytes, quarantined, source, slabBytes, cached, uncut, leases, dedicatedLeases, dedicatedBytes, acquires,
                hitRate, threadCaches, inThreadCaches, threadCacheLimitBytes, leaksReported, leaksWatched, active);
    }

    /**
     * A table for people: totals, then one line per size class in use.
     *
     * @return the text, several lines
     */
    @Override
    public String format() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT,
                "pool %s (%s): %s from the OS = %s leased + %s cached + %s not yet cut%n", name, memorySource,
                Bytes.human(bytesFromOs), Bytes.human(bytesInUse), Bytes.human(freeSlotBytes), Bytes.human(uncutBytes)));
        out.append(String.format(Locale.ROOT,
                "  %d leases (%d dedicated, %s), %d acquires, thread-cache hit rate %s, %d thread caches holding %s"
                        + " (at most %s), %d leaks%n",
                leases, dedicatedLeases, Bytes.human(dedicatedBytes), acquires, percent(threadCacheHitRate),
                threadCaches, Bytes.human(threadCacheBytes), Bytes.human(threadCacheLimitBytes), leaks));
        if (!sizeClasses.isEmpty()) {
            out.append(String.format(Locale.ROOT, "  %9s %6s %10s %8s %8s %8s %10s %9s%n",
                    "class", "slabs", "os", "slots", "leased", "cached", "acquires", "hit rate"));
            for (SizeClassStats c : sizeClasses) {
                out.append(String.format(Locale.ROOT, "  %9s %6d %10s %8d %8d %8d %10d %9s%n",
                        Bytes.human(c.slotSize()), c.slabs(), Bytes.human(c.bytesFromOs()), c.slots(), c.leased(),
                        c.cached(), c.acquires(), percent(c.threadCacheHitRate())));
            }
        }
        return out.toString();
    }

    private static String percent(double rate) {
        return Double.isNaN(rate) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * rate);
    }
}
