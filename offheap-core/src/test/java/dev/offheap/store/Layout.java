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

import java.nio.file.Path;

/** The store's layouts, as {@link StoreModelProperties} runs them: Linux ranges or portable chunks, with or without spill. */
enum Layout {
    CONTIGUOUS(false, false),
    CONTIGUOUS_WITH_SPILL(false, true),
    PORTABLE(true, false),
    PORTABLE_WITH_SPILL(true, true);

    private final boolean portable;
    private final boolean spill;

    Layout(boolean portable, boolean spill) {
        this.portable = portable;
        this.spill = spill;
    }

    /** A pool of {@code chunk}-byte chunks; with spill, only {@code memoryChunks} of them in memory. */
    ChunkPool.Builder builder(String name, long chunk, long memoryChunks, Path spillDirectory) {
        ChunkPool.Builder builder = ChunkPool.builder().name(name).chunkSize(chunk).portable(portable).jmx(false);
        return spill ? builder.memoryLimit(memoryChunks * chunk).spillDirectory(spillDirectory) : builder;
    }
}
