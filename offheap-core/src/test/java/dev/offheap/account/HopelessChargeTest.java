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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.offheap.buffer.BufferPool;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A charge larger than the limit of a level it goes through could never succeed, whatever the reclaimers
 * freed: it is refused at once, with the refusal's usual figures, and no reclaimer runs (a pool's idle memory
 * stays where it is). A charge that could fit once memory is freed still runs them.
 */
class HopelessChargeTest {
    private static final long MiB = 1L << 20;

    @Test
    void aChargeAboveTheRefusingLimitIsRefusedWithoutAskingTheReclaimers() {
        MemoryBudget root = MemoryBudget.root("process", 256 * MiB);
        AtomicInteger asked = counting(root);
        root.charge(10 * MiB);

        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> root.charge(1024 * MiB));

        assertThat(asked).as("reclaimers asked").hasValue(0);
        assertThat(e.budgetPath()).isEqualTo("process");
        assertThat(e.chargedPath()).isEqualTo("process");
        assertThat(e.requested()).isEqualTo(1024 * MiB);
        assertThat(e.used()).isEqualTo(10 * MiB);
        assertThat(e.limit()).isEqualTo(256 * MiB);
        assertThat(e.reclaimed()).isZero();
        assertThat(e.getMessage()).isEqualTo("memory budget 'process' exceeded: asked for 1.0 GiB (1073741824 bytes);"
                + " 10.0 MiB (10485760 bytes) used of 256.0 MiB (268435456 bytes) allowed at 'process'"
                + " (charged directly: 10.0 MiB)");
        assertThat(root.tryCharge(1024 * MiB)).isFalse();
        assertThat(asked).as("reclaimers asked by tryCharge").hasValue(0);
        assertThat(root.used()).isEqualTo(10 * MiB);
    }

    @Test
    void aChargeThatCouldFitOnceMemoryIsFreedStillAsksTheReclaimers() {
        MemoryBudget root = MemoryBudget.root("process", 256 * MiB);
        AtomicInteger asked = counting(root);
        root.charge(10 * MiB);

        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> root.charge(250 * MiB));

        assertThat(asked).as("reclaimers asked").hasValue(1);
        assertThat(e.getMessage()).endsWith("; reclaimers freed 0 bytes before one retry");
        assertThat(root.tryCharge(256 * MiB)).as("exactly the limit could fit").isFalse();
        assertThat(asked).hasValue(2);
    }

    /**
     * The level that refused ('process/io', for lack of room) could take the charge once freed, but an ancestor
     * never could: refused at once, naming that ancestor.
     */
    @Test
    void aChargeAboveAnAncestorsLimitIsRefusedAtOnceNamingThatAncestor() {
        MemoryBudget process = MemoryBudget.root("process", 256 * MiB);
        MemoryBudget io = process.child("io", 1024 * MiB);
        AtomicInteger asked = counting(io);
        AtomicInteger askedAbove = counting(process);
        io.charge(100 * MiB);

        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> io.charge(1000 * MiB));

        assertThat(asked).hasValue(0);
        assertThat(askedAbove).hasValue(0);
        assertThat(e.budgetPath()).isEqualTo("process");
        assertThat(e.chargedPath()).isEqualTo("process/io");
        assertThat(e.used()).isEqualTo(100 * MiB);
        assertThat(e.limit()).isEqualTo(256 * MiB);
        assertThat(io.used()).isEqualTo(100 * MiB);
        assertThat(process.used()).isEqualTo(100 * MiB);
    }

    /** The case: 1 GiB asked of a pool whose budget allows 256 MiB; its idle slab is not trimmed for it. */
    @Test
    void aBufferPoolAcquireAboveItsBudgetsLimitLeavesItsIdleMemoryAlone() {
        MemoryBudget process = MemoryBudget.root("process", 1024 * MiB);
        MemoryBudget io = process.child("io", 256 * MiB);
        AtomicInteger asked = counting(io);
        try (BufferPool pool = BufferPool.builder().name("io").budget(io).threadCaches(0).jmx(false).build()) {
            pool.acquire(4096).release();
            long idle = pool.stats().bytesFromOs();
            assertThat(idle).isPositive();

            BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class,
                    () -> pool.acquire(1 << 30));

            assertThat(asked).hasValue(0);
            assertThat(pool.stats().bytesFromOs()).as("the idle slab stays").isEqualTo(idle);
            assertThat(e.budgetPath()).isEqualTo("process/io");
            assertThat(e.request()).contains("acquire(1073741824)");
            assertThat(e.requested()).isEqualTo(1024 * MiB);
            assertThat(e.limit()).isEqualTo(256 * MiB);
            assertThat(e.used()).isEqualTo(idle);

            // 256 MiB - 64 KiB fits once the pool has trimmed its idle slab (128 KiB): the reclaimers run
            pool.acquire((256 << 20) - (64 << 10)).release();
            assertThat(asked).hasValue(1);
        }
    }

    /** A reclaimer that frees nothing and counts how often it is asked. */
    private static AtomicInteger counting(MemoryBudget budget) {
        AtomicInteger asked = new AtomicInteger();
        budget.addReclaimer(wanted -> {
            asked.incrementAndGet();
            return 0;
        });
        return asked;
    }
}
