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

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.os.SmallTmpfs;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A request the pool cannot serve fails before it maps, charges or reserves anything, and a request that
 * fails half way gives back everything it took: budget charges, mappings, spill space, chunks. The pool's
 * statistics and the budgets read afterwards exactly as before.
 */
class RefuseBeforeTakingTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path spillDirectory;

    @Test
    void aRequestBeyondTheMappingLimitFailsBeforeMappingAnything() {
        MemoryBudget process = MemoryBudget.unlimited("process");
        try (ChunkPool pool = ChunkPool.builder().name("huge").budget(process).jmx(false).build()) {
            ChunkPoolStats before = pool.stats();
            assertThatThrownBy(() -> pool.longs(1L << 40))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pool 'huge'")
                    .hasMessageContaining("vm.max_map_count")
                    .hasMessageContaining("use chunks larger than");
            assertThat(pool.stats()).as("nothing mapped, created or charged").isEqualTo(before);
            assertThat(pool.stats().memory().created()).isZero();
            assertThat(process.used()).isZero();
            assertThat(process.peak()).as("never charged, not even for a moment").isZero();
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void aSpillRefusalAfterTheMemoryCouldBeChargedLeavesEveryBudgetAsBefore(boolean portable) {
        MemoryBudget process = MemoryBudget.root("process", 1L << 30);
        try (ChunkPool pool = ChunkPool.builder().name("mixed").chunkSize(CHUNK).budget(process)
                .memoryLimit(4 * CHUNK).spillDirectory(spillDirectory).spillLimit(2 * CHUNK).portable(portable)
                .jmx(false).build();
             ByteArray held = pool.bytes(CHUNK)) {
            held.fill((byte) 3);
            ChunkPoolStats before = pool.stats();
            long processUsed = process.used();
            assertThatThrownBy(() -> pool.bytes(8 * CHUNK))
                    .isInstanceOf(BudgetExceededException.class)
                    .hasMessageContaining("mixed-spill");
            assertThat(pool.stats()).isEqualTo(before);
            assertThat(process.used()).as("no memory chunk stays charged").isEqualTo(processUsed);
            assertThat(process.peak()).as("the memory was never charged").isEqualTo(processUsed);
            assertThat(pool.spillBudget().used()).isZero();
            assertThat(held.get(CHUNK - 1)).isEqualTo((byte) 3);
        }
        assertThat(process.used()).isZero();
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void aBudgetRefusalAfterAReclaimLeavesTheBudgetAsBefore(boolean portable) {
        MemoryBudget process = MemoryBudget.root("process", 6 * CHUNK);
        try (ChunkPool other = ChunkPool.builder().name("other").chunkSize(CHUNK).budget(process)
                .portable(portable).jmx(false).build();
             ChunkPool pool = ChunkPool.builder().name("asking").chunkSize(CHUNK).budget(process)
                .memoryLimit(8 * CHUNK).portable(portable).jmx(false).build();
             LongArray held = pool.longs(2 * CHUNK / 8)) {
            other.longs(2 * CHUNK / 8).close();
            ChunkPoolStats before = pool.stats();
            long used = process.used();
            assertThat(used).isEqualTo(4 * CHUNK);
            assertThatThrownBy(() -> pool.longs(5 * CHUNK / 8))
                    .isInstanceOf(BudgetExceededException.class)
                    .hasMessageContaining("process");
            assertThat(pool.stats()).as("no chunk of the refused request stays").isEqualTo(before);
            assertThat(process.used()).as("only the other pool's free chunks were reclaimed")
                    .isEqualTo(used - 2 * CHUNK);
            assertThat(held.get(0)).isZero();
        }
        assertThat(process.used()).isZero();
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void aFullDiskGivesBackTheSpillSpaceItHadReserved(boolean portable) throws Exception {
        try (SmallTmpfs disk = SmallTmpfs.mountOrSkip(spillDirectory.resolve("small"), 1 << 20);
             ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(0).spillDirectory(disk.directory())
                     .portable(portable).jmx(false).build()) {
            ByteArray held = pool.bytes(2 * CHUNK);
            held.fill((byte) 7);
            ChunkPoolStats before = pool.stats();
            long free = Files.getFileStore(disk.directory()).getUsableSpace();
            assertThatThrownBy(() -> pool.bytes(64 * CHUNK))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("spill");
            assertThat(pool.stats()).as("no chunk of the refused request stays").isEqualTo(before);
            assertThat(Files.getFileStore(disk.directory()).getUsableSpace())
                    .as("the space reserved before the disk was full is given back").isEqualTo(free);
            assertThat(held.get(2 * CHUNK - 1)).isEqualTo((byte) 7);
            held.close();
            try (ByteArray fits = pool.bytes(8 * CHUNK)) {
                fits.fill((byte) 1);
                assertThat(fits.get(8 * CHUNK - 1)).isEqualTo((byte) 1);
            }
        }
    }

    @Test
    void aMappingRefusalForTheSpillPartGivesBackTheMemoryPart() {
        MemoryBudget process = MemoryBudget.unlimited("process");
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).budget(process).memoryLimit(2 * CHUNK)
                .spillDirectory(spillDirectory).mappingLimit(2).jmx(false).build()) {
            ChunkPoolStats before = pool.stats();
            assertThatThrownBy(() -> pool.bytes(3 * CHUNK))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("vm.max_map_count");
            assertThat(pool.stats()).isEqualTo(before);
            assertThat(process.used()).isZero();
            assertThat(process.peak()).isZero();
            try (ByteArray fits = pool.bytes(2 * CHUNK)) {
                assertThat(fits.get(0)).isZero();
            }
        }
    }

    @Test
    void aRequestAboveBothLimitsReclaimsNothingFromOtherPools() {
        MemoryBudget process = MemoryBudget.root("process", 8 * CHUNK);
        try (ChunkPool other = ChunkPool.builder().name("other").chunkSize(CHUNK).budget(process).jmx(false).build();
             ChunkPool pool = ChunkPool.builder().name("small").chunkSize(CHUNK).budget(process)
                .memoryLimit(2 * CHUNK).spillDirectory(spillDirectory).spillLimit(2 * CHUNK).jmx(false).build()) {
            other.longs(4 * CHUNK / 8).close();
            assertThatThrownBy(() -> pool.bytes(5 * CHUNK)).isInstanceOf(BudgetExceededException.class);
            assertThat(other.stats().memory().free()).as("a hopeless request trims nobody").isEqualTo(4);
            assertThat(pool.stats().memory().created()).isZero();
            assertThat(pool.stats().spill().orElseThrow().created()).isZero();
        }
    }

    @Test
    void aMappingRefusalWhileMappingGivesBackTheChunksInTheirOrder() {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(0).spillDirectory(spillDirectory)
                .mappingLimit(3).jmx(false).build()) {
            if (!pool.isContiguous()) {
                return;
            }
            ByteArray x = pool.bytes(2 * CHUNK); // file offsets 0 and 1: one mapping
            ByteArray y = pool.bytes(CHUNK); // 2
            ByteArray z = pool.bytes(CHUNK); // 3
            x.fill((byte) 9);
            z.close();
            x.close();
            ByteArray w = pool.bytes(CHUNK); // takes offset 0; free now: 1, then 3 (two runs)
            ChunkPoolStats free = pool.stats();
            assertThat(free.mappings()).isEqualTo(2);
            assertThatThrownBy(() -> pool.bytes(2 * CHUNK))
                    .as("two runs need two mappings, one is left: refused while mapping")
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("vm.max_map_count");
            assertThat(pool.stats()).as("the free chunks went back in their order").isEqualTo(free);
            try (ByteArray next = pool.bytes(CHUNK)) {
                assertThat(next.get(0)).as("offset 1, cleared").isZero();
                assertThat(pool.stats().spill().orElseThrow().free()).isEqualTo(1);
            }
            w.close();
            y.close();
        }
    }
}
