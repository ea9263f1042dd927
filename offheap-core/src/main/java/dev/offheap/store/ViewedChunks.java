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
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A source whose chunks the scattered layout ({@link ScatteredLayout}: other platforms, and the portable path
 * of tests) shows each through a segment of its own: {@link ArenaChunks} blocks, {@link ChannelChunks} file
 * pieces mapped with {@code FileChannel.map}.
 */
abstract sealed class ViewedChunks extends ChunkSource permits ArenaChunks, ChannelChunks {

    ViewedChunks(String pool, String name, long chunkSize, BudgetOwner account) {
        super(pool, name, chunkSize, account);
    }

    /**
     * The chunk's memory as a segment of {@code views}. A source that maps the chunk to make it
     * ({@code FileChannel.map}) maps it in {@code mappings}, which is closed only after {@code views} and their
     * grace: closing {@code views} ends the segment and unmaps nothing.
     */
    abstract MemorySegment view(Chunk chunk, Arena views, Arena mappings) throws IOException;
}
