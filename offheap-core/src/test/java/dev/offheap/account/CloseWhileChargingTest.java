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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Filter;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Budgets closed (roots and children, in any order) while other threads charge and release through owners
 * and make children: every charge either succeeds, and is then released, or throws a
 * {@link BudgetExceededException} or an {@link IllegalStateException} naming a closed budget; releases
 * never throw; no counter ever goes negative; and once everything is released every level is back to zero
 * and no closed child stays linked.
 */
class CloseWhileChargingTest {
    private static final int ROUNDS = 200;
    private static final int WORKERS = 4;

    /** Held strongly so that its filter is not lost if the logger were collected. */
    private final Logger accountLogger = Logger.getLogger("dev.offheap.account");
    private Filter previousFilter;

    /** closeQuietly() logs what is still charged; hundreds of such reports would only hide real output. */
    @BeforeEach
    void silenceCloseReports() {
        previousFilter = accountLogger.getFilter();
        accountLogger.setFilter(logRecord -> false);
    }

    @AfterEach
    void restoreLogger() {
        accountLogger.setFilter(previousFilter);
    }

    @Test
    void closingWhileOthersChargeNeverCorruptsTheTree() throws InterruptedException {
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        for (int round = 0; round < ROUNDS && failures.isEmpty(); round++) {
            runRound(round, failures);
        }
        assertThat(failures).as("unexpected outcomes").isEmpty();
    }

    private static void runRound(int round, Queue<Throwable> failures) throws InterruptedException {
        MemoryBudget root = MemoryBudget.root("r" + round, 1 << 20);
        MemoryBudget a = root.child("a", 512 << 10, 128 << 10);
        MemoryBudget b = a.child("b", 256 << 10, 64 << 10);
        MemoryBudget c = root.child("c", 512 << 10);
        List<MemoryBudget> levels = List.of(root, a, b, c);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(WORKERS);
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            BudgetOwner owner = levels.get(w % levels.size()).owner("worker " + w);
            Runnable work = () -> charge(owner, levels, stop, started, failures);
            workers.add(w % 2 == 0 ? Thread.ofPlatform().start(work) : Thread.ofVirtual().start(work));
        }
        started.await();
        Thread.sleep(0, ThreadLocalRandom.current().nextInt(200_000));
        close(ThreadLocalRandom.current().nextBoolean() ? List.of(b, root, a, c) : List.of(root, c, a, b), failures);
        Thread.onSpinWait();
        stop.set(true);
        for (Thread worker : workers) {
            worker.join();
        }
        for (MemoryBudget level : levels) {
            check(level.isClosed(), level + " closed", failures);
            check(level.used() == 0, level + " back to zero", failures);
            check(level.credit() == 0, level + " keeps no reservation", failures);
            check(level.children().isEmpty(), level + " keeps no closed child: " + level.children(), failures);
        }
    }

    /** Charges and releases until stopped; holds at most a few charges at a time, all released at the end. */
    private static void charge(BudgetOwner owner, List<MemoryBudget> levels, AtomicBoolean stop,
            CountDownLatch started, Queue<Throwable> failures) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        ArrayList<Long> held = new ArrayList<>();
        started.countDown();
        try {
            while (!stop.get()) {
                long bytes = 1 + random.nextInt(96 << 10);
                try {
                    if (random.nextBoolean()) {
                        owner.charge(bytes);
                        held.add(bytes);
                    } else if (owner.tryCharge(bytes)) {
                        held.add(bytes);
                    }
                } catch (BudgetExceededException refused) {
                    check(refused.requested() == bytes, "the refusal names the charge: " + refused, failures);
                } catch (IllegalStateException closed) {
                    check(closed.getMessage().matches("memory budget '[^']+' is closed.*"),
                            "a closed budget named: " + closed.getMessage(), failures);
                }
                if (random.nextInt(8) == 0) {
                    makeAndCloseChild(levels.get(random.nextInt(levels.size())), failures);
                }
                while (held.size() > 3 || (!held.isEmpty() && random.nextBoolean())) {
                    owner.release(held.removeLast());
                }
                for (MemoryBudget level : levels) {
                    check(level.used() >= 0 && level.credit() >= 0 && owner.outstanding() >= 0,
                            "no counter negative at " + level, failures);
                }
            }
            while (!held.isEmpty()) {
                owner.release(held.removeLast());
            }
            check(owner.outstanding() == 0, "owner back to zero", failures);
            owner.close();
        } catch (Throwable unexpected) {
            failures.add(unexpected);
        }
    }

    private static void makeAndCloseChild(MemoryBudget parent, Queue<Throwable> failures) {
        MemoryBudget child;
        try {
            child = parent.child("tmp", 64 << 10, 16 << 10);
        } catch (IllegalStateException closed) {
            check(closed.getMessage().contains("is closed"), "a closed parent named: " + closed, failures);
            return;
        } catch (BudgetExceededException refused) {
            return;
        }
        try {
            child.charge(8 << 10);
            child.release(8 << 10);
        } catch (IllegalStateException closed) {
            check(closed.getMessage().contains("is closed"), "a closed child named: " + closed, failures);
        } catch (BudgetExceededException refused) {
            // the reservation covers this; only a closed ancestor's refusal is possible, and that is an ISE
            failures.add(refused);
        }
        child.close();
    }

    private static void close(List<MemoryBudget> order, Queue<Throwable> failures) {
        for (MemoryBudget budget : order) {
            try {
                if (ThreadLocalRandom.current().nextBoolean()) {
                    budget.close();
                } else {
                    budget.closeQuietly();
                }
            } catch (IllegalStateException stillCharged) {
                check(stillCharged.getMessage().startsWith("memory budget '" + budget.path() + "' closed with"),
                        "close reports what is charged: " + stillCharged.getMessage(), failures);
            }
        }
    }

    private static void check(boolean condition, String what, Queue<Throwable> failures) {
        if (!condition) {
            failures.add(new AssertionError(what));
        }
    }
}
