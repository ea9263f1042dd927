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
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.os.NativeFile;
import dev.offheap.os.SmallTmpfs;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests that fail after they took something: re-backed holes, new chunks, charged memory, free chunks
 * moved into an array's range. Whatever failed, the pool gives back exactly what the request took: the
 * statistics (but the peaks, which saw the chunks backed for a moment), the budgets, the mappings, the spill
 * file's space and the data of the free chunks read as before, and the pool goes on serving.
 */
class FailedRequestGivesBackTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path spillDirectory;

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void aFullDiskAfterTheMemoryPartWasBackedGivesBackItsHolesAndNewChunks(boolean portable) throws Exception {
        MemoryBudget process = MemoryBudget.unlimited("process");
        try (SmallTmpfs disk = SmallTmpfs.mountOrSkip(spillDirectory.resolve("small"), 1 << 20);
             ChunkPool pool = ChunkPool.builder().name("mixed").chunkSize(CHUNK).budget(process)
                     .memoryLimit(5 * CHUNK).spillDirectory(disk.directory()).portable(portable).jmx(false).build()) {
            ByteArray held = pool.bytes(CHUNK);
            held.fill((byte) 5);
            pool.bytes(2 * CHUNK).close();
            assertThat(pool.trim()).isEqualTo(2 * CHUNK);
            ChunkPoolStats before = pool.stats();
            assertThat(before.memory().created()).isEqualTo(3);
            assertThat(before.memory().holes()).isEqualTo(2);
            long usable = usable(disk.directory());

            // 2 holes and 2 new chunks of memory (the limit), then 64 spill chunks on a disk that holds 16
            assertThatThrownBy(() -> pool.bytes(68 * CHUNK))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("cannot reserve space for 68 chunks of 65536 bytes in the spill directory");

            assertThat(withoutPeaks(pool.stats())).isEqualTo(withoutPeaks(before));
            assertThat(pool.stats().mappings()).isEqualTo(portable ? 0 : 1);
            assertThat(process.used()).isEqualTo(CHUNK);
            assertThat(pool.spillBudget().used()).isZero();
            assertThat(usable(disk.directory())).isEqualTo(usable);
            assertThat(held.get(CHUNK - 1)).isEqualTo((byte) 5);
            try (ByteArray fits = pool.bytes(8 * CHUNK)) {
                assertThat(fits.get(8 * CHUNK - 1)).isZero();
                assertThat(pool.stats().memory().created()).isEqualTo(5);
                assertThat(pool.stats().spill().orElseThrow().inUse()).isEqualTo(4);
            }
            held.close();
        }
        assertThat(process.used()).isZero();
    }

    @Test
    void aFullDiskWhileReBackingHolesPutsThemBack() throws Exception {
        assumeTrue(NativeFile.isSupported(), "only the Linux spill file has holes");
        try (SmallTmpfs disk = SmallTmpfs.mountOrSkip(spillDirectory.resolve("small"), 1 << 20);
             ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(0).spillDirectory(disk.directory())
                     .jmx(false).build()) {
            pool.bytes(4 * CHUNK).close();
            assertThat(pool.trim()).isEqualTo(4 * CHUNK);
            ChunkPoolStats before = pool.stats();
            assertThat(before.spill().orElseThrow().holes()).isEqualTo(4);
            Path filler = disk.directory().resolve("filler");
            for (int room : new int[] {2, 5}) { // fails on the third hole; then on the second new chunk
                Files.deleteIfExists(filler);
                fill(filler, usable(disk.directory()) - room * CHUNK);
                assertThat(usable(disk.directory())).isEqualTo(room * CHUNK);
                assertThatThrownBy(() -> pool.bytes(6 * CHUNK))
                        .as("room for %d chunks", room).isInstanceOf(UncheckedIOException.class);
                assertThat(pool.stats()).isEqualTo(before);
                assertThat(pool.spillBudget().used()).isZero();
                assertThat(usable(disk.directory())).as("every chunk reserved was punched out again")
                        .isEqualTo(room * CHUNK);
            }
            Files.delete(filler);
            try (ByteArray fits = pool.bytes(6 * CHUNK)) {
                assertThat(fits.get(0)).isZero();
                assertThat(fits.get(6 * CHUNK - 1)).isZero();
                assertThat(pool.stats().spill().orElseThrow().holes()).isZero();
                assertThat(pool.stats().spill().orElseThrow().created()).isEqualTo(6);
            }
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void aSpillRefusalAfterTheMemoryWasChargedReleasesThatCharge(boolean portable) {
        try (ChunkPool pool = ChunkPool.builder().name("late").chunkSize(CHUNK).memoryLimit(4 * CHUNK)
                .spillDirectory(spillDirectory).spillLimit(4 * CHUNK).portable(portable).jmx(false).build()) {
            ByteArray memory = pool.bytes(4 * CHUNK);
            ByteArray spilled = pool.bytes(3 * CHUNK);
            memory.close();
            pool.trim();
            ChunkPoolStats before = pool.stats();
            assertThat(before.memory().bytesCharged()).isZero();
            assertThat(before.spill().orElseThrow().inUse()).isEqualTo(3);

            // 4 chunks of memory are charged, then the spill file has room for 1 chunk, not 2
            BudgetExceededException refused = catchThrowableOfType(BudgetExceededException.class,
                    () -> pool.bytes(6 * CHUNK));
            assertThat(refused.budgetPath()).isEqualTo("late-spill");
            assertThat(refused.requested()).isEqualTo(2 * CHUNK);
            assertThat(pool.stats()).isEqualTo(before);
            assertThat(pool.budget().used()).isZero();
            spilled.close();
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void aClosedBudgetRefusesNewChunksAndTheReuseOfChargedOnes(boolean portable) {
        // Since issue 26 a closed budget refuses even an array its charged free chunks could serve, as the buffer
        // pool refuses a cached slot (ClosedBudgetRefusesFreeChunksTest); before, the charged chunks were reused.
        MemoryBudget process = MemoryBudget.unlimited("process");
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).budget(process).portable(portable).jmx(false)
                .build()) {
            pool.longs(2 * CHUNK / 8).close();
            assertThatThrownBy(process::close).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> pool.longs(2 * CHUNK / 8))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("process");
            assertThat(process.used()).isEqualTo(2 * CHUNK);
            assertThatThrownBy(() -> pool.longs(3 * CHUNK / 8))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("process");
            assertThat(pool.stats().memory().created()).isEqualTo(2);
        }
        assertThat(process.used()).isZero();
    }

    private static ChunkPoolStats withoutPeaks(ChunkPoolStats stats) {
        return new ChunkPoolStats(stats.name(), stats.budgetPath(), stats.liveArrays(), stats.mappings(), stats.bytesQuarantined(),
                withoutPeak(stats.memory()), stats.spill().map(FailedRequestGivesBackTest::withoutPeak));
    }

    private static ChunkSourceStats withoutPeak(ChunkSourceStats s) {
        return new ChunkSourceStats(s.name(), s.chunkSize(), s.created(), s.inUse(), s.free(), s.holes(),
                s.bytesCharged(), s.limitBytes(), 0);
    }

    private static long usable(Path directory) throws IOException {
        return Files.getFileStore(directory).getUsableSpace();
    }

    private static void fill(Path file, long bytes) throws IOException {
        byte[] block = new byte[(int) CHUNK];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < bytes; written += block.length) {
                out.write(block, 0, (int) Math.min(block.length, bytes - written));
            }
        }
    }
}
