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
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A child's reservation is charged to its parent at creation, used before the parent, and given back at close. */
class ReservationTest {

    @Test
    void theReservationIsChargedToTheParentAtCreationAndGivenBackAtClose() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 800, 300);
        assertThat(store.reservation()).isEqualTo(300);
        assertThat(store.used()).isZero();
        assertThat(root.used()).as("the reservation").isEqualTo(300);
        assertThat(root.peak()).isEqualTo(300);
        assertThat(store.toString()).contains("300 reserved");
        store.close();
        assertThat(root.used()).isZero();
        assertThat(root.children()).isEmpty();
    }

    @Test
    void chargesWithinTheReservationStopAtTheChild() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 800, 300);
        store.charge(200);
        store.charge(100);
        assertThat(store.used()).isEqualTo(300);
        assertThat(root.used()).as("nothing beyond the reservation").isEqualTo(300);

        store.charge(50);
        assertThat(store.used()).isEqualTo(350);
        assertThat(root.used()).as("beyond the reservation: charged up the tree").isEqualTo(350);

        store.release(100);
        assertThat(store.used()).isEqualTo(250);
        assertThat(root.used()).as("the reservation is refilled first, the rest goes up").isEqualTo(300);
        store.release(250);
        assertThat(root.used()).isEqualTo(300);
        store.close();
        assertThat(root.used()).isZero();
    }

    @Test
    void aReservationIsGuaranteedWhateverOtherBudgetsTake() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 1000, 400);
        MemoryBudget io = root.child("io", 1000);
        io.charge(600);
        assertThat(io.tryCharge(1)).as("the root is full: 400 reserved, 600 used").isFalse();
        store.charge(400);
        assertThat(store.tryCharge(1)).as("beyond the reservation the root refuses").isFalse();
        assertThat(store.used()).isEqualTo(400);
        assertThat(root.used()).isEqualTo(1000);
    }

    /**
     * A charge the reservation covers stops at the child: it never asks the parent, so it succeeds even while
     * the parent is already closed and its close has not reached the child yet (held here by the child's
     * monitor, which close takes).
     */
    @Test
    void aChargeTheReservationCoversNeverAsksTheParentEvenAClosingOne() throws Exception {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 800, 300);
        AtomicReference<Throwable> closeFailed = new AtomicReference<>();
        Thread closer;
        synchronized (store) {
            closer = Thread.ofPlatform().name("closer").start(() -> {
                try {
                    root.close();
                } catch (Throwable e) {
                    closeFailed.set(e);
                }
            });
            Waits.blockedOnMe(closer);
            assertThat(root.isClosed()).isTrue();
            assertThat(store.isClosed()).isFalse();

            store.charge(100);
            store.charge(0);
            assertThat(store.used()).isEqualTo(100);
            assertThat(root.used()).as("only the reservation").isEqualTo(300);
            store.release(100);
        }
        Waits.join(closer);
        assertThat(closeFailed.get()).isNull();
        assertThat(store.isClosed()).isTrue();
        assertThat(root.used()).isZero();
    }

    @Test
    void theChildsOwnLimitAppliesWithinTheReservation() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 300, 300);
        store.charge(300);
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> store.charge(1));
        assertThat(e.budgetPath()).isEqualTo("process/store");
        assertThat(root.used()).isEqualTo(300);
    }

    @Test
    void creationFailsNamingTheParentWhenTheParentCannotGiveTheReservation() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        root.charge(800);
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class,
                () -> root.child("store", 1000, 300));
        assertThat(e.budgetPath()).isEqualTo("process");
        assertThat(e.requested()).isEqualTo(300);
        assertThat(root.used()).isEqualTo(800);
        assertThat(root.children()).as("the refused child is not linked").isEmpty();
    }

    @Test
    void badReservationsAreRejected() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        assertThatThrownBy(() -> root.child("store", 100, 101)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("store").hasMessageContaining("101");
        assertThatThrownBy(() -> root.child("store", 100, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(root.used()).isZero();
        assertThat(root.child("plain", 100).reservation()).isZero();
        assertThat(root.reservation()).isZero();
    }

    @Test
    void aNestedReservationComesOutOfTheParentsReservation() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 800, 500);
        MemoryBudget arrays = store.child("arrays", 800, 200);
        assertThat(store.used()).isEqualTo(200);
        assertThat(root.used()).as("the store's reservation covers the arrays' one").isEqualTo(500);
        arrays.charge(200);
        assertThat(store.used()).isEqualTo(200);
        arrays.charge(400);
        assertThat(store.used()).isEqualTo(600);
        assertThat(root.used()).isEqualTo(600);
        arrays.release(600);
        arrays.close();
        assertThat(store.used()).isZero();
        assertThat(root.used()).isEqualTo(500);
    }

    @Test
    void availableCountsTheUnusedReservation() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 800, 300);
        MemoryBudget io = root.child("io", 1000);
        io.charge(700);
        assertThat(io.available()).as("300 of the root are reserved").isZero();
        assertThat(store.available()).isEqualTo(300);
        store.charge(100);
        assertThat(store.available()).isEqualTo(200);
        io.release(700);
        assertThat(store.available()).isEqualTo(700);
    }

    @Test
    void aChargeRefusedAboveTheReservationRollsBackAtEveryLevelIncludingTheReservation() {
        MemoryBudget root = MemoryBudget.root("root", 1000);
        MemoryBudget mid = root.child("mid", 1000, 300);
        MemoryBudget leaf = mid.child("leaf", 1000);
        root.child("other", 1000).charge(600);
        leaf.charge(100);
        assertThat(root.used()).isEqualTo(900);

        // 350 more at mid: 200 from its reservation, 150 from the root, which has 100 left
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> leaf.charge(350));
        assertThat(e.budgetPath()).isEqualTo("root");
        assertThat(leaf.used()).isEqualTo(100);
        assertThat(mid.used()).isEqualTo(100);
        assertThat(mid.credit()).as("the reservation taken for the refused charge is back").isEqualTo(200);
        assertThat(root.used()).isEqualTo(900);
        assertThat(leaf.peak()).isEqualTo(100);
        assertThat(mid.peak()).isEqualTo(100);

        leaf.charge(300); // 200 from the reservation, 100 from the root
        assertThat(mid.used()).isEqualTo(400);
        assertThat(root.used()).isEqualTo(1000);
    }

    @Test
    void releasesAfterCloseGoToTheParentAndTheReservationIsNotKept() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 800, 300);
        store.charge(200);
        assertThatThrownBy(store::close).isInstanceOf(IllegalStateException.class);
        assertThat(root.used()).as("the unused 100 of the reservation went back").isEqualTo(200);
        assertThatThrownBy(() -> store.charge(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("process/store").hasMessageContaining("closed");
        store.release(200);
        assertThat(store.used()).isZero();
        assertThat(store.credit()).isZero();
        assertThat(root.used()).isZero();
    }
}
