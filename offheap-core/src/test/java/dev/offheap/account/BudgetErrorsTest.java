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

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.DoubleArray;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A budget error a user can act on: who asked (the component), for what (the request), what the component
 * charged for it when that differs, to which budget, and what was used, allowed and held by whom at the
 * level that refused. One test per fact, then the two reported scenarios with their exact figures.
 */
class BudgetErrorsTest {
    private static final long MiB = 1L << 20;

    @Test
    void namesTheRefusingBudgetWithWhatWasUsedAndAllowedThere() {
        MemoryBudget root = MemoryBudget.root("app", 10_000);
        MemoryBudget io = root.child("io", 50_000);
        root.charge(6000);
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> io.charge(5000));
        assertThat(e.budgetPath()).isEqualTo("app");
        assertThat(e.used()).isEqualTo(6000);
        assertThat(e.limit()).isEqualTo(10_000);
        assertThat(e.getMessage()).startsWith("memory budget 'app' exceeded: ")
                .contains("5.9 KiB (6000 bytes) used of 9.8 KiB (10000 bytes) allowed at 'app'");
    }

    @Test
    void namesTheBudgetChargedWhenAnAncestorRefuses() {
        MemoryBudget root = MemoryBudget.root("app", 10_000);
        MemoryBudget io = root.child("io", 50_000).child("pool", 50_000);
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> io.charge(20_000));
        assertThat(e.chargedPath()).isEqualTo("app/io/pool");
        assertThat(e.budgetPath()).isEqualTo("app");
        assertThat(e.getMessage()).contains("asked for 19.5 KiB (20000 bytes) to 'app/io/pool'");

        BudgetExceededException here = catchThrowableOfType(BudgetExceededException.class, () -> root.charge(20_000));
        assertThat(here.chargedPath()).isEqualTo("app");
        assertThat(here.getMessage()).doesNotContain(" to 'app'");
    }

    @Test
    void namesTheOwnerThatCharged() {
        MemoryBudget root = MemoryBudget.root("app", 1000);
        BudgetOwner cache = root.owner("tile cache");
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> cache.charge(2000));
        assertThat(e.component()).contains("owner 'tile cache'");
        assertThat(e.requested()).isEqualTo(2000);
        assertThat(e.getMessage()).contains("exceeded: owner 'tile cache' asked for 2.0 KiB (2000 bytes)");

        BudgetExceededException direct = catchThrowableOfType(BudgetExceededException.class, () -> root.charge(2000));
        assertThat(direct.component()).isEmpty();
        assertThat(direct.getMessage()).contains("exceeded: asked for 2.0 KiB (2000 bytes)");
    }

    @Test
    void namesWhoHoldsTheRefusingLevel() {
        MemoryBudget root = MemoryBudget.root("app", 10_000);
        MemoryBudget io = root.child("io", 10_000, 1000);
        root.owner("store chunks").charge(4000);
        io.owner("buffer pool io").charge(3000);
        root.charge(500);
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> root.charge(5000));
        assertThat(e.holders()).containsExactly(
                new BudgetExceededException.Holder("owner 'store chunks'", 4000),
                new BudgetExceededException.Holder("budget 'app/io'", 3000),
                new BudgetExceededException.Holder("charged directly", 500));
        assertThat(e.getMessage()).contains("allowed at 'app' (owner 'store chunks': 3.9 KiB, budget 'app/io': 2.9 KiB,"
                + " charged directly: 500 B)");
    }

    /** Largest first whatever their kind; a child holds its unused reservation too. */
    @Test
    void holdersAreListedLargestFirstWithAChildsUnusedReservation() {
        MemoryBudget root = MemoryBudget.root("app", 10_000);
        MemoryBudget io = root.child("io", 10_000, 2000);
        io.charge(500); // 1500 of the reservation unused: io holds 2000 of the root
        root.owner("cache").charge(1000);
        root.charge(3000);
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> root.charge(5000));
        assertThat(e.holders()).containsExactly(
                new BudgetExceededException.Holder("charged directly", 3000),
                new BudgetExceededException.Holder("budget 'app/io'", 2000),
                new BudgetExceededException.Holder("owner 'cache'", 1000));
        assertThat(e.getMessage()).isEqualTo("memory budget 'app' exceeded: asked for 4.9 KiB (5000 bytes);"
                + " 5.9 KiB (6000 bytes) used of 9.8 KiB (10000 bytes) allowed at 'app'"
                + " (charged directly: 2.9 KiB, budget 'app/io': 2.0 KiB, owner 'cache': 1000 B)");
    }

    @Test
    void saysWhatTheReclaimersFreedBeforeTheRetry() {
        MemoryBudget root = MemoryBudget.root("app", 1000);
        root.charge(900);
        root.addReclaimer(wanted -> {
            root.release(50);
            return 50;
        });
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> root.charge(500));
        assertThat(e.reclaimed()).isEqualTo(50);
        assertThat(e.getMessage()).endsWith("; reclaimers freed 50 bytes before one retry");
    }

    @Test
    void theRequestNamesTheComponentTheCallAndWhatItChargedWhenThatDiffers() {
        MemoryBudget root = MemoryBudget.root("app", 64 * MiB);
        MemoryBudget io = root.child("io", 64 * MiB);
        root.charge(62 * MiB);
        BudgetExceededException charged = catchThrowableOfType(BudgetExceededException.class,
                () -> io.owner("buffer pool io").charge(4 * MiB));

        BudgetExceededException e = charged.forRequest("buffer pool 'io'", "acquire(1048576)", MiB);

        assertThat(e).isInstanceOf(BudgetExceededException.class).isNotSameAs(charged);
        assertThat(e.component()).contains("buffer pool 'io'");
        assertThat(e.request()).contains("acquire(1048576)");
        assertThat(e.requestBytes()).hasValue(MiB);
        assertThat(e.requested()).as("what the component charged").isEqualTo(4 * MiB);
        assertThat(e.budgetPath()).isEqualTo(charged.budgetPath());
        assertThat(e.chargedPath()).isEqualTo("app/io");
        assertThat(e.used()).isEqualTo(charged.used());
        assertThat(e.limit()).isEqualTo(charged.limit());
        assertThat(e.holders()).isEqualTo(charged.holders());
        assertThat(e.getStackTrace()).as("where the charge was refused").isEqualTo(charged.getStackTrace());
        assertThat(e.getMessage()).isEqualTo("memory budget 'app' exceeded: buffer pool 'io' asked for"
                + " acquire(1048576) = 1.0 MiB (1048576 bytes), charging 4.0 MiB (4194304 bytes) to 'app/io';"
                + " 62.0 MiB (65011712 bytes) used of 64.0 MiB (67108864 bytes) allowed at 'app'"
                + " (charged directly: 62.0 MiB)");
    }

    @Test
    void aRequestChargedAsAskedSaysSoOnce() {
        MemoryBudget root = MemoryBudget.root("app", MiB);
        BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class, () -> root.charge(2 * MiB))
                .forRequest("buffer pool 'io'", "acquire(2097152)", 2 * MiB);
        assertThat(e.getMessage()).contains("buffer pool 'io' asked for acquire(2097152) = 2.0 MiB (2097152 bytes);")
                .doesNotContain("charging");
    }

    @Test
    void theOldConstructorStillReadsWell() {
        BudgetExceededException e = new BudgetExceededException("app", 4096, 1000, 4096);
        assertThat(e.getMessage()).isEqualTo("memory budget 'app' exceeded: asked for 4.0 KiB (4096 bytes);"
                + " 1000 bytes used of 4.0 KiB (4096 bytes) allowed at 'app'");
        assertThat(e.chargedPath()).isEqualTo("app");
        assertThat(e.component()).isEmpty();
        assertThat(e.request()).isEmpty();
        assertThat(e.requestBytes()).isEmpty();
        assertThat(e.holders()).isEmpty();
        assertThat(e.reclaimed()).isZero();
    }

    /** Reported: with 24 MiB leased from a 64 MiB budget, doubles(8_000_000) said "asked for 24.0 MiB". */
    @Test
    void aChunkPoolRefusalNamesThePoolTheArrayAskedForAndTheChunksCharged() {
        MemoryBudget app = MemoryBudget.root("app", 64 * MiB);
        List<BufferLease> leased = new ArrayList<>();
        try (BufferPool buffers = BufferPool.builder().name("io").budget(app).threadCaches(0).leakSampling(0)
                        .jmx(false).build();
             ChunkPool chunks = ChunkPool.builder().name("samples").budget(app).jmx(false).build()) {
            for (int i = 0; i < 24; i++) {
                leased.add(buffers.acquire((int) MiB));
            }
            assertThat(app.used()).isEqualTo(24 * MiB);

            BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class,
                    () -> chunks.doubles(8_000_000));

            assertThat(e.component()).contains("chunk pool 'samples'");
            assertThat(e.request()).contains("doubles(8000000)");
            assertThat(e.requestBytes()).hasValue(64_000_000L);
            assertThat(e.requested()).as("the array's 16 chunks, charged at once").isEqualTo(64 * MiB);
            assertThat(e.budgetPath()).isEqualTo("app");
            assertThat(e.getMessage()).isEqualTo("memory budget 'app' exceeded: chunk pool 'samples' asked for"
                    + " doubles(8000000) = 61.0 MiB (64000000 bytes), charging 64.0 MiB (67108864 bytes);"
                    + " 24.0 MiB (25165824 bytes) used of 64.0 MiB (67108864 bytes) allowed at 'app'"
                    + " (owner 'buffer pool io': 24.0 MiB);"
                    + " reclaimers freed 0 bytes before one retry");
            assertThat(app.used()).as("a refused request takes nothing").isEqualTo(24 * MiB);
            leased.forEach(BufferLease::release);
        }
        assertThat(app.used()).isZero();
    }

    /** Reported: a 1 MiB acquire said "asked for 4.0 MiB", the slab. */
    @Test
    void aBufferPoolRefusalNamesThePoolTheAcquireAndTheSlabCharged() {
        MemoryBudget app = MemoryBudget.root("app", 64 * MiB);
        MemoryBudget io = app.child("io", 64 * MiB);
        List<BufferLease> leased = new ArrayList<>();
        try (BufferPool buffers = BufferPool.builder().name("io").budget(io).threadCaches(0).leakSampling(0)
                        .jmx(false).build();
             ChunkPool chunks = ChunkPool.builder().name("samples").budget(app).jmx(false).build();
             DoubleArray held = chunks.doubles(40 * MiB / 8)) {
            for (int i = 0; i < 24; i++) {
                leased.add(buffers.acquire((int) MiB));
            }
            assertThat(app.used()).isEqualTo(64 * MiB);

            BudgetExceededException e = catchThrowableOfType(BudgetExceededException.class,
                    () -> buffers.acquire((int) MiB));

            assertThat(e.component()).contains("buffer pool 'io'");
            assertThat(e.request()).contains("acquire(1048576)");
            assertThat(e.requestBytes()).hasValue(MiB);
            assertThat(e.requested()).as("a slab").isEqualTo(4 * MiB);
            assertThat(e.chargedPath()).isEqualTo("app/io");
            assertThat(e.getMessage()).isEqualTo("memory budget 'app' exceeded: buffer pool 'io' asked for"
                    + " acquire(1048576) = 1.0 MiB (1048576 bytes), charging 4.0 MiB (4194304 bytes) to 'app/io';"
                    + " 64.0 MiB (67108864 bytes) used of 64.0 MiB (67108864 bytes) allowed at 'app'"
                    + " (owner 'store samples memory chunks': 40.0 MiB, budget 'app/io': 24.0 MiB);"
                    + " reclaimers freed 0 bytes before one retry");
            assertThat(held.length()).isEqualTo(40 * MiB / 8);
            leased.forEach(BufferLease::release);
        }
        assertThat(app.used()).isZero();
    }
}
