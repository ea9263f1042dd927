package dev.offheap.metrics.jfr;

import dev.offheap.metrics.OffheapEvents;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

@Name(OffheapEvents.CHUNK_ALLOCATED)
@Category(OffheapEvents.CATEGORY)
@Label("Chunk Allocated")
@Description("A chunk pool put memory or spill file space behind a chunk")
public final class ChunkAllocated extends Event {
    @Label("Pool")
    String pool;

    @Label("Source")
    @Description("memory or spill")
    String source;

    @Label("Bytes")
    @DataAmount(DataAmount.BYTES)
    long bytes;

    public static void emit(String pool, String source, long bytes) {
        ChunkAllocated event = new ChunkAllocated();
        if (event.shouldCommit()) {
            event.pool = pool;
            event.source = source;
            event.bytes = bytes;
            event.commit();
        }
    }
}
