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

package dev.offheap.metrics;

/**
 * A {@code BufferPool} as JMX shows it: {@code dev.offheap:type=BufferPool,name=<pool name>}; the figures
 * every pool has come from {@link PoolMXBean}.
 *
 * <p>{@code BytesFromOs}, {@code PeakBytes} and {@code LimitBytes} are read live. The other figures come
 * from one snapshot of the pool, taken at most once a second (taking one walks every slot), so that they
 * agree with each other: {@code BytesInUse + BytesCached} was {@code BytesFromOs} when it was taken.
 * {@code BytesInUse} counts whole slots (a slot can be up to 20 % larger than its lease) and the regions of
 * leases above the largest size class; {@code BytesCached} free slots (in thread caches and shared free
 * lists) and slab space not yet cut into slots.
 */
public interface BufferPoolMXBean extends PoolMXBean {

    /**
     * Leases found unreachable without release so far.
     *
     * @return the number of leaks reported
     */
    long getLeaks();

    /**
     * Buffers leased now.
     *
     * @return the number of leases
     */
    long getLeases();

    /**
     * Buffers ever acquired.
     *
     * @return the number of acquires
     */
    long getAcquires();

    /**
     * Share of acquires on platform threads served by their thread cache.
     *
     * @return a rate between 0 and 1, NaN before any acquire
     */
    double getThreadCacheHitRate();

    /**
     * Threads holding a cache of free buffers now.
     *
     * @return the number of thread caches
     */
    int getThreadCaches();

    /**
     * Bytes of free buffers in thread caches now (part of {@code BytesCached}).
     *
     * @return the bytes
     */
    long getThreadCacheBytes();

    /**
     * The most all thread caches together may hold, as configured: caches x one full cache.
     *
     * @return the bytes
     */
    long getThreadCacheLimitBytes();

    /**
     * Milliseconds since the snapshot behind the figures that need one was taken.
     *
     * @return the age in milliseconds, 0 before the first snapshot
     */
    long getSnapshotAgeMillis();
}
