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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.account.MemoryBudget;
import dev.offheap.os.NativeFile;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The builder's settings at their edges: the smallest and largest chunk, a limit of exactly one smallest
 * chunk, a budget with no room, more mappings than even the largest chunk allows, a spill directory that
 * cannot be made; and how a pool describes itself.
 */
class PoolSettingsEdgesTest {
    private static final long KIB = 1 << 10;
    private static final long MIB = 1 << 20;

    @TempDir
    Path spillDirectory;

    @Test
    void theLargestChunkIsAccepted() {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(1L << 30).jmx(false).build()) {
            assertThat(pool.chunkSize()).isEqualTo(1L << 30);
        }
        assertThatThrownBy(() -> ChunkPool.builder().chunkSize(1L << 31))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2147483648");
    }

    @Test
    void aNameStartingWithASlashIsRefused() {
        assertThatThrownBy(() -> ChunkPool.builder().name("/store"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'/store'");
    }

    @Test
    void aMemoryLimitOfExactlyTheSmallestChunkGetsThatChunk() {
        try (ChunkPool pool = ChunkPool.builder().memoryLimit(64 * KIB).jmx(false).build();
             ByteArray bytes = pool.bytes(64 * KIB)) {
            assertThat(pool.chunkSize()).isEqualTo(64 * KIB);
            bytes.set(64 * KIB - 1, (byte) 1);
            assertThat(pool.stats().memory().inUse()).isEqualTo(1);
        }
    }

    @Test
    void aBudgetWithNoRoomLeavesTheChunkSizeAndSpillsEverything() {
        MemoryBudget none = MemoryBudget.root("none", 0);
        try (ChunkPool pool = ChunkPool.builder().budget(none).spillDirectory(spillDirectory).jmx(false).build();
             ByteArray bytes = pool.bytes(2 * ChunkPool.DEFAULT_CHUNK_SIZE)) {
            assertThat(pool.chunkSize()).isEqualTo(ChunkPool.DEFAULT_CHUNK_SIZE);
            bytes.set(0, (byte) 3);
            assertThat(bytes.get(0)).isEqualTo((byte) 3);
            assertThat(pool.stats().memory().inUse()).isZero();
            assertThat(pool.stats().spill().orElseThrow().inUse()).isEqualTo(2);
        }
    }

    @Test
    void aMemoryLimitThatEvenTheLargestChunkCannotMapSaysSoWithoutSuggestingALargerOne() {
        assumeTrue(NativeFile.isSupported(), "the mapping limit applies to Linux memory chunks");
        // 4 GiB in at most one mapping: 1 GiB chunks still need 4
        assertThatThrownBy(() -> ChunkPool.builder().memoryLimit(4L << 30).mappingLimit(1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memoryLimit(4294967296) in chunks of 4194304 bytes needs 1024 memory mappings")
                .hasMessageContaining("a pool may hold 1 ")
                .hasMessageContaining("chunkSize(1073741824)")
                .hasMessageNotContaining("2147483648");
    }

    @Test
    void anExplicitChunkSizeNeedingTooManyMappingsSaysHowMany() {
        assumeTrue(NativeFile.isSupported(), "the mapping limit applies to Linux memory chunks");
        assertThatThrownBy(() -> ChunkPool.builder().chunkSize(MIB).memoryLimit(64 * MIB).mappingLimit(8).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("in chunks of 1048576 bytes needs 64 memory mappings but a pool may hold 8");
    }

    @Test
    void aSpillDirectoryWhereNoFileCanBeMadeFailsTheBuildAndClosesTheBudgetsItMade() {
        MemoryBudget process = MemoryBudget.unlimited("process");
        Path impossible = Path.of("/proc/self"); // a directory, but procfs makes no files: the spill file fails
        for (boolean portable : new boolean[] {false, true}) {
            assertThatThrownBy(() -> ChunkPool.builder().name("nowhere").budget(process).memoryLimit(4 * MIB)
                    .spillDirectory(impossible).portable(portable).jmx(false).build())
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("cannot create the spill file of pool 'nowhere'");
            assertThat(process.children()).as("the memory budget the pool made is closed").isEmpty();
        }
        assertThat(process.used()).isZero();
        process.close();
    }

    @Test
    void isContiguousOnLinuxUnlessPortable() {
        try (ChunkPool linux = ChunkPool.builder().chunkSize(64 * KIB).jmx(false).build();
             ChunkPool portable = ChunkPool.builder().chunkSize(64 * KIB).portable(true).jmx(false).build()) {
            assertThat(linux.isContiguous()).isEqualTo(NativeFile.isSupported());
            assertThat(portable.isContiguous()).isFalse();
        }
    }

    @Test
    void toStringNamesTheChunksTheLayoutAndTheSpillDirectory() {
        try (ChunkPool portable = ChunkPool.builder().name("plain").chunkSize(64 * KIB).portable(true).jmx(false)
                .build()) {
            assertThat(portable).hasToString("ChunkPool[plain, chunks of 65536 bytes]");
        }
        assumeTrue(NativeFile.isSupported(), "contiguous arrays need Linux");
        try (ChunkPool spilling = ChunkPool.builder().name("big").chunkSize(MIB).spillDirectory(spillDirectory)
                .jmx(false).build()) {
            assertThat(spilling).hasToString("ChunkPool[big, chunks of 1048576 bytes, contiguous, spill to "
                    + spillDirectory + "]");
        }
    }
}
