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

import dev.offheap.account.BudgetExceededException;
import dev.offheap.metrics.OffheapEvents;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

@Name(OffheapEvents.BUDGET_EXCEEDED)
@Category(OffheapEvents.CATEGORY)
@Label("Budget Exceeded")
@Description("A memory budget refused a pool's charge; the pool threw BudgetExceededException")
public final class BudgetExceeded extends Event {
    @Label("Pool")
    String pool;

    @Label("Budget Path")
    @Description("The budget that refused")
    String budgetPath;

    @Label("Requested")
    @Description("Bytes the pool charged (a slab, the chunks of an array, a mapping)")
    @DataAmount(DataAmount.BYTES)
    long requested;

    @Label("Request")
    @Description("What the user asked the pool for, e.g. acquire(1048576), when the pool knows it")
    String request;

    @Label("Request Bytes")
    @Description("Bytes of that request; 0 when unknown")
    @DataAmount(DataAmount.BYTES)
    long requestBytes;

    @Label("Used")
    @Description("Bytes charged to that budget when it refused")
    @DataAmount(DataAmount.BYTES)
    long used;

    @Label("Limit")
    @DataAmount(DataAmount.BYTES)
    long limit;

    public static void emit(String pool, BudgetExceededException refusal) {
        BudgetExceeded event = new BudgetExceeded();
        if (event.shouldCommit()) {
            event.pool = pool;
            event.budgetPath = refusal.budgetPath();
            event.requested = refusal.requested();
            event.used = refusal.used();
            event.limit = refusal.limit();
            event.request = refusal.request().orElse(null);
            event.requestBytes = refusal.requestBytes().orElse(0);
            event.commit();
        }
    }
}
