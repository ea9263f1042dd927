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

import dev.offheap.metrics.PoolStats;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of a {@link ChunkPool}. The {@link PoolStats} figures count its memory chunks, the pool's
 * anonymous memory; the spill file's chunks, which live in the page cache, are in {@link #spill()}.
 *
 * @param name       the pool's name
 * @param budgetPath the path of the budget the memory chunks charge
 * @param liveArrays arrays not yet released
 * @param mappings   memory mappings the live arrays hold (Linux), counted against {@code vm.max_map_count}
 * @param bytesQuarantined of {@code bytesInUse}, bytes of the memory chunks of arrays a close could not end
 *                   because an I/O operation or native call holds one of their segments: mapped, charged and
 *                   never lent again; the close repeated after the operation ends them
 * @param memory     the memory chunks
 * @param spill      the spill file's chunks, empty without a spill directory
 */
public record ChunkPoolStats(String name, String budgetPath, long liveArrays, long mappings,
        long bytesQuarantined, ChunkSourceStats memory, Optional<ChunkSourceStats> spill) implements PoolStats {

    /**
     * The canonical constructor.
     *
     * @throws NullPointerException if a name, {@code memory} or {@code spill} is null
     */
    public ChunkPoolStats {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(budgetPath, "budgetPath");
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(spill, "spill");
    }

    /**
     * Bytes of memory chunks with memory behind them, held by arrays or free.
     *
     * @return {@code memory().bytesBacked()}
     */
    @Override
    public long bytesFromOs() {
        return memory.bytesBacked();
    }

    /**
     * Bytes of memory chunks held by arrays.
     *
     * @return {@code memory().bytesInUse()}
     */
    @Override
    public long bytesInUse() {
        return memory.bytesInUse();
    }

    /**
     * Bytes of memory chunks free for the next array, until {@code trim()}.
     *
     * @return {@code memory().bytesFree()}
     */
    @Override
    public long bytesCached() {
        return memory.bytesFree();
    }

    /**
     * The most bytes of memory chunks ever backed at once.
     *
     * @return the peak in bytes
     */
    @Override
    public long peakBytes() {
        return memory.peakBacked() * memory.chunkSize();
    }

    /**
     * The limit of the memory chunks' budget.
     *
     * @return the limit in bytes, {@code Long.MAX_VALUE} when there is none
     */
    @Override
    public long limitBytes() {
        return memory.limitBytes();
    }

    /**
     * The snapshot for logs: arrays and mappings, then a line per chunk source.
     *
     * @return the text, two or three lines
     */
    @Override
    public String format() {
        return "store " + name + ": " + liveArrays + " live arrays, " + mappings + " mappings\n  " + memory.format()
                + spill.map(s -> "\n  " + s.format()).orElse("");
    }
}
