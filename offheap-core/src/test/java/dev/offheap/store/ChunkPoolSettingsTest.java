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

import dev.offheap.account.MemoryBudget;
import dev.offheap.os.NativeFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ChunkPool.Builder} settings that only work together: a setting that implies another adjusts it
 * (the chunk size, while it was not set), otherwise {@code build()} says exactly what to set.
 */
class ChunkPoolSettingsTest {
    private static final long KIB = 1 << 10;
    private static final long MIB = 1 << 20;

    @TempDir
    Path spillDirectory;

    @Test
    void aSpillLimitWithoutASpillDirectoryIsRefusedNamingBoth() {
        assertThatThrownBy(() -> ChunkPool.builder().spillLimit(64 * MIB).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spillLimit(67108864)")
                .hasMessageContaining("spillDirectory(");
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void aMissingSpillDirectoryIsRefusedNamingItAndNothingIsCreated(boolean portable) throws Exception {
        Path missing = spillDirectory.resolve("not-made").resolve("spill");
        assertThatThrownBy(() -> ChunkPool.builder().name("missing").memoryLimit(MIB).spillDirectory(missing)
                .portable(portable).jmx(false).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spill directory " + missing)
                .hasMessageContaining("does not exist");
        assertThat(spillDirectory.resolve("not-made")).as("no directory made").doesNotExist();
        Path file = Files.writeString(spillDirectory.resolve("a-file"), "x");
        assertThatThrownBy(() -> ChunkPool.builder().memoryLimit(MIB).spillDirectory(file).portable(portable)
                .jmx(false).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spill directory " + file)
                .hasMessageContaining("not a directory");
        Path link = Files.createSymbolicLink(spillDirectory.resolve("link"), spillDirectory);
        try (ChunkPool pool = ChunkPool.builder().chunkSize(64 * KIB).memoryLimit(0).spillDirectory(link)
                .portable(portable).jmx(false).build();
             ByteArray spilled = pool.bytes(64 * KIB)) {
            spilled.set(1, (byte) 7);
            assertThat(spilled.get(1)).as("a link to a directory is a directory").isEqualTo((byte) 7);
        }
    }

    @Test
    void noMemoryAndNoSpillDirectoryIsRefused() {
        assertThatThrownBy(() -> ChunkPool.builder().memoryLimit(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memoryLimit(0)")
                .hasMessageContaining("spillDirectory(");
        assertThatThrownBy(() -> ChunkPool.builder().memoryLimit(0).spillDirectory(spillDirectory).spillLimit(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spillLimit(0)");
    }

    @Test
    void aMemoryLimitBelowAnExplicitChunkSizeSaysWhatToSet() {
        assertThatThrownBy(() -> ChunkPool.builder().chunkSize(4 * MIB).memoryLimit(MIB).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memoryLimit(1048576)")
                .hasMessageContaining("chunkSize(4194304)")
                .hasMessageContaining("chunkSize(1048576) or less");
    }

    @Test
    void aMemoryLimitBelowTheDefaultChunkSizeLowersTheChunkSize() {
        try (ChunkPool pool = ChunkPool.builder().memoryLimit(3 * MIB).jmx(false).build();
             ByteArray bytes = pool.bytes(2 * MIB)) {
            assertThat(pool.chunkSize()).as("the largest power of two within the limit").isEqualTo(2 * MIB);
            bytes.set(2 * MIB - 1, (byte) 1);
            assertThat(pool.stats().memory().inUse()).isEqualTo(1);
        }
    }

    @Test
    void aFittedChunkSizeIsThePoolsNotTheBuilders() {
        ChunkPool.Builder builder = ChunkPool.builder().memoryLimit(MIB).jmx(false);
        try (ChunkPool small = builder.build()) {
            assertThat(small.chunkSize()).isEqualTo(MIB);
        }
        try (ChunkPool larger = builder.memoryLimit(64 * MIB).build()) {
            assertThat(larger.chunkSize()).as("fitted again from the default").isEqualTo(ChunkPool.DEFAULT_CHUNK_SIZE);
        }
    }

    @Test
    void aLimitBelowTheSmallestChunkIsRefused() {
        assertThatThrownBy(() -> ChunkPool.builder().memoryLimit(10 * KIB).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memoryLimit(10240)")
                .hasMessageContaining("65536");
    }

    @Test
    void aSpillLimitBelowTheChunkSizeLowersItOrSaysWhatToSet() {
        try (ChunkPool pool = ChunkPool.builder().memoryLimit(0).spillDirectory(spillDirectory).spillLimit(MIB)
                .jmx(false).build()) {
            assertThat(pool.chunkSize()).isEqualTo(MIB);
        }
        assertThatThrownBy(() -> ChunkPool.builder().chunkSize(4 * MIB).spillDirectory(spillDirectory)
                .spillLimit(MIB).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spillLimit(1048576)")
                .hasMessageContaining("chunkSize(1048576) or less");
    }

    @Test
    void aBudgetSmallerThanAChunkLowersTheChunkSizeOrSaysWhatToSet() {
        MemoryBudget small = MemoryBudget.root("small", 512 * KIB);
        try (ChunkPool pool = ChunkPool.builder().budget(small).jmx(false).build()) {
            assertThat(pool.chunkSize()).isEqualTo(512 * KIB);
        }
        assertThatThrownBy(() -> ChunkPool.builder().chunkSize(MIB).budget(small).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("budget 'small'")
                .hasMessageContaining("chunkSize(524288) or less");
    }

    @Test
    void aMemoryLimitNeedingMoreMappingsThanAllowedRaisesTheChunkSizeOrSaysWhatToSet() {
        try (ChunkPool pool = ChunkPool.builder().memoryLimit(64 * MIB).mappingLimit(8).jmx(false).build()) {
            if (pool.isContiguous()) {
                assertThat(pool.chunkSize()).as("64 MiB in at most 8 mappings").isEqualTo(8 * MIB);
            }
        }
        ChunkPool.Builder explicit = ChunkPool.builder().chunkSize(MIB).memoryLimit(64 * MIB).mappingLimit(8);
        if (NativeFile.isSupported()) {
            assertThatThrownBy(explicit::build)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("memoryLimit(67108864)")
                    .hasMessageContaining("vm.max_map_count")
                    .hasMessageContaining("chunkSize(8388608) or more");
        }
    }

    @Test
    void namesThatBudgetsCannotHoldAreRefusedAtOnce() {
        assertThatThrownBy(() -> ChunkPool.builder().name("a/b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a/b'");
        assertThatThrownBy(() -> ChunkPool.builder().name(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void settingsThatFitAreKeptAsGiven() {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(MIB).memoryLimit(MIB).spillDirectory(spillDirectory)
                .spillLimit(2 * MIB).jmx(false).build()) {
            assertThat(pool.chunkSize()).isEqualTo(MIB);
            assertThat(pool.stats().memory().limitBytes()).isEqualTo(MIB);
            assertThat(pool.stats().spill().orElseThrow().limitBytes()).isEqualTo(2 * MIB);
        }
    }
}
