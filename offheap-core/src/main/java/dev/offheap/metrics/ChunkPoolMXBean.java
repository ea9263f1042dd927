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
 * A {@code ChunkPool} (the store) as JMX shows it: {@code dev.offheap:type=ChunkPool,name=<pool name>}; the
 * figures every pool has come from {@link PoolMXBean}.
 *
 * <p>The {@link PoolMXBean} figures count memory chunks, the pool's anonymous memory; the {@code Spill...}
 * figures count chunks of its spill file, which live in the page cache. All are read live.
 */
public interface ChunkPoolMXBean extends PoolMXBean {

    /**
     * Bytes of spill file chunks with space behind them, held by arrays or free.
     *
     * @return the bytes, 0 without a spill file
     */
    long getSpillBytes();

    /**
     * Bytes of spill file chunks held by arrays.
     *
     * @return the bytes, 0 without a spill file
     */
    long getSpillBytesInUse();

    /**
     * The spill file's limit.
     *
     * @return the limit in bytes, {@code Long.MAX_VALUE} when there is none, 0 without a spill file
     */
    long getSpillLimitBytes();

    /**
     * Arrays not yet released.
     *
     * @return the number of live arrays
     */
    long getLiveArrays();

    /**
     * Memory mappings the pool's arrays and free chunks hold (Linux), counted against
     * {@code vm.max_map_count}.
     *
     * @return the number of mappings
     */
    long getMappings();

    /**
     * Bytes per chunk.
     *
     * @return the chunk size
     */
    long getChunkSize();
}
