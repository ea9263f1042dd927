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

import dev.offheap.metrics.BufferPoolMXBean;

/**
 * A pool's figures for JMX and Micrometer. {@link BufferPool#stats()} walks every slot, so the figures that
 * need it share one snapshot, taken again only once it is older than {@link #SNAPSHOT_TTL_NANOS}: monitoring
 * costs at most one walk per second whoever polls and how often. The counters kept on slow paths (bytes
 * from the OS, peak) are read live.
 */
final class BufferPoolMetrics implements BufferPoolMXBean {
    static final long SNAPSHOT_TTL_NANOS = 1_000_000_000L;

    private final BufferPool pool;
    private final long ttlNanos;
    private BufferPoolStats snapshot;
    private long takenAt;

    BufferPoolMetrics(BufferPool pool) {
        this(pool, SNAPSHOT_TTL_NANOS);
    }

    /** Tests: another lifetime for snapshots (0: a new one for every read). */
    BufferPoolMetrics(BufferPool pool, long ttlNanos) {
        this.pool = pool;
        this.ttlNanos = ttlNanos;
    }

    private synchronized BufferPoolStats snapshot() {
        long now = System.nanoTime();
        if (snapshot == null || now - takenAt >= ttlNanos) {
            snapshot = pool.stats();
            takenAt = now;
        }
        return snapshot;
    }

    @Override
    public String getName() {
        return pool.name();
    }

    @Override
    public long getBytesFromOs() {
        return pool.bytesFromOs();
    }

    @Override
    public long getBytesInUse() {
        return snapshot().bytesInUse();
    }

    @Override
    public long getBytesCached() {
        return snapshot().bytesCached();
    }

    @Override
    public long getBytesQuarantined() {
        return snapshot().bytesQuarantined();
    }

    @Override
    public long getPeakBytes() {
        return pool.peakBytesFromOs();
    }

    @Override
    public long getLimitBytes() {
        return pool.budget().limit();
    }

    @Override
    public String getBudgetPath() {
        return pool.budget().path();
    }

    @Override
    public long getLeaks() {
        return snapshot().leaks();
    }

    @Override
    public long getLeases() {
        return snapshot().leases();
    }

    @Override
    public long getAcquires() {
        return snapshot().acquires();
    }

    @Override
    public double getThreadCacheHitRate() {
        return snapshot().threadCacheHitRate();
    }

    @Override
    public int getThreadCaches() {
        return snapshot().threadCaches();
    }

    @Override
    public long getThreadCacheBytes() {
        return snapshot().threadCacheBytes();
    }

    @Override
    public long getThreadCacheLimitBytes() {
        return snapshot().threadCacheLimitBytes();
    }

    @Override
    public synchronized long getSnapshotAgeMillis() {
        return snapshot == null ? 0 : (System.nanoTime() - takenAt) / 1_000_000;
    }

    @Override
    public long[] getAddressRanges() {
        return pool.addressRanges();
    }
}
