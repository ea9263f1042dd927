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

package dev.offheap.metrics;

import java.util.List;

/** The names of offheap's JFR events, for {@code jdk.jfr.Recording.enable} and for reading recordings. */
public final class OffheapEvents {
    /** The category every offheap event belongs to. */
    public static final String CATEGORY = "offheap";

    /** A buffer pool took a slab (or the region of one large lease) from the OS: pool, bytes, slotSize. */
    public static final String SLAB_ALLOCATED = "dev.offheap.SlabAllocated";
    /** A buffer pool gave a slab (or a large lease's region) back to the OS: pool, bytes, slotSize. */
    public static final String SLAB_RELEASED = "dev.offheap.SlabReleased";
    /** A chunk pool put memory or file space behind a chunk: pool, source, bytes. */
    public static final String CHUNK_ALLOCATED = "dev.offheap.ChunkAllocated";
    /** A chunk pool gave a free chunk's memory or file space back: pool, source, bytes. */
    public static final String CHUNK_RELEASED = "dev.offheap.ChunkReleased";
    /** A pool gave idle memory back, asked to or because its budget refused: pool, poolType, bytes. */
    public static final String POOL_TRIMMED = "dev.offheap.PoolTrimmed";
    /** A budget refused a pool's charge: pool, budgetPath, requested, used, limit, request, requestBytes. */
    public static final String BUDGET_EXCEEDED = "dev.offheap.BudgetExceeded";
    /** A lease became unreachable without release: pool, bytes, acquiredAt (thread and stack). */
    public static final String LEAK_REPORTED = "dev.offheap.LeakReported";
    /**
     * A lease was used after its release through its handle: pool, bytes, operation, and for a lease sampled
     * for use-after-release detection, acquiredAt and releasedAt (threads and stacks).
     */
    public static final String USE_AFTER_RELEASE = "dev.offheap.UseAfterRelease";

    /** Every event above. */
    public static final List<String> ALL = List.of(SLAB_ALLOCATED, SLAB_RELEASED, CHUNK_ALLOCATED, CHUNK_RELEASED,
            POOL_TRIMMED, BUDGET_EXCEEDED, LEAK_REPORTED, USE_AFTER_RELEASE);

    private OffheapEvents() {}
}
