package dev.offheap.store;

import dev.offheap.account.MemoryBudget;
import dev.offheap.metrics.ChunkPoolMXBean;

/** A pool's figures for JMX and Micrometer, read live from {@link ChunkPool#stats()} (counters, no walk). */
final class ChunkPoolMetrics implements ChunkPoolMXBean {
    private final ChunkPool pool;

    ChunkPoolMetrics(ChunkPool pool) {
        this.pool = pool;
    }

    @Override
    public String getName() {
        return pool.name();
    }

    @Override
    public long getBytesFromOs() {
        return pool.stats().memory().bytesBacked();
    }

    @Override
    public long getBytesInUse() {
        return pool.stats().memory().bytesInUse();
    }

    @Override
    public long getBytesCached() {
        return pool.stats().memory().bytesFree();
    }

    @Override
    public long getPeakBytes() {
        return pool.stats().peakBytes();
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
    public long getSpillBytes() {
        return pool.stats().spill().map(ChunkSourceStats::bytesBacked).orElse(0L);
    }

    @Override
    public long getSpillBytesInUse() {
        return pool.stats().spill().map(ChunkSourceStats::bytesInUse).orElse(0L);
    }

    @Override
    public long getSpillLimitBytes() {
        MemoryBudget spill = pool.spillBudget();
        return spill == null ? 0 : spill.limit();
    }

    @Override
    public long getLiveArrays() {
        return pool.stats().liveArrays();
    }

    @Override
    public long getMappings() {
        return pool.stats().mappings();
    }

    @Override
    public long getChunkSize() {
        return pool.chunkSize();
    }

    @Override
    public long[] getAddressRanges() {
        return pool.addressRanges();
    }
}
