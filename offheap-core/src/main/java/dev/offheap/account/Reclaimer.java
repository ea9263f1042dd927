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

package dev.offheap.account;

/**
 * Frees memory when a {@link MemoryBudget} is about to refuse a charge: a pool that trims idle memory, a
 * cache that drops entries. Registered with {@link MemoryBudget#addReclaimer(Reclaimer)}.
 *
 * <p>A reclaimer runs on the thread whose charge was refused, outside the budget's own code paths but
 * possibly while that thread holds locks of the component that was charging. It must be thread-safe, must
 * not wait for a lock that a thread may hold while charging, and should return quickly. A charge made from
 * inside a reclaimer never runs reclaimers itself: if refused, it fails at once.
 *
 * <p>When the budget it is registered on closes (by its own {@link MemoryBudget#close()} or an ancestor's),
 * the budget stops asking it and tells it once through {@link #budgetClosed(MemoryBudget)}, so that a
 * component can refuse further work at once, even work that needs no new charge.
 */
@FunctionalInterface
public interface Reclaimer {
    /**
     * Gives back memory charged to the budget it is registered on (or below it).
     *
     * @param bytesWanted how many bytes the refused charge lacks; freeing more is fine, less is allowed
     * @return the bytes released to the budget; 0 if none
     */
    long reclaim(long bytesWanted);

    /**
     * The budget this reclaimer is registered on has closed, or was closed when it was registered: it refuses
     * every charge from now on ({@link MemoryBudget#checkOpen()} throws its error) and will not ask this
     * reclaimer again. Called once per registration, on the thread that closed the budget (or registered the
     * reclaimer), after the budget is marked closed. It must be quick and take no lock a charging thread may
     * hold; an exception it throws is logged. Does nothing unless overridden.
     *
     * @param budget the budget this reclaimer was registered on, now closed
     */
    default void budgetClosed(MemoryBudget budget) {}
}
