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
import dev.offheap.os.OwnedMappings;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Linux: every array is one range of addresses ({@link AddressRange}, reserved {@code PROT_NONE}) with its
 * chunks in place, whatever sources they came from: memory chunks ({@link MovableChunks}) moved in with their
 * pages, spill chunks ({@link FileChunks}) mapped in a run at a time. Each chunk places and leaves itself
 * through its source; the layout holds the range, the mappings the runs add ({@link MappingBudget}) and
 * gives back what was placed if a later chunk fails.
 */
final class ContiguousLayout implements ArrayLayout {
    private static final System.Logger LOG = System.getLogger(ContiguousLayout.class.getName());
    private final String pool;
    private final long chunkSize;
    private final int chunkShift;
    private final MappingBudget mappings;
    private final OwnedMappings.Owner owner;

    ContiguousLayout(String pool, long chunkSize, MappingBudget mappings, OwnedMappings.Owner owner) {
        this.pool = pool;
        this.chunkSize = chunkSize;
        this.chunkShift = Long.numberOfTrailingZeros(chunkSize);
        this.mappings = mappings;
        this.owner = owner;
    }

    @Override
    public boolean isContiguous() {
        return true;
    }

    @Override
    public MovableChunks memorySource(BudgetOwner account) {
        return new MovableChunks(pool, "memory", chunkSize, account, mappings, owner);
    }

    @Override
    public FileChunks spillSource(BudgetOwner account, Path directory) throws IOException {
        return new FileChunks(pool, "spill", chunkSize, account, NativeFile.spill(directory, "offheap-" + pool));
    }

    @Override
    public void checkMappings(long wanted) {
        mappings.check(wanted);
    }

    @Override
    public long mappingsUsed() {
        return mappings.used();
    }

    @Override
    public ArrayMemory map(Chunk[] chunks, long byteSize, Arena arena, Consumer<ArrayMemory> afterClose) {
        int runMappings = mappingsToPlace(chunks);
        mappings.take(runMappings);
        AddressRange range;
        try {
            range = AddressRange.reserve(Math.max(1, chunks.length) * chunkSize, owner);
        } catch (RuntimeException | Error e) {
            mappings.give(runMappings);
            throw e;
        }
        int placed = 0;
        try {
            while (placed < chunks.length) {
                PlacedChunks source = sourceOf(chunks[placed]);
                int end = source.runEnd(chunks, placed);
                source.place(range, chunks, placed, end);
                placed = end;
            }
        } catch (RuntimeException | Error e) {
            try {
                leave(chunks, placed, range);
                if (chunks.length == 0 || placed < chunks.length) {
                    range.unmap(placed * chunkSize, Math.max(1, chunks.length) * chunkSize - placed * chunkSize);
                }
            } catch (RuntimeException | Error undo) {
                e.addSuppressed(undo); // the failure to undo never hides the failure undone
            } finally {
                mappings.give(runMappings);
            }
            throw e;
        }
        MemorySegment whole = range.segment(byteSize, arena);
        MemorySegment[] slices = new MemorySegment[chunks.length];
        for (int i = 0; i < chunks.length; i++) {
            long offset = i * chunkSize;
            slices[i] = whole.asSlice(offset, Math.min(chunkSize, byteSize - offset));
        }
        // Runs once the views have ended and their grace has passed: nothing can reach the range any more.
        Consumer<ArrayMemory> letGo = array -> {
            try {
                leave(chunks, chunks.length, range);
                if (chunks.length == 0) {
                    range.unmap();
                }
            } catch (RuntimeException e) {
                // The array ended and its chunks go back all the same; only the addresses the OS kept stay mapped
                // (recorded as the pool's). Thrown here, the ended array's chunks would never go back.
                LOG.log(System.Logger.Level.WARNING, "chunk pool '" + pool + "': an array's addresses could not"
                        + " all be unmapped when it ended; they stay mapped", e);
            }
            mappings.give(runMappings);
            afterClose.accept(array);
        };
        return new ArrayMemory("chunk pool '" + pool + "'", arena, null, whole, slices, chunkShift, byteSize, letGo,
                null);
    }

    /** The source of one of this layout's chunks: one the layout made, so one that places its chunks. */
    private static PlacedChunks sourceOf(Chunk chunk) {
        return (PlacedChunks) chunk.source;
    }

    /** The mappings placing {@code chunks} adds: one per run of file pieces (memory blocks are counted already). */
    private static int mappingsToPlace(Chunk[] chunks) {
        int count = 0;
        for (int start = 0; start < chunks.length; ) {
            PlacedChunks source = sourceOf(chunks[start]);
            count += source.mappingsPerRun();
            start = source.runEnd(chunks, start);
        }
        return count;
    }

    /**
     * Lets go of the first {@code count} chunks placed in {@code range}, a run at a time, each by its source;
     * a run that fails to let go (an {@code munmap} refused) keeps none of the others placed: its failure is
     * thrown once all were let go.
     */
    private static void leave(Chunk[] chunks, int count, AddressRange range) {
        RuntimeException refused = null;
        for (int start = 0; start < count; ) {
            PlacedChunks source = sourceOf(chunks[start]);
            int end = Math.min(count, source.runEnd(chunks, start));
            try {
                source.leave(range, chunks, start, end);
            } catch (RuntimeException e) {
                if (refused == null) {
                    refused = e;
                } else {
                    refused.addSuppressed(e);
                }
            }
            start = end;
        }
        if (refused != null) {
            throw refused;
        }
    }
}
