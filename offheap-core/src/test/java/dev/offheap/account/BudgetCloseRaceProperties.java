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

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Filter;
import java.util.logging.Logger;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * One budget of a random tree (limits, reservations at several levels, reclaimable caches) is closed while
 * threads charge and release on every level, through owners and directly, and hold their charges across
 * the close. What {@link CloseWhileChargingTest} leaves out, checked here:
 *
 * <ul>
 *   <li>a charge, {@code tryCharge}, {@code owner()} or {@code child()} that starts after {@code close()}
 *       returned, anywhere in the closed subtree, throws {@link IllegalStateException} naming the budget and
 *       the ancestor whose close closed it, even where a reservation would cover it; one that raced the
 *       close names a budget of the subtree on the way up;</li>
 *   <li>levels outside the subtree never see a closed-budget error, before or after;</li>
 *   <li>a watcher never sees a level past its limit, negative, or with more unused reservation than it
 *       reserved, while the close gives reservations back;</li>
 *   <li>with the threads stopped and their charges still held, each level holds exactly its own charges
 *       plus what each child holds (used and unused reservation; none for a closed one): a charge refused
 *       by a closing level left nothing behind;</li>
 *   <li>once everything is released, the closed budgets hold nothing and left their parents, and the open
 *       ones close clean.</li>
 * </ul>
 */
class BudgetCloseRaceProperties {
    private static final int WORKERS = 3;
    private static final long JOIN_MILLIS = 30_000;

    /** A budget closed with charges logs its report; hundreds of them would only hide real output. */
    private static final Logger ACCOUNT_LOGGER = Logger.getLogger("dev.offheap.account");
    private static Filter previousFilter;

    @BeforeContainer
    static void silenceCloseReports() {
        previousFilter = ACCOUNT_LOGGER.getFilter();
        ACCOUNT_LOGGER.setFilter(logRecord -> false);
    }

    @AfterContainer
    static void restoreLogger() {
        ACCOUNT_LOGGER.setFilter(previousFilter);
    }

    @Provide
    Arbitrary<BudgetTreeProperties.Tree> trees() {
        return new BudgetTreeProperties().trees();
    }

    /** One charge a worker holds: where, how much, and through which owner (null: directly). */
    private record Held(int level, long bytes, BudgetOwner owner) {}

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void closingOneBudgetWhileOthersChargeKeepsTheTreeExact(@ForAll("trees") BudgetTreeProperties.Tree tree,
            @ForAll @IntRange(min = 0, max = 100) int targetPick, @ForAll boolean quietly,
            @ForAll @IntRange(min = 0, max = 4000) int closeAfter, @ForAll @IntRange(min = 500, max = 4000) int ops)
            throws Exception {
        List<MemoryBudget> budgets = BudgetTreeProperties.build(tree.nodes());
        int n = budgets.size();
        int target = targetPick % n;
        boolean[] closing = new boolean[n];
        for (int i = 0; i < n; i++) {
            closing[i] = isAtOrBelow(budgets.get(i), budgets.get(target));
        }
        List<BudgetTreeProperties.Cache> caches = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long bytes = tree.nodes().get(i).cache();
            caches.add(bytes > 0 && budgets.get(i).tryCharge(bytes)
                    ? new BudgetTreeProperties.Cache(budgets.get(i), bytes) : null);
        }

        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean closeReturned = new AtomicBoolean();
        AtomicBoolean watching = new AtomicBoolean(true);
        AtomicLong samples = new AtomicLong();
        Thread watcher = Thread.ofPlatform().name("watcher").start(() -> {
            while (watching.get()) {
                for (MemoryBudget budget : budgets) {
                    long used = budget.used();
                    long credit = budget.credit();
                    if (used < 0 || used > budget.limit()) {
                        failures.add(new AssertionError(budget + " seen outside [0, limit]"));
                    }
                    if (credit < 0 || credit > budget.reservation()) {
                        failures.add(new AssertionError(budget + " seen with an unused reservation of " + credit));
                    }
                }
                samples.incrementAndGet();
                Thread.yield();
            }
        });
        while (samples.get() == 0) {
            Thread.onSpinWait(); // the workers start once the watcher samples: a busy machine may be slow to run it
        }

        AtomicLong done = new AtomicLong();
        AtomicInteger finished = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<List<Held>> held = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            List<Held> mine = new ArrayList<>();
            held.add(mine);
            List<BudgetOwner> owners = new ArrayList<>();
            for (MemoryBudget budget : budgets) {
                owners.add(budget.owner("worker " + w));
            }
            Random random = new Random(tree.seed() + w);
            Runnable body = () -> {
                try {
                    start.await();
                    for (int op = 0; op < ops; op++, done.incrementAndGet()) {
                        step(budgets, closing, target, owners, mine, random, closeReturned);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    finished.incrementAndGet();
                }
            };
            workers.add(w == WORKERS - 1 ? Thread.ofVirtual().name("charger-" + w).unstarted(body)
                    : Thread.ofPlatform().name("charger-" + w).unstarted(body));
        }
        workers.forEach(Thread::start);
        start.countDown();
        // Close once the workers made `closeAfter` operations between them: counted, not timed.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MILLIS);
        while (done.get() < closeAfter && finished.get() < WORKERS && System.nanoTime() < deadline) {
            Thread.yield(); // two cores here: leave them to the workers
        }
        MemoryBudget closed = budgets.get(target);
        if (quietly) {
            closed.closeQuietly();
        } else {
            try {
                closed.close();
            } catch (IllegalStateException stillCharged) {
                assertThat(stillCharged).hasMessageStartingWith("memory budget '" + closed.path() + "' closed with");
            }
        }
        closeReturned.set(true);
        for (Thread worker : workers) {
            worker.join(JOIN_MILLIS);
            assertThat(worker.isAlive()).as("%s finished within %d ms (a deadlock?)", worker.getName(), JOIN_MILLIS)
                    .isFalse();
        }
        watching.set(false);
        watcher.join(JOIN_MILLIS);
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError("a thread failed: " + failures.peek(), failures.peek());
            failures.forEach(error::addSuppressed);
            throw error;
        }

        // Quiet, every charge still held: each level holds its own charges and what its children hold.
        long[] direct = new long[n];
        for (List<Held> mine : held) {
            for (Held h : mine) {
                direct[h.level()] += h.bytes();
            }
        }
        for (int i = 0; i < n; i++) {
            MemoryBudget budget = budgets.get(i);
            assertThat(budget.isClosed()).as("%s closed", budget.path()).isEqualTo(closing[i]);
            long expected = direct[i] + (caches.get(i) == null ? 0 : caches.get(i).held.get());
            for (MemoryBudget child : budget.children()) {
                expected += child.used() + child.credit();
            }
            assertThat(budget.used()).as("%s with the charges still held", budget.path()).isEqualTo(expected);
            assertThat(budget.peak()).as("%s peak", budget.path()).isLessThanOrEqualTo(budget.limit());
            if (closing[i]) {
                assertThat(budget.credit()).as("%s keeps no reservation once closed", budget.path()).isZero();
                assertThat(budget.available()).as("%s has nothing available", budget.path()).isZero();
            }
        }

        for (List<Held> mine : held) {
            for (Held h : mine) {
                release(budgets.get(h.level()), h);
            }
        }
        for (BudgetTreeProperties.Cache cache : caches) {
            if (cache != null) {
                cache.reclaim(Long.MAX_VALUE); // a closed level asks its reclaimers no more: give it back here
            }
        }
        for (int i = 0; i < n; i++) {
            MemoryBudget budget = budgets.get(i);
            assertThat(budget.report().owners()).as("%s owners with bytes", budget.path()).isEmpty();
            if (closing[i]) {
                assertThat(budget.used()).as("%s once everything was released", budget.path()).isZero();
                assertThat(budget.children()).as("closed children of %s left it", budget.path()).isEmpty();
                assertThat(budget.parent().map(MemoryBudget::children).orElse(List.of()))
                        .as("%s left its parent", budget.path()).doesNotContain(budget);
            } else {
                assertThat(budget.used()).as("%s holds only its open children's reservations", budget.path())
                        .isEqualTo(budget.children().stream().mapToLong(c -> c.used() + c.credit()).sum());
            }
        }
        for (int i = n - 1; i >= 0; i--) {
            budgets.get(i).close(); // throws if anything is still charged
        }
        assertThat(budgets.getFirst().used()).isZero();
    }

    /** One random operation of a worker: charge (directly or through an owner), release, or open an owner or child. */
    private static void step(List<MemoryBudget> budgets, boolean[] closing, int target, List<BudgetOwner> owners,
            List<Held> mine, Random random, AtomicBoolean closeReturned) {
        int dice = random.nextInt(100);
        if (dice < 55 || mine.isEmpty()) {
            int level = random.nextInt(budgets.size());
            MemoryBudget budget = budgets.get(level);
            long bytes = 1 + random.nextInt(300);
            boolean throughOwner = random.nextBoolean();
            boolean orThrow = random.nextBoolean();
            boolean late = closing[level] && closeReturned.get(); // read before the charge starts
            try {
                boolean charged;
                if (throughOwner) {
                    BudgetOwner owner = owners.get(level);
                    charged = orThrow ? chargeOrRefuse(() -> owner.charge(bytes)) : owner.tryCharge(bytes);
                } else {
                    charged = orThrow ? chargeOrRefuse(() -> budget.charge(bytes)) : budget.tryCharge(bytes);
                }
                if (late) {
                    throw new AssertionError("a charge of " + bytes + " bytes to " + budget.path()
                            + " that started after close() returned was " + (charged ? "accepted" : "refused")
                            + " instead of throwing IllegalStateException");
                }
                if (charged) {
                    mine.add(new Held(level, bytes, throughOwner ? owners.get(level) : null));
                }
            } catch (IllegalStateException closedError) {
                checkClosedError(budgets, closing, target, level, closedError);
            }
        } else if (dice < 93) {
            Held h = mine.remove(random.nextInt(mine.size()));
            release(budgets.get(h.level()), h);
        } else {
            int level = random.nextInt(budgets.size());
            boolean late = closing[level] && closeReturned.get();
            try {
                if (random.nextBoolean()) {
                    budgets.get(level).owner("late").close();
                } else {
                    budgets.get(level).child("late", 100, random.nextBoolean() ? 10 : 0).close();
                }
                if (late) {
                    throw new AssertionError("an owner or child of " + budgets.get(level).path()
                            + " opened after close() returned");
                }
            } catch (BudgetExceededException noRoomForTheReservation) {
                if (late) {
                    throw new AssertionError("a child of closed " + budgets.get(level).path()
                            + " refused for lack of room instead of as closed", noRoomForTheReservation);
                }
            } catch (IllegalStateException closedError) {
                // a child made while its parent closes is closed at once, and names itself
                String child = budgets.get(level).path() + "/late";
                if (!closedError.getMessage().equals("memory budget '" + child + "' is closed because its ancestor '"
                        + budgets.get(target).path() + "' is closed")) {
                    checkClosedError(budgets, closing, target, level, closedError);
                }
            }
        }
    }

    /** Releases never throw, before, during or after the close. */
    private static void release(MemoryBudget budget, Held h) {
        if (h.owner() != null) {
            h.owner().release(h.bytes());
        } else {
            budget.release(h.bytes());
        }
    }

    interface Charge {
        void run();
    }

    /** Runs a charge that throws on refusal; returns false for a {@link BudgetExceededException}. */
    private static boolean chargeOrRefuse(Charge charge) {
        try {
            charge.run();
            return true;
        } catch (BudgetExceededException refused) {
            return false;
        }
    }

    /**
     * A closed-budget error at {@code level} is right only inside the closed subtree, and names {@code level}
     * or an ancestor of it in the subtree (a charge on its way up while the close walks down), with the
     * closed ancestor when that is not itself.
     */
    private static void checkClosedError(List<MemoryBudget> budgets, boolean[] closing, int target, int level,
            IllegalStateException e) {
        MemoryBudget at = budgets.get(level);
        if (!closing[level]) {
            throw new AssertionError("a closed-budget error at " + at.path() + ", outside the closed subtree", e);
        }
        String closedPath = budgets.get(target).path();
        for (MemoryBudget b = at; b != null; b = b.parent().orElse(null)) {
            String expected = "memory budget '" + b.path() + "' is closed"
                    + (b.path().equals(closedPath) ? "" : " because its ancestor '" + closedPath + "' is closed");
            if (expected.equals(e.getMessage())) {
                return;
            }
            if (b.path().equals(closedPath)) {
                break;
            }
        }
        throw new AssertionError("the error at " + at.path() + " should name it or its closed ancestor "
                + closedPath + ": " + e.getMessage(), e);
    }

    private static boolean isAtOrBelow(MemoryBudget budget, MemoryBudget ancestor) {
        for (MemoryBudget b = budget; b != null; b = b.parent().orElse(null)) {
            if (b == ancestor) {
                return true;
            }
        }
        return false;
    }
}
