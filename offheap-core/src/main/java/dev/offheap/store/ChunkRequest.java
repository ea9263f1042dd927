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

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * The chunks one array takes, in array order: free memory chunks, new memory chunks, free spill chunks, new
 * spill chunks. {@link #take} is the whole step: it refuses the impossible before taking anything, then takes,
 * charges and backs. Each step is recorded (taken, charged, backed) so that {@link #giveBack()} undoes exactly
 * what was done if a later step fails: the sources, their budgets and the spill file end as before the request.
 */
final class ChunkRequest {
    final Chunk[] chunks;
    private final Part memory;
    private final Part spill;

    ChunkRequest(int count, ChunkSource memory, ChunkSource spill) {
        this.chunks = new Chunk[count];
        this.memory = new Part(memory);
        this.spill = spill == null ? null : new Part(spill);
    }

    /**
     * Takes {@code count} chunks for one array: free memory chunks, then new ones as far as the memory budget
     * allows (all charged at once, so a refusal charges nothing), then spill chunks (free, then new, charged
     * at once). Nothing is backed (no block mapped, no disk space reserved) before every charge succeeded. A
     * refusal is the refusing source's own: its limits before anything is taken, or its one charge. Any
     * failure gives back everything taken before it goes on.
     *
     * @param spill the spill source, or null
     * @throws IOException if the spill file's space cannot be reserved (a full disk)
     */
    static ChunkRequest take(int count, ChunkSource memory, ChunkSource spill, ArrayLayout layout)
            throws IOException {
        refuseTheImpossible(count, memory, spill, layout);
        ChunkRequest request = new ChunkRequest(count, memory, spill);
        try {
            int rest = count - request.memory.takeFree(request.chunks, 0, count);
            int fromMemory = spill == null ? request.memory.charge(rest) : request.memory.chargeAsManyAs(rest);
            int toSpill = rest - fromMemory;
            if (toSpill > 0) {
                int newSpill = toSpill - request.spill.takeFree(request.chunks, request.memory.end(), toSpill);
                request.spill.charge(newSpill);
            }
            layout.checkMappings(fromMemory + (toSpill > 0 ? 1 : 0));
            request.backAll();
            return request;
        } catch (IOException | RuntimeException | Error e) {
            request.giveBackAfter(e);
            throw e;
        }
    }

    /**
     * Refuses, before taking anything, a request that cannot be served whatever is freed: more chunks than
     * the limits of the memory budgets and the spill budget hold together (the last source in line refuses:
     * the spill file if there is one), or more new memory chunks than mappings are left, counting the memory
     * the budget has room for now.
     */
    private static void refuseTheImpossible(int count, ChunkSource memory, ChunkSource spill, ArrayLayout layout) {
        if (spill == null) {
            memory.refuseBeyondLimits(count);
        } else {
            spill.refuseBeyondLimits(count - memory.chunksWithinLimits());
        }
        long wanted = count - memory.freeCount();
        long memoryNow = spill == null ? wanted : Math.min(wanted, memory.chunksAvailable());
        layout.checkMappings(memoryNow + (memoryNow < wanted ? 1 : 0));
    }

    /** Puts space behind every charged chunk: memory blocks, then spill file space. */
    private void backAll() throws IOException {
        memory.backNew(chunks);
        if (spill != null) {
            spill.backNew(chunks);
        }
    }

    /** Clears the free chunks taken that held data, where the source can without writing. */
    void clearReused() throws IOException {
        memory.source.clearTaken(chunks, memory.start, memory.start + memory.free);
        if (spill != null) {
            spill.source.clearTaken(chunks, spill.start, spill.start + spill.free);
        }
    }

    /**
     * Writes zeros, through the array's {@code segments}, over the reused chunks still holding old data: those
     * whose source could not clear them without writing ({@link #clearReused}). New and cleared chunks read as
     * zeros already.
     */
    void fillReused(MemorySegment[] segments) {
        for (int i = 0; i < chunks.length; i++) {
            chunks[i].clearThrough(segments[i]);
        }
    }

    /** Undoes a request that failed with {@code failure}; a failure to undo is added to it, never hides it. */
    void giveBackAfter(Throwable failure) {
        try {
            giveBack();
        } catch (RuntimeException | Error undo) {
            failure.addSuppressed(undo);
        }
    }

    /** Undoes every step done, the last first. */
    void giveBack() {
        try {
            if (spill != null) {
                spill.giveBack(chunks);
            }
        } finally {
            memory.giveBack(chunks);
        }
    }

    /** One source's share: {@code free} chunks taken from its free list, then {@code charged} new ones. */
    private static final class Part {
        final ChunkSource source;
        int start;
        int free;
        int charged;
        boolean backed;
        long firstNew;

        Part(ChunkSource source) {
            this.source = source;
        }

        int end() {
            return start + free + charged;
        }

        int takeFree(Chunk[] chunks, int at, int max) {
            start = at;
            free = source.takeFree(chunks, at, max);
            return free;
        }

        /** Charges {@code count} new chunks at once, or throws the source's refusal (nothing charged). */
        int charge(int count) {
            source.charge(count);
            charged = count;
            return count;
        }

        /** Charges as many of {@code wanted} new chunks as the source's budget allows; returns how many. */
        int chargeAsManyAs(int wanted) {
            charged = source.chargeAsManyAs(wanted);
            return charged;
        }

        /** On failure the source has already undone the backing and released the charge. */
        void backNew(Chunk[] chunks) throws IOException {
            int count = charged;
            charged = 0;
            firstNew = source.backNew(chunks, start + free, count);
            charged = count;
            backed = true;
        }

        void giveBack(Chunk[] chunks) {
            try {
                if (backed) {
                    source.giveBackNew(chunks, start + free, start + free + charged, firstNew);
                } else {
                    source.uncharge(charged);
                }
                charged = 0;
            } finally {
                source.giveBack(chunks, start, start + free);
                free = 0;
            }
        }
    }
}
