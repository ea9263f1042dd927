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

package dev.offheap.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Reserving file space both ways: bytes kept, zeros past the end, blocks really taken, a full disk refused. */
class FileSpaceTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    static Stream<Named<FileSpace>> spaces() {
        return Stream.of(Named.of("system (" + FileSpace.system().name() + ")", FileSpace.system()),
                Named.of("portable", FileSpace.portable()));
    }

    @Test
    void linuxUsesFallocate() {
        assumeTrue(Libc.isLinux(), "Linux only");
        assertThat(FileSpace.system().name()).isEqualTo("fallocate");
        assertThat(FileSpace.portable().name()).isEqualTo("write");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void reservingPastTheEndGrowsTheFileWithZeros(FileSpace space) throws IOException {
        Path file = dir.resolve("grow.bin");
        try (FileChannel channel = open(file)) {
            channel.write(ByteBuffer.wrap("header".getBytes(StandardCharsets.US_ASCII)), 0);
            space.reserve(channel, file, 4096, 3 * MIB + 5);
            assertThat(channel.size()).isEqualTo(4096 + 3 * MIB + 5);
        }
        byte[] bytes = Files.readAllBytes(file);
        assertThat(new String(bytes, 0, 6, StandardCharsets.US_ASCII)).isEqualTo("header");
        assertThat(countNonZero(bytes, 6, bytes.length)).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void reservingKeepsEveryByteAlreadyThere(FileSpace space) throws IOException {
        Path file = dir.resolve("keep.bin");
        byte[] data = new byte[2 * MIB + 77];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 13 + 1);
        }
        Files.write(file, data);
        try (FileChannel channel = open(file)) {
            space.reserve(channel, file, 100, MIB);
            space.reserve(channel, file, MIB, 2 * MIB);
            assertThat(channel.size()).isEqualTo(3 * MIB);
        }
        byte[] after = Files.readAllBytes(file);
        assertThat(Arrays.copyOf(after, data.length)).isEqualTo(data);
        assertThat(countNonZero(after, data.length, after.length)).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void reservingAHoleTakesItsBlocksAndKeepsItZero(FileSpace space) throws IOException, InterruptedException {
        Path file = dir.resolve("sparse.bin");
        try (FileChannel channel = open(file)) {
            channel.write(ByteBuffer.wrap(new byte[] {42}), 8 * MIB - 1);
            long before = allocatedBytes(file);
            space.reserve(channel, file, 0, 8 * MIB);
            assertThat(channel.size()).isEqualTo(8 * MIB);
            assertThat(allocatedBytes(file)).as("bytes allocated on disk").isGreaterThanOrEqualTo(8 * MIB)
                    .isGreaterThan(before);
        }
        byte[] after = Files.readAllBytes(file);
        assertThat(after[8 * MIB - 1]).isEqualTo((byte) 42);
        assertThat(countNonZero(after, 0, 8 * MIB - 1)).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void emptyRangesDoNothingAndBadRangesAreRefused(FileSpace space) throws IOException {
        Path file = dir.resolve("empty.bin");
        try (FileChannel channel = open(file)) {
            space.reserve(channel, file, 10_000, 0);
            assertThat(channel.size()).isZero();
            assertThatThrownBy(() -> space.reserve(channel, file, -1, 10)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("-1");
            assertThatThrownBy(() -> space.reserve(channel, file, 0, -10)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> space.reserve(channel, file, Long.MAX_VALUE, 10))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spaces")
    void aFullDiskIsAnIOExceptionNamingTheFileAndTheBytes(FileSpace space) throws Exception {
        try (SmallTmpfs disk = SmallTmpfs.mountOrSkip(dir.resolve("small"), MIB)) {
            Path file = disk.directory().resolve("full.bin");
            try (FileChannel channel = open(file)) {
                space.reserve(channel, file, 0, MIB / 2);
                assertThatThrownBy(() -> space.reserve(channel, file, MIB / 2, 2 * MIB))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining(file.toString())
                        .hasMessageContaining("cannot reserve " + 2 * MIB + " bytes at offset " + MIB / 2)
                        .hasMessageContaining(space == FileSpace.portable() ? "No space left" : "ENOSPC");
            }
        }
    }

    private static FileChannel open(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    private static int countNonZero(byte[] bytes, int from, int to) {
        int count = 0;
        for (int i = from; i < to; i++) {
            if (bytes[i] != 0) {
                count++;
            }
        }
        return count;
    }

    private static long allocatedBytes(Path file) throws IOException, InterruptedException {
        return DiskUsage.allocatedBytes(file);
    }
}
