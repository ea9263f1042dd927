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

package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.BudgetOwner;
import dev.offheap.account.MemoryBudget;
import dev.offheap.account.Reclaimer;
import dev.offheap.os.NativeFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a refused request says and what it leaves: which check refuses (a closed pool before a bad
 * argument, the length limits at their exact edges, the limits of the tightest budget, the mapping limit
 * before or after the memory was charged), the figures the refusal carries, and that refusing reclaims,
 * charges and maps nothing it did not have to.
 */
class RefusalFiguresTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path spillDirectory;

    @Test
    void aClosedPoolSaysSoBeforeLookingAtTheArguments() {
        ChunkPool pool = ChunkPool.builder().name("shut").chunkSize(CHUNK).jmx(false).build();
        pool.close();
        assertThatThrownBy(() -> pool.doubles(-1))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("chunk pool 'shut' is closed");
        assertThatThrownBy(pool::trim)
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("chunk pool 'shut' is closed");
    }

    @Test
    void theLongestArrayBelowTheOverflowGuardIsRefusedForItsChunkCount() {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).jmx(false).build()) {
            long longest = (Long.MAX_VALUE >> 3) - CHUNK;
            assertThatThrownBy(() -> pool.doubles(longest))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("chunks of 65536 bytes: use larger chunks")
                    .hasMessageNotContaining("too large");
            assertThatThrownBy(() -> pool.doubles(longest + 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too large");
        }
    }

    @Test
    void theMostChunksAnArrayMayHaveAreRefusedOnlyByTheLimits() {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(4 * CHUNK).jmx(false).build()) {
            long most = Integer.MAX_VALUE - 8L;
            assertThatThrownBy(() -> pool.bytes(most * CHUNK))
                    .as("%d chunks are allowed, the limit refuses them", most)
                    .isInstanceOf(BudgetExceededException.class);
            assertThatThrownBy(() -> pool.bytes(most * CHUNK + 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("need 2147483640 chunks of 65536 bytes");
        }
    }

    @Test
    void aRefusalByTheMemoryLimitAsksForTheWholeRequest() {
        try (ChunkPool pool = ChunkPool.builder().name("tight").chunkSize(CHUNK).memoryLimit(2 * CHUNK).jmx(false)
                .build()) {
            BudgetExceededException refused = catchThrowableOfType(BudgetExceededException.class,
                    () -> pool.bytes(5 * CHUNK));
            assertThat(refused.budgetPath()).isEqualTo("tight");
            assertThat(refused.requested()).isEqualTo(5 * CHUNK);
            assertThat(refused.limit()).isEqualTo(2 * CHUNK);
        }
    }

    @Test
    void aRefusalByTheSpillLimitAsksForWhatTheMemoryCannotHold() {
        try (ChunkPool pool = ChunkPool.builder().name("both").chunkSize(CHUNK).memoryLimit(2 * CHUNK)
                .spillDirectory(spillDirectory).spillLimit(2 * CHUNK).jmx(false).build()) {
            BudgetExceededException refused = catchThrowableOfType(BudgetExceededException.class,
                    () -> pool.bytes(5 * CHUNK));
            assertThat(refused.budgetPath()).isEqualTo("both-spill");
            assertThat(refused.requested()).as("5 chunks, 2 of them in memory").isEqualTo(3 * CHUNK);
            assertThat(refused.limit()).isEqualTo(2 * CHUNK);
        }
    }

    @Test
    void anAncestorTighterThanThePoolsLimitRefusesUpFrontWithoutTrimmingOthers() {
        MemoryBudget process = MemoryBudget.root("process", 4 * CHUNK);
        try (ChunkPool other = ChunkPool.builder().name("other").chunkSize(CHUNK).budget(process).jmx(false).build();
             ChunkPool pool = ChunkPool.builder().name("loose").chunkSize(CHUNK).budget(process)
                     .memoryLimit(8 * CHUNK).jmx(false).build()) {
            other.longs(2 * CHUNK / 8).close();
            BudgetExceededException refused = catchThrowableOfType(BudgetExceededException.class,
                    () -> pool.bytes(6 * CHUNK));
            assertThat(refused.budgetPath()).isEqualTo("process");
            assertThat(refused.requested()).isEqualTo(6 * CHUNK);
            assertThat(other.stats().memory().free()).as("hopeless: nobody was trimmed").isEqualTo(2);
            assertThat(pool.stats().memory().created()).isZero();
        }
    }

    @Test
    void theMappingLimitRefusesBeforeCharging() {
        assumeTrue(NativeFile.isSupported(), "the mapping limit applies to Linux memory chunks");
        MemoryBudget process = MemoryBudget.unlimited("process");
        try (ChunkPool pool = ChunkPool.builder().name("maps").chunkSize(CHUNK).budget(process).mappingLimit(2)
                .jmx(false).build();
             ByteArray held = pool.bytes(2 * CHUNK)) {
            assertThat(process.peak()).isEqualTo(2 * CHUNK);
            assertThatThrownBy(() -> pool.bytes(1))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pool 'maps' needs 1 more memory mappings but holds 2 of the 2");
            assertThat(process.peak()).as("the refused chunk was never charged").isEqualTo(2 * CHUNK);
            assertThat(held.get(0)).isZero();
        }
    }

    @Test
    void withASpillFileTheMappingsLeftLimitTheMemoryPartOnly() {
        assumeTrue(NativeFile.isSupported(), "the mapping limit applies to Linux memory chunks");
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(2 * CHUNK)
                .spillDirectory(spillDirectory).mappingLimit(3).jmx(false).build();
             ByteArray bytes = pool.bytes(10 * CHUNK)) {
            bytes.set(10 * CHUNK - 1, (byte) 4);
            assertThat(bytes.get(10 * CHUNK - 1)).isEqualTo((byte) 4);
            ChunkPoolStats stats = pool.stats();
            assertThat(stats.memory().inUse()).isEqualTo(2);
            assertThat(stats.spill().orElseThrow().inUse()).isEqualTo(8);
            assertThat(stats.mappings()).as("two memory chunks and one run of spill chunks").isEqualTo(3);
        }
    }

    /**
     * The up-front check counts the memory the budget has room for before anything is reclaimed; once the
     * memory is charged (a reclaimer made room), the mappings its chunks need are checked again, before any
     * block is mapped, so the refusal names what the request needs.
     */
    @Test
    void memoryAReclaimerFreedIsCheckedAgainstTheMappingsBeforeAnythingIsMapped() {
        assumeTrue(NativeFile.isSupported(), "the mapping limit applies to Linux memory chunks");
        MemoryBudget process = MemoryBudget.root("process", 4 * CHUNK);
        BudgetOwner cache = process.owner("a cache");
        Reclaimer dropTheCache = wanted -> {
            long held = cache.outstanding();
            cache.release(held);
            return held;
        };
        process.addReclaimer(dropTheCache);
        try (ChunkPool pool = ChunkPool.builder().name("mixed").chunkSize(CHUNK).budget(process)
                .spillDirectory(spillDirectory).mappingLimit(3).jmx(false).build()) {
            for (int asked : new int[] {4, 5}) {
                ChunkPoolStats before = pool.stats();
                cache.charge(2 * CHUNK);
                assertThatThrownBy(() -> pool.bytes(asked * CHUNK))
                        .as("%d chunks: 4 of them in memory once the cache is dropped", asked)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("pool 'mixed' needs " + asked + " more memory mappings but holds 0 of the 3");
                assertThat(pool.stats()).isEqualTo(before);
                assertThat(process.used()).isZero();
            }
        } finally {
            process.removeReclaimer(dropTheCache);
            cache.close();
        }
    }

    @Test
    void aRequestThatSpillsAsksTheReclaimersOnce() {
        MemoryBudget process = MemoryBudget.root("process", 4 * CHUNK);
        CountingReclaimer counting = CountingReclaimer.on(process);
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).budget(process).spillDirectory(spillDirectory)
                .jmx(false).build();
             ByteArray held = pool.bytes(CHUNK);
             ByteArray bytes = pool.bytes(5 * CHUNK)) {
            assertThat(counting.asked()).as("the memory budget refused 5 chunks once, then took the 3 it had room for")
                    .isEqualTo(1);
            assertThat(pool.stats().memory().inUse()).isEqualTo(4);
            assertThat(pool.stats().spill().orElseThrow().inUse()).isEqualTo(2);
            assertThat(held.get(0) + bytes.get(5 * CHUNK - 1)).isZero();
        } finally {
            counting.close();
        }
    }
}
