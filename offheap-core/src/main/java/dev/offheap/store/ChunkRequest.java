package dev.offheap.store;

import java.io.IOException;

/**
 * The chunks one array takes, in array order: free memory chunks, new memory chunks, free spill chunks, new
 * spill chunks. Records each step (taken, charged, backed) so that {@link #giveBack()} undoes exactly what
 * was done if a later step fails: the sources, their budgets and the spill file end as before the request.
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

    /** Takes up to {@code max} free memory chunks; returns how many. */
    int takeFreeMemory(int max) {
        return memory.takeFree(chunks, 0, max);
    }

    /** Records that {@code count} new memory chunks were charged (they are backed by {@link #backAll}). */
    void chargedMemory(int count) {
        memory.charged = count;
    }

    /** Takes up to {@code max} free spill chunks after the memory chunks; returns how many. */
    int takeFreeSpill(int max) {
        return spill.takeFree(chunks, memory.end(), max);
    }

    void chargedSpill(int count) {
        spill.charged = count;
    }

    /** Puts space behind every charged chunk: memory blocks, then spill file space. */
    void backAll() throws IOException {
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
