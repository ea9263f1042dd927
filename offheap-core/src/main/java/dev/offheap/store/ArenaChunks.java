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
import dev.offheap.os.NativeMemory;
import dev.offheap.os.OwnedMappings;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Portable memory chunks: each one a block of its own from {@link NativeMemory#portable()}. An array sees
 * its chunks through segments of its own arena, so closing the array ends its views while the blocks stay
 * in the pool.
 */
final class ArenaChunks extends ViewedChunks {

    private final NativeMemory blocks;

    ArenaChunks(String pool, String name, long chunkSize, BudgetOwner account, OwnedMappings.Owner owner) {
        super(pool, name, chunkSize, account);
        this.blocks = NativeMemory.portable().ownedBy(owner);
    }

    @Override
    boolean clear(Chunk chunk) {
        return false; // no way to give pages back portably: the caller writes zeros
    }

    @Override
    void extendTo(long size) {
        // Blocks are separate allocations: nothing to extend.
    }

    @Override
    void back(Chunk chunk) {
        chunk.backedBy(blocks.allocate(chunkSize));
    }

    @Override
    boolean unback(Chunk chunk) {
        chunk.region().close();
        chunk.unbacked();
        return true;
    }

    @Override
    MemorySegment view(Chunk chunk, Arena views, Arena mappings) {
        return chunk.region().viewIn(views);
    }

    @Override
    void release(Chunk chunk) {
        unback(chunk);
    }

    @Override
    void closeSource() {
        // Every block was released one by one.
    }
}
