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

/**
 * One size class of a {@link BufferPool}, as {@link BufferPool#stats()} saw it.
 *
 * @param slotSize bytes per buffer of this class
 * @param slabs slabs held now
 * @param bytesFromOs bytes of those slabs
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
public record SizeClassStats(int slotSize, int slabs, long bytesFromOs, long slots, long leased, long cached,
        long inThreadCaches, long threadCacheHits, long threadCacheMisses, long uncachedAcquires,
        long slabsCreated, long slabsFreed) {

    /**
     * Buffers of this class ever acquired.
     *
     * @return thread-cache hits and misses plus uncached acquires
     */
    public long acquires() {
        return threadCacheHits + threadCacheMisses + uncachedAcquires;
    }

    /**
     * Slot bytes leased now.
     *
     * @return {@code leased x slotSize}
     */
    public long bytesInUse() {
        return leased * slotSize;
    }

    /**
     * Slot bytes free now.
     *
     * @return {@code cached x slotSize}
     */
    public long freeSlotBytes() {
        return cached * slotSize;
    }

    /**
     * Bytes of slabs not yet cut into slots.
     *
     * @return {@code bytesFromOs - slots x slotSize}
     */
    public long uncutBytes() {
        return bytesFromOs - slots * slotSize;
    }

    /**
     * Share of acquires served by a thread cache without touching shared state.
     *
     * @return a rate between 0 and 1, NaN before any acquire through a thread cache
     */
    public double threadCacheHitRate() {
        long cachedAcquires = threadCacheHits + threadCacheMisses;
        return cachedAcquires == 0 ? Double.NaN : (double) threadCacheHits / cachedAcquires;
    }

    boolean isActive() {
        return slabs > 0 || acquires() > 0 || slabsCreated > 0;
    }
}
