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
import dev.offheap.os.MovableMemory;
import dev.offheap.os.OwnedMappings;

/**
 * Linux memory chunks: blocks of anonymous memory, moved with their pages into an array's address range
 * while it holds them ({@code mremap}); when the array lets go they stay where they are, which becomes their
 * address while free. Anonymous memory, unlike a memfd, gets transparent huge pages in the usual {@code madvise} mode,
 * which keeps random access over gigabytes from paying a TLB miss per read. Each chunk is one mapping,
 * counted in the pool's {@link MappingBudget}, and so in the JVM's.
 */
final class MovableChunks extends PlacedChunks {
    private final MappingBudget mappings;
    private final OwnedMappings.Owner owner;

    MovableChunks(String pool, String name, long chunkSize, BudgetOwner account, MappingBudget mappings,
            OwnedMappings.Owner owner) {
        super(pool, name, chunkSize, account);
        this.mappings = mappings;
        this.owner = owner;
    }

    /** Gives the pages back ({@code MADV_DONTNEED}); the next touch gets fresh zeroed pages, huge if possible. */
    @Override
    boolean clear(Chunk chunk) {
        MovableMemory.discard(chunk.address(), chunkSize);
        return true;
    }

    @Override
    void extendTo(long size) {
        // Blocks are separate mappings: nothing to extend.
    }

    @Override
    void back(Chunk chunk) {
        mappings.take(1);
        try {
            chunk.backedAt(MovableMemory.allocate(chunkSize, owner));
        } catch (RuntimeException | Error e) {
            mappings.give(1);
            throw e;
        }
    }

    @Override
    boolean unback(Chunk chunk) {
        MovableMemory.free(chunk.address(), chunkSize);
        chunk.unbacked();
        mappings.give(1);
        return true;
    }

    /** None: each block is a mapping of its own, counted while it is backed. */
    @Override
    int mappingsPerRun() {
        return 0;
    }

    /** Moves the block with its pages into its place ({@code mremap}): huge pages stay huge. */
    @Override
    void place(AddressRange range, Chunk[] chunks, int start, int end) {
        for (int i = start; i < end; i++) {
            MovableMemory.moveInto(chunks[i].address(), chunkSize, range, i * chunkSize);
            chunks[i].movedAway();
        }
    }

    /** The blocks stay where the array had them: that becomes their address while free. */
    @Override
    void leave(AddressRange range, Chunk[] chunks, int start, int end) {
        for (int i = start; i < end; i++) {
            chunks[i].leftAt(range.addressOf(i * chunkSize));
        }
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
