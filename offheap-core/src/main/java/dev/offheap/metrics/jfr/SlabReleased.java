package dev.offheap.metrics.jfr;

import dev.offheap.metrics.OffheapEvents;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

@Name(OffheapEvents.SLAB_RELEASED)
@Category(OffheapEvents.CATEGORY)
@Label("Slab Released")
@Description("A buffer pool gave a slab, or the region of one lease above its largest size class, back to the OS")
public final class SlabReleased extends Event {
    @Label("Pool")
    String pool;

    @Label("Bytes")
    @DataAmount(DataAmount.BYTES)
    long bytes;

    @Label("Slot Size")
    @Description("The size class the slab is cut into; 0 for the region of one large lease")
    @DataAmount(DataAmount.BYTES)
    int slotSize;

    public static void emit(String pool, long bytes, int slotSize) {
        SlabReleased event = new SlabReleased();
        if (event.shouldCommit()) {
            event.pool = pool;
            event.bytes = bytes;
            event.slotSize = slotSize;
            event.commit();
        }
    }
}
