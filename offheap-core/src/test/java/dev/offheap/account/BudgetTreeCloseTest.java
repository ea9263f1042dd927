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
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.DoubleArray;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Closing a budget closes the budgets below it: idle ones go quietly (their reservations back to the
 * parent), and memory still charged anywhere below is reported by child path, owner and bytes. A budget
 * under a closed ancestor refuses every charge, even one its own reservation covers.
 */
class BudgetTreeCloseTest {

    /** README.md, "Budgets and monitoring", with its imports and the "..." filled in: every pool is closed. */
    @Test
    void theReadmeSnippetClosesCleanOnceEveryPoolIsClosed() {
        MemoryBudget process = MemoryBudget.root("process", 2L << 30);          // 2 GiB off-heap for everything
        MemoryBudget io = process.child("io", 512L << 20, 128L << 20);          // at most 512 MiB, 128 MiB guaranteed
        BufferPool buffers = BufferPool.builder().name("io").budget(io).build();
        ChunkPool store = ChunkPool.builder().name("samples").budget(process).build();
        try (BufferLease buffer = buffers.acquire(16 * 1024);
             DoubleArray samples = store.doubles(1_000_000)) {
            buffer.segment().fill((byte) 1);
            samples.set(999_999, 1.5);
        }
        buffers.close();
        store.close();

        assertThatCode(process::close).as("nothing is outstanding anywhere").doesNotThrowAnyException();
        assertThat(io.isClosed()).as("the idle child closed with its parent").isTrue();
        assertThat(process.used()).as("the child's reservation went back").isZero();
        assertThat(process.children()).isEmpty();
    }

    @Test
    void closingAParentClosesEveryIdleDescendantAndGivesTheirReservationsBack() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 800, 500);
        MemoryBudget arrays = store.child("arrays", 400, 200);
        MemoryBudget plain = root.child("plain", 100);
        BudgetOwner owner = arrays.owner("cache");
        owner.charge(150);
        owner.release(150);
        assertThat(root.used()).isEqualTo(500);

        root.close();

        assertThat(store.isClosed()).isTrue();
        assertThat(arrays.isClosed()).isTrue();
        assertThat(plain.isClosed()).isTrue();
        assertThat(root.used()).isZero();
        assertThat(store.used()).isZero();
        assertThat(store.credit()).isZero();
        assertThat(arrays.credit()).isZero();
        assertThat(root.children()).isEmpty();
        assertThat(store.children()).isEmpty();
    }

    @Test
    void closingAParentWithMemoryHeldBelowNamesEachChildPathOwnerAndBytes() {
        MemoryBudget root = MemoryBudget.root("process", 100_000);
        MemoryBudget io = root.child("io", 50_000, 10_000);
        MemoryBudget store = root.child("store", 50_000);
        MemoryBudget arrays = store.child("arrays", 50_000);
        MemoryBudget idle = root.child("idle", 1000, 500);
        BudgetOwner buffers = io.owner("buffer pool io");
        BudgetOwner chunks = arrays.owner("store chunks");
        buffers.charge(4096);
        chunks.charge(3000);

        IllegalStateException e = catchThrowableOfType(IllegalStateException.class, root::close);

        assertThat(e.getMessage())
                .contains("'process/io' owner 'buffer pool io' holds 4.0 KiB (4096 bytes)")
                .contains("'process/store/arrays' owner 'store chunks' holds 2.9 KiB (3000 bytes)")
                .contains("memory budget 'process/io'")
                .doesNotContain("idle");
        assertThat(e.getMessage().lines().findFirst().orElseThrow())
                .as("the first line says what is left and where")
                .contains("'process'").contains("6.9 KiB (7096 bytes)");
        assertThat(idle.isClosed()).isTrue();
        assertThat(io.isClosed()).as("closed too: charges below a closed budget throw anyway").isTrue();
        assertThat(root.used()).as("unused reservations went back, 6 KiB of io's and all of idle's")
                .isEqualTo(7096);
        assertThatThrownBy(() -> buffers.charge(1)).isInstanceOf(IllegalStateException.class);

        buffers.release(4096);
        chunks.release(3000);
        assertThat(root.used()).isZero();
        assertThat(root.children()).as("children closed with memory are unlinked once it is back").isEmpty();
        assertThat(store.children()).isEmpty();
    }

    @Test
    void aBudgetUnderAClosedAncestorRefusesEvenAChargeItsReservationCovers() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 800, 500);
        MemoryBudget arrays = store.child("arrays", 400, 200);
        BudgetOwner owner = arrays.owner("cache");

        root.closeQuietly();

        assertThatThrownBy(() -> arrays.charge(100)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'process/store/arrays' is closed")
                .hasMessageContaining("'process' is closed");
        assertThatThrownBy(() -> arrays.tryCharge(100)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> owner.charge(100)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.charge(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> arrays.child("late", 10)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> arrays.owner("late")).isInstanceOf(IllegalStateException.class);
        assertThat(arrays.used()).isZero();
        assertThat(owner.outstanding()).isZero();
    }

    @Test
    void poolsUnderAClosedBudgetRefuseNamingItAndStillCloseCleanly() {
        MemoryBudget process = MemoryBudget.root("process", 1L << 30);
        MemoryBudget io = process.child("io", 256L << 20, 16L << 20);
        BufferPool buffers = BufferPool.builder().name("io").budget(io).jmx(false).build();
        ChunkPool store = ChunkPool.builder().name("samples").budget(io).memoryLimit(64L << 20).jmx(false).build();
        buffers.acquire(1000).release();
        buffers.trim();

        process.close();

        assertThatThrownBy(() -> buffers.acquire(1000)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'process/io' is closed because its ancestor 'process' is closed");
        assertThatThrownBy(() -> store.doubles(10)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'process/io/samples' is closed because its ancestor 'process' is closed");
        assertThatCode(buffers::close).doesNotThrowAnyException();
        assertThatCode(store::close).doesNotThrowAnyException();
        assertThat(process.used()).isZero();
        assertThat(process.children()).isEmpty();
    }

    /**
     * A reclaimer hears once that its budget closed, by its own close or an ancestor's, or at once if it is
     * registered on a closed budget; it is not asked again, and one that throws does not stop the close.
     */
    @Test
    void reclaimersAreToldOnceThatTheirBudgetClosed() {
        MemoryBudget process = MemoryBudget.root("process", 1000);
        MemoryBudget io = process.child("io", 1000);
        List<String> told = new CopyOnWriteArrayList<>();
        Reclaimer onIo = new Reclaimer() {
            @Override
            public long reclaim(long bytesWanted) {
                return 0;
            }

            @Override
            public void budgetClosed(MemoryBudget budget) {
                told.add("io: " + budget.path() + (budget.isClosed() ? " closed" : " open"));
            }
        };
        Reclaimer failing = new Reclaimer() {
            @Override
            public long reclaim(long bytesWanted) {
                return 0;
            }

            @Override
            public void budgetClosed(MemoryBudget budget) {
                throw new IllegalStateException("failing on purpose");
            }
        };
        process.addReclaimer(failing);
        io.addReclaimer(onIo);
        io.addReclaimer(wanted -> 0); // the default: nothing to hear

        process.close();
        process.close();
        assertThat(told).containsExactly("io: process/io closed");
        assertThat(io.removeReclaimer(onIo)).as("no longer registered").isFalse();

        io.addReclaimer(onIo);
        assertThat(told).as("registered after the close").containsExactly("io: process/io closed",
                "io: process/io closed");
        assertThat(io.removeReclaimer(onIo)).isFalse();
    }

    @Test
    void aClosedBudgetHasNothingAvailable() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 800, 500);
        MemoryBudget other = root.child("other", 800);
        other.close();
        assertThat(other.available()).isZero();
        assertThat(store.available()).isEqualTo(800);
        root.close();
        assertThat(root.available()).isZero();
        assertThat(store.available()).as("under a closed ancestor").isZero();
    }

    @Test
    void aReservationAboveItsLimitSaysWhichSettingToChange() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        assertThatThrownBy(() -> root.child("store", 100, 101)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'process/store'")
                .hasMessageContaining("reservation of 101 bytes is above its limit of 100 bytes")
                .hasMessageContaining("at most 100 bytes")
                .hasMessageContaining("at least 101 bytes");
        assertThat(root.used()).isZero();
        assertThat(root.children()).isEmpty();
    }

    @Test
    void aReservationNoAncestorCouldEverGiveIsRefusedNamingThatAncestorsLimit() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        MemoryBudget store = root.child("store", 300);
        assertThatThrownBy(() -> store.child("arrays", 5000, 400)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'process/store/arrays'")
                .hasMessageContaining("reservation of 400 bytes")
                .hasMessageContaining("'process/store' allows at most 300 bytes");
        assertThat(store.used()).isZero();
        assertThat(store.children()).isEmpty();
    }

    @Test
    void aReservationTheParentCannotGiveNowIsABudgetErrorNamingTheNewChild() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        root.charge(800);
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class,
                () -> root.child("store", 1000, 300));
        assertThat(e.budgetPath()).isEqualTo("process");
        assertThat(e.requested()).isEqualTo(300);
        assertThat(e.component()).contains("new budget 'process/store'");
        assertThat(e.getMessage()).contains("new budget 'process/store' asked for a reservation = 300 bytes;")
                .contains("800 bytes used of 1000 bytes allowed at 'process'");
    }

    @Test
    void aChildMadeWhileItsParentClosesIsEitherClosedWithItOrRefused() throws InterruptedException {
        for (int round = 0; round < 200; round++) {
            MemoryBudget root = MemoryBudget.root("process", 1000);
            MemoryBudget[] made = new MemoryBudget[1];
            Thread maker = Thread.ofPlatform().start(() -> {
                try {
                    made[0] = root.child("late", 500, 100);
                } catch (IllegalStateException | BudgetExceededException refused) {
                    // closed first
                }
            });
            root.closeQuietly();
            maker.join();
            if (made[0] != null) {
                assertThat(made[0].isClosed()).as("round %d", round).isTrue();
            }
            assertThat(root.used()).as("round %d: no reservation stays charged", round).isZero();
        }
    }
}
