package dev.offheap.store;

import dev.offheap.os.NativeRegion;

/**
 * One chunk of a {@link ChunkSource}: a fixed-size piece of its file (at {@code offset}), a movable block
 * ({@code address}, Linux memory) or, on the portable memory path, a block of its own ({@code region}). Guarded by its source's lock while free.
 */
final class Chunk {
    final ChunkSource source;
    final long offset;
    /** Where a movable chunk's block is while free (Linux memory); 0 while an array holds it or unbacked. */
    long address;
    /** The portable memory block, while backed; null otherwise and for file chunks. */
    NativeRegion region;
    /** Whether the chunk is known to read as zeros (new, or its space was given back since). */
    boolean zero = true;

    Chunk(ChunkSource source, long offset) {
        this.source = source;
        this.offset = offset;
    }
}
