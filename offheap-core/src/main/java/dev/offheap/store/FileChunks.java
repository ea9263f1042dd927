package dev.offheap.store;

import dev.offheap.account.BudgetOwner;
import dev.offheap.os.AddressRange;
import dev.offheap.os.NativeFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Linux spill chunks: fixed-size pieces of one unlinked file, mapped into each array's own address range
 * ({@link #mapInto}). Trimming punches holes, which gives the blocks back to the file system.
 */
final class FileChunks extends ChunkSource {
    private final NativeFile file;

    FileChunks(String name, long chunkSize, BudgetOwner account, NativeFile file) {
        super(name, chunkSize, account);
        this.file = file;
    }

    /** Maps {@code count} chunks of consecutive file offsets, starting with {@code first}, at {@code at}. */
    void mapInto(AddressRange range, long at, Chunk first, int count) {
        range.map(at, count * chunkSize, file, first.offset);
    }

    /**
     * Punches the chunk's space out and reserves it again: its blocks are given back in one call, costing
     * nothing for pages never touched, and read as zeros afterwards. Writing zeros instead would touch every
     * page and write them all to disk.
     */
    @Override
    boolean clear(Chunk chunk) throws IOException {
        file.punchHole(chunk.offset, chunkSize);
        file.reserve(chunk.offset, chunkSize);
        return true;
    }

    @Override
    void extendTo(long size) {
        file.grow(size);
    }

    @Override
    void back(Chunk chunk) throws IOException {
        file.reserve(chunk.offset, chunkSize);
    }

    @Override
    void unback(Chunk chunk) {
        file.punchHole(chunk.offset, chunkSize);
    }

    @Override
    boolean canTrim() {
        return true;
    }

    @Override
    MemorySegment view(Chunk chunk, Arena arena) {
        throw new UnsupportedOperationException("file chunks are only mapped into an array's address range");
    }

    @Override
    void release(Chunk chunk) {
        // Closing the file frees every chunk at once.
    }

    @Override
    void forgetNew(Chunk chunk) {
        // abandonFrom punches them all out at once.
    }

    /** Punches out everything from {@code offset} on, a chunk whose reservation failed half way included. */
    @Override
    void abandonFrom(long offset) {
        if (file.size() > offset) {
            file.punchHole(offset, file.size() - offset);
        }
    }

    @Override
    void closeSource() {
        file.close();
    }
}
