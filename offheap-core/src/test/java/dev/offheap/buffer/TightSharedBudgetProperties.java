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

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.BudgetReport;
import dev.offheap.account.MemoryBudget;
import dev.offheap.os.NativeMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Pools that share a small budget, under several threads that acquire until the budget refuses: each
 * refusal runs the other pools' trims (their reclaimers) while their threads go on. Every lease is filled
 * with a pattern of its own and checked before it is handed over or released, so a lease whose memory
 * another lease reached, or that a trim unmapped, fails. A refusal names the pool and the request; once the
 * threads stop, each pool's charge is exactly the memory it holds from the OS and each level exactly what
 * is charged below it (so a refused charge left nothing anywhere), no level ever went past its limit, and
 * after trim and close everything is back to zero.
 */
class TightSharedBudgetProperties {
    private static final long KiB = 1024;
    /** Room for a few slabs (64 KiB for small classes, 512 KiB for 16 KiB) and regions: tight on purpose. */
    private static final long ROOT_LIMIT = 2048 * KiB;
    private static final int LARGEST_POOLED = 16 * 1024;
    private static final int[] SIZES = {1, 64, 100, 1000, 4000, 4096, 10_000, LARGEST_POOLED, LARGEST_POOLED + 1,
            60_000, 200_000};
    private static final int MAX_HELD = 12;
    private static final long JOIN_MILLIS = 30_000;

    /** How the pools share the root. */
    enum Shape {
        /** Every pool charges the root itself. */
        ONE_BUDGET,
        /** A child each, whose limits add up to more than the root's. */
        CHILDREN,
        /** A child each, every one with a reservation in the root. */
        CHILDREN_WITH_RESERVATIONS
    }

    @Property(tries = 40, shrinking = ShrinkingMode.BOUNDED)
    void poolsUnderATightSharedBudgetNeverMixContentsAndKeepTheBooksExact(
            @ForAll @Size(min = 2, max = 3) List<PoolMode> modes, @ForAll Shape shape, @ForAll boolean portable,
            @ForAll boolean threadCaches, @ForAll @IntRange(min = 2, max = 4) int threads,
            @ForAll @IntRange(min = 50, max = 600) int opsPerThread, @ForAll long seed) throws Exception {
        MemoryBudget root = MemoryBudget.root("tight", ROOT_LIMIT);
        List<MemoryBudget> budgets = new ArrayList<>();
        List<BufferPool> pools = new ArrayList<>();
        for (int i = 0; i < modes.size(); i++) {
            MemoryBudget budget = switch (shape) {
                case ONE_BUDGET -> root;
                case CHILDREN -> root.child("p" + i, ROOT_LIMIT * 3 / 4);
                case CHILDREN_WITH_RESERVATIONS -> root.child("p" + i, ROOT_LIMIT * 3 / 4, 128 * KiB);
            };
            budgets.add(budget);
            BufferPool.Builder builder = modes.get(i).builder("p" + i).budget(budget)
                    .largestPooledSize(LARGEST_POOLED).maxSlabSize(512 * KiB);
            if (portable && i == 1) {
                builder.nativeMemory(NativeMemory.portable());
            }
            if (!threadCaches) {
                builder.threadCaches(0);
            }
            pools.add(builder.build());
        }
        try {
            Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
            Queue<Held> handedOver = new ConcurrentLinkedQueue<>();
            AtomicLong ids = new AtomicLong();
            AtomicLong refusals = new AtomicLong();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random random = new Random(seed + t);
                workers.add(Thread.ofPlatform().name("tight-" + t).start(() -> {
                    try {
                        start.await();
                        work(pools, random, opsPerThread, handedOver, ids, refusals);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            start.countDown();
            for (Thread worker : workers) {
                worker.join(JOIN_MILLIS);
                assertThat(worker.isAlive()).as("%s finished within %d ms (a deadlock?)", worker.getName(),
                        JOIN_MILLIS).isFalse();
            }
            if (!failures.isEmpty()) {
                AssertionError error = new AssertionError("a worker failed: " + failures.peek(), failures.peek());
                failures.forEach(error::addSuppressed);
                throw error;
            }
            for (Held h; (h = handedOver.poll()) != null; ) {
                verifyAndRelease(h);
            }

            // Quiet now: the books are exact.
            for (BufferPool pool : pools) {
                BufferPoolStats stats = pool.stats();
                assertThat(stats.leases()).as("%s leases after every release", pool.name()).isZero();
                assertThat(charged(pool)).as("%s: its owner's charge is what it holds from the OS:%n%s", pool.name(),
                        stats.format()).isEqualTo(stats.bytesFromOs());
            }
            for (MemoryBudget budget : distinct(budgets, root)) {
                long below = budget.children().stream().mapToLong(c -> c.used() + reservationLeft(c)).sum();
                long owners = budget.report().owners().stream().mapToLong(BudgetReport.Owner::outstanding).sum();
                assertThat(budget.used()).as("%s: its owners' and children's charges (%d refusals)", budget.path(),
                        refusals.get()).isEqualTo(owners + below);
                assertThat(budget.peak()).as("%s peak", budget.path()).isLessThanOrEqualTo(budget.limit());
            }

            for (BufferPool pool : pools) {
                pool.trim();
                assertThat(pool.stats().bytesFromOs()).as("%s after trim:%n%s", pool.name(), pool.stats().format())
                        .isZero();
            }
            long reserved = budgets.stream().filter(b -> b != root).mapToLong(MemoryBudget::reservation).sum();
            assertThat(root.used()).as("the root after trim holds only the children's reservations")
                    .isEqualTo(reserved);
        } finally {
            pools.forEach(BufferPool::close);
        }
        for (MemoryBudget budget : distinct(budgets, root)) {
            budget.close(); // throws if anything is still charged
        }
        assertThat(root.used()).isZero();
    }

    private record Held(BufferLease buffer, long id) {}

    private static void work(List<BufferPool> pools, Random random, int ops, Queue<Held> handedOver,
            AtomicLong ids, AtomicLong refusals) {
        List<Held> held = new ArrayList<>();
        for (int op = 0; op < ops; op++) {
            int dice = random.nextInt(100);
            if (dice < 50) {
                BufferPool pool = pools.get(random.nextInt(pools.size()));
                int size = SIZES[random.nextInt(SIZES.length)];
                try {
                    BufferLease buffer = pool.acquire(size);
                    long id = ids.incrementAndGet();
                    Patterns.fill(buffer.segment(), id);
                    held.add(new Held(buffer, id));
                    if (held.size() > MAX_HELD) {
                        verifyAndRelease(held.removeFirst());
                    }
                } catch (BudgetExceededException refused) {
                    refusals.incrementAndGet();
                    assertThat(refused.component()).as("the refusal names the pool: %s", refused.getMessage())
                            .contains("buffer pool '" + pool.name() + "'");
                    assertThat(refused.request()).contains("acquire(" + size + ")");
                    assertThat(refused.used()).isLessThanOrEqualTo(refused.limit());
                    // make room: the others' threads do the same, and trims free idle slabs
                    for (int i = held.size() / 2; i > 0; i--) {
                        verifyAndRelease(held.remove(random.nextInt(held.size())));
                    }
                }
            } else if (dice < 78) {
                if (!held.isEmpty()) {
                    verifyAndRelease(held.remove(random.nextInt(held.size())));
                }
            } else if (dice < 84) {
                if (!held.isEmpty()) {
                    Held h = held.remove(random.nextInt(held.size()));
                    Patterns.verify(h.buffer().segment(), h.id());
                    handedOver.add(h);
                }
            } else if (dice < 91) {
                Held h = handedOver.poll();
                if (h != null) {
                    Patterns.verify(h.buffer().segment(), h.id());
                    held.add(h);
                }
            } else if (dice < 96) {
                for (Held h : held) {
                    Patterns.verify(h.buffer().segment(), h.id());
                }
            } else {
                pools.get(random.nextInt(pools.size())).trim();
            }
        }
        for (Held h : held) {
            verifyAndRelease(h);
        }
    }

    private static void verifyAndRelease(Held h) {
        Patterns.verify(h.buffer().segment(), h.id());
        assertThat(h.buffer().release()).isTrue();
    }

    /** What the pool's owner has charged now: 0 if its budget lists no such owner with bytes. */
    private static long charged(BufferPool pool) {
        return pool.budget().report().owners().stream().filter(o -> o.name().equals("buffer pool " + pool.name()))
                .mapToLong(BudgetReport.Owner::outstanding).sum();
    }

    /** What a child holds in its parent beyond its used bytes: its reservation not in use. */
    private static long reservationLeft(MemoryBudget child) {
        return Math.max(0, child.reservation() - child.used());
    }

    /** Each budget once, the children before the root. */
    private static List<MemoryBudget> distinct(List<MemoryBudget> budgets, MemoryBudget root) {
        List<MemoryBudget> all = new ArrayList<>(budgets.stream().filter(b -> b != root).toList());
        all.add(root);
        return all;
    }
}
