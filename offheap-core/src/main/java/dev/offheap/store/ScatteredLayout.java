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
import dev.offheap.os.Grace;
import dev.offheap.os.OwnedMappings;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The portable layout (other platforms, and tests): an array sees each chunk through a segment of its own
 * in the array's arena ({@link ArenaChunks} blocks, {@link ChannelChunks} file pieces mapped with
 * {@code FileChannel.map}); access goes chunk by chunk. No mapping limit applies.
 */
final class ScatteredLayout implements ArrayLayout {
    private final String pool;
    private final long chunkSize;
    private final int chunkShift;
    private final OwnedMappings.Owner owner;

    ScatteredLayout(String pool, long chunkSize, OwnedMappings.Owner owner) {
        this.pool = pool;
        this.chunkSize = chunkSize;
        this.chunkShift = Long.numberOfTrailingZeros(chunkSize);
        this.owner = owner;
    }

    @Override
    public boolean isContiguous() {
        return false;
    }

    @Override
    public ArenaChunks memorySource(BudgetOwner account) {
        return new ArenaChunks(pool, "memory", chunkSize, account, owner);
    }

    @Override
    public ChannelChunks spillSource(BudgetOwner account, Path directory) throws IOException {
        return ChannelChunks.create(pool, "spill", chunkSize, account, directory, "offheap-" + pool);
    }

    @Override
    public void checkMappings(long mappings) {
        // Portable chunks are not counted against vm.max_map_count.
    }

    @Override
    public long mappingsUsed() {
        return 0;
    }

    /**
     * The chunks' segments in {@code arena}, over blocks of the pool or over file pieces mapped in an arena of
     * the array's own ({@code mappings}): the array ends by closing {@code arena}, then {@code mappings}, whose
     * handshake is the views' grace, before the pieces are unmapped and the chunks go back.
     */
    @Override
    public ArrayMemory map(Chunk[] chunks, long byteSize, Arena arena, Consumer<ArrayMemory> afterClose)
            throws IOException {
        Arena mappings = Arena.ofShared();
        try {
            MemorySegment[] views = new MemorySegment[chunks.length];
            for (int i = 0; i < chunks.length; i++) {
                long offset = i * chunkSize;
                // A chunk of this layout's comes from a source it made: one that views its chunks.
                views[i] = ((ViewedChunks) chunks[i].source).view(chunks[i], arena, mappings)
                        .asSlice(0, Math.min(chunkSize, byteSize - offset));
            }
            MemorySegment whole = switch (views.length) {
                case 0 -> arena.allocate(0);
                case 1 -> views[0];
                default -> null;
            };
            return new ArrayMemory("chunk pool '" + pool + "'", arena, mappings, whole, views, chunkShift, byteSize,
                    afterClose, null);
        } catch (IOException | RuntimeException | Error e) {
            Grace.endViews(mappings); // nothing was handed out: it closes
            throw e;
        }
    }
}
