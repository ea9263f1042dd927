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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.offheap.suite.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class MemoryBudgetTest {

    @Test
    void chargeAndReleaseCountAtEveryLevel() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget child = root.child("io", 600);
        MemoryBudget leaf = child.child("pool", 500);
        leaf.charge(100);
        child.charge(50);
        assertThat(leaf.used()).isEqualTo(100);
        assertThat(child.used()).isEqualTo(150);
        assertThat(root.used()).isEqualTo(150);
        leaf.release(100);
        child.release(50);
        assertThat(leaf.used()).isZero();
        assertThat(child.used()).isZero();
        assertThat(root.used()).isZero();
    }

    @Test
    void aChargeAboveTheLimitThrowsNamingPathAskedUsedAndAllowed() {
        MemoryBudget root = MemoryBudget.root("process", 10_000);
        MemoryBudget child = root.child("io", 4096);
        child.charge(1000);
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> child.charge(5000));
        assertThat(e.budgetPath()).isEqualTo("process/io");
        assertThat(e.requested()).isEqualTo(5000);
        assertThat(e.used()).isEqualTo(1000);
        assertThat(e.limit()).isEqualTo(4096);
        assertThat(e.getMessage()).contains("'process/io'").contains("4.9 KiB (5000 bytes)")
                .contains("1000 bytes").contains("4.0 KiB (4096 bytes)");
        assertThat(child.used()).isEqualTo(1000);
        assertThat(root.used()).isEqualTo(1000);
    }

    @Test
    void chargingExactlyToTheLimitSucceeds() {
        MemoryBudget root = MemoryBudget.root("r", 100);
        root.charge(60);
        root.charge(40);
        assertThat(root.used()).isEqualTo(100);
        assertThat(root.available()).isZero();
        assertThat(root.tryCharge(1)).isFalse();
        assertThat(root.tryCharge(0)).isTrue();
    }

    @Test
    void chargesRollBackAtEveryLevelWhenOneLevelRefuses() {
        MemoryBudget root = MemoryBudget.root("root", 1000);
        MemoryBudget mid = root.child("mid", 300);
        MemoryBudget leaf = mid.child("leaf", 10_000);
        MemoryBudget sibling = root.child("sibling", 10_000);
        sibling.charge(800);
        leaf.charge(100);

        // the root refuses: leaf and mid were charged first and must be rolled back
        BudgetExceededException atRoot = catchThrowableOfType(BudgetExceededException.class,
                () -> leaf.charge(150));
        assertThat(atRoot.budgetPath()).isEqualTo("root");
        assertThat(atRoot.used()).isEqualTo(900);
        assertThat(leaf.used()).isEqualTo(100);
        assertThat(mid.used()).isEqualTo(100);
        assertThat(root.used()).isEqualTo(900);
        assertThat(sibling.used()).isEqualTo(800);

        // the middle refuses: only the leaf was charged
        BudgetExceededException atMid = catchThrowableOfType(BudgetExceededException.class,
                () -> leaf.charge(250));
        assertThat(atMid.budgetPath()).isEqualTo("root/mid");
        assertThat(leaf.used()).isEqualTo(100);
        assertThat(mid.used()).isEqualTo(100);
        assertThat(root.used()).isEqualTo(900);

        assertThat(leaf.tryCharge(150)).isFalse();
        assertThat(leaf.tryCharge(250)).isFalse();
        assertThat(leaf.used()).isEqualTo(100);
        assertThat(mid.used()).isEqualTo(100);
        assertThat(root.used()).isEqualTo(900);

        // and a charge every level allows still works
        leaf.charge(100);
        assertThat(leaf.used()).isEqualTo(200);
        assertThat(mid.used()).isEqualTo(200);
        assertThat(root.used()).isEqualTo(1000);
    }

    /** peak() is "the most bytes ever charged at once": a refused charge was never charged. */
    @Test
    void aRefusedChargeLeavesPeakUnchangedAtEveryLevel() {
        MemoryBudget root = MemoryBudget.root("root", 100);
        MemoryBudget child = root.child("child", 1000);
        child.charge(50);
        assertThat(child.tryCharge(500)).as("refused by the root").isFalse();
        assertThatThrownBy(() -> child.charge(800)).isInstanceOf(BudgetExceededException.class);
        assertThat(root.peak()).isEqualTo(50);
        assertThat(child.peak()).as("child peak after charges the root refused").isEqualTo(50);
    }

    @Test
    void peakRemembersTheHighestCharge() {
        MemoryBudget root = MemoryBudget.root("root", 1000);
        MemoryBudget child = root.child("child", 1000);
        child.charge(300);
        child.charge(200);
        child.release(400);
        child.charge(100);
        assertThat(child.peak()).isEqualTo(500);
        assertThat(root.peak()).isEqualTo(500);
        assertThat(child.used()).isEqualTo(200);
    }

    @Test
    void releasingMoreThanChargedThrowsAndChangesNothing() {
        MemoryBudget root = MemoryBudget.root("root", 1000);
        MemoryBudget child = root.child("child", 1000);
        child.charge(100);
        assertThatThrownBy(() -> child.release(101))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("root/child")
                .hasMessageContaining("101");
        assertThat(child.used()).isEqualTo(100);
        assertThat(root.used()).isEqualTo(100);
        assertThatThrownBy(() -> MemoryBudget.root("empty", 10).release(1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void negativeAmountsAreRejected() {
        MemoryBudget root = MemoryBudget.root("root", 1000);
        assertThatThrownBy(() -> root.charge(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> root.tryCharge(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> root.release(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(root.used()).isZero();
    }

    @Test
    void badNamesAndLimitsAreRejected() {
        assertThatThrownBy(() -> MemoryBudget.root("a/b", 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a/b");
        assertThatThrownBy(() -> MemoryBudget.root(" ", 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MemoryBudget.root("neg", -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("neg");
        assertThatThrownBy(() -> MemoryBudget.root(null, 1)).isInstanceOf(NullPointerException.class);
        MemoryBudget root = MemoryBudget.root("root", 10);
        assertThatThrownBy(() -> root.child("x/y", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A charge of nothing fits any open budget, even an empty one: 0 + 0 is within every limit. */
    @Test
    void chargingNothingSucceedsOnAnEmptyBudget() {
        MemoryBudget root = MemoryBudget.root("r", 100);
        MemoryBudget empty = MemoryBudget.root("empty", 0);
        root.charge(0);
        empty.charge(0);
        assertThat(root.tryCharge(0)).isTrue();
        assertThat(empty.tryCharge(0)).isTrue();
        assertThat(root.used()).isZero();
        assertThat(empty.used()).isZero();
        assertThat(root.peak()).isZero();
    }

    @Test
    void aNameStartingOrEndingWithASlashIsRejected() {
        assertThatThrownBy(() -> MemoryBudget.root("/io", 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("budget name must be non-blank and contain no '/': '/io'");
        assertThatThrownBy(() -> MemoryBudget.root("io/", 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("budget name must be non-blank and contain no '/': 'io/'");
        MemoryBudget root = MemoryBudget.root("root", 10);
        assertThatThrownBy(() -> root.child("/x", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(root.children()).isEmpty();
    }

    @Test
    void toStringShowsPathUsedLimitReservationAndWhetherClosed() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget io = root.child("io", 500);
        MemoryBudget store = root.child("store", MemoryBudget.UNLIMITED, 1);
        io.charge(42);
        assertThat(root.toString()).isEqualTo("MemoryBudget[process: 43 of 1000 bytes]");
        assertThat(io.toString()).isEqualTo("MemoryBudget[process/io: 42 of 500 bytes]");
        assertThat(store.toString()).isEqualTo("MemoryBudget[process/store: 0 of unlimited bytes, 1 reserved]");
        assertThat(MemoryBudget.unlimited("u").toString()).isEqualTo("MemoryBudget[u: 0 of unlimited bytes]");
        io.release(42);
        io.close();
        assertThat(io.toString()).isEqualTo("MemoryBudget[process/io: 0 of 500 bytes, closed]");
    }

    @Test
    void aBudgetIsOpenUntilClosed() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget io = root.child("io", 500);
        assertThat(root.isClosed()).isFalse();
        assertThat(io.isClosed()).isFalse();
        root.close();
        assertThat(root.isClosed()).isTrue();
        assertThat(io.isClosed()).isTrue();
    }

    /** The parent is checked before anything else: the message names it, not the child that was never made. */
    @Test
    void aChildOfAClosedBudgetIsRefusedNamingTheClosedBudget() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget io = root.child("io", 500);
        io.close();
        assertThatThrownBy(() -> io.child("late", 10)).isInstanceOf(IllegalStateException.class)
                .hasMessage("memory budget 'process/io' is closed");
        assertThatThrownBy(() -> io.child("late", 10, 5)).isInstanceOf(IllegalStateException.class)
                .hasMessage("memory budget 'process/io' is closed");
        root.close();
        assertThatThrownBy(() -> io.child("later", 10)).isInstanceOf(IllegalStateException.class)
                .hasMessage("memory budget 'process/io' is closed");
        assertThat(root.used()).isZero();
        assertThat(io.children()).isEmpty();
    }

    @Test
    void pathNameParentAndLimit() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget io = root.child("io", 500);
        MemoryBudget pool = io.child("pool", MemoryBudget.UNLIMITED);
        assertThat(root.path()).isEqualTo("process");
        assertThat(io.path()).isEqualTo("process/io");
        assertThat(pool.path()).isEqualTo("process/io/pool");
        assertThat(pool.name()).isEqualTo("pool");
        assertThat(pool.parent()).contains(io);
        assertThat(root.parent()).isEmpty();
        assertThat(io.limit()).isEqualTo(500);
        assertThat(pool.limit()).isEqualTo(MemoryBudget.UNLIMITED);
        assertThat(MemoryBudget.unlimited("u").limit()).isEqualTo(MemoryBudget.UNLIMITED);
        assertThat(pool.toString()).contains("process/io/pool");
    }

    @Test
    void availableCountsTheRoomOfEveryAncestor() {
        MemoryBudget root = MemoryBudget.root("root", 1000);
        MemoryBudget io = root.child("io", 600);
        MemoryBudget pool = io.child("pool", MemoryBudget.UNLIMITED);
        MemoryBudget other = root.child("other", 1000);
        assertThat(pool.available()).isEqualTo(600);
        pool.charge(100);
        assertThat(pool.available()).isEqualTo(500);
        assertThat(io.available()).isEqualTo(500);
        assertThat(root.available()).isEqualTo(900);
        other.charge(800);
        assertThat(pool.available()).as("the root has 100 left").isEqualTo(100);
        assertThat(pool.tryCharge(101)).isFalse();
        assertThat(pool.tryCharge(100)).isTrue();
        assertThat(pool.available()).isZero();
        assertThat(MemoryBudget.unlimited("u").available()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void anUnlimitedBudgetRefusesOnlyOverflow() {
        MemoryBudget unlimited = MemoryBudget.unlimited("u");
        unlimited.charge(Long.MAX_VALUE - 10);
        assertThat(unlimited.tryCharge(11)).isFalse();
        assertThat(unlimited.used()).isEqualTo(Long.MAX_VALUE - 10);
        assertThat(unlimited.tryCharge(10)).isTrue();
    }

    /**
     * Two threads charging together, one small and one large amount, never releasing: once a charge returns,
     * the peak is at least what was used before it plus its bytes, even when its raise of the peak lost a
     * race to the other thread's lower figure (the loser tries again while its figure is higher); at the end
     * the peak is the total.
     */
    @Test
    void concurrentChargesNeverLeaveThePeakBehind() throws Exception {
        MemoryBudget root = MemoryBudget.unlimited("root");
        MemoryBudget child = root.child("child", MemoryBudget.UNLIMITED);
        CountDownLatch start = new CountDownLatch(2);
        ConcurrentLinkedQueue<String> behind = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (long bytes : new long[] {1, 1000}) {
            threads.add(Thread.ofPlatform().start(() -> {
                start.countDown();
                try {
                    Waits.await(start, "both chargers");
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 500_000 && behind.isEmpty(); i++) {
                    long before = child.used();
                    child.charge(bytes);
                    long peak = child.peak();
                    if (peak < before + bytes) {
                        behind.add("peak " + peak + " after a charge of " + bytes + " with " + before
                                + " used before it");
                    }
                }
            }));
        }
        Waits.join(threads);
        assertThat(behind).isEmpty();
        assertThat(child.peak()).isEqualTo(child.used());
        assertThat(root.peak()).isEqualTo(root.used());
    }

    @Test
    void concurrentChargesNeverExceedALimit() throws Exception {
        MemoryBudget root = MemoryBudget.root("root", 10_000);
        MemoryBudget a = root.child("a", 7_000);
        MemoryBudget b = root.child("b", 7_000);
        MemoryBudget[] leaves = {a.child("a1", 5_000), a.child("a2", 5_000), b.child("b1", 5_000),
                b.child("b2", MemoryBudget.UNLIMITED)};
        MemoryBudget[] all = {root, a, b, leaves[0], leaves[1], leaves[2], leaves[3]};
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            MemoryBudget mine = leaves[t];
            long seed = t;
            threads.add(Thread.ofPlatform().start(() -> {
                Random random = new Random(seed);
                List<Long> charged = new ArrayList<>();
                try {
                    start.await();
                    for (int i = 0; i < 50_000; i++) {
                        if (charged.isEmpty() || random.nextBoolean()) {
                            long bytes = 1 + random.nextInt(1500);
                            if (random.nextBoolean()) {
                                if (mine.tryCharge(bytes)) {
                                    charged.add(bytes);
                                }
                            } else {
                                try {
                                    mine.charge(bytes);
                                    charged.add(bytes);
                                } catch (BudgetExceededException e) {
                                    // refused: nothing charged
                                }
                            }
                        } else {
                            mine.release(charged.remove(random.nextInt(charged.size())));
                        }
                        for (MemoryBudget budget : all) {
                            long used = budget.used();
                            if (used > budget.limit() || used < 0) {
                                throw new AssertionError(budget + " is outside [0, limit]");
                            }
                        }
                    }
                    charged.forEach(mine::release);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failures).isEmpty();
        for (MemoryBudget budget : all) {
            assertThat(budget.used()).as("%s after every charge was released", budget.path()).isZero();
            assertThat(budget.peak()).as("%s peak", budget.path()).isLessThanOrEqualTo(budget.limit());
        }
        assertThat(root.peak()).as("the root was the binding limit at some point").isGreaterThan(7_000);
    }
}
