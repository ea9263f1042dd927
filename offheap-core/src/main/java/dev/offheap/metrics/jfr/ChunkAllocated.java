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
