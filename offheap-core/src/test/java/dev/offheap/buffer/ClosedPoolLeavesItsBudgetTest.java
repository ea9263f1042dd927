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

package dev.offheap.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.account.BudgetOwners;
import dev.offheap.account.MemoryBudget;
import org.junit.jupiter.api.Test;

/** A budget given to a pool outlives it: close takes the pool's owner off it, and later leases name the pool. */
class ClosedPoolLeavesItsBudgetTest {

    @Test
    void closeTakesThePoolsOwnerOffAGivenBudget() {
        MemoryBudget shared = MemoryBudget.unlimited("buffers-shared");
        BufferPool pool = BufferPool.builder().name("leaving").budget(shared).build();
        pool.acquire(100).release();
        pool.acquire(2 << 20).release(); // above the largest class: a region of its own
        assertThat(BudgetOwners.names(shared)).containsExactly("buffer pool leaving");

        pool.close();

        assertThat(BudgetOwners.names(shared)).isEmpty();
        assertThat(shared.used()).isZero();
        shared.close();
    }

    @Test
    void aLeaseAboveTheLargestClassFromAClosedPoolNamesThePool() {
        MemoryBudget shared = MemoryBudget.unlimited("buffers-shared-closed");
        BufferPool pool = BufferPool.builder().name("shut").budget(shared).build();
        pool.close();

        assertThatThrownBy(() -> pool.acquire(2 << 20))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("buffer pool 'shut' is closed");
        assertThat(shared.used()).isZero();
        shared.close();
    }
}
