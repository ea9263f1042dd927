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
}
