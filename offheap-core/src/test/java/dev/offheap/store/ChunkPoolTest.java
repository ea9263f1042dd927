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
import dev.offheap.account.BudgetReport;
import dev.offheap.account.MemoryBudget;
import dev.offheap.os.SmallTmpfs;
import dev.offheap.suite.Waits;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkPoolTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path spillDirectory;

    private ChunkPool pool(boolean portable) {
        return ChunkPool.builder().chunkSize(CHUNK).portable(portable).build();
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void newArraysReadAsZerosEvenFromReusedChunks(boolean portable) {
        try (ChunkPool pool = pool(portable)) {
            try (LongArray first = pool.longs(3 * CHUNK / 8)) {
                first.fill(-1L);
            }
            assertThat(pool.stats().memory().free()).isEqualTo(3);
            try (LongArray second = pool.longs(3 * CHUNK / 8)) {
                assertThat(pool.stats().memory().created()).as("chunks reused, none created").isEqualTo(3);
                for (long i = 0; i < second.length(); i += 97) {
                    assertThat(second.get(i)).isZero();
                }
                assertThat(second.get(second.length() - 1)).isZero();
            }
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void reusedSpillChunksReadAsZerosToo(boolean portable) {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(0).spillDirectory(spillDirectory)
                .portable(portable).build()) {
            try (ByteArray first = pool.bytes(2 * CHUNK)) {
                first.fill((byte) 0x5A);
            }
            try (ByteArray second = pool.bytes(2 * CHUNK)) {
                assertThat(pool.stats().spill().orElseThrow().created()).isEqualTo(2);
                assertThat(second.toArray(0, 4096)).containsOnly((byte) 0);
                assertThat(second.toArray(2 * CHUNK - 4096, 2 * CHUNK)).containsOnly((byte) 0);
            }
        }
    }

    @Test
    void uninitializedArraysSkipClearing() {
        try (ChunkPool pool = pool(false)) {
            try (IntArray first = pool.ints(CHUNK / 4)) {
                first.fill(7);
            }
            try (IntArray second = pool.ints(CHUNK / 4, Contents.UNINITIALIZED)) {
                assertThat(second.get(0)).as("the same process's old data, not cleared").isEqualTo(7);
            }
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void releaseGivesChunksBackAtOnceAndTrimGivesTheirSpaceBack(boolean portable) {
        MemoryBudget budget = MemoryBudget.root("process", 1L << 30);
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).budget(budget).portable(portable).build()) {
            DoubleArray array = pool.doubles(5 * CHUNK / 8 - 1);
            assertThat(pool.stats().memory().inUse()).isEqualTo(5);
            assertThat(budget.used()).isEqualTo(5 * CHUNK);
            array.close();
            assertThat(pool.stats().memory().inUse()).isZero();
            assertThat(pool.stats().memory().free()).isEqualTo(5);
            assertThat(budget.used()).as("free chunks stay charged until trimmed").isEqualTo(5 * CHUNK);
            assertThat(pool.trim()).isEqualTo(5 * CHUNK);
            assertThat(budget.used()).isZero();
            assertThat(pool.stats().memory().holes()).isEqualTo(5);
            try (DoubleArray again = pool.doubles(CHUNK / 8)) {
                assertThat(again.get(0)).isZero();
                assertThat(budget.used()).isEqualTo(CHUNK);
            }
        }
        assertThat(budget.used()).as("close gives every charge back").isZero();
    }

    @Test
    void aFullProcessBudgetTrimsTheFreeChunksOfAnotherPool() {
        MemoryBudget process = MemoryBudget.root("process", 4 * CHUNK);
        try (ChunkPool a = ChunkPool.builder().name("a").chunkSize(CHUNK).budget(process).memoryLimit(4 * CHUNK)
                .build();
             ChunkPool b = ChunkPool.builder().name("b").chunkSize(CHUNK).budget(process).memoryLimit(4 * CHUNK)
                .build()) {
            a.longs(4 * CHUNK / 8).close();
            assertThat(a.stats().memory().free()).isEqualTo(4);
            assertThat(process.used()).as("free chunks stay charged").isEqualTo(4 * CHUNK);
            try (LongArray array = b.longs(2 * CHUNK / 8)) {
                assertThat(array.get(0)).isZero();
                assertThat(a.stats().memory().free()).as("a trimmed its free chunks for b").isZero();
                assertThat(a.stats().memory().holes()).isEqualTo(4);
                assertThat(process.used()).isEqualTo(2 * CHUNK);
            }
        }
        assertThat(process.used()).isZero();
        assertThat(process.children()).as("each pool closed the budget it made").isEmpty();
    }

    @Test
    void theBudgetReportNamesTheStoreThatHoldsMemory() {
        MemoryBudget process = MemoryBudget.unlimited("process");
        try (ChunkPool pool = ChunkPool.builder().name("samples").chunkSize(CHUNK).budget(process).build();
             LongArray held = pool.longs(CHUNK / 8)) {
            assertThat(held.length()).isEqualTo(CHUNK / 8);
            BudgetReport report = process.report();
            assertThat(report.owners()).singleElement().satisfies(owner -> {
                assertThat(owner.name()).isEqualTo("store samples memory chunks");
                assertThat(owner.outstanding()).isEqualTo(CHUNK);
                assertThat(owner.openedAt()).anySatisfy(frame -> assertThat(frame.getMethodName())
                        .isEqualTo("theBudgetReportNamesTheStoreThatHoldsMemory"));
            });
        }
        assertThat(process.report().owners()).isEmpty();
        process.close();
    }

    @Test
    void memoryLimitRefusesWithTheBudgetPathAndRollsBack() {
        MemoryBudget process = MemoryBudget.root("process", 1L << 30);
        try (ChunkPool pool = ChunkPool.builder().name("samples").chunkSize(CHUNK).budget(process)
                .memoryLimit(4 * CHUNK).build()) {
            LongArray held = pool.longs(2 * CHUNK / 8);
            assertThatThrownBy(() -> pool.longs(3 * CHUNK / 8))
                    .isInstanceOf(BudgetExceededException.class)
                    .hasMessageContaining("process/samples");
            assertThat(pool.stats().memory().inUse()).isEqualTo(2);
            assertThat(pool.stats().liveArrays()).isEqualTo(1);
            held.close();
            try (LongArray fits = pool.longs(4 * CHUNK / 8)) {
                assertThat(fits.length()).isEqualTo(4 * CHUNK / 8);
            }
        }
        assertThat(process.used()).isZero();
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void arraysSpillToTheFileBeyondTheMemoryLimit(boolean portable) throws Exception {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(2 * CHUNK)
                .spillDirectory(spillDirectory).portable(portable).build();
             LongArray array = pool.longs(5 * CHUNK / 8)) {
            for (long i = 0; i < array.length(); i++) {
                array.set(i, i * 3);
            }
            assertThat(pool.stats().memory().inUse()).isEqualTo(2);
            assertThat(pool.stats().spill().orElseThrow().inUse()).isEqualTo(3);
            assertThat(array.isContiguous()).isEqualTo(!portable);
            for (long i = 0; i < array.length(); i++) {
                assertThat(array.get(i)).isEqualTo(i * 3);
            }
            try (Stream<Path> files = Files.list(spillDirectory)) {
                assertThat(files.toList()).as("the spill file is unlinked as soon as it is open").isEmpty();
            }
            assertThat(Files.getPosixFilePermissions(openSpillFile()))
                    .extracting(Object::toString).containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE");
        }
        try (Stream<Path> files = Files.list(spillDirectory)) {
            assertThat(files.toList()).as("nothing left behind").isEmpty();
        }
    }

    /** The spill file this process holds open, through /proc/self/fd (it has no name any more). */
    private Path openSpillFile() throws Exception {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith(spillDirectory.toString());
                } catch (Exception e) {
                    return false;
                }
            }).findFirst().orElseThrow();
        }
    }

    @Test
    void theMappingLimitRefusesCleanlyAndKeepsTheBooks() {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).mappingLimit(2).build()) {
            LongArray held = pool.longs(2 * CHUNK / 8);
            assertThatThrownBy(() -> pool.longs(1))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("vm.max_map_count");
            assertThat(pool.stats().memory().inUse()).isEqualTo(2);
            assertThat(pool.stats().liveArrays()).isEqualTo(1);
            held.close();
            try (LongArray again = pool.longs(2 * CHUNK / 8)) {
                assertThat(again.get(0)).isZero();
            }
        }
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(0).spillDirectory(spillDirectory)
                .mappingLimit(2).build()) {
            ByteArray first = pool.bytes(CHUNK);
            ByteArray second = pool.bytes(CHUNK);
            assertThatThrownBy(() -> pool.bytes(CHUNK))
                    .as("a third spill mapping").isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("vm.max_map_count");
            assertThat(pool.stats().spill().orElseThrow().inUse()).as("the refused array's chunk went back").isEqualTo(2);
            assertThat(pool.stats().spill().orElseThrow().free()).as("refused before taking any").isZero();
            assertThat(pool.stats().spill().orElseThrow().created()).isEqualTo(2);
            first.close();
            try (ByteArray third = pool.bytes(CHUNK)) {
                assertThat(third.get(CHUNK - 1)).isZero();
            }
            second.close();
            assertThat(pool.stats().mappings()).isZero();
        }
    }

    @Test
    void spillLimitRefusesWithTheSpillBudget() {
        try (ChunkPool pool = ChunkPool.builder().name("big").chunkSize(CHUNK).memoryLimit(CHUNK)
                .spillDirectory(spillDirectory).spillLimit(2 * CHUNK).build()) {
            assertThatThrownBy(() -> pool.bytes(4 * CHUNK))
                    .isInstanceOf(BudgetExceededException.class)
                    .hasMessageContaining("big-spill");
            assertThat(pool.stats().memory().inUse()).isZero();
            assertThat(pool.stats().spill().orElseThrow().inUse()).isZero();
        }
    }

    @Test
    void aFullDiskIsAnExceptionAtAllocationNotACrashLater() throws Exception {
        try (SmallTmpfs disk = SmallTmpfs.mountOrSkip(spillDirectory.resolve("small"), 1 << 20);
             ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(0).spillDirectory(disk.directory())
                     .build()) {
            assertThatThrownBy(() -> pool.bytes(64 * CHUNK))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("spill")
                    .cause().hasMessageContaining("ENOSPC");
            assertThat(pool.stats().spill().orElseThrow().inUse()).isZero();
            try (ByteArray fits = pool.bytes(4 * CHUNK)) {
                fits.fill((byte) 1);
                assertThat(fits.get(4 * CHUNK - 1)).isEqualTo((byte) 1);
            }
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void everyAccessAfterReleaseThrows(boolean portable) {
        try (ChunkPool pool = pool(portable)) {
            DoubleArray array = pool.doubles(3 * CHUNK / 8);
            AtomicReference<MemorySegment> kept = new AtomicReference<>();
            array.forEachChunk((segment, first) -> kept.compareAndSet(null, segment));
            array.retain();
            assertThat(array.release()).isFalse();
            assertThat(array.refCount()).isEqualTo(1);
            assertThat(array.release()).isTrue();
            assertThatThrownBy(() -> array.get(0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> array.set(1, 1.0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> array.fill(2.0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> kept.get().get(ValueLayout.JAVA_DOUBLE, 0))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(array::release).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already released");
            assertThatThrownBy(array::retain).isInstanceOf(IllegalStateException.class);
            try (DoubleArray next = pool.doubles(3 * CHUNK / 8)) {
                next.fill(5.0);
                assertThatThrownBy(() -> kept.get().get(ValueLayout.JAVA_DOUBLE, 0))
                        .as("a stale segment never reaches the chunk lent to the next array")
                        .isInstanceOf(IllegalStateException.class);
            }
        }
    }

    @Test
    void aReaderRacingTheReleaseGetsAnExceptionNeverACrash() throws Exception {
        try (ChunkPool pool = pool(false)) {
            for (int round = 0; round < 20; round++) {
                DoubleArray array = pool.doubles(CHUNK / 8);
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Thread reader = Thread.ofPlatform().start(() -> {
                    try {
                        double sum = 0;
                        for (long n = 0; ; n++) {
                            sum += array.get(n % array.length());
                        }
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                });
                Thread.sleep(2);
                array.close();
                reader.join(10_000);
                assertThat(failure.get()).isInstanceOf(IllegalStateException.class);
            }
        }
    }

    @Test
    void closingThePoolEndsItsLiveArrays() {
        MemoryBudget budget = MemoryBudget.unlimited("process");
        ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).budget(budget).build();
        IntArray array = pool.ints(CHUNK);
        pool.close();
        assertThatThrownBy(() -> array.get(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> pool.ints(1)).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        array.close();
        pool.close();
        assertThat(budget.used()).isZero();
    }

    @Test
    void badArgumentsAreRefusedClearly() {
        assertThatThrownBy(() -> ChunkPool.builder().chunkSize(3 << 20))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("power of two");
        assertThatThrownBy(() -> ChunkPool.builder().chunkSize(4096))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ChunkPool.builder().memoryLimit(-1)).isInstanceOf(IllegalArgumentException.class);
        try (ChunkPool pool = pool(false)) {
            assertThatThrownBy(() -> pool.doubles(-1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> pool.doubles(Long.MAX_VALUE / 4))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too large");
            try (DoubleArray array = pool.doubles(10)) {
                double[] target = new double[4];
                assertThatThrownBy(() -> array.copyTo(8, target, 0, 4)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> array.copyTo(0, target, 2, 4)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> array.copyTo(0, target, 0, -1)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> array.copyFrom(target, 0, 7, 4)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> array.copyTo(0, array, 5, 6)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> array.fill(3, 11, 1.0)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> array.fill(5, 4, 1.0)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> array.toArray(-1, 3)).isInstanceOf(IndexOutOfBoundsException.class);
            }
        }
        assertThatThrownBy(() -> ChunkPool.builder().spillDirectory(Path.of("/proc/version")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a directory");
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void kernelsSeeEveryElementOnceInOrder(boolean portable) {
        try (ChunkPool pool = pool(portable); LongArray array = pool.longs(3 * CHUNK / 8 + 5)) {
            for (long i = 0; i < array.length(); i++) {
                array.set(i, i);
            }
            List<long[]> pieces = new ArrayList<>();
            array.forEachChunk((segment, first) -> {
                long count = segment.byteSize() / Long.BYTES;
                for (long i = 0; i < count; i++) {
                    assertThat(segment.getAtIndex(ValueLayout.JAVA_LONG, i)).isEqualTo(first + i);
                }
                pieces.add(new long[] {first, count});
            });
            assertThat(pieces.stream().mapToLong(p -> p[1]).sum()).isEqualTo(array.length());
            assertThat(pieces).hasSize(portable ? 4 : 1);
            assertThat(array.contiguousSegment().isPresent()).isEqualTo(!portable);
        }
    }

    @Test
    void arraysBeyondTwoBillionElementsUseLongIndices() {
        long length = (1L << 31) + 10;
        try (ChunkPool pool = ChunkPool.create(); IntArray ints = pool.ints(length); DoubleArray doubles = pool.doubles(length)) {
            assertThat(ints.byteSize()).isEqualTo(length * 4);
            ints.set(length - 1, 42);
            ints.set((1L << 31) - 1, 41);
            assertThat(ints.get(length - 1)).isEqualTo(42);
            assertThat(ints.get((1L << 31) - 1)).isEqualTo(41);
            doubles.copyFrom(new double[] {1, 2, 3, 4}, 0, (1L << 31) - 2, 4);
            assertThat(doubles.toArray((1L << 31) - 3, (1L << 31) + 3)).containsExactly(0, 1, 2, 3, 4, 0);
            assertThat(ints.isContiguous()).isTrue();
            assertThat(doubles.contiguousSegment()).hasValueSatisfying(s -> assertThat(s.byteSize()).isEqualTo(length * 8));
            assertThat(pool.stats().mappings()).as("one per memory chunk").isEqualTo(pool.stats().memory().created());
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void spilledArraysBeyondTwoGigabytes(boolean portable) throws Exception {
        long length = (1L << 31) + 7;
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.getFileStore(spillDirectory).getUsableSpace() > (6L << 30),
                "needs 6 GiB of free disk for a 2 GiB spill file");
        try (ChunkPool pool = ChunkPool.builder().memoryLimit(0).spillDirectory(spillDirectory).portable(portable)
                .build();
             ByteArray bytes = pool.bytes(length)) {
            long boundary = 1L << 31;
            bytes.copyFrom(new byte[] {1, 2, 3, 4, 5, 6}, 0, boundary - 3, 6);
            assertThat(bytes.toArray(boundary - 4, boundary + 4)).containsExactly(0, 1, 2, 3, 4, 5, 6, 0);
            bytes.set(length - 1, (byte) 9);
            bytes.copyTo(length - 1, bytes, 0, 1);
            assertThat(bytes.get(0)).isEqualTo((byte) 9);
            assertThatThrownBy(() -> bytes.get(length)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThat(pool.stats().spill().orElseThrow().inUse()).isEqualTo(513);
        }
    }

    @Test
    void concurrentAllocationAndReleaseKeepsTheBooks() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("process");
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).budget(budget).build()) {
            List<Thread> threads = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 100; i++) {
                            long length = 1 + (seed * 7919L + i * 104_729L) % (3 * CHUNK / 8);
                            try (LongArray array = pool.longs(length)) {
                                array.set(length - 1, seed);
                                array.set(0, i);
                                assertThat(array.get(length - 1)).isEqualTo(length == 1 ? i : seed);
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            for (Thread thread : threads) {
                Waits.join(thread);
            }
            assertThat(failure.get()).isNull();
            ChunkPoolStats stats = pool.stats();
            assertThat(stats.liveArrays()).isZero();
            assertThat(stats.mappings()).as("free memory chunks stay mapped where they are")
                    .isEqualTo(stats.memory().free());
            assertThat(stats.memory().inUse()).isZero();
            assertThat(budget.used()).isEqualTo(stats.memory().created() * CHUNK);
        }
        assertThat(budget.used()).isZero();
    }
}
