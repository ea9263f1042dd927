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
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.os.NativeFile;
import dev.offheap.os.SystemCallFaults;
import dev.offheap.os.SystemCallFaults.Call;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code munmap} refused when memory goes back at a close (Linux): what it was to unmap stays mapped and
 * recorded as the pool's (so {@code offheap inspect} still counts it), and everything else goes back as if
 * nothing had failed. A pool's close frees its other chunks, closes its spill file and its budgets, and then
 * throws the refusal, naming the pool; an array's release gives all its chunks back to the pool, which goes on
 * serving them.
 */
class FailedUnmapAtCloseTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path spillDirectory;

    @Test
    void aPoolCloseWhoseUnmapIsRefusedGivesBackEverythingElse() {
        assumeTrue(NativeFile.isSupported(), "movable blocks are Linux only");
        ChunkPool pool = ChunkPool.builder().name("close-refused").chunkSize(CHUNK).memoryLimit(4 * CHUNK)
                .spillDirectory(spillDirectory).jmx(false).build();
        pool.bytes(6 * CHUNK).close(); // 4 free memory chunks, 2 free spill chunks
        assertThat(PoolState.spillFile(pool.name(), CHUNK)).isNotEqualTo(PoolState.SpillFile.NONE);

        Throwable failure;
        try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            faults.failNth(Call.MUNMAP, 2, SystemCallFaults.EINVAL);
            failure = catchThrowable(pool::close);
            assertThat(faults.happened()).isTrue();
        }

        assertThat(failure).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("munmap of " + CHUNK + " bytes of memory of pool 'close-refused'");
        long[] left = pool.addressRanges();
        assertThat(left).as("the block the kernel kept, still recorded as the pool's").hasSize(2);
        assertThat(left[1] - left[0]).isEqualTo(CHUNK);
        assertThat(SystemCallFaults.bytesMapped(left[0], left[1])).isEqualTo(CHUNK);
        assertThat(PoolState.spillFile(pool.name(), CHUNK)).as("the spill file is closed")
                .isEqualTo(PoolState.SpillFile.NONE);
        assertThat(pool.budget().isClosed()).isTrue();
        assertThat(pool.spillBudget().isClosed()).isTrue();
        assertThat(pool.budget().used()).isZero();
        pool.close(); // done once: nothing more to do
    }

    @Test
    void anArrayWhoseSpillRunCannotBeUnmappedStillGivesItsChunksBack() {
        assumeTrue(NativeFile.isSupported(), "the contiguous layout is Linux only");
        try (ChunkPool pool = ChunkPool.builder().name("release-refused").chunkSize(CHUNK).memoryLimit(CHUNK)
                .spillDirectory(spillDirectory).jmx(false).build()) {
            ByteArray array = pool.bytes(3 * CHUNK); // a memory chunk, then a run of two spill chunks
            array.fill((byte) 8);
            long spillMapped = PoolState.spillFile(pool.name(), CHUNK).bytesMapped();

            Throwable failure;
            try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                faults.failNth(Call.MUNMAP, 1, SystemCallFaults.EINVAL);
                failure = catchThrowable(array::close);
                assertThat(faults.happened()).isTrue();
            }

            assertThat(failure).as("the array ended: its memory is back; the kernel kept a mapping").isNull();
            ChunkPoolStats stats = pool.stats();
            assertThat(stats.liveArrays()).isZero();
            assertThat(stats.memory().free()).isEqualTo(1);
            assertThat(stats.spill().orElseThrow().free()).isEqualTo(2);
            assertThat(stats.mappings()).as("the memory block; the run left mapped is not counted: it holds no chunk")
                    .isEqualTo(1);
            assertThat(PoolState.spillFile(pool.name(), CHUNK).bytesMapped()).isEqualTo(spillMapped);
            try (ByteArray again = pool.bytes(3 * CHUNK)) {
                assertThat(again.get(0)).isZero();
                assertThat(again.get(3 * CHUNK - 1)).isZero();
                again.fill((byte) 1);
            }
            assertThat(pool.stats().liveArrays()).isZero();
        }
    }
}
