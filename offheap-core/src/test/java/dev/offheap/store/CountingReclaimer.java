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

package dev.offheap.store;

import dev.offheap.account.MemoryBudget;
import dev.offheap.account.Reclaimer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reclaimer that frees nothing and counts how often its budget asked it: registered on the budget from
 * {@link #on} until {@link #close()}, for tests of how often a refused request runs the reclaimers.
 */
final class CountingReclaimer implements Reclaimer, AutoCloseable {
    private final MemoryBudget budget;
    private final AtomicInteger asked = new AtomicInteger();

    private CountingReclaimer(MemoryBudget budget) {
        this.budget = budget;
    }

    static CountingReclaimer on(MemoryBudget budget) {
        CountingReclaimer counting = new CountingReclaimer(budget);
        budget.addReclaimer(counting);
        return counting;
    }

    @Override
    public long reclaim(long bytesWanted) {
        asked.incrementAndGet();
        return 0;
    }

    /** How often the budget asked since registration or the last {@link #reset()}. */
    int asked() {
        return asked.get();
    }

    void reset() {
        asked.set(0);
    }

    @Override
    public void close() {
        budget.removeReclaimer(this);
    }
}
