package dev.offheap.metrics.jfr;

import dev.offheap.metrics.OffheapEvents;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

@Name(OffheapEvents.CHUNK_RELEASED)
@Category(OffheapEvents.CATEGORY)
@Label("Chunk Released")
@Description("A chunk pool gave the memory or spill file space of a free chunk back (trim or close)")
public final class ChunkReleased extends Event {
    @Label("Pool")
    String pool;

    @Label("Source")
    @Description("memory or spill")
    String source;

    @Label("Bytes")
    @DataAmount(DataAmount.BYTES)
    long bytes;

    public static void emit(String pool, String source, long bytes) {
        ChunkReleased event = new ChunkReleased();
        if (event.shouldCommit()) {
            event.pool = pool;
            event.source = source;
            event.bytes = bytes;
            event.commit();
        }
    }
}
