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
import dev.offheap.os.OwnedMappings;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chunk-taking step on its own ({@link ChunkRequest#take}), with two sources and no pool: a refusal is
 * the refusing source's one charge, with that source's figures, the reclaimers ran once, and everything the
 * step took before it (a free chunk, new memory chunks charged) is back as it was.
 */
class ChunkRequestTakeTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path directory;

    @Test
    void aSpillRefusalComesFromTheSpillSourceOnceAndTheMemoryPartIsGivenBack() throws IOException {
        MemoryBudget memoryBudget = MemoryBudget.root("take-memory", 4 * CHUNK);
        MemoryBudget spillBudget = MemoryBudget.root("take-spill", CHUNK);
        CountingReclaimer counting = CountingReclaimer.on(memoryBudget);
        ScatteredLayout layout = new ScatteredLayout("take", CHUNK, OwnedMappings.Owner.UNNAMED);
        ChunkSource memory = layout.memorySource(memoryBudget.owner("memory chunks"));
        ChunkSource spill = layout.spillSource(spillBudget.owner("spill chunks"), directory);
        try {
            ChunkRequest first = ChunkRequest.take(5, memory, spill, layout);
            assertThat(counting.asked()).as("4 memory chunks (the limit) charged at once, the fifth spilled, no"
                    + " reclaimer asked: nothing they free makes room above a limit").isZero();
            memory.giveFromArray(first.chunks[0]); // one free memory chunk; the spill chunk stays held
            counting.reset();
            ChunkSourceStats memoryBefore = memory.stats();
            ChunkSourceStats spillBefore = spill.stats();

            BudgetExceededException refused = catchThrowableOfType(BudgetExceededException.class,
                    () -> ChunkRequest.take(2, memory, spill, layout));

            assertThat(counting.asked()).as("reclaimer runs for one refused request").isEqualTo(1);
            assertThat(refused.budgetPath()).isEqualTo("take-spill");
            assertThat(refused.requested()).as("the one chunk the memory had no room for").isEqualTo(CHUNK);
            assertThat(refused.used()).isEqualTo(CHUNK);
            assertThat(refused.limit()).isEqualTo(CHUNK);
            assertThat(memory.stats()).as("the free chunk taken is back, nothing new charged").isEqualTo(memoryBefore);
            assertThat(spill.stats()).isEqualTo(spillBefore);
            assertThat(memoryBudget.used()).isEqualTo(4 * CHUNK);
            assertThat(spillBudget.used()).isEqualTo(CHUNK);
            Chunk[] reused = new Chunk[1];
            assertThat(memory.takeFree(reused, 0, 1)).isEqualTo(1);
            assertThat(reused[0]).as("the same free chunk, first in line again").isSameAs(first.chunks[0]);
            memory.give(reused[0]);
            for (int i = 1; i < first.chunks.length; i++) {
                first.chunks[i].source.giveFromArray(first.chunks[i]);
            }
        } finally {
            counting.close();
            memory.close();
            spill.close();
        }
        assertThat(memoryBudget.used()).isZero();
        assertThat(spillBudget.used()).isZero();
    }

    @Test
    void aMemoryRefusalWithoutSpillIsTheMemorySourcesOneChargeAndTakesNothing() throws IOException {
        MemoryBudget memoryBudget = MemoryBudget.root("take-only-memory", 3 * CHUNK);
        CountingReclaimer counting = CountingReclaimer.on(memoryBudget);
        ScatteredLayout layout = new ScatteredLayout("take", CHUNK, OwnedMappings.Owner.UNNAMED);
        ChunkSource memory = layout.memorySource(memoryBudget.owner("memory chunks"));
        try {
            ChunkRequest held = ChunkRequest.take(2, memory, null, layout);
            memory.giveFromArray(held.chunks[1]);
            ChunkSourceStats before = memory.stats();

            BudgetExceededException refused = catchThrowableOfType(BudgetExceededException.class,
                    () -> ChunkRequest.take(3, memory, null, layout));

            assertThat(counting.asked()).as("reclaimer runs for one refused request").isEqualTo(1);
            assertThat(refused.budgetPath()).isEqualTo("take-only-memory");
            assertThat(refused.requested()).as("the new chunks, charged at once").isEqualTo(2 * CHUNK);
            assertThat(refused.used()).isEqualTo(2 * CHUNK);
            assertThat(refused.limit()).isEqualTo(3 * CHUNK);
            assertThat(memory.stats()).isEqualTo(before);
            assertThat(memoryBudget.used()).isEqualTo(2 * CHUNK);
            memory.giveFromArray(held.chunks[0]);
        } finally {
            counting.close();
            memory.close();
        }
        assertThat(memoryBudget.used()).isZero();
    }
}
