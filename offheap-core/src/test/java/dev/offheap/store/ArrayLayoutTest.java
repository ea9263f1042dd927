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
import dev.offheap.os.MovableMemory;
import dev.offheap.os.NativeFile;
import dev.offheap.os.OwnedMappings;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The layout is chosen once, when the pool is built, and decides the kinds of chunk source the pool has:
 * contiguous (Linux) makes sources that place their chunks in an array's range, scattered makes sources
 * seen through a segment per chunk. Every array of a pool is of its layout, whichever sources its chunks
 * came from, and a source refuses the operations of the other layout.
 */
class ArrayLayoutTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path directory;

    private final MemoryBudget budget = MemoryBudget.root("layout", MemoryBudget.UNLIMITED);

    @Test
    void theLayoutFollowsThePlatformUnlessPortable() {
        assertThat(ArrayLayout.contiguousFor(true)).isFalse();
        assertThat(ArrayLayout.contiguousFor(false)).isEqualTo(NativeFile.isSupported());
        assertThat(ArrayLayout.of(false, "p", CHUNK, 10, MappingBudget.JVM, OwnedMappings.Owner.UNNAMED))
                .isInstanceOf(ScatteredLayout.class);
        assertThat(ArrayLayout.of(true, "p", CHUNK, 10, MappingBudget.JVM, OwnedMappings.Owner.UNNAMED))
                .isInstanceOf(ContiguousLayout.class);
    }

    @Test
    void theScatteredLayoutMakesPortableSourcesThatAreNeverPlaced() throws IOException {
        ArrayLayout layout = ArrayLayout.of(false, "scattered", CHUNK, 10, MappingBudget.JVM,
                OwnedMappings.Owner.UNNAMED);
        try (ChunkSource memory = layout.memorySource(budget.owner("m"));
             ChunkSource spill = layout.spillSource(budget.owner("s"), directory)) {
            assertThat(memory).isInstanceOf(ArenaChunks.class).isInstanceOf(ViewedChunks.class);
            assertThat(spill).isInstanceOf(ChannelChunks.class).isInstanceOf(ViewedChunks.class);
            assertThat(layout.isContiguous()).isFalse();
            assertThat(layout.mappingsUsed()).isZero();
            layout.checkMappings(Long.MAX_VALUE); // no mapping limit applies
        }
    }

    @Test
    void theContiguousLayoutMakesSourcesThatPlaceTheirChunksAndCountsTheirMappings() throws IOException {
        assumeTrue(NativeFile.isSupported(), "the contiguous layout needs Linux");
        ArrayLayout layout = ArrayLayout.of(true, "contiguous", CHUNK, 3, MappingBudget.JVM,
                OwnedMappings.Owner.UNNAMED);
        try (ChunkSource memory = layout.memorySource(budget.owner("m"));
             ChunkSource spill = layout.spillSource(budget.owner("s"), directory)) {
            assertThat(memory).isInstanceOf(MovableChunks.class).isInstanceOf(PlacedChunks.class);
            assertThat(spill).isInstanceOf(FileChunks.class).isInstanceOf(PlacedChunks.class);
            assertThat(layout.isContiguous()).isTrue();

            ChunkRequest request = ChunkRequest.take(3, memory, null, layout);
            assertThat(layout.mappingsUsed()).as("one per memory block").isEqualTo(3);
            assertThatThrownBy(() -> layout.checkMappings(1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("needs 1 more memory mappings but holds 3 of the 3");
            Arena arena = Arena.ofShared();
            ArrayMemory array = layout.map(request.chunks, 3 * CHUNK, arena, ended -> {
                for (Chunk chunk : request.chunks) {
                    chunk.source.giveFromArray(chunk);
                }
            });
            assertThat(array.whole()).isNotNull();
            for (Chunk chunk : request.chunks) {
                assertThat(chunk.address()).as("moved into the array's range").isZero();
            }
            array.whole().set(ValueLayout.JAVA_BYTE, 3 * CHUNK - 1, (byte) 7);
            array.close();
            assertThat(memory.stats().free()).isEqualTo(3);
            Chunk[] free = new Chunk[3];
            memory.takeFree(free, 0, 3);
            for (Chunk chunk : free) {
                assertThat(chunk.address()).as("left where the array had it").isNotZero();
                assertThat(chunk.readsAsZero()).as("an array held it").isFalse();
            }
            memory.giveBack(free, 0, 3);
            assertThat(layout.mappingsUsed()).isEqualTo(3);
        }
        assertThat(layout.mappingsUsed()).as("the blocks are unmapped at close").isZero();
        assertThat(budget.used()).isZero();
    }

    /**
     * A run that cannot be placed (here a file piece at an offset mmap refuses) after others were: the
     * chunks placed so far are let go of where they are, by their own source, the rest of the range is
     * unmapped and the run's mapping given back, so the pool's addresses are its blocks' alone.
     */
    @Test
    void aRunThatCannotBePlacedLetsGoOfTheRunsPlacedBeforeIt() throws IOException {
        assumeTrue(NativeFile.isSupported(), "the contiguous layout needs Linux");
        OwnedMappings.Owner owner = OwnedMappings.Owner.named("layout-rollback");
        ArrayLayout layout = ArrayLayout.of(true, "rollback", CHUNK, 10, MappingBudget.JVM, owner);
        try (ChunkSource memory = layout.memorySource(budget.owner("m"));
             ChunkSource spill = layout.spillSource(budget.owner("s"), directory)) {
            ChunkRequest request = ChunkRequest.take(2, memory, null, layout);
            long[] before = {request.chunks[0].address(), request.chunks[1].address()};
            assertThat(held(owner)).isEqualTo(2 * CHUNK);
            Chunk[] chunks = {request.chunks[0], request.chunks[1], new Chunk(spill, 1)}; // offset 1: EINVAL

            assertThatThrownBy(() -> layout.map(chunks, 3 * CHUNK, Arena.ofShared(), ended -> {}))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("EINVAL");

            for (int i = 0; i < 2; i++) {
                assertThat(chunks[i].address()).as("block %d left where it was placed", i)
                        .isNotZero().isNotEqualTo(before[i]);
                MovableMemory.discard(chunks[i].address(), CHUNK); // mapped there: fine
            }
            assertThat(chunks[1].address() - chunks[0].address()).isEqualTo(CHUNK);
            assertThat(held(owner)).as("the rest of the range is unmapped").isEqualTo(2 * CHUNK);
            assertThat(layout.mappingsUsed()).as("the file run's mapping is given back").isEqualTo(2);
            memory.giveFromArray(chunks[0]);
            memory.giveFromArray(chunks[1]);
        }
        assertThat(held(owner)).isZero();
        assertThat(layout.mappingsUsed()).isZero();
        assertThat(budget.used()).isZero();
    }

    private static long held(OwnedMappings.Owner owner) {
        long[] ranges = owner.ranges();
        long bytes = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            bytes += ranges[i + 1] - ranges[i];
        }
        return bytes;
    }

    @Test
    void everyArrayOfAPoolIsOfItsLayoutWhicheverSourcesItsChunksCameFrom() {
        for (boolean portable : new boolean[] {true, false}) {
            try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(2 * CHUNK)
                    .spillDirectory(directory).portable(portable).jmx(false).build();
                 ByteArray mixed = pool.bytes(4 * CHUNK)) {
                boolean contiguous = ArrayLayout.contiguousFor(portable);
                assertThat(pool.isContiguous()).isEqualTo(contiguous);
                assertThat(pool.stats().memory().inUse()).isEqualTo(2);
                assertThat(pool.stats().spill().orElseThrow().inUse()).isEqualTo(2);
                assertThat(mixed.contiguousSegment().isPresent()).as("portable %s: one segment", portable)
                        .isEqualTo(contiguous);
            }
        }
    }
}
