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

@Name(OffheapEvents.USE_AFTER_RELEASE)
@Category(OffheapEvents.CATEGORY)
@Label("Use After Release")
@Description("A lease was used through its handle after its release; the event's own stack is the user's")
public final class UseAfterRelease extends Event {
    @Label("Pool")
    String pool;

    @Label("Bytes")
    @DataAmount(DataAmount.BYTES)
    long bytes;

    @Label("Operation")
    String operation;

    @Label("Acquired At")
    @Description("Thread and stack of the acquisition, for leases sampled for use-after-release detection")
    String acquiredAt;

    @Label("Released At")
    @Description("Thread and stack of the release, for leases sampled for use-after-release detection")
    String releasedAt;

    public static void emit(String pool, long bytes, String operation, Throwable acquiredAt, Throwable releasedAt) {
        UseAfterRelease event = new UseAfterRelease();
        if (event.shouldCommit()) {
            event.pool = pool;
            event.bytes = bytes;
            event.operation = operation;
            event.acquiredAt = trace(acquiredAt);
            event.releasedAt = trace(releasedAt);
            event.commit();
        }
    }

    private static String trace(Throwable t) {
        if (t == null) {
            return null;
        }
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
