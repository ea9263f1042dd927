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

import dev.offheap.account.BudgetOwner;
import dev.offheap.os.AddressRange;

/**
 * A source whose chunks the contiguous layout ({@link ContiguousLayout}, Linux) puts in place in each array's
 * reserved range of addresses: {@link MovableChunks} moves its blocks in, {@link FileChunks} maps its file
 * pieces in, a run of consecutive pieces at a time.
 */
abstract sealed class PlacedChunks extends ChunkSource permits MovableChunks, FileChunks {

    PlacedChunks(String pool, String name, long chunkSize, BudgetOwner account) {
        super(pool, name, chunkSize, account);
    }

    /**
     * The end of the run of this source's chunks from {@code chunks[start]} that {@link #place} puts in a
     * range with one call: {@code start + 1} unless the source maps runs of consecutive pieces at once.
     */
    int runEnd(Chunk[] chunks, int start) {
        return start + 1;
    }

    /**
     * The mappings placing one run adds: 0 where each chunk is a mapping of its own already (counted while it
     * is backed), 1 for a run of file pieces mapped in.
     */
    abstract int mappingsPerRun();

    /**
     * Puts the run {@code chunks[start, end)} in place in {@code range}, chunk {@code i} at
     * {@code i * chunkSize}. All or nothing for the run.
     */
    abstract void place(AddressRange range, Chunk[] chunks, int start, int end);

    /**
     * Lets go of the run {@code chunks[start, end)} placed in {@code range}: file pieces are unmapped,
     * movable blocks stay where they are, which becomes their address while free (no copy, no system call).
     */
    abstract void leave(AddressRange range, Chunk[] chunks, int start, int end);
}
