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
        ChunkStats memory = pool.stats().memory();
        return memory.peakBacked() * memory.chunkSize();
    }

    @Override
    public long getLimitBytes() {
        return orMinusOne(pool.memoryBudget().limit());
    }

    @Override
    public String getBudgetPath() {
        return pool.memoryBudget().path();
    }

    @Override
    public long getLeaks() {
        return 0;
    }

    @Override
    public long getSpillBytes() {
        ChunkStats spill = pool.stats().spill();
        return spill == null ? 0 : spill.bytesBacked();
    }

    @Override
    public long getSpillBytesInUse() {
        ChunkStats spill = pool.stats().spill();
        return spill == null ? 0 : spill.bytesInUse();
    }

    @Override
    public long getSpillLimitBytes() {
        MemoryBudget spill = pool.spillBudget();
        return spill == null ? -1 : orMinusOne(spill.limit());
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

    private static long orMinusOne(long limit) {
        return limit == MemoryBudget.UNLIMITED ? -1 : limit;
    }
}
