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

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Owners keep their balance and where they were opened; closing a budget with memory still charged reports
 * what is outstanding and who took it.
 */
class BudgetCloseTest {
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    /** Held strongly so that its filter is not lost if the logger were collected. */
    private final Logger accountLogger = Logger.getLogger("dev.offheap.account");
    private Filter previousFilter;

    @BeforeEach
    void captureReports() {
        previousFilter = accountLogger.getFilter();
        accountLogger.setFilter(logRecord -> {
            if (logRecord.getLevel() == Level.WARNING) {
                warnings.add(logRecord.getMessage());
            }
            return false;
        });
    }

    @AfterEach
    void restoreLogger() {
        accountLogger.setFilter(previousFilter);
    }

    @Test
    void ownersChargeTheBudgetAndKeepTheirOwnBalance() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        BudgetOwner a = root.owner("cache a");
        BudgetOwner b = root.owner("cache b");
        a.charge(300);
        assertThat(b.tryCharge(500)).isTrue();
        assertThat(b.tryCharge(500)).isFalse();
        assertThatThrownBy(() -> a.charge(500)).isInstanceOf(BudgetExceededException.class);
        assertThat(a.outstanding()).isEqualTo(300);
        assertThat(b.outstanding()).isEqualTo(500);
        assertThat(root.used()).isEqualTo(800);
        assertThatThrownBy(() -> a.release(301)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cache a").hasMessageContaining("process");
        assertThat(root.used()).as("a refused release changes nothing").isEqualTo(800);
        a.release(300);
        b.release(500);
        assertThat(root.used()).isZero();
        assertThat(a.name()).isEqualTo("cache a");
        assertThat(a.budget()).isSameAs(root);
        assertThat(a.openedBy()).isEqualTo(Thread.currentThread().getName());
        assertThat(a.openedAt()[0].getMethodName()).as("the caller of owner(), not the budget's own frames")
                .isEqualTo("ownersChargeTheBudgetAndKeepTheirOwnBalance");
    }

    @Test
    void closingACleanBudgetSucceedsAndRefusesFurtherCharges() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget child = root.child("io", 500);
        BudgetOwner owner = child.owner("pool");
        owner.charge(100);
        owner.release(100);
        owner.close();
        child.close();
        child.close();
        assertThat(child.isClosed()).isTrue();
        assertThat(root.children()).isEmpty();
        assertThatThrownBy(() -> child.charge(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'process/io' is closed");
        assertThatThrownBy(() -> child.tryCharge(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> owner.charge(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> child.owner("late")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> child.child("late", 10)).isInstanceOf(IllegalStateException.class);
        assertThat(warnings).isEmpty();
    }

    @Test
    void closeWithMemoryStillChargedThrowsNamingEachOwnerItsBytesAndWhereItWasOpened() {
        MemoryBudget root = MemoryBudget.root("process", 10_000);
        MemoryBudget io = root.child("io", 4096, 1024);
        BudgetOwner leaky = openLeakyOwner(io);
        BudgetOwner tidy = io.owner("tidy pool");
        tidy.charge(100);
        tidy.release(100);
        io.charge(7);

        IllegalStateException e = catchThrowableOfType(IllegalStateException.class, io::close);
        assertThat(e.getMessage())
                .contains("memory budget 'process/io'")
                .contains("2.0 KiB (2007 bytes) charged")
                .contains("peak 2.1 KiB")
                .contains("limit 4.0 KiB")
                .contains("reservation 1.0 KiB")
                .contains("owner 'leaky pool': 2.0 KiB (2000 bytes) outstanding")
                .contains("opened by thread '" + Thread.currentThread().getName() + "'")
                .contains(BudgetCloseTest.class.getName() + ".openLeakyOwner(")
                .contains("charged directly, through no owner: 7 bytes")
                .doesNotContain("tidy pool");

        assertThat(io.isClosed()).as("closed all the same").isTrue();
        assertThatThrownBy(() -> leaky.charge(1)).isInstanceOf(IllegalStateException.class);
        assertThat(root.used()).as("the unused reservation went back at close").isEqualTo(2007);
        leaky.release(2000);
        io.release(7);
        assertThat(root.used()).as("releases after close reach the root").isZero();
    }

    @Test
    void theReportNamesOwnersOfChildrenStillCharged() {
        MemoryBudget root = MemoryBudget.root("process", 10_000);
        MemoryBudget store = root.child("store", 10_000);
        BudgetOwner chunks = store.owner("store chunks");
        chunks.charge(4096);
        BudgetOwner direct = root.owner("direct");
        direct.charge(10);
        MemoryBudget idle = root.child("idle", 100);

        BudgetReport report = root.report();
        assertThat(report.path()).isEqualTo("process");
        assertThat(report.used()).isEqualTo(4106);
        assertThat(report.isClean()).isFalse();
        assertThat(report.unattributed()).isZero();
        assertThat(report.owners()).extracting(BudgetReport.Owner::name).containsExactly("direct");
        assertThat(report.children()).hasSize(1);
        BudgetReport storeReport = report.children().getFirst();
        assertThat(storeReport.path()).isEqualTo("process/store");
        assertThat(storeReport.owners()).singleElement().satisfies(owner -> {
            assertThat(owner.name()).isEqualTo("store chunks");
            assertThat(owner.outstanding()).isEqualTo(4096);
            assertThat(owner.openedAt()).anySatisfy(frame -> assertThat(frame.getMethodName())
                    .isEqualTo("theReportNamesOwnersOfChildrenStillCharged"));
        });
        assertThat(report.format()).contains("  memory budget 'process/store'").contains("store chunks")
                .doesNotContain("idle");

        BudgetReport quiet = root.closeQuietly();
        assertThat(quiet.used()).isEqualTo(4106);
        assertThat(warnings).singleElement().satisfies(w -> assertThat(w)
                .contains("closed with memory still charged").contains("'process/store'")
                .contains("owner 'store chunks'").contains(BudgetCloseTest.class.getName()));
        assertThatThrownBy(() -> store.charge(1)).as("an ancestor is closed")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'process' is closed");
        assertThat(store.used()).as("the refused charge rolled back").isEqualTo(4096);
        assertThat(idle.isClosed()).as("an idle child closes with its parent").isTrue();
        assertThat(store.isClosed()).as("so does a charged one, which the report named").isTrue();
        assertThat(root.closeQuietly().used()).as("a second close reports what is charged now").isEqualTo(4106);
        assertThat(warnings).as("and logs nothing").hasSize(1);
    }

    @Test
    void aClosedOwnerIsForgottenOnlyOnceItsMemoryIsBack() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        BudgetOwner owner = root.owner("pool");
        owner.charge(10);
        owner.close();
        assertThat(root.report().owners()).extracting(BudgetReport.Owner::name).containsExactly("pool");
        assertThat(warnings).containsExactly("budget owner 'pool' of budget 'process' closed with 10 bytes still"
                + " charged; it stays in the budget's report until they are released");
        owner.release(4);
        assertThat(root.report().owners()).extracting(BudgetReport.Owner::name).containsExactly("pool");
        owner.release(6);
        assertThat(root.report().owners()).as("forgotten by its last release, no second close needed").isEmpty();
        owner.close();
        assertThat(root.closeQuietly().isClean()).isTrue();
        assertThat(warnings).hasSize(1);
    }

    @Test
    void aCleanOwnerClosesSilentlyAndASecondCloseDoesNothing() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        BudgetOwner owner = root.owner("pool");
        owner.charge(10);
        owner.release(10);
        owner.close();
        owner.close();
        assertThat(root.report().owners()).isEmpty();
        assertThat(warnings).isEmpty();
    }

    private static BudgetOwner openLeakyOwner(MemoryBudget budget) {
        BudgetOwner owner = budget.owner("leaky pool");
        owner.charge(2000);
        return owner;
    }
}
