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

import dev.offheap.os.DiskUsage;
import dev.offheap.os.FileSpace;
import dev.offheap.os.LockedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edges of a mapped file: the largest length is accepted (and then fails only for want of disk), one more is
 * refused; opening read-write puts disk blocks behind a foreign file's holes, read-only leaves the file alone;
 * closing, and a refused open, leave no descriptor of the file open.
 */
class MappedArrayLimitsAndDescriptorsTest {
    /** The most int8 elements a file with a 4096-byte header can hold: its data ends within Long.MAX_VALUE. */
    private static final long MAX_BYTES = Long.MAX_VALUE - 8192;

    @TempDir
    Path dir;

    private static void assumeFallocate() {
        // the largest lengths are refused by fallocate at once (EFBIG); written zeros would fill the disk first
        assumeTrue(FileSpace.system().name().equals("fallocate"), "needs fallocate");
    }

    @Test
    void createAcceptsTheLargestLengthAndRefusesOneMore() throws IOException {
        assumeFallocate();
        Path file = dir.resolve("largest.npy");
        assertThatThrownBy(() -> MappedArray.create(file, ElementType.BYTE, MAX_BYTES + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a mapped array of " + (MAX_BYTES + 1) + " int8 elements is impossible: the length must"
                        + " be from 0 to " + MAX_BYTES);
        assertThat(file).doesNotExist();
        assertThatThrownBy(() -> MappedArray.create(file, ElementType.BYTE, MAX_BYTES))
                .as("a length that is possible, but not on this disk").isInstanceOf(IOException.class)
                .hasMessageContaining("cannot reserve " + (MAX_BYTES + 1) + " bytes at offset 4096 of " + file);
        assertThat(file).as("a failed create leaves no file").doesNotExist();
    }

    @Test
    void growAcceptsTheLargestLengthAndRefusesOneMoreOrLess() throws IOException {
        assumeFallocate();
        Path file = dir.resolve("grow-largest.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.BYTE, 10)) {
            array.grow(10);
            assertThat(array.length()).isEqualTo(10);
            assertThatThrownBy(() -> array.grow(9)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("cannot grow " + file + " from 10 to 9 elements: the new length must be from 10 to "
                            + MAX_BYTES);
            assertThatThrownBy(() -> array.grow(MAX_BYTES + 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("cannot grow " + file + " from 10 to " + (MAX_BYTES + 1) + " elements: the new length"
                            + " must be from 10 to " + MAX_BYTES);
            assertThatThrownBy(() -> array.grow(MAX_BYTES)).isInstanceOf(IOException.class)
                    .hasMessageContaining("cannot reserve");
            assertThat(array.length()).isEqualTo(10);
            assertThat(Files.size(file)).as("a failed grow leaves the file as it was").isEqualTo(8192);
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY)) {
            assertThat(array.length()).isEqualTo(10);
        }
    }

    @Test
    void openingReadWriteReservesTheHolesOfAFileReadOnlyLeavesThem() throws Exception {
        Path file = dir.resolve("sparse.npy");
        int n = 1 << 18; // 2 MiB of doubles, written as a hole
        byte[] header = NpyFiles.header(1, NpyFiles.dict("<f8", false, "(" + n + ",)"));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(header));
            channel.write(ByteBuffer.wrap(new byte[8]), header.length + 8L * n - 8);
        }
        long sparse = allocatedBytes(file);
        assertThat(sparse).as("a hole takes no blocks").isLessThan(1 << 20);
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY); DoubleArray view = array.doubles()) {
            assertThat(view.get(n - 1)).isZero();
        }
        assertThat(allocatedBytes(file)).as("read-only").isLessThan(1 << 20);
        MappedArray.open(file, MappedArray.Mode.READ_WRITE).close();
        assertThat(allocatedBytes(file)).as("read-write").isGreaterThanOrEqualTo(8L * n);
        assertThat(Files.size(file)).isEqualTo(header.length + 8L * n);
    }

    @Test
    void closeAndARefusedOpenLeaveNoDescriptorOfTheFile() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd");
        Path file = dir.resolve("descriptors.npy");
        MappedArray array = MappedArray.create(file, ElementType.INT, 100);
        assertThat(descriptorsOf(file)).as("the channel, and the descriptor that holds the lock")
                .isEqualTo(LockedFile.locksEachOpenFile() ? 2 : 1);
        array.ints().close();
        array.close();
        assertThat(descriptorsOf(file)).isZero();
        for (MappedArray.Mode mode : MappedArray.Mode.values()) {
            assertThatThrownBy(() -> MappedArray.open(file, mode, ElementType.LONG))
                    .isInstanceOf(ArrayFileException.class).hasMessage(file + ": holds int32, not int64");
            assertThat(descriptorsOf(file)).as("after a refused open, " + mode).isZero();
        }
        Path garbage = Files.write(dir.resolve("garbage.npy"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
        assertThatThrownBy(() -> MappedArray.open(garbage, MappedArray.Mode.READ_WRITE))
                .isInstanceOf(ArrayFileException.class);
        assertThat(descriptorsOf(garbage)).isZero();
    }

    /** Open descriptors of this process that name {@code file}. */
    private static long descriptorsOf(Path file) throws IOException {
        Path real = file.toRealPath();
        long count = 0;
        try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path descriptor : descriptors) {
                try {
                    if (Files.readSymbolicLink(descriptor).equals(real)) {
                        count++;
                    }
                } catch (IOException closedMeanwhile) {
                    // another thread's descriptor, closed while listed
                }
            }
        }
        return count;
    }

    private static long allocatedBytes(Path file) throws IOException, InterruptedException {
        return DiskUsage.allocatedBytes(file);
    }
}
