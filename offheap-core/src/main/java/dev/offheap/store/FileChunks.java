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
import dev.offheap.os.NativeFile;
import java.io.IOException;

/**
 * Linux spill chunks: fixed-size pieces of one unlinked file, mapped into each array's own address range
 * ({@link #place}), a run of consecutive pieces with one call. Trimming punches holes, which gives the blocks
 * back to the file system.
 */
final class FileChunks extends PlacedChunks {
    private final NativeFile file;

    FileChunks(String pool, String name, long chunkSize, BudgetOwner account, NativeFile file) {
        super(pool, name, chunkSize, account);
        this.file = file;
    }

    /** Consecutive chunks of this file at consecutive offsets map with one call as one mapping. */
    @Override
    int runEnd(Chunk[] chunks, int start) {
        int end = start + 1;
        while (end < chunks.length && chunks[end].source == this
                && chunks[end].offset == chunks[end - 1].offset + chunkSize) {
            end++;
        }
        return end;
    }

    @Override
    int mappingsPerRun() {
        return 1;
    }

    /** Maps the run's pieces of the file at their place, one {@code mmap(MAP_SHARED | MAP_FIXED)}. */
    @Override
    void place(AddressRange range, Chunk[] chunks, int start, int end) {
        range.map(start * chunkSize, (end - start) * chunkSize, file, chunks[start].offset);
    }

    @Override
    void leave(AddressRange range, Chunk[] chunks, int start, int end) {
        range.unmap(start * chunkSize, (end - start) * chunkSize);
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
    boolean unback(Chunk chunk) {
        file.punchHole(chunk.offset, chunkSize);
        chunk.unbacked();
        return true;
    }

    @Override
    void release(Chunk chunk) {
        // Closing the file frees every chunk at once.
    }

    @Override
    void forgetNew(Chunk chunk) {
        // abandonFrom punches them all out at once.
    }

    /**
     * Cuts the file at {@code offset}: its size and space are as before the new chunks, a chunk whose
     * reservation failed half way included. None of them is mapped any more.
     */
    @Override
    void abandonFrom(long offset) {
        file.shrink(offset);
    }

    @Override
    void closeSource() {
        file.close();
    }
}
