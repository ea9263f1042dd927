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
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ShortArray} as its siblings are tested in {@link ChunkPoolTest} (the accessors at chunk edges are in
 * {@link ElementsAcrossChunkEdgesTest}, bad indices in {@link IndexOutsideTheArrayProperties}, the model in
 * {@link StoreModelProperties}): zeros from reused and spilled chunks, uninitialized contents, long indices,
 * the whole 16-bit range, the owners, and the pool's refusals naming {@code shorts(n)}.
 */
class ShortArrayTest {
    private static final long CHUNK = 64 << 10;
    private static final long PER_CHUNK = CHUNK / Short.BYTES;

    @TempDir
    Path spillDirectory;

    private static ChunkPool pool(boolean portable) {
        return ChunkPool.builder().chunkSize(CHUNK).portable(portable).jmx(false).build();
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void newArraysReadAsZerosEvenFromReusedChunks(boolean portable) {
        try (ChunkPool pool = pool(portable)) {
            try (ShortArray first = pool.shorts(3 * PER_CHUNK)) {
                first.fill((short) -1);
                assertThat(first.byteSize()).isEqualTo(3 * CHUNK);
                assertThat(first.elementType()).isEqualTo(ElementType.SHORT);
            }
            try (ShortArray second = pool.shorts(3 * PER_CHUNK)) {
                assertThat(pool.stats().memory().created()).as("chunks reused, none created").isEqualTo(3);
                assertThat(second.toArray(0, PER_CHUNK + 5)).containsOnly((short) 0);
                assertThat(second.get(second.length() - 1)).isZero();
            }
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void spilledShortsHoldTheirValuesAndReusedSpillChunksReadAsZeros(boolean portable) {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(0).spillDirectory(spillDirectory)
                .portable(portable).jmx(false).build()) {
            long length = 2 * PER_CHUNK + 3;
            try (ShortArray first = pool.shorts(length)) {
                assertThat(pool.stats().spill().orElseThrow().created()).isEqualTo(3);
                Elements.write(first, 0, length);
                Elements.check(first, 0, length);
                first.fill(PER_CHUNK - 1, PER_CHUNK + 1, (short) 0x5A5A);
                assertThat(first.toArray(PER_CHUNK - 2, PER_CHUNK + 2)).containsExactly(Elements.shortAt(PER_CHUNK - 2),
                        (short) 0x5A5A, (short) 0x5A5A, Elements.shortAt(PER_CHUNK + 1));
            }
            try (ShortArray second = pool.shorts(length)) {
                assertThat(pool.stats().spill().orElseThrow().created()).as("spill chunks reused").isEqualTo(3);
                Elements.check(second, 0, length, true);
            }
        }
    }

    @Test
    void uninitializedArraysSkipClearing() {
        try (ChunkPool pool = pool(false)) {
            try (ShortArray first = pool.shorts(PER_CHUNK)) {
                first.fill((short) 7);
            }
            try (ShortArray second = pool.shorts(PER_CHUNK, Contents.UNINITIALIZED)) {
                assertThat(second.get(0)).as("the same process's old data, not cleared").isEqualTo((short) 7);
            }
        }
    }

    @Test
    void everyShortValueRoundTripsAndReadsAsTheUnsignedValueThroughToUnsignedInt() {
        try (ChunkPool pool = pool(true); ShortArray shorts = pool.shorts(65_536)) {
            for (int i = 0; i < 65_536; i++) {
                shorts.set(i, (short) i);
            }
            short[] all = shorts.toArray(0, 65_536);
            for (int i = 0; i < 65_536; i++) {
                assertThat(Short.toUnsignedInt(all[i])).isEqualTo(i);
            }
            assertThat(shorts.get(32_768)).isEqualTo(Short.MIN_VALUE);
            assertThat(shorts.get(65_535)).isEqualTo((short) -1);
        }
    }

    @Test
    void arraysBeyondTwoBillionElementsUseLongIndices() {
        long length = (1L << 31) + 10;
        try (ChunkPool pool = ChunkPool.builder().jmx(false).build(); ShortArray shorts = pool.shorts(length)) {
            assertThat(shorts.byteSize()).isEqualTo(length * 2);
            shorts.set(length - 1, (short) 42);
            shorts.set((1L << 31) - 1, (short) 41);
            assertThat(shorts.get(length - 1)).isEqualTo((short) 42);
            assertThat(shorts.get((1L << 31) - 1)).isEqualTo((short) 41);
            shorts.copyFrom(new short[] {1, 2, 3, 4}, 0, (1L << 31) - 2, 4);
            assertThat(shorts.toArray((1L << 31) - 3, (1L << 31) + 3)).containsExactly((short) 0, (short) 1,
                    (short) 2, (short) 3, (short) 4, (short) 0);
            assertThatThrownBy(() -> shorts.get(length)).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessage("Index " + length + " out of bounds for length " + length);
            assertThatThrownBy(() -> shorts.get(1L << 62)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> shorts.set(Long.MIN_VALUE, (short) 1)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void ownersAndTheEndOfTheArray() {
        ChunkPool pool = pool(false);
        ShortArray shorts = pool.shorts(10);
        assertThat(shorts.retain()).isSameAs(shorts);
        assertThat(shorts.release()).isFalse();
        assertThat(shorts.release()).isTrue();
        assertThatThrownBy(() -> shorts.get(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ShortArray[length=10").hasMessageContaining("already released");
        ShortArray kept = pool.shorts(10);
        pool.close();
        assertThatThrownBy(() -> kept.set(0, (short) 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");
        assertThatThrownBy(() -> pool.shorts(1)).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void aRefusalNamesTheShortsAskedFor() {
        MemoryBudget budget = MemoryBudget.root("tight", 2 * CHUNK);
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).budget(budget).jmx(false).build()) {
            assertThatThrownBy(() -> pool.shorts(3 * PER_CHUNK)).isInstanceOf(BudgetExceededException.class)
                    .hasMessageContaining("shorts(" + 3 * PER_CHUNK + ")");
            assertThatThrownBy(() -> pool.shorts(-1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("-1");
        }
        budget.close();
    }
}
