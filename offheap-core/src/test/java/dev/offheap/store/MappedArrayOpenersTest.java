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

import dev.offheap.account.MemoryInUseException;
import dev.offheap.suite.HeldByIo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One opener may have a file {@code READ_WRITE}, or any number {@code READ_ONLY}, in this JVM: the file is known
 * by its identity, so a hard or symbolic link is the same file, and it is free again only once really closed.
 * (Two writers each kept their own length: the one that grew last rewrote the header and the other's elements
 * were lost without a word.)
 */
class MappedArrayOpenersTest {
    @TempDir
    Path dir;

    @Test
    void aSecondReadWriteOpenIsRefusedNamingTheFileAndTheFirstOpenerSoNoElementIsLost() throws IOException {
        Path file = dir.resolve("two-writers.npy");
        try (MappedArray first = MappedArray.create(file, ElementType.LONG, 1000)) {
            first.grow(2000);
            try (LongArray longs = first.longs()) {
                longs.set(1999, 42);
            }
            assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE))
                    .isInstanceOf(FileInUseException.class)
                    .hasMessage(file + ": cannot open it READ_WRITE: a MappedArray of this JVM has it open READ_WRITE"
                            + " (opened on thread '" + Thread.currentThread().getName() + "', where the cause shows);"
                            + " a file is open READ_WRITE by one MappedArray at a time, or READ_ONLY by any number:"
                            + " close that one first")
                    .satisfies(e -> assertThat(((FileInUseException) e).file()).isEqualTo(file))
                    .satisfies(e -> assertThat(((FileInUseException) e).byAnotherProcess()).isFalse())
                    .cause().hasMessageContaining("where " + file + " was opened READ_WRITE")
                    .satisfies(where -> assertThat(Arrays.toString(where.getStackTrace()))
                            .as("the stack of the create").contains("aSecondReadWriteOpenIsRefused"));
            assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_ONLY))
                    .isInstanceOf(FileInUseException.class)
                    .hasMessageStartingWith(file + ": cannot open it READ_ONLY: a MappedArray of this JVM has it open"
                            + " READ_WRITE");
        }
        try (MappedArray again = MappedArray.open(file, MappedArray.Mode.READ_WRITE);
             LongArray longs = again.longs()) {
            assertThat(again.length()).isEqualTo(2000);
            assertThat(longs.get(1999)).isEqualTo(42);
        }
    }

    @Test
    void aHardLinkAndASymbolicLinkNameTheSameFile() throws IOException {
        Path file = dir.resolve("linked.npy");
        Path hard = Files.createLink(dir.resolve("hard.npy"), create(file));
        Path symbolic = Files.createSymbolicLink(dir.resolve("symbolic.npy"), file);
        try (MappedArray writer = MappedArray.open(file, MappedArray.Mode.READ_WRITE)) {
            assertThatThrownBy(() -> MappedArray.open(hard, MappedArray.Mode.READ_WRITE))
                    .isInstanceOf(FileInUseException.class)
                    .hasMessageStartingWith(hard + ": cannot open it READ_WRITE: a MappedArray of this JVM has it open"
                            + " READ_WRITE as " + file + " (");
            assertThatThrownBy(() -> MappedArray.open(symbolic, MappedArray.Mode.READ_ONLY))
                    .isInstanceOf(FileInUseException.class)
                    .hasMessageStartingWith(symbolic + ": cannot open it READ_ONLY: a MappedArray of this JVM has it"
                            + " open READ_WRITE as " + file + " (");
        }
        try (MappedArray throughTheLink = MappedArray.open(symbolic, MappedArray.Mode.READ_WRITE)) {
            assertThatThrownBy(() -> MappedArray.open(hard, MappedArray.Mode.READ_ONLY))
                    .isInstanceOf(FileInUseException.class).hasMessageContaining("as " + symbolic);
        }
    }

    @Test
    void readersShareAFileAndKeepAWriterOutUntilTheLastOneCloses() throws IOException {
        Path file = create(dir.resolve("readers.npy"));
        MappedArray reader = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
        MappedArray another = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
        assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE))
                .isInstanceOf(FileInUseException.class)
                .hasMessageStartingWith(file + ": cannot open it READ_WRITE: a MappedArray of this JVM has it open"
                        + " READ_ONLY");
        reader.close();
        assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE))
                .as("one reader left").isInstanceOf(FileInUseException.class);
        another.close();
        MappedArray.open(file, MappedArray.Mode.READ_WRITE).close();
    }

    @Test
    void aFileIsFreeOnlyOnceItsCloseSucceededAfterAFailedOne() throws Exception {
        Path file = dir.resolve("held.npy");
        MappedArray array = MappedArray.create(file, ElementType.BYTE, 1 << 20);
        ByteArray bytes = array.bytes();
        HeldByIo held = HeldByIo.writing(bytes.contiguousSegment().orElseThrow().asByteBuffer());
        try {
            assertThatThrownBy(array::close).isInstanceOf(MemoryInUseException.class)
                    .hasMessageContaining("cannot close mapped array " + file + " completely");
            assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE))
                    .as("the file is still open: a view is mapped").isInstanceOf(FileInUseException.class);
            assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE))
                    .as("a refused open changes nothing").isInstanceOf(FileInUseException.class);
        } finally {
            held.close();
        }
        array.close();
        try (MappedArray again = MappedArray.open(file, MappedArray.Mode.READ_WRITE)) {
            assertThat(again.length()).isEqualTo(1 << 20);
        }
    }

    @Test
    void aRefusedOrFailedOpenLeavesTheFileFree() throws IOException {
        Path file = create(dir.resolve("refused.npy"));
        assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE, ElementType.DOUBLE))
                .isInstanceOf(ArrayFileException.class);
        try (MappedArray writer = MappedArray.open(file, MappedArray.Mode.READ_WRITE)) {
            assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE))
                    .isInstanceOf(FileInUseException.class);
        }
        MappedArray.open(file, MappedArray.Mode.READ_WRITE).close();
    }

    private static Path create(Path file) throws IOException {
        MappedArray.create(file, ElementType.LONG, 100).close();
        return file;
    }
}
