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
    public long getBytesQuarantined() {
        return pool.stats().bytesQuarantined();
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
