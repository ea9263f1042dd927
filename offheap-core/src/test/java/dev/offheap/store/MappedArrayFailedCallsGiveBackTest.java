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

import dev.offheap.account.MemoryBudget;
import dev.offheap.os.FileSpace;
import dev.offheap.os.SystemCallFaults;
import dev.offheap.os.SystemCallFaults.Call;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A mapped array whose space reservation ({@code fallocate}, or the writes of the portable path) or view
 * ({@code mmap}) fails, at every such call in turn: create leaves no file and no descriptor behind, open leaves
 * the file as it was, grow leaves the file's size, header and data as they were, a view gives back its charge
 * and its mapping; each failure names the file, and the array goes on working.
 */
class MappedArrayFailedCallsGiveBackTest {
    /** 3 MiB of longs: the portable path writes it in three blocks. */
    private static final long LENGTH = 3 << 17;

    @TempDir
    Path dir;

    static Stream<Named<FileSpace>> spaces() {
        return MappedArrayTest.spaces();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void aCreateWhoseSpaceIsRefusedLeavesNothing(FileSpace space) throws IOException {
        for (int nth = 1; ; nth++) {
            Path file = dir.resolve("create-" + nth + ".npy");
            MemoryBudget budget = MemoryBudget.root("create", MemoryBudget.UNLIMITED);
            Throwable failure;
            boolean happened;
            MappedArray.Options options = MappedArray.Options.defaults().space(space).budget(budget).jmx(false);
            try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                faults.failNth(Call.FALLOCATE, nth, SystemCallFaults.ENOSPC);
                failure = catchThrowable(() -> MappedArray.create(file, ElementType.LONG, LENGTH, options).close());
                happened = faults.happened();
            }
            if (!happened) {
                assertThat(failure).isNull();
                assertThat(nth).as("calls to reserve the space").isGreaterThan(1);
                return;
            }
            assertThat(failure).as("reserve call %d", nth).isInstanceOf(IOException.class)
                    .hasMessageContaining("cannot reserve").hasMessageContaining(file.toString());
            assertThat(file).as("a failed create leaves no file").doesNotExist();
            assertThat(descriptorsOf(file)).isZero();
            assertThat(budget.used()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void anOpenForWritingWhoseSpaceIsRefusedLeavesTheFileAsItWas(FileSpace space) throws IOException {
        Path file = dir.resolve("open.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, LENGTH, space);
             LongArray longs = array.longs()) {
            Elements.write(longs, 0, LENGTH);
        }
        long size = Files.size(file);
        for (int nth = 1; ; nth++) {
            Throwable failure;
            boolean happened;
            try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                faults.failNth(Call.FALLOCATE, nth, SystemCallFaults.ENOSPC);
                failure = catchThrowable(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE, null, space).close());
                happened = faults.happened();
            }
            if (!happened) {
                assertThat(failure).isNull();
                break;
            }
            assertThat(failure).isInstanceOf(IOException.class).hasMessageContaining(file.toString());
            assertThat(Files.size(file)).isEqualTo(size);
            assertThat(descriptorsOf(file)).isZero();
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY); LongArray longs = array.longs()) {
            Elements.check(longs, 0, LENGTH);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void aGrowWhoseSpaceIsRefusedLeavesTheFileAsItWas(FileSpace space) throws IOException {
        Path file = dir.resolve("grow.npy");
        MemoryBudget budget = MemoryBudget.root("grow", MemoryBudget.UNLIMITED);
        MappingBudget mappings = new MappingBudget("the test", "release views", 10);
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, 1000,
                MappedArray.Options.defaults().space(space).budget(budget).mappings(mappings).jmx(false));
             LongArray longs = array.longs()) {
            Elements.write(longs, 0, 1000);
            long size = Files.size(file);
            long used = budget.used();
            for (int nth = 1; ; nth++) {
                Throwable failure;
                boolean happened;
                try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                    faults.failNth(Call.FALLOCATE, nth, SystemCallFaults.ENOSPC);
                    failure = catchThrowable(() -> array.grow(1000 + LENGTH));
                    happened = faults.happened();
                }
                if (!happened) {
                    assertThat(failure).isNull();
                    break;
                }
                assertThat(failure).as("reserve call %d", nth).isInstanceOf(IOException.class)
                        .hasMessageContaining("cannot reserve").hasMessageContaining(file.toString());
                assertThat(array.length()).isEqualTo(1000);
                assertThat(Files.size(file)).as("the file's size after reserve call %d failed", nth).isEqualTo(size);
                assertThat(budget.used()).isEqualTo(used);
                assertThat(mappings.used()).isEqualTo(1);
                Elements.check(longs, 0, 1000);
                // the header as the file has it (opening it would be refused: this array has it READ_WRITE)
                try (java.nio.channels.FileChannel disk = java.nio.channels.FileChannel.open(file)) {
                    assertThat(NpyHeader.read(disk, file).length()).as("the header on disk").isEqualTo(1000);
                }
            }
            assertThat(array.length()).isEqualTo(1000 + LENGTH);
            try (LongArray grown = array.longs()) {
                Elements.check(grown, 0, 1000);
                assertThat(grown.get(1000 + LENGTH - 1)).isZero();
            }
        }
    }

    @Test
    void aGrowWhoseSpaceAndThenWhoseCutAreRefusedSaysBoth() throws IOException {
        Path file = dir.resolve("grow-twice.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, 1000, FileSpace.portable());
             SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            // the portable space rewrites the last bytes of the old data, then writes 1 MiB blocks of zeros: the
            // second block is refused, then cutting the first off again
            faults.failNth(Call.FALLOCATE, 3, SystemCallFaults.ENOSPC).failNth(Call.FTRUNCATE, 1, SystemCallFaults.EIO);
            Throwable failure = catchThrowable(() -> array.grow(1000 + LENGTH));
            assertThat(faults.happened()).isTrue();
            assertThat(failure).isInstanceOf(IOException.class).hasMessageContaining("cannot reserve")
                    .hasMessageContaining(file.toString());
            assertThat(Arrays.stream(failure.getSuppressed()).map(String::valueOf))
                    .anySatisfy(s -> assertThat(s).contains("Input/output error"));
            assertThat(array.length()).isEqualTo(1000);
            faults.close();
            array.grow(2000);
            assertThat(array.length()).isEqualTo(2000);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void aViewTheKernelRefusesGivesBackItsChargeAndMapping(FileSpace space) throws IOException {
        assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "Linux shows the mappings");
        Path file = dir.resolve("view.npy");
        MemoryBudget budget = MemoryBudget.root("views", MemoryBudget.UNLIMITED);
        MappingBudget mappings = new MappingBudget("the test", "release views", 10);
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, LENGTH,
                MappedArray.Options.defaults().space(space).budget(budget).mappings(mappings).jmx(false));
             LongArray first = array.longs()) {
            Elements.write(first, 0, LENGTH);
            long used = budget.used();
            long mapped = SystemCallFaults.bytesMappedFrom(file.getFileName().toString());
            Throwable failure;
            try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                faults.failNth(Call.MMAP, 1, SystemCallFaults.ENOMEM);
                failure = catchThrowable(array::longs);
                assertThat(faults.happened()).isTrue();
            }
            // The JDK's IOException ("Map failed", caused by the OutOfMemoryError of ENOMEM), named for the file.
            assertThat(failure).isInstanceOf(UncheckedIOException.class)
                    .hasMessage("cannot map " + file + " (" + 8 * LENGTH + " bytes from byte 4096): Map failed: Map failed")
                    .cause().isInstanceOf(IOException.class).cause().isInstanceOf(OutOfMemoryError.class);
            assertThat(budget.used()).isEqualTo(used);
            assertThat(mappings.used()).isEqualTo(1);
            assertThat(array.openViews()).isEqualTo(1);
            assertThat(array.mappedBytes()).isEqualTo(used);
            assertThat(SystemCallFaults.bytesMappedFrom(file.getFileName().toString())).isEqualTo(mapped);
            try (LongArray second = array.longs()) {
                Elements.check(second, 0, LENGTH);
            }
        }
    }

    /** Descriptors of this process open on {@code file}. */
    private static long descriptorsOf(Path file) throws IOException {
        Path target = file.toAbsolutePath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(target);
                } catch (IOException closedMeanwhile) {
                    return false;
                }
            }).count();
        }
    }
}
