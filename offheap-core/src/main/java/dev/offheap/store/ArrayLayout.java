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
import dev.offheap.os.NativeFile;
import dev.offheap.os.OwnedMappings;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * How a pool lays an array's chunks out, chosen once when the pool is built. {@link ContiguousLayout}
 * (Linux): every array is one reserved range of addresses with its chunks moved or mapped into it.
 * {@link ScatteredLayout} (elsewhere, and the portable path of tests): one segment per chunk. The layout makes
 * the pool's chunk sources, of the one kind it can lay out ({@link PlacedChunks} or {@link ViewedChunks}), and
 * maps a request's chunks, which come from those sources only, as an array's memory.
 */
sealed interface ArrayLayout permits ContiguousLayout, ScatteredLayout {

    /** Whether a pool built with {@code portable} lays arrays out contiguously: Linux, unless portable. */
    static boolean contiguousFor(boolean portable) {
        return !portable && NativeFile.isSupported();
    }

    /**
     * The layout of one pool: {@code chunkSize} bytes a chunk, its addresses recorded under {@code owner}, its
     * mappings (contiguous) at most {@code mappingLimit} and counted in the JVM's too ({@code jvm}:
     * {@link MappingBudget#JVM} but in tests).
     */
    static ArrayLayout of(boolean contiguous, String pool, long chunkSize, long mappingLimit, MappingBudget jvm,
            OwnedMappings.Owner owner) {
        return contiguous
                ? new ContiguousLayout(pool, chunkSize, new MappingBudget(pool, chunkSize, mappingLimit, jvm), owner)
                : new ScatteredLayout(pool, chunkSize, owner);
    }

    boolean isContiguous();

    /** The pool's memory chunks, charged through {@code account}. */
    ChunkSource memorySource(BudgetOwner account);

    /** The pool's spill chunks: a new file in {@code directory}, charged through {@code account}. */
    ChunkSource spillSource(BudgetOwner account, Path directory) throws IOException;

    /**
     * Refuses ({@link IllegalStateException}, naming the limit) a request whose chunks would need
     * {@code mappings} more memory mappings than the pool, or the JVM, has left; nothing to refuse where chunks
     * are not mapped one by one.
     */
    void checkMappings(long mappings);

    /** The mappings the pool's chunks and arrays hold now. */
    long mappingsUsed();

    /**
     * The memory of one array of {@code byteSize} bytes over {@code chunks} (taken and backed), in
     * {@code arena}. Once the arena is closed and the layout has let go of the chunks, {@code afterClose} gets
     * the chunks back to their sources. On failure nothing stays placed or mapped; the chunks are still the
     * caller's.
     */
    ArrayMemory map(Chunk[] chunks, long byteSize, Arena arena, Consumer<ArrayMemory> afterClose)
            throws IOException;
}
