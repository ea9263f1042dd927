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

import dev.offheap.account.MemoryBudget;
import dev.offheap.metrics.ChunkPoolMXBean;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The figures a pool shows: its one-line summaries for logs and its metrics, worked out by hand. */
class PoolFiguresTest {
    private static final long MIB = 1 << 20;

    @TempDir
    Path spillDirectory;

    @Test
    void aChunkSummaryNamesEveryFigureWithItsUnit() {
        ChunkSourceStats limited = new ChunkSourceStats("memory", MIB, 20, 12, 3, 5, 15 * MIB, 1L << 30, 15);
        assertThat(limited.format())
                .isEqualTo("memory: 12 chunks in use (12.0 MiB), 3 free (3.0 MiB), 5 holes; 15.0 MiB of 1.0 GiB");
        ChunkSourceStats unlimited = new ChunkSourceStats("spill", 4096, 1, 1, 0, 0, 4096, Long.MAX_VALUE, 1);
        assertThat(unlimited.format())
                .isEqualTo("spill: 1 chunks in use (4.0 KiB), 0 free (0 B), 0 holes; 4.0 KiB of unlimited");
    }

    @Test
    void aPoolSummaryHasALineForTheSpillFileOnlyIfThereIsOne() {
        ChunkSourceStats memory = new ChunkSourceStats("memory", 4096, 2, 2, 0, 0, 8192, Long.MAX_VALUE, 2);
        ChunkSourceStats spill = new ChunkSourceStats("spill", 4096, 1, 0, 1, 0, 4096, 8192, 1);
        assertThat(new ChunkPoolStats("s", "app/s", 3, 2, 0, memory, Optional.empty()).format()).isEqualTo(
                "store s: 3 live arrays, 2 mappings\n  memory: 2 chunks in use (8.0 KiB), 0 free (0 B), 0 holes; 8.0 KiB of unlimited");
        assertThat(new ChunkPoolStats("s", "app/s", 1, 7, 0, memory, Optional.of(spill)).format()).isEqualTo(
                "store s: 1 live arrays, 7 mappings\n  memory: 2 chunks in use (8.0 KiB), 0 free (0 B), 0 holes; 8.0 KiB of unlimited"
                        + "\n  spill: 0 chunks in use (0 B), 1 free (4.0 KiB), 0 holes; 4.0 KiB of 8.0 KiB");
    }

    @Test
    void theMetricsNameTheBudgetAndCountTheMappingsOfLiveArrays() {
        MemoryBudget parent = MemoryBudget.root("app", MemoryBudget.UNLIMITED);
        try (ChunkPool pool = ChunkPool.builder().name("figures").budget(parent).memoryLimit(4 * MIB).chunkSize(MIB)
                .jmx(false).build()) {
            ChunkPoolMXBean metrics = pool.metrics();
            assertThat(metrics.getBudgetPath()).isEqualTo("app/figures");
            assertThat(metrics.getMappings()).isZero();
            try (ByteArray array = pool.bytes(MIB)) {
                assertThat(metrics.getMappings()).as("one chunk, one mapping").isEqualTo(1);
            }
        }
    }

    @Test
    void theSpillLimitIsShownAsIsUnlimitedAsLongMaxValueLikeEveryLimitAndZeroWithoutASpillFile() {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(MIB).memoryLimit(MIB).spillDirectory(spillDirectory)
                .spillLimit(2 * MIB).jmx(false).build()) {
            assertThat(pool.metrics().getSpillLimitBytes()).isEqualTo(2 * MIB);
        }
        try (ChunkPool pool = ChunkPool.builder().chunkSize(MIB).memoryLimit(MIB).spillDirectory(spillDirectory)
                .jmx(false).build()) {
            assertThat(pool.metrics().getSpillLimitBytes()).isEqualTo(Long.MAX_VALUE);
            assertThat(pool.metrics().getLimitBytes()).isEqualTo(MIB);
        }
        try (ChunkPool pool = ChunkPool.builder().chunkSize(MIB).jmx(false).build()) {
            assertThat(pool.metrics().getSpillLimitBytes()).as("no spill file: nothing may be spilled").isZero();
            assertThat(pool.metrics().getLimitBytes()).as("no limit").isEqualTo(Long.MAX_VALUE);
        }
    }

    @Test
    void eachPoolSharingABudgetReportsTheBytesItChargedNotTheWholeBudgetsUse() {
        MemoryBudget shared = MemoryBudget.root("shared", MemoryBudget.UNLIMITED);
        try (ChunkPool first = ChunkPool.builder().name("first").budget(shared).chunkSize(MIB).jmx(false).build();
             ChunkPool second = ChunkPool.builder().name("second").budget(shared).chunkSize(MIB).jmx(false).build();
             ByteArray three = first.bytes(3 * MIB);
             ByteArray two = second.bytes(2 * MIB)) {
            assertThat(shared.used()).isEqualTo(5 * MIB);
            assertThat(first.stats().memory().bytesCharged()).as("first's own chunks").isEqualTo(3 * MIB);
            assertThat(second.stats().memory().bytesCharged()).as("second's own chunks").isEqualTo(2 * MIB);
            assertThat(first.stats().memory().format()).endsWith("3.0 MiB of unlimited");
        }
        assertThat(shared.used()).isZero();
    }
}
