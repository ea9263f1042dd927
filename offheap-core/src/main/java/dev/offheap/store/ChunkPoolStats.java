package dev.offheap.store;

/**
 * A snapshot of a {@link ChunkPool}.
 *
 * @param liveArrays arrays not yet released
 * @param mappings   memory mappings the live arrays hold (Linux), counted against {@code vm.max_map_count}
 * @param memory     the memory chunks
 * @param spill      the spill file's chunks, or null without a spill directory
 */
public record StoreStats(long liveArrays, long mappings, ChunkStats memory, ChunkStats spill) {

    public String format() {
        return liveArrays + " live arrays, " + mappings + " mappings\n  " + memory.format()
                + (spill == null ? "" : "\n  " + spill.format());
    }
}
