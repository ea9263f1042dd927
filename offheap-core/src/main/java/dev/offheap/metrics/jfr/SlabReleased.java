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
