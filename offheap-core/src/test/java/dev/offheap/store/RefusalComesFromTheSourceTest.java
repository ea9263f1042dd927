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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request refused by a budget: the refusal is the refusing source's own charge attempt, made once, so
 * the budget's reclaimers run once per refused request and the exception carries that source's figures.
 */
class RefusalComesFromTheSourceTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path spillDirectory;

    @Test
    void aMemoryRefusalAsksTheReclaimersOnceAndNamesTheRefusingLevel() {
        MemoryBudget process = MemoryBudget.root("process", 4 * CHUNK);
        CountingReclaimer counting = CountingReclaimer.on(process);
        try (ChunkPool pool = ChunkPool.builder().name("mem").chunkSize(CHUNK).budget(process).jmx(false).build();
             ByteArray held = pool.bytes(3 * CHUNK)) {
            ChunkPoolStats before = pool.stats();
            BudgetExceededException refused = catchThrowableOfType(BudgetExceededException.class,
                    () -> pool.bytes(2 * CHUNK));
            assertThat(counting.asked()).as("reclaimer runs for one refused request").isEqualTo(1);
            assertThat(refused.budgetPath()).isEqualTo("process");
            assertThat(refused.requested()).isEqualTo(2 * CHUNK);
            assertThat(refused.used()).isEqualTo(3 * CHUNK);
            assertThat(refused.limit()).isEqualTo(4 * CHUNK);
            assertThat(pool.stats()).isEqualTo(before);
            assertThat(held.get(0)).isZero();
        } finally {
            counting.close();
        }
    }

    @Test
    void aSpillRefusalAsksTheMemoryReclaimersOnceAndComesFromTheSpillSource() {
        MemoryBudget process = MemoryBudget.root("process", 2 * CHUNK);
        CountingReclaimer counting = CountingReclaimer.on(process);
        try (ChunkPool pool = ChunkPool.builder().name("both").chunkSize(CHUNK).budget(process)
                .spillDirectory(spillDirectory).spillLimit(2 * CHUNK).jmx(false).build();
             ByteArray held = pool.bytes(3 * CHUNK)) {
            assertThat(counting.asked()).as("the memory took two chunks, its limit, and the third went to the spill"
                    + " file without asking the reclaimers: nothing they free makes room above a limit").isZero();
            counting.reset();
            ChunkPoolStats before = pool.stats();
            BudgetExceededException refused = catchThrowableOfType(BudgetExceededException.class,
                    () -> pool.bytes(2 * CHUNK));
            assertThat(counting.asked()).as("reclaimer runs for one refused request").isEqualTo(1);
            assertThat(refused.budgetPath()).isEqualTo("both-spill");
            assertThat(refused.requested()).as("both chunks: the memory had no room").isEqualTo(2 * CHUNK);
            assertThat(refused.used()).as("the spill chunk held").isEqualTo(CHUNK);
            assertThat(refused.limit()).isEqualTo(2 * CHUNK);
            assertThat(pool.stats()).as("nothing kept of the refused request").isEqualTo(before);
            assertThat(process.used()).isEqualTo(2 * CHUNK);
            assertThat(held.get(3 * CHUNK - 1)).isZero();
        } finally {
            counting.close();
        }
    }
}
