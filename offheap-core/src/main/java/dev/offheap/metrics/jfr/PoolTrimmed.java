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

@Name(OffheapEvents.POOL_TRIMMED)
@Category(OffheapEvents.CATEGORY)
@Label("Pool Trimmed")
@Description("A pool gave idle memory back to the OS: on request, or because its budget refused a charge"
        + " (the stack trace tells which)")
public final class PoolTrimmed extends Event {
    @Label("Pool")
    String pool;

    @Label("Pool Type")
    @Description("BufferPool or ChunkPool")
    String poolType;

    @Label("Bytes")
    @Description("Bytes given back")
    @DataAmount(DataAmount.BYTES)
    long bytes;

    public static void emit(String pool, String poolType, long bytes) {
        PoolTrimmed event = new PoolTrimmed();
        if (event.shouldCommit()) {
            event.pool = pool;
            event.poolType = poolType;
            event.bytes = bytes;
            event.commit();
        }
    }
}
