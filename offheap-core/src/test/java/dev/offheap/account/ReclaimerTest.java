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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Filter;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When a level refuses a charge, the reclaimers at and below that level are asked to free memory, then the
 * charge is tried once more.
 */
class ReclaimerTest {
    private final List<String> warnings = new ArrayList<>();
    /** Held strongly so that its filter is not lost if the logger were collected. */
    private final Logger accountLogger = Logger.getLogger("dev.offheap.account");
    private Filter previousFilter;

    @BeforeEach
    void captureWarnings() {
        previousFilter = accountLogger.getFilter();
        accountLogger.setFilter(logRecord -> {
            synchronized (warnings) {
                warnings.add(logRecord.getMessage());
            }
            return false;
        });
    }

    @AfterEach
    void restoreLogger() {
        accountLogger.setFilter(previousFilter);
    }

    /** A cache holding charged memory that it gives back when asked: the shape of a pool's trim. */
    static final class Cache implements Reclaimer {
        final MemoryBudget budget;
        final AtomicLong held = new AtomicLong();
        final List<Long> asked = new ArrayList<>();

        Cache(MemoryBudget budget, long bytes) {
            this.budget = budget;
            budget.charge(bytes);
            held.set(bytes);
            budget.addReclaimer(this);
        }

        @Override
        public synchronized long reclaim(long bytesWanted) {
            asked.add(bytesWanted);
            long freed = held.getAndSet(0);
            budget.release(freed);
            return freed;
        }
    }

    @Test
    void theRefusingBudgetsReclaimerIsAskedForTheShortfallAndTheRetrySucceeds() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        Cache cache = new Cache(root, 700);
        root.charge(500);
        assertThat(cache.asked).as("asked for what the charge lacked: 700 + 500 - 1000").containsExactly(200L);
        assertThat(root.used()).isEqualTo(500);
        assertThat(root.peak()).as("the refused attempt never counted").isEqualTo(700);
    }

    @Test
    void tryChargeReclaimsToo() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        Cache cache = new Cache(root, 700);
        assertThat(root.tryCharge(500)).isTrue();
        assertThat(cache.asked).hasSize(1);
    }

    @Test
    void aPoolUnderAChildIsAskedWhenTheRootIsFull() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 1000);
        MemoryBudget io = root.child("io", 1000);
        Cache storeCache = new Cache(store.child("chunks", 1000), 800);
        io.charge(500);
        assertThat(storeCache.asked).hasSize(1);
        assertThat(store.used()).isZero();
        assertThat(io.used()).isEqualTo(500);
    }

    @Test
    void onlyReclaimersAtAndBelowTheRefusingLevelAreAsked() {
        MemoryBudget root = MemoryBudget.root("process", 10_000);
        MemoryBudget io = root.child("io", 1000);
        Cache sibling = new Cache(root.child("store", 10_000), 5000);
        Cache inRoot = new Cache(root, 100);
        Cache inIo = new Cache(io, 900);
        io.charge(500);
        assertThat(inIo.asked).hasSize(1);
        assertThat(sibling.asked).as("not below io, which refused").isEmpty();
        assertThat(inRoot.asked).as("above io").isEmpty();
    }

    @Test
    void reclaimersAreAskedInTreeOrderUntilTheShortfallIsFreed() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget a = root.child("a", 1000);
        MemoryBudget b = root.child("b", 1000);
        List<String> order = new ArrayList<>();
        root.addReclaimer(wanted -> {
            order.add("root");
            return 0;
        });
        Cache inA = new Cache(a.child("a1", 1000), 300);
        a.addReclaimer(wanted -> {
            order.add("a");
            return 0;
        });
        Cache inB = new Cache(b, 400);
        b.addReclaimer(wanted -> {
            order.add("b");
            return 0;
        });
        inA.budget.addReclaimer(wanted -> {
            order.add("a1 second");
            return 0;
        });
        root.charge(300); // full: 300 + 400 + 300
        assertThat(root.used()).isEqualTo(1000);

        root.charge(200); // lacks 200: a1's cache frees 300, so b is never asked
        assertThat(order).containsExactly("root", "a");
        assertThat(inA.asked).containsExactly(200L);
        assertThat(inB.asked).isEmpty();

        order.clear();
        root.charge(400); // lacks 300: a1's cache is empty; b's cache frees 400
        assertThat(order).containsExactly("root", "a", "a1 second");
        assertThat(inA.asked).hasSize(2);
        assertThat(inB.asked).containsExactly(300L);
        assertThat(order).doesNotContain("b");
    }

    /** Exactly the shortfall freed: no other reclaimer, here or below, is asked for nothing. */
    @Test
    void askingStopsAsSoonAsExactlyTheShortfallIsFreed() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        Cache inRoot = new Cache(root, 300);
        List<Long> secondAsked = new ArrayList<>();
        root.addReclaimer(wanted -> {
            secondAsked.add(wanted);
            return 0;
        });
        MemoryBudget child = root.child("pool", 1000);
        Cache inChild = new Cache(child, 200);
        root.charge(500); // full: 300 + 200 + 500

        root.charge(300); // lacks 300: the root's cache frees exactly that
        assertThat(inRoot.asked).containsExactly(300L);
        assertThat(secondAsked).as("the root's second reclaimer").isEmpty();
        assertThat(inChild.asked).as("the child's reclaimer").isEmpty();
        assertThat(child.used()).isEqualTo(200);
        assertThat(root.used()).isEqualTo(1000);
    }

    /** Each reclaimer is asked for what the ones before it left to free. */
    @Test
    void aLaterReclaimerIsAskedForWhatIsStillMissing() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        root.charge(100);
        List<Long> firstAsked = new ArrayList<>();
        root.addReclaimer(wanted -> {
            firstAsked.add(wanted);
            root.release(100);
            return 100;
        });
        Cache cache = new Cache(root, 500);
        root.charge(400); // full: 100 + 500 + 400

        root.charge(300); // lacks 300: the first frees 100, the cache is asked for the other 200
        assertThat(firstAsked).containsExactly(300L);
        assertThat(cache.asked).containsExactly(200L);
        assertThat(root.used()).isEqualTo(700);
    }

    /**
     * The retry follows whenever a reclaimer was asked, even one that says it freed nothing: what it says
     * may be short of what came back.
     */
    @Test
    void theChargeIsRetriedEvenWhenTheReclaimersSayTheyFreedNothing() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        root.charge(1000);
        root.addReclaimer(wanted -> {
            root.release(100);
            return 0;
        });
        root.charge(100);
        assertThat(root.used()).isEqualTo(1000);
        assertThat(root.tryCharge(100)).isTrue();
        assertThat(root.used()).isEqualTo(1000);
    }

    @Test
    void aReclaimerThatFreesTooLittleLeadsToOneRetryThenTheException() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        root.charge(900);
        AtomicLong calls = new AtomicLong();
        root.addReclaimer(wanted -> {
            calls.incrementAndGet();
            root.release(50);
            return 50;
        });
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> root.charge(200));
        assertThat(calls.get()).as("asked once: one retry only").isEqualTo(1);
        assertThat(e.reclaimed()).isEqualTo(50);
        assertThat(e.used()).isEqualTo(850);
        assertThat(e.getMessage()).contains("'process'").contains("reclaimers freed 50 bytes");
        assertThat(root.used()).isEqualTo(850);
    }

    @Test
    void withoutReclaimersTheMessageSaysNothingAboutThem() {
        MemoryBudget root = MemoryBudget.root("process", 10);
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> root.charge(11));
        assertThat(e.reclaimed()).isZero();
        assertThat(e.getMessage()).doesNotContain("reclaim");
    }

    @Test
    void aChargeFromInsideAReclaimerDoesNotReclaimAgain() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        root.charge(1000);
        AtomicLong calls = new AtomicLong();
        List<Boolean> innerResults = new ArrayList<>();
        root.addReclaimer(wanted -> {
            calls.incrementAndGet();
            innerResults.add(root.tryCharge(10)); // would recurse without the guard
            assertThatThrownBy(() -> root.charge(10)).isInstanceOf(BudgetExceededException.class);
            return 0;
        });
        assertThat(root.tryCharge(100)).isFalse();
        assertThat(calls.get()).isEqualTo(1);
        assertThat(innerResults).containsExactly(false);
        assertThat(root.used()).isEqualTo(1000);

        assertThatThrownBy(() -> root.charge(100)).isInstanceOf(BudgetExceededException.class);
        assertThat(calls.get()).as("the guard ends with the reclaim that set it").isEqualTo(2);
    }

    @Test
    void aFailingReclaimerIsLoggedAndTheOthersStillRun() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        root.addReclaimer(wanted -> {
            throw new IllegalStateException("broken reclaimer");
        });
        Cache cache = new Cache(root, 1000);
        root.charge(10);
        assertThat(cache.asked).hasSize(1);
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("reclaimer").contains("'process'"));
    }

    @Test
    void aRemovedReclaimerIsNotAskedAndAClosedBudgetAsksNone() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget child = root.child("pool", 1000);
        Cache cache = new Cache(child, 1000);
        assertThat(child.removeReclaimer(cache)).isTrue();
        assertThat(child.removeReclaimer(cache)).isFalse();
        assertThatThrownBy(() -> root.charge(10)).isInstanceOf(BudgetExceededException.class);
        assertThat(cache.asked).isEmpty();

        child.addReclaimer(cache);
        assertThatThrownBy(child::close).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> root.charge(10)).isInstanceOf(BudgetExceededException.class);
        assertThat(cache.asked).as("closing drops the reclaimers").isEmpty();
    }
}
