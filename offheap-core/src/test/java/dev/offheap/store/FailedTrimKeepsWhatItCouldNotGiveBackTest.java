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
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A trim whose system call fails at the Nth free chunk (an {@code munmap} of a memory block, a hole punched in
 * the spill file) throws, naming the pool: the chunks before it went back (their space, charge and addresses),
 * the one it failed on is still free, charged, mapped and the pool's, and so are those after it; the next trim
 * gives them back. Linux only: the portable sources have no call that can fail there.
 */
class FailedTrimKeepsWhatItCouldNotGiveBackTest {
    private static final long CHUNK = 64 << 10;
    private static final int FREE = 4;

    @TempDir
    Path spillDirectory;

    @ParameterizedTest(name = "spill={0}")
    @ValueSource(booleans = {false, true})
    void aTrimFailingAtTheNthChunkGivesBackThoseBeforeAndKeepsTheRest(boolean spill) {
        assumeTrue(NativeFile.isSupported(), "the Linux sources give space back with a system call");
        Call call = spill ? Call.FALLOCATE : Call.MUNMAP;
        for (int nth = 1; nth <= FREE; nth++) {
            String name = "trim-" + (spill ? "spill" : "memory") + "-" + nth;
            ChunkPool.Builder builder = ChunkPool.builder().name(name).chunkSize(CHUNK).jmx(false);
            if (spill) {
                builder.spillDirectory(spillDirectory).memoryLimit(0);
            }
            try (ChunkPool pool = builder.build()) {
                ByteArray held = pool.bytes(CHUNK);
                held.fill((byte) 3);
                pool.bytes(FREE * CHUNK).close();
                PoolState before = PoolState.of(pool);

                Throwable failure;
                try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                    faults.failNth(call, nth, SystemCallFaults.EIO);
                    failure = catchThrowable(pool::trim);
                    assertThat(faults.happened()).as("trim made %d %s calls", nth, call).isTrue();
                }

                assertThat(failure).as("trim failing at chunk %d", nth).isInstanceOf(IllegalStateException.class);
                assertThat(FailedSystemCallsGiveBackTest.chain(failure)).contains(name);
                assertThat(PoolState.of(pool)).as("after trim failed at chunk %d: %s", nth, failure)
                        .isEqualTo(trimmed(before, nth - 1, spill));
                assertThat(pool.stats().bytesCached()).as("the memory chunks still free")
                        .isEqualTo(spill ? 0 : (FREE - nth + 1) * CHUNK);
                assertThat(pool.trim()).isEqualTo((FREE - nth + 1) * CHUNK);
                assertThat(PoolState.of(pool)).isEqualTo(trimmed(before, FREE, spill));
                assertThat(held.get(CHUNK - 1)).isEqualTo((byte) 3);
                try (ByteArray again = pool.bytes(FREE * CHUNK)) {
                    assertThat(again.get(FREE * CHUNK - 1)).isZero();
                }
                held.close();
            }
        }
    }

    /** {@code state} once {@code count} free chunks gave their space, charge (and, memory, addresses) back. */
    private static PoolState trimmed(PoolState state, int count, boolean spill) {
        ChunkPoolStats stats = state.stats();
        ChunkSourceStats source = spill ? stats.spill().orElseThrow() : stats.memory();
        long bytes = count * CHUNK;
        ChunkSourceStats after = new ChunkSourceStats(source.name(), CHUNK, source.created(), source.inUse(),
                source.free() - count, source.holes() + count, source.bytesCharged() - bytes, source.limitBytes(),
                source.peakBacked());
        ChunkPoolStats newStats = new ChunkPoolStats(stats.name(), stats.budgetPath(), stats.liveArrays(),
                stats.mappings() - (spill ? 0 : count), stats.bytesQuarantined(), spill ? stats.memory() : after,
                spill ? Optional.of(after) : stats.spill());
        PoolState.SpillFile file = state.spillFile();
        return new PoolState(newStats, state.memoryUsed() - (spill ? 0 : bytes), state.spillUsed() - (spill ? bytes : 0),
                state.ownedBytes() - (spill ? 0 : bytes),
                spill ? new PoolState.SpillFile(file.size(), file.allocatedChunks() - count, file.bytesMapped()) : file);
    }
}
