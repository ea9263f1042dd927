package dev.offheap.store;

import dev.offheap.account.BudgetOwner;
import dev.offheap.os.MovableMemory;
import dev.offheap.os.OwnedMappings;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Linux memory chunks: blocks of anonymous memory, moved with their pages into an array's address range
 * while it holds them ({@code mremap}); when the array lets go they stay where they are, which becomes their
 * address while free. Anonymous memory, unlike a memfd, gets transparent huge pages in the usual {@code madvise} mode,
 * which keeps random access over gigabytes from paying a TLB miss per read. Each chunk is one mapping,
 * counted in the pool's {@link MappingBudget}.
 */
final class MovableChunks extends ChunkSource {
    private final MappingBudget mappings;
    private final OwnedMappings.Owner owner;

    MovableChunks(String name, long chunkSize, BudgetOwner account, MappingBudget mappings, OwnedMappings.Owner owner) {
        super(name, chunkSize, account);
        this.mappings = mappings;
        this.owner = owner;
    }

    /** Gives the pages back ({@code MADV_DONTNEED}); the next touch gets fresh zeroed pages, huge if possible. */
    @Override
    boolean clear(Chunk chunk) {
        MovableMemory.discard(chunk.address, chunkSize);
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
            chunk.address = MovableMemory.allocate(chunkSize, owner);
        } catch (RuntimeException | Error e) {
            mappings.give(1);
            throw e;
        }
        chunk.zero = true;
    }

    @Override
    void unback(Chunk chunk) {
        MovableMemory.free(chunk.address, chunkSize);
        chunk.address = 0;
        mappings.give(1);
    }

    @Override
    boolean canTrim() {
        return true;
    }

    @Override
    MemorySegment view(Chunk chunk, Arena arena) {
        throw new UnsupportedOperationException("movable chunks are only moved into an array's address range");
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
