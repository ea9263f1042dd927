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

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.BudgetOwner;
import dev.offheap.account.MemoryBudget;
import dev.offheap.metrics.OffheapEvents;
import dev.offheap.os.MovableMemory;
import dev.offheap.os.NativeFile;
import dev.offheap.os.SmallTmpfs;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the pool gives back and how: a budget running short trims free memory chunks (the bytes reported
 * to the budget and as an event), reused chunks are cleared by giving their pages back rather than writing
 * zeros (nothing of them resident, their spill space reserved again), released spill chunks and empty
 * arrays leave no mapping, close leaves no spill file open, and a refusal names the tightest budget level
 * (the nearest one when two have the same limit).
 */
class PoolGivesSpaceBackTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path directory;

    @Test
    void aBudgetRunningShortGetsTheFreeChunksAndHearsHowMuch() throws IOException {
        MemoryBudget shared = MemoryBudget.root("short-shared", 4 * CHUNK);
        List<RecordedEvent> trims;
        try (Recording recording = new Recording();
             ChunkPool pool = ChunkPool.builder().name("short-pool").budget(shared).chunkSize(CHUNK).jmx(false)
                     .build()) {
            recording.enable(OffheapEvents.POOL_TRIMMED);
            recording.start();
            pool.bytes(CHUNK).release();
            assertThat(shared.used()).isEqualTo(CHUNK);
            BudgetOwner other = shared.owner("other");
            other.charge(2 * CHUNK);

            // 3 chunks: within the limit, so the reclaimers run (more than the limit is refused at once), but
            // the one free chunk is not enough
            BudgetExceededException refused = catchThrowableOfType(BudgetExceededException.class,
                    () -> other.charge(3 * CHUNK));
            assertThat(refused.reclaimed()).as("the pool's one free chunk").isEqualTo(CHUNK);
            assertThat(pool.stats().memory().holes()).isEqualTo(1);
            assertThat(shared.used()).as("other's own").isEqualTo(2 * CHUNK);

            refused = catchThrowableOfType(BudgetExceededException.class, () -> other.charge(3 * CHUNK));
            assertThat(refused.reclaimed()).as("nothing free any more").isZero();
            other.release(2 * CHUNK);
            recording.stop();
            Path file = directory.resolve("trims.jfr");
            recording.dump(file);
            trims = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals(OffheapEvents.POOL_TRIMMED))
                    .filter(e -> "short-pool".equals(e.getString("pool"))).toList();
        }
        assertThat(trims).as("one trim that freed something, none for the one that did not").singleElement()
                .satisfies(e -> {
                    assertThat(e.getLong("bytes")).isEqualTo(CHUNK);
                    assertThat(e.getString("poolType")).isEqualTo("ChunkPool");
                });
    }

    @Test
    void ofTwoLevelsWithTheSameLimitTheNearerOneRefuses() {
        MemoryBudget root = MemoryBudget.root("equal-root", 2 * CHUNK);
        MemoryBudget child = root.child("equal-child", 2 * CHUNK);
        try (ChunkPool pool = ChunkPool.builder().name("equal").budget(child).chunkSize(CHUNK).jmx(false).build()) {
            BudgetExceededException refused = catchThrowableOfType(BudgetExceededException.class,
                    () -> pool.bytes(3 * CHUNK));
            assertThat(refused.budgetPath()).isEqualTo("equal-root/equal-child");
            assertThat(refused.limit()).isEqualTo(2 * CHUNK);
        }
        root.close();
    }

    @Test
    void aReusedMemoryChunkIsClearedByGivingItsPagesBack() throws Throwable {
        assumeTrue(NativeFile.isSupported(), "movable blocks need Linux");
        try (ChunkPool pool = ChunkPool.builder().name("discarding").chunkSize(CHUNK).jmx(false).build()) {
            ByteArray first = pool.bytes(CHUNK);
            first.contiguousSegment().orElseThrow().fill((byte) 1);
            assertThat(residentPages(first.contiguousSegment().orElseThrow())).isPositive();
            first.release();

            ByteArray again = pool.bytes(CHUNK);
            assertThat(pool.stats().memory().created()).as("the same chunk").isEqualTo(1);
            MemorySegment segment = again.contiguousSegment().orElseThrow();
            assertThat(residentPages(segment)).as("given back, not written with zeros").isZero();
            assertThat(again.get(0)).isZero();
            assertThat(again.get(CHUNK - 1)).isZero();
            again.release();
        }
    }

    @Test
    void aReusedSpillChunkIsClearedByPunchingItOut() throws Throwable {
        assumeTrue(NativeFile.isSupported(), "the spill file of Linux");
        try (ChunkPool pool = ChunkPool.builder().name("punching").chunkSize(CHUNK).memoryLimit(0)
                .spillDirectory(directory).jmx(false).build()) {
            ByteArray first = pool.bytes(CHUNK);
            first.contiguousSegment().orElseThrow().fill((byte) 1);
            assertThat(residentPages(first.contiguousSegment().orElseThrow())).isPositive();
            first.release();

            ByteArray again = pool.bytes(CHUNK);
            assertThat(pool.stats().spill().orElseThrow().created()).as("the same chunk").isEqualTo(1);
            MemorySegment segment = again.contiguousSegment().orElseThrow();
            assertThat(residentPages(segment)).as("punched out, not written with zeros").isZero();
            assertThat(again.get(0)).isZero();
            assertThat(again.get(CHUNK - 1)).isZero();
            again.release();
        }
    }

    @Test
    void aReusedSpillChunkHasItsSpaceReservedAgainAfterThePunch() throws Exception {
        assumeTrue(NativeFile.isSupported(), "the spill file of Linux");
        try (SmallTmpfs disk = SmallTmpfs.mountOrSkip(directory.resolve("small"), 1 << 20);
             ChunkPool pool = ChunkPool.builder().name("reserving").chunkSize(CHUNK).memoryLimit(0)
                     .spillDirectory(disk.directory()).jmx(false).build()) {
            FileStore store = Files.getFileStore(disk.directory());
            ByteArray first = pool.bytes(CHUNK);
            first.contiguousSegment().orElseThrow().fill((byte) 1);
            first.release();
            assertThat(used(store)).isEqualTo(CHUNK);

            ByteArray again = pool.bytes(CHUNK);
            assertThat(used(store)).as("reserved again: a write cannot find the disk full").isEqualTo(CHUNK);
            again.release();
        }
    }

    @Test
    void releasedSpillChunksAndEmptyArraysLeaveNoMapping() {
        assumeTrue(NativeFile.isSupported(), "contiguous arrays need Linux");
        try (ChunkPool pool = ChunkPool.builder().name("unmapping").chunkSize(CHUNK).memoryLimit(0)
                .spillDirectory(directory).jmx(false).build()) {
            ByteArray spilled = pool.bytes(2 * CHUNK);
            long address = spilled.contiguousSegment().orElseThrow().address();
            MovableMemory.discard(address, 2 * CHUNK); // mapped: fine
            spilled.release();
            assertThatThrownBy(() -> MovableMemory.discard(address, 2 * CHUNK))
                    .as("the file pieces are unmapped").isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ENOMEM");

            ByteArray empty = pool.bytes(0);
            long reserved = empty.contiguousSegment().orElseThrow().address();
            MovableMemory.discard(reserved, CHUNK); // its reserved range: fine
            empty.release();
            assertThatThrownBy(() -> MovableMemory.discard(reserved, CHUNK))
                    .as("an empty array's range is unmapped").isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ENOMEM");
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "portable={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void closeLeavesNoSpillFileOpen(boolean portable) throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "counts open files through /proc/self/fd");
        ChunkPool pool = ChunkPool.builder().name("closing-file").chunkSize(CHUNK).memoryLimit(CHUNK)
                .spillDirectory(directory).portable(portable).jmx(false).build();
        pool.bytes(2 * CHUNK).release();
        assertThat(openSpillFiles()).hasSize(1);
        pool.close();
        assertThat(openSpillFiles()).isEmpty();
    }

    private List<Path> openSpillFiles() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith(directory.toString());
                } catch (IOException e) {
                    return false;
                }
            }).toList();
        }
    }

    private static long used(FileStore store) throws IOException {
        return store.getTotalSpace() - store.getUnallocatedSpace();
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle MINCORE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("mincore").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));

    /** Pages of {@code segment} in memory now ({@code mincore}): written pages are, given-back ones are not. */
    private static long residentPages(MemorySegment segment) throws Throwable {
        long pages = segment.byteSize() / 4096;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment vector = arena.allocate(pages);
            int result = (int) MINCORE.invokeExact(MemorySegment.ofAddress(segment.address()), segment.byteSize(),
                    vector);
            assertThat(result).as("mincore").isZero();
            long resident = 0;
            for (long i = 0; i < pages; i++) {
                resident += vector.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) & 1;
            }
            return resident;
        }
    }
}
