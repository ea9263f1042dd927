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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.BudgetOwner;
import dev.offheap.account.MemoryBudget;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A pool charges every byte it takes from the OS to its budget, and stays usable when the budget refuses. */
class BudgetTest {
    private static final int MiB = 1 << 20;
    /** 4 KiB slots come in 128 KiB slabs of 32: a 1 MiB budget holds 8 slabs, 256 leases. */
    private static final int SIZE = 4096;
    private static final int SLAB = 128 * 1024;
    private static final int FIT = MiB / SIZE;

    @Test
    void acquiringPastTheBudgetThrowsNamingBudgetBytesAskedUsedAndAllowed() {
        MemoryBudget root = MemoryBudget.root("process", MiB);
        MemoryBudget budget = root.child("io", 8 * MiB);
        try (BufferPool pool = BufferPool.builder().name("budgeted").budget(budget).threadCaches(0).build()) {
            List<BufferLease> held = new ArrayList<>();
            for (int i = 0; i < FIT; i++) {
                held.add(pool.acquire(SIZE));
            }
            assertThat(root.used()).isEqualTo(MiB);
            assertThat(budget.used()).isEqualTo(MiB);
            assertThat(pool.stats().bytesFromOs()).isEqualTo(MiB);

            BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class,
                    () -> pool.acquire(SIZE));
            assertThat(e.budgetPath()).isEqualTo("process");
            assertThat(e.requested()).isEqualTo(SLAB);
            assertThat(e.used()).isEqualTo(MiB);
            assertThat(e.limit()).isEqualTo(MiB);
            assertThat(e.getMessage())
                    .contains("'process'")
                    .contains("128.0 KiB (131072 bytes)")
                    .contains("1.0 MiB (1048576 bytes) used")
                    .contains("of 1.0 MiB (1048576 bytes) allowed");
            assertThat(root.used()).as("nothing charged by the refused acquire").isEqualTo(MiB);
            assertThat(budget.used()).isEqualTo(MiB);
            assertThat(pool.stats().bytesFromOs()).isEqualTo(MiB);
            assertThat(pool.stats().leases()).isEqualTo(FIT);

            held.forEach(BufferLease::release);
        }
        assertThat(root.used()).isZero();
        assertThat(budget.used()).isZero();
    }

    @Test
    void theChildsOwnLimitRefusesWithTheChildsPath() {
        MemoryBudget root = MemoryBudget.root("process", 64 * MiB);
        MemoryBudget budget = root.child("io", MiB);
        try (BufferPool pool = BufferPool.builder().name("budgeted").budget(budget).build()) {
            BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class,
                    () -> pool.acquire(2 * MiB));
            assertThat(e.budgetPath()).isEqualTo("process/io");
            assertThat(e.getMessage()).contains("'process/io'").contains("2.0 MiB (2097152 bytes)");
            assertThat(root.used()).as("the root was rolled back").isZero();
            assertThat(budget.used()).isZero();
            assertThat(pool.stats().bytesFromOs()).isZero();
            assertThat(pool.stats().dedicatedLeases()).isZero();
        }
    }

    @Test
    void thePoolStaysUsableAfterARefusal() {
        MemoryBudget root = MemoryBudget.root("process", MiB);
        try (BufferPool pool = BufferPool.builder().budget(root.child("pool", MiB)).threadCaches(0).build()) {
            List<BufferLease> held = new ArrayList<>();
            for (int i = 0; i < FIT; i++) {
                held.add(pool.acquire(SIZE));
            }
            assertThatThrownBy(() -> pool.acquire(SIZE)).isInstanceOf(BudgetExceededException.class);
            assertThatThrownBy(() -> pool.acquire(SIZE)).isInstanceOf(BudgetExceededException.class);

            // one back, one out again: the freed slot is reused without new memory
            held.removeFirst().release();
            held.add(pool.acquire(SIZE));
            assertThat(root.used()).isEqualTo(MiB);

            // all back: another size class needs a new slab, and the pool trims idle ones to make room
            held.forEach(BufferLease::release);
            held.clear();
            try (BufferLease other = pool.acquire(8192)) {
                assertThat(other.size()).isEqualTo(8192);
                other.segment().fill((byte) 1);
            }
            assertThat(root.used()).as("only the new class's slab is left").isEqualTo(256 * 1024);
            assertThat(pool.stats().bytesFromOs()).isEqualTo(256 * 1024);
            assertThat(pool.stats().leases()).isZero();
        }
        assertThat(root.used()).isZero();
    }

    @Test
    void withThreadCachesTrimMakesRoomAgain() {
        MemoryBudget root = MemoryBudget.root("process", MiB);
        try (BufferPool pool = BufferPool.builder().budget(root.child("pool", MiB)).build()) {
            List<BufferLease> held = new ArrayList<>();
            for (int i = 0; i < FIT; i++) {
                held.add(pool.acquire(SIZE));
            }
            assertThatThrownBy(() -> pool.acquire(SIZE)).isInstanceOf(BudgetExceededException.class);
            held.forEach(BufferLease::release);
            pool.trim();
            assertThat(root.used()).isZero();
            assertThat(pool.stats().bytesFromOs()).isZero();
            // 32 KiB slots come in 1 MiB slabs: the whole budget, free again after trim
            try (BufferLease big = pool.acquire(32 * 1024)) {
                assertThat(big.size()).isEqualTo(32 * 1024);
                assertThat(root.used()).isEqualTo(MiB);
            }
            pool.trim();
            assertThat(root.used()).isZero();
            for (int i = 0; i < 3; i++) {
                pool.acquire(SIZE).release();
            }
        }
        assertThat(root.used()).isZero();
    }

    /**
     * Nothing is leased, so every byte the pool holds is idle: a refusal must not stand while the pool could
     * give back idle memory of the calling thread itself ("on refusal, trims idle slabs once and retries").
     */
    @Test
    void aPoolWithNothingLeasedDoesNotRefuseOneThreadForLackOfMemory() {
        MemoryBudget root = MemoryBudget.root("process", MiB);
        try (BufferPool pool = BufferPool.builder().budget(root.child("pool", MiB)).build()) {
            // 32 KiB slots come in 1 MiB slabs: one lease takes the whole budget
            pool.acquire(32 * 1024).release();
            assertThat(pool.stats().leases()).isZero();
            assertThat(root.used()).isEqualTo(MiB);
            try (BufferLease other = pool.acquire(SIZE)) {
                assertThat(other.size()).isEqualTo(SIZE);
            }
            assertThat(pool.stats().leases()).isZero();
        }
        assertThat(root.used()).isZero();
    }

    @Test
    void dedicatedLeasesAreChargedAndGivenBackAtRelease() {
        MemoryBudget budget = MemoryBudget.root("process", 8 * MiB);
        try (BufferPool pool = BufferPool.builder().budget(budget).build()) {
            BufferLease big = pool.acquire(3 * MiB + 1);
            assertThat(budget.used()).as("page-rounded region").isEqualTo(3 * MiB + 4096);
            assertThatThrownBy(() -> pool.acquire(5 * MiB)).isInstanceOf(BudgetExceededException.class);
            assertThat(budget.used()).isEqualTo(3 * MiB + 4096);
            big.release();
            assertThat(budget.used()).isZero();
            assertThat(budget.peak()).isEqualTo(3 * MiB + 4096);
            try (BufferLease again = pool.acquire(5 * MiB)) {
                assertThat(again.size()).isEqualTo(5 * MiB);
                assertThat(budget.used()).isEqualTo(5 * MiB);
            }
            assertThat(budget.used()).isZero();
        }
    }

    @Test
    void closeGivesEveryChargeBack() {
        MemoryBudget root = MemoryBudget.root("process", 64 * MiB);
        MemoryBudget budget = root.child("pool", 64 * MiB);
        BufferPool pool = BufferPool.builder().budget(budget).build();
        pool.acquire(100);
        pool.acquire(70_000);
        pool.acquire(2 * MiB);
        assertThat(budget.used()).isPositive();
        assertThat(budget.used()).isEqualTo(pool.stats().bytesFromOs());
        pool.close();
        assertThat(budget.used()).isZero();
        assertThat(root.used()).isZero();
    }

    @Test
    void twoPoolsUnderOneRootShareItsLimit() {
        MemoryBudget root = MemoryBudget.root("process", MiB);
        try (BufferPool a = BufferPool.builder().name("a").budget(root.child("a", MiB)).threadCaches(0).build();
             BufferPool b = BufferPool.builder().name("b").budget(root.child("b", MiB)).threadCaches(0).build()) {
            List<BufferLease> held = new ArrayList<>();
            for (int i = 0; i < FIT / 2; i++) {
                held.add(a.acquire(SIZE));
                held.add(b.acquire(SIZE));
            }
            assertThat(root.used()).isEqualTo(MiB);
            assertThatThrownBy(() -> a.acquire(SIZE)).isInstanceOf(BudgetExceededException.class)
                    .hasMessageContaining("'process'");
            assertThatThrownBy(() -> b.acquire(SIZE)).isInstanceOf(BudgetExceededException.class);
            assertThat(a.budget().used()).isEqualTo(MiB / 2);
            assertThat(b.budget().used()).isEqualTo(MiB / 2);
            held.forEach(BufferLease::release);
        }
        assertThat(root.used()).isZero();
    }

    @Test
    void concurrentAcquiresNeverTakeTheBudgetPastItsLimit() throws Exception {
        MemoryBudget root = MemoryBudget.root("process", 4 * MiB);
        MemoryBudget budget = root.child("pool", 2 * MiB);
        int threads = 4;
        AtomicLong refusals = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (BufferPool pool = BufferPool.builder().budget(budget).build()) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                workers.add(Thread.ofPlatform().start(() -> {
                    List<BufferLease> held = new ArrayList<>();
                    java.util.Random random = new java.util.Random(seed);
                    try {
                        start.await();
                        for (int i = 0; i < 3000; i++) {
                            if (held.size() < 64 && random.nextInt(3) != 0) {
                                int size = switch (random.nextInt(4)) {
                                    case 0 -> 4096;
                                    case 1 -> 20_000;
                                    case 2 -> 100;
                                    default -> 1_100_000; // dedicated
                                };
                                try {
                                    held.add(pool.acquire(size));
                                } catch (BudgetExceededException e) {
                                    refusals.incrementAndGet();
                                    if (!held.isEmpty()) {
                                        held.removeLast().release();
                                    }
                                }
                            } else if (!held.isEmpty()) {
                                held.remove(random.nextInt(held.size())).release();
                            }
                            long used = budget.used();
                            if (used > budget.limit()) {
                                throw new AssertionError("pool budget at " + used + " > " + budget.limit());
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    } finally {
                        held.forEach(BufferLease::release);
                    }
                }));
            }
            start.countDown();
            for (Thread w : workers) {
                w.join();
            }
            assertThat(failures).isEmpty();
            assertThat(refusals.get()).as("the budget was tight enough to refuse").isPositive();
            assertThat(budget.peak()).isLessThanOrEqualTo(budget.limit());
            assertThat(root.peak()).as("the root only ever got what the pool's budget allowed")
                    .isLessThanOrEqualTo(budget.limit());
            assertThat(pool.stats().leases()).isZero();
            pool.trim();
            assertThat(pool.stats().bytesFromOs()).isZero();
            assertThat(budget.used()).isZero();
            assertThat(root.used()).isZero();
        }
    }

    @Test
    void aPoolUnderOneChildGivesItsIdleSlabsBackWhenAnotherChildFillsTheRoot() {
        MemoryBudget root = MemoryBudget.root("process", MiB);
        try (BufferPool a = BufferPool.builder().name("a").budget(root.child("a", MiB)).build();
             BufferPool b = BufferPool.builder().name("b").budget(root.child("b", MiB)).build()) {
            // 32 KiB slots come in 1 MiB slabs: one idle slab in this thread's cache fills the root
            a.acquire(32 * 1024).release();
            assertThat(root.used()).isEqualTo(MiB);
            try (BufferLease other = b.acquire(SIZE)) {
                assertThat(other.size()).isEqualTo(SIZE);
                assertThat(a.stats().bytesFromOs()).as("a trimmed its idle slab for b").isZero();
                assertThat(root.used()).isEqualTo(SLAB);
            }
        }
        assertThat(root.used()).isZero();
    }

    @Test
    void closingTheBudgetUnderALivePoolNamesThePoolAndWhereItWasBuilt() {
        MemoryBudget root = MemoryBudget.root("process", 64 * MiB);
        MemoryBudget io = root.child("io", 64 * MiB);
        try (BufferPool pool = buildIoPool(io)) {
            BufferLease held = pool.acquire(SIZE);
            IllegalStateException e = catchThrowableOfType(IllegalStateException.class, io::close);
            assertThat(e.getMessage())
                    .contains("memory budget 'process/io': 128.0 KiB (131072 bytes) charged")
                    .contains("owner 'buffer pool io': 128.0 KiB (131072 bytes) outstanding")
                    .contains("BufferPool$Builder.build(")
                    .contains(BudgetTest.class.getName() + ".buildIoPool(");
            held.release();
        }
        assertThat(root.used()).as("the pool gave everything back after its budget closed").isZero();
    }

    @Test
    void aClosedPoolLeavesNoOwnerInItsBudget() {
        MemoryBudget root = MemoryBudget.root("process", MiB);
        MemoryBudget io = root.child("io", MiB);
        try (BufferPool pool = buildIoPool(io)) {
            pool.acquire(32 * 1024).release();
            assertThat(io.report().owners()).extracting(o -> o.name()).containsExactly("buffer pool io");
        }
        assertThat(io.report().owners()).isEmpty();
        io.close();
        assertThat(root.used()).isZero();
    }

    /** The pool, asked to make room, trims its idle slab and says how much it gave back. */
    @Test
    void aRefusalAfterThePoolTrimmedNamesTheBytesItGaveBack() {
        MemoryBudget root = MemoryBudget.root("process", MiB);
        try (BufferPool pool = BufferPool.builder().name("trimmed").budget(root).threadCaches(0).jmx(false)
                .build()) {
            pool.acquire(SIZE).release(); // one idle slab
            assertThat(root.used()).isEqualTo(SLAB);
            try (BudgetOwner held = root.owner("held"); BudgetOwner other = root.owner("other")) {
                held.charge(MiB / 2);
                // within the limit, so the reclaimers run (a charge above it would be refused at once), but
                // the slab they free is not enough
                BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class,
                        () -> other.charge(MiB / 2 + 1));
                assertThat(e.reclaimed()).isEqualTo(SLAB);
                assertThat(e.used()).isEqualTo(MiB / 2);
                assertThat(pool.stats().bytesFromOs()).isZero();
                other.charge(MiB / 2); // fits now
                other.release(MiB / 2);
                held.release(MiB / 2);
            }
        }
        assertThat(root.used()).isZero();
    }

    /**
     * Another component's reclaimer closes the pool while the pool's dedicated acquire waits for the budget:
     * the acquire then finds the pool closed, gives the region it got back, and throws.
     */
    @Test
    void aPoolClosedWhileItsDedicatedAcquireWaitedForTheBudgetGivesTheRegionBackAndThrows() {
        MemoryBudget root = MemoryBudget.root("process", 4 * MiB);
        BufferPool pool = BufferPool.builder().name("closed-meanwhile").budget(root).leakSampling(0).jmx(false)
                .build();
        try (BudgetOwner filler = root.owner("filler")) {
            filler.charge(3 * MiB);
            root.addReclaimer(wanted -> {
                pool.close();
                filler.release(3 * MiB);
                return 3 * MiB;
            });
            assertThatThrownBy(() -> pool.acquire(2 * MiB)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("buffer pool 'closed-meanwhile' is closed");
            assertThat(pool.isClosed()).isTrue();
            assertThat(root.used()).as("the region went back").isZero();
            assertThat(pool.stats().dedicatedLeases()).isZero();
            assertThat(pool.stats().bytesFromOs()).isZero();
        }
    }

    /**
     * A pool whose budget (or an ancestor) was closed refuses every acquire with the budget's error, even of a
     * size whose free slot waits in a thread cache or a shared free list and needs no charge: with thread
     * caches or without, on a platform or a virtual thread, pooled or dedicated. Leases held across the close
     * still work and go back; the pool, not closed itself, still closes cleanly.
     */
    @Test
    void acquiresAfterTheBudgetClosedThrowTheBudgetsErrorEvenWhenNoChargeIsNeeded() throws Exception {
        for (int caches : new int[] {0, 4}) {
            MemoryBudget root = MemoryBudget.root("process", 64 * MiB);
            MemoryBudget io = root.child("io", 64 * MiB);
            BufferPool pool = BufferPool.builder().name("io-" + caches).budget(io).threadCaches(caches).jmx(false)
                    .build();
            BufferLease held = pool.acquire(SIZE);
            pool.acquire(SIZE).release(); // a free slot in the thread cache, or in the shared free list
            Thread.ofVirtual().start(() -> pool.acquire(SIZE).release()).join();
            root.closeQuietly();

            String closed = "memory budget 'process/io' is closed because its ancestor 'process' is closed";
            assertThatThrownBy(() -> pool.acquire(SIZE)).as("%d caches", caches)
                    .isInstanceOf(IllegalStateException.class).hasMessage(closed);
            assertThatThrownBy(() -> pool.acquire(2 * MiB)).as("dedicated").isInstanceOf(IllegalStateException.class)
                    .hasMessage(closed);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread virtual = Thread.ofVirtual().start(() -> {
                try {
                    pool.acquire(SIZE).release();
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            virtual.join();
            assertThat(thrown.get()).as("on a virtual thread").isInstanceOf(IllegalStateException.class)
                    .hasMessage(closed);
            assertThat(pool.isClosed()).isFalse();

            held.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
            held.release();
            pool.close();
            assertThat(root.used()).isZero();
            assertThat(root.children()).isEmpty();
        }
    }

    private static BufferPool buildIoPool(MemoryBudget budget) {
        return BufferPool.builder().name("io").budget(budget).threadCaches(0).build();
    }
}
