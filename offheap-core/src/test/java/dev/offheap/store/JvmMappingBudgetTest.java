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

import dev.offheap.os.NativeFile;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every pool and mapped array of the JVM counts its mappings against one limit, half of
 * {@code vm.max_map_count}: two pools and a mapped file together stay within it, where each pool's own limit
 * would let it take the whole half.
 */
class JvmMappingBudgetTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path directory;

    @Test
    void twoPoolsAndAMappedFileShareHalfOfMaxMapCount() throws IOException {
        assumeTrue(NativeFile.isSupported(), "memory chunks are mappings of their own on Linux");
        long limit = MapCount.limitForStores();
        try (ChunkPool first = ChunkPool.builder().name("jvm-wide-first").chunkSize(CHUNK).jmx(false).build();
             ChunkPool second = ChunkPool.builder().name("jvm-wide-second").chunkSize(CHUNK).jmx(false).build();
             MappedArray file = MappedArray.create(directory.resolve("jvm-wide.npy"), ElementType.LONG, 8,
                     MappedArray.Options.defaults().jmx(false));
             LongArray held = first.longs(2 * CHUNK / 8);
             LongArray view = file.longs()) {
            held.set(0, 1);
            view.set(0, 1);
            assertThat(first.stats().mappings()).isEqualTo(2);

            assertThatThrownBy(() -> second.longs((limit - 2) * CHUNK / 8))
                    .as("the other pool's two blocks and the file's view hold three of the JVM's mappings")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("every pool and mapped array of this JVM together")
                    .hasMessageContaining(" of the " + limit + " ")
                    .hasMessageContaining("vm.max_map_count");
            assertThat(second.stats().mappings()).as("refused before taking anything").isZero();
            assertThat(second.stats().memory().created()).isZero();
            try (LongArray fits = second.longs(2 * CHUNK / 8)) {
                assertThat(fits.get(0)).isZero();
            }
        }
    }

    /**
     * A JVM-wide limit of five: two pools holding two blocks each and a file's view reach it, and neither a
     * third block of either pool nor a second view fits, whatever each pool's own limit; a block given back
     * makes room for any of them.
     */
    @Test
    void aSmallJvmWideLimitRefusesEachPoolAndTheFileOnceTheyReachItTogether() throws IOException {
        assumeTrue(NativeFile.isSupported(), "memory chunks are mappings of their own on Linux");
        MappingBudget jvm = new MappingBudget("the test's JVM", "release something", 5);
        try (ChunkPool first = pool("small-jvm-first", jvm);
             ChunkPool second = pool("small-jvm-second", jvm);
             MappedArray file = MappedArray.create(directory.resolve("small-jvm.npy"), ElementType.LONG, 8,
                     MappedArray.Options.defaults().jmx(false).mappings(jvm));
             LongArray secondHeld = second.longs(2 * CHUNK / 8);
             LongArray view = file.longs()) {
            LongArray firstHeld = first.longs(2 * CHUNK / 8);
            secondHeld.set(0, 1);
            view.set(0, 1);
            assertThat(jvm.used()).isEqualTo(5);
            assertThatThrownBy(() -> first.longs(1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the test's JVM needs 1 more memory mappings but holds 5 of the 5");
            assertThatThrownBy(() -> second.longs(1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("holds 5 of the 5");
            assertThatThrownBy(file::longs).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot map").hasMessageContaining("holds 5 of the 5");
            assertThat(first.stats().mappings()).as("each pool keeps its own count").isEqualTo(2);
            assertThat(second.stats().mappings()).isEqualTo(2);

            firstHeld.close();
            first.trim(); // the free blocks are unmapped: their mappings go back to the JVM's
            assertThat(jvm.used()).isEqualTo(3);
            try (LongArray again = file.longs()) {
                assertThat(again.length()).isEqualTo(8);
                assertThat(jvm.used()).isEqualTo(4);
            }
        }
        assertThat(jvm.used()).as("closed pools and file hold none").isZero();
    }

    private static ChunkPool pool(String name, MappingBudget jvm) {
        return ChunkPool.builder().name(name).chunkSize(CHUNK).jmx(false).jvmMappings(jvm).build();
    }
}
