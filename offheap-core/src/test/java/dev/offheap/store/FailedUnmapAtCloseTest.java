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
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
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
    void aPoolCloseReportsEveryUnmapRefused() {
        assumeTrue(NativeFile.isSupported(), "movable blocks are Linux only");
        ChunkPool pool = ChunkPool.builder().name("close-refused-twice").chunkSize(CHUNK).jmx(false).build();
        pool.bytes(3 * CHUNK).close();
        Throwable failure;
        try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            faults.failNth(Call.MUNMAP, 1, SystemCallFaults.EINVAL).failNth(Call.MUNMAP, 3, SystemCallFaults.EINVAL);
            failure = catchThrowable(pool::close);
            assertThat(faults.happened()).isTrue();
        }
        assertThat(failure).isInstanceOf(IllegalStateException.class).hasMessageContaining("close-refused-twice");
        assertThat(failure.getSuppressed()).hasSize(1);
        assertThat(failure.getSuppressed()[0]).hasMessageContaining("close-refused-twice");
        long[] left = pool.addressRanges();
        assertThat(left).as("the two blocks the kernel kept").hasSize(4);
        assertThat(pool.budget().isClosed()).isTrue();
    }

    @Test
    void anArrayLetsGoOfEveryRunEvenAfterOneIsRefused() {
        assumeTrue(NativeFile.isSupported(), "the contiguous layout is Linux only");
        List<LogRecord> warnings = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                warnings.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger logger = Logger.getLogger(ContiguousLayout.class.getName());
        logger.addHandler(handler);
        try (ChunkPool pool = ChunkPool.builder().name("runs-refused").chunkSize(CHUNK).memoryLimit(0)
                .spillDirectory(spillDirectory).jmx(false).build()) {
            ByteArray first = pool.bytes(CHUNK);
            ByteArray middle = pool.bytes(CHUNK);
            ByteArray last = pool.bytes(CHUNK);
            first.close();
            last.close();
            for (int refused = 1; refused <= 2; refused++) {
                warnings.clear();
                ByteArray twoRuns = pool.bytes(2 * CHUNK); // the last chunk, then the first: two runs of the file
                long mapped = PoolState.spillFile(pool.name(), CHUNK).bytesMapped();
                Throwable failure;
                try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                    faults.failNth(Call.MUNMAP, 1, SystemCallFaults.EINVAL);
                    if (refused == 2) {
                        faults.failNth(Call.MUNMAP, 2, SystemCallFaults.EINVAL);
                    }
                    failure = catchThrowable(twoRuns::close);
                    assertThat(faults.happened()).isTrue();
                }
                assertThat(failure).isNull();
                assertThat(PoolState.spillFile(pool.name(), CHUNK).bytesMapped())
                        .as("the runs the kernel kept stay mapped, the others not").isEqualTo(mapped - (2 - refused) * CHUNK);
                assertThat(pool.stats().spill().orElseThrow().free()).isEqualTo(2);
                assertThat(warnings).hasSize(1);
                LogRecord warning = warnings.getFirst();
                assertThat(warning.getLevel()).isEqualTo(Level.WARNING);
                assertThat(warning.getMessage()).startsWith("chunk pool 'runs-refused': ");
                assertThat(warning.getThrown()).hasMessageContaining("munmap of " + CHUNK + " bytes");
                assertThat(warning.getThrown().getSuppressed()).hasSize(refused - 1);
            }
            assertThat(middle.get(0)).isZero();
            middle.close();
        } finally {
            logger.removeHandler(handler);
        }
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
