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
import java.io.PrintWriter;
import java.io.StringWriter;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

@Name(OffheapEvents.LEAK_REPORTED)
@Category(OffheapEvents.CATEGORY)
@Label("Leak Reported")
@Description("A lease became unreachable without being released; its memory went back to the pool")
public final class LeakReported extends Event {
    @Label("Pool")
    String pool;

    @Label("Bytes")
    @DataAmount(DataAmount.BYTES)
    long bytes;

    @Label("Acquired At")
    @Description("The thread and stack of the acquisition (the event's own stack is the finder's)")
    String acquiredAt;

    public static void emit(String pool, long bytes, Throwable acquiredAt) {
        LeakReported event = new LeakReported();
        if (event.shouldCommit()) {
            event.pool = pool;
            event.bytes = bytes;
            StringWriter trace = new StringWriter();
            acquiredAt.printStackTrace(new PrintWriter(trace));
            event.acquiredAt = trace.toString();
            event.commit();
        }
    }
}
