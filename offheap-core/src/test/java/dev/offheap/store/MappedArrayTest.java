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
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.os.FileSpace;
import dev.offheap.os.SmallTmpfs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Creating, writing, reopening, growing and closing mapped array files; space reserved both ways. */
class MappedArrayTest {
    private static final int N = 10_007;

    @TempDir
    Path dir;

    static Stream<Named<FileSpace>> spaces() {
        return Stream.of(Named.of("system space (" + FileSpace.system().name() + ")", FileSpace.system()),
                Named.of("portable space", FileSpace.portable()));
    }

    static Stream<Arguments> typesAndSpaces() {
        return spaces().flatMap(space -> Arrays.stream(ElementType.values()).map(type -> Arguments.of(type, space)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("typesAndSpaces")
    void whatIsWrittenAndForcedIsThereAfterReopening(ElementType type, FileSpace space) throws IOException {
        Path file = dir.resolve(type + ".npy");
        try (MappedArray array = MappedArray.create(file, type, N, space)) {
            assertThat(array.path()).isEqualTo(file);
            assertThat(array.elementType()).isEqualTo(type);
            assertThat(array.length()).isEqualTo(N);
            assertThat(array.mode()).isEqualTo(MappedArray.Mode.READ_WRITE);
            try (TypedArray view = Elements.view(array)) {
                assertThat(view.length()).isEqualTo(N);
                assertThat(view.elementType()).isEqualTo(type);
                assertThat(view.isContiguous()).isTrue();
                Elements.check(view, 0, N, true);
                Elements.write(view, 0, N);
            }
            array.force();
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY, type);
             TypedArray view = Elements.view(array)) {
            assertThat(array.length()).isEqualTo(N);
            assertThat(array.mode()).isEqualTo(MappedArray.Mode.READ_ONLY);
            Elements.check(view, 0, N);
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE, type, space);
             TypedArray view = Elements.view(array)) {
            Elements.check(view, 0, N);
            Elements.setZero(view, 5);
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
             TypedArray view = Elements.view(array)) {
            Elements.check(view, 5, 6, true);
            Elements.check(view, 6, N);
        }
    }

    @Test
    void aNewFileIsOwnerOnlyWithItsDataOnePageIn() throws IOException {
        Path file = dir.resolve("layout.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, 1000);
             LongArray longs = array.longs()) {
            longs.set(0, 0x0102030405060708L);
            array.force();
        }
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes.length).as("header page + data rounded to pages").isEqualTo(4096 + 8192);
        assertThat(Arrays.copyOf(bytes, 6)).isEqualTo(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'});
        String header = new String(bytes, 10, 4086, StandardCharsets.US_ASCII);
        assertThat(header).startsWith("{'descr': '<i8', 'fortran_order': False, 'shape': (1000,), }"
                + " # offheap-array 1 crc32c=").endsWith(" \n");
        assertThat(bytes[4096]).as("first data byte, little endian").isEqualTo((byte) 0x08);
    }

    @Test
    void createNeverOverwritesAFile() throws IOException {
        Path file = dir.resolve("taken.npy");
        Files.writeString(file, "precious");
        assertThatThrownBy(() -> MappedArray.create(file, ElementType.DOUBLE, 10))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(file)).isEqualTo("precious");
        assertThatThrownBy(() -> MappedArray.open(dir.resolve("missing.npy"), MappedArray.Mode.READ_ONLY))
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void impossibleLengthsAreRefusedBeforeAnyFileIsMade() {
        Path file = dir.resolve("bad.npy");
        assertThatThrownBy(() -> MappedArray.create(file, ElementType.INT, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> MappedArray.create(file, ElementType.DOUBLE, Long.MAX_VALUE / 8))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("float64");
        assertThat(file).doesNotExist();
    }

    @Test
    void readOnlyViewsRefuseWritesWithoutCrashing() throws IOException {
        Path file = dir.resolve("ro.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.DOUBLE, N);
             DoubleArray doubles = array.doubles()) {
            Elements.write(doubles, 0, N);
            array.force();
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
             DoubleArray doubles = array.doubles()) {
            assertThat(doubles.contiguousSegment()).hasValueSatisfying(s -> assertThat(s.isReadOnly()).isTrue());
            // The JDK throws IllegalArgumentException for writes to a read-only segment.
            assertThatThrownBy(() -> doubles.set(1, 42.0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("read-only");
            assertThatThrownBy(() -> doubles.fill(0, 10, 1.0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> doubles.fill(0.0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> doubles.copyFrom(new double[] {1, 2}, 0, 0, 2))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> array.grow(N + 1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("read-only").hasMessageContaining(file.toString());
            assertThatCode(array::force).doesNotThrowAnyException();
            Elements.check(doubles, 0, N);
        }
        assertThat(Files.size(file)).isEqualTo(4096 + 81920);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void growKeepsTheDataAndOlderViews(FileSpace space) throws IOException {
        Path file = dir.resolve("grow.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, 1000, space)) {
            LongArray before = array.longs();
            Elements.write(before, 0, 1000);
            array.grow(5000);
            assertThat(array.length()).isEqualTo(5000);
            assertThat(before.length()).as("an older view keeps its length").isEqualTo(1000);
            Elements.check(before, 0, 1000);
            before.set(999, -1);
            try (LongArray after = array.longs()) {
                assertThat(after.length()).isEqualTo(5000);
                assertThat(after.get(999)).as("views share the file").isEqualTo(-1);
                Elements.check(after, 1000, 5000, true);
                Elements.write(after, 999, 5000);
            }
            Elements.check(before, 0, 1000);
            assertThatThrownBy(() -> before.get(1000)).isInstanceOf(IndexOutOfBoundsException.class);
            before.close();
            array.grow(5000);
            assertThat(array.length()).isEqualTo(5000);
            assertThatThrownBy(() -> array.grow(4999)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("4999").hasMessageContaining(file.toString());
            assertThatThrownBy(() -> array.grow(Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class);
            array.force();
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE, ElementType.LONG, space);
             LongArray longs = array.longs()) {
            assertThat(array.length()).isEqualTo(5000);
            Elements.check(longs, 0, 5000);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void growingManyTimesAndReopeningInBetween(FileSpace space) throws IOException {
        Path file = dir.resolve("steps.npy");
        MappedArray.create(file, ElementType.FLOAT, 1, space).close();
        long length = 1;
        for (int step = 0; step < 12; step++) {
            try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE, ElementType.FLOAT, space)) {
                assertThat(array.length()).isEqualTo(length);
                long next = length * 3 + 1;
                array.grow(next);
                try (FloatArray floats = array.floats()) {
                    Elements.check(floats, 0, length);
                    Elements.check(floats, length, next, true);
                    Elements.write(floats, length, next);
                }
                array.force();
                length = next;
            }
        }
        assertThat(length).isGreaterThan(500_000);
        assertThat(Files.size(file)).isEqualTo(4096 + roundToPage(length * 4));
    }

    @Test
    void anEmptyArrayIsAFileOfItsOwn() throws IOException {
        Path file = dir.resolve("empty.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.INT, 0);
             IntArray ints = array.ints()) {
            assertThat(ints.length()).isZero();
            assertThatThrownBy(() -> ints.get(0)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThat(ints.toArray(0, 0)).isEmpty();
            array.force();
        }
        assertThat(Files.size(file)).as("one page of data even for none, so NumPy can map it").isEqualTo(8192);
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE)) {
            assertThat(array.length()).isZero();
            array.grow(10);
            try (IntArray ints = array.ints()) {
                Elements.check(ints, 0, 10, true);
            }
        }
    }

    @Test
    void closingEndsEveryViewAndEveryOperation() throws IOException {
        Path file = dir.resolve("closing.npy");
        MappedArray array = MappedArray.create(file, ElementType.DOUBLE, N);
        DoubleArray first = array.doubles();
        DoubleArray second = array.doubles();
        DoubleArray released = array.doubles();
        released.close();
        first.retain();
        first.set(3, 3.5);
        array.close();
        for (DoubleArray view : List.of(first, second)) {
            assertThatThrownBy(() -> view.get(3)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> view.set(3, 1.0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> view.toArray(0, 10)).isInstanceOf(IllegalStateException.class);
        }
        assertThatCode(() -> {
            first.release();
            first.release();
            second.close();
        }).doesNotThrowAnyException();
        assertThatThrownBy(first::release).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(array::doubles).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed").hasMessageContaining(file.toString());
        assertThatThrownBy(array::force).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> array.grow(N + 1)).isInstanceOf(IllegalStateException.class);
        assertThatCode(array::close).doesNotThrowAnyException();
        try (MappedArray reopened = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
             DoubleArray doubles = reopened.doubles()) {
            assertThat(doubles.get(3)).isEqualTo(3.5);
        }
    }

    @Test
    void releasedViewsAreForgottenAndForceStillWorks() throws IOException {
        try (MappedArray array = MappedArray.create(dir.resolve("views.npy"), ElementType.BYTE, 100_000)) {
            for (int i = 0; i < 200; i++) {
                try (ByteArray bytes = array.bytes()) {
                    bytes.set(i, (byte) i);
                    assertThat(array.openViews()).isEqualTo(1);
                }
            }
            assertThat(array.openViews()).isZero();
            ByteArray kept = array.bytes();
            ByteArray shared = kept.retain();
            shared.release();
            assertThat(array.openViews()).isEqualTo(1);
            array.force();
            assertThat(kept.get(199)).isEqualTo((byte) 199);
            kept.release();
            assertThat(array.openViews()).isZero();
            array.force();
        }
    }

    @Test
    void indexesAreChecked() throws IOException {
        try (MappedArray array = MappedArray.create(dir.resolve("index.npy"), ElementType.INT, 100);
             IntArray ints = array.ints()) {
            for (long bad : new long[] {-1, 100, 101, Long.MAX_VALUE, Long.MIN_VALUE}) {
                assertThatThrownBy(() -> ints.get(bad)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> ints.set(bad, 1)).isInstanceOf(IndexOutOfBoundsException.class);
            }
            assertThatThrownBy(() -> ints.fill(50, 101, 1)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> ints.copyTo(90, new int[20], 0, 20)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> ints.copyFrom(new int[20], 0, 81, 20)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThat(ints.get(99)).isZero();
        }
    }

    @Test
    void aViewOfTheWrongTypeNamesBothTypes() throws IOException {
        Path file = dir.resolve("ints.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.INT, 10)) {
            assertThatThrownBy(array::doubles).isInstanceOf(IllegalStateException.class)
                    .hasMessage("file " + file + " holds int32, not float64");
            assertThatThrownBy(array::bytes).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("holds int32, not int8");
            assertThatThrownBy(array::longs).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(array::floats).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aFileLongerThanItsHeaderSaysOpens() throws IOException {
        Path file = dir.resolve("longer.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.DOUBLE, 100);
             DoubleArray doubles = array.doubles()) {
            Elements.write(doubles, 0, 100);
            array.force();
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 1 << 20);
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE);
             DoubleArray doubles = array.doubles()) {
            assertThat(array.length()).isEqualTo(100);
            Elements.check(doubles, 0, 100);
            array.grow(200);
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
             DoubleArray doubles = array.doubles()) {
            assertThat(array.length()).isEqualTo(200);
            Elements.check(doubles, 0, 100);
            Elements.check(doubles, 100, 200, true);
        }
    }

    @Test
    void lengthsBeyondTwoToTheThirtyOneWork() throws IOException {
        assumeTrue(FileSpace.system().name().equals("fallocate"), "needs fallocate: writing 2 GiB of zeros is slow");
        assumeTrue(Files.getFileStore(dir).getUsableSpace() > (8L << 30), "needs 8 GiB of free disk");
        Path file = dir.resolve("big.npy");
        long length = (1L << 31) + 16;
        try {
            try (MappedArray array = MappedArray.create(file, ElementType.BYTE, length);
                 ByteArray bytes = array.bytes()) {
                assertThat(bytes.length()).isEqualTo(length);
                bytes.set(length - 1, (byte) 7);
                bytes.set((1L << 31) - 1, (byte) 8);
                bytes.set(1L << 31, (byte) 9);
                array.force();
            }
            try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY, ElementType.BYTE);
                 ByteArray bytes = array.bytes()) {
                assertThat(array.length()).isEqualTo(length);
                assertThat(bytes.get(length - 1)).isEqualTo((byte) 7);
                assertThat(bytes.get((1L << 31) - 1)).isEqualTo((byte) 8);
                assertThat(bytes.get(1L << 31)).isEqualTo((byte) 9);
                assertThat(bytes.get(length - 2)).isZero();
                assertThatThrownBy(() -> bytes.get(length)).isInstanceOf(IndexOutOfBoundsException.class);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void aFullDiskIsAnIOExceptionAtCreateAndGrowNeverACrash(FileSpace space) throws Exception {
        try (SmallTmpfs disk = SmallTmpfs.mountOrSkip(dir.resolve("small"), 1 << 20)) {
            Path tooBig = disk.directory().resolve("too-big.npy");
            assertThatThrownBy(() -> MappedArray.create(tooBig, ElementType.DOUBLE, 1 << 18, space))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(tooBig.toString())
                    .hasMessageContaining("cannot reserve " + (8 << 18) + " bytes");
            assertThat(tooBig).as("a failed create leaves no file").doesNotExist();

            Path file = disk.directory().resolve("grows.npy");
            try (MappedArray array = MappedArray.create(file, ElementType.LONG, 1000, space);
                 LongArray longs = array.longs()) {
                Elements.write(longs, 0, 1000);
                long size = Files.size(file);
                assertThatThrownBy(() -> array.grow(1 << 18)).isInstanceOf(IOException.class)
                        .hasMessageContaining(file.toString());
                assertThat(array.length()).isEqualTo(1000);
                assertThat(Files.size(file)).as("the reserved part is given back").isEqualTo(size);
                Elements.check(longs, 0, 1000);
                array.grow(2000);
                try (LongArray grown = array.longs()) {
                    Elements.check(grown, 0, 1000);
                    Elements.check(grown, 1000, 2000, true);
                }
                array.force();
            }
            try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
                 LongArray longs = array.longs()) {
                assertThat(array.length()).isEqualTo(2000);
                Elements.check(longs, 0, 1000);
            }
        }
    }

    @Test
    void toStringNamesFileTypeLengthAndMode() throws IOException {
        Path file = dir.resolve("named.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.FLOAT, 3)) {
            assertThat(array).hasToString("MappedArray[" + file + ", 3 float32, READ_WRITE]");
        }
    }

    private static long roundToPage(long bytes) {
        return (bytes + 4095) & -4096L;
    }
}
