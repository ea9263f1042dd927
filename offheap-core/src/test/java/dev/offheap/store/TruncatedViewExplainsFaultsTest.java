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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a view explains the JDK's report of a failed access (the {@link InternalError} a SIGBUS becomes), without
 * touching a lost page: the fault is handed to the view as the access would hand it. A view whose file someone
 * truncated below the end of its data answers with an {@link ArrayFileTruncatedException} carrying the file,
 * its size now, the size the data needs and the element; a view whose file still holds its data, a closed
 * file's view and a pool's array pass the fault on as it is. A new view or a grow of the truncated file is
 * refused with the same sizes.
 */
class TruncatedViewExplainsFaultsTest {
    /** 100 longs from byte 4096: the data ends at byte 4896. */
    private static final long END = 4096 + 800;

    @TempDir
    Path dir;

    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE)) {
            other.truncate(size);
        }
    }

    @Test
    void aFaultInAViewOfATruncatedFileNamesTheFileTheSizesAndTheElement() throws IOException {
        Path file = dir.resolve("cut.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, 100); LongArray view = array.longs()) {
            view.set(3, 33);
            truncate(file, 4500);
            InternalError fault = new InternalError("a fault occurred in an unsafe memory access operation");
            RuntimeException explained = view.fault(fault, 60);
            assertThat(explained).isInstanceOf(ArrayFileTruncatedException.class)
                    .hasMessage(file + " was truncated by someone else while mapped: it has 4500 bytes now, the"
                            + " mapped data needs 4896; element 60 is gone");
            ArrayFileTruncatedException truncated = (ArrayFileTruncatedException) explained;
            assertThat(truncated.file()).isEqualTo(file);
            assertThat(truncated.fileSize()).isEqualTo(4500);
            assertThat(truncated.neededSize()).isEqualTo(END);
            assertThat(truncated.index()).isEqualTo(60);
            assertThat(truncated.getCause()).isInstanceOf(ArrayFileException.class)
                    .hasMessage(file + ": truncated by someone else while mapped: it has 4500 bytes now, the mapped"
                            + " data needs 4896");
            assertThat(truncated.getCause().getCause()).isSameAs(fault);
            assertThat(view.get(3)).as("what is left of the file still works").isEqualTo(33);

            assertThatThrownBy(() -> view.forEachChunk((segment, first) -> {
                throw fault;
            })).isInstanceOf(ArrayFileTruncatedException.class)
                    .hasMessageEndingWith("the mapped data needs 4896; element 0 is gone");

            assertThatThrownBy(array::longs).isInstanceOf(UncheckedIOException.class)
                    .hasMessage("cannot map " + file + ": " + file + ": truncated by someone else: it has 4500 bytes"
                            + " now, a view of the current length needs 4896")
                    .cause().isInstanceOf(ArrayFileException.class);
            assertThat(array.openViews()).isEqualTo(1);
            assertThatThrownBy(() -> array.grow(200)).isInstanceOf(ArrayFileException.class)
                    .hasMessage(file + ": cannot grow: truncated by someone else: it has 4500 bytes now, the data"
                            + " needs 4896");
            assertThat(array.length()).isEqualTo(100);
        }
    }

    @Test
    void aFileThatStillHoldsTheViewsDataPassesTheFaultOn() throws IOException {
        Path file = dir.resolve("whole.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, 100); LongArray view = array.longs()) {
            InternalError fault = new InternalError("not the file's doing");
            assertThatThrownBy(() -> view.fault(fault, 1)).isSameAs(fault);
            truncate(file, END); // exactly the end of the data: nothing is lost
            assertThatThrownBy(() -> view.fault(fault, 99)).isSameAs(fault);
            assertThatThrownBy(() -> view.forEachChunk((segment, first) -> {
                throw fault;
            })).isSameAs(fault);
            try (LongArray again = array.longs()) {
                assertThat(again.length()).as("a file cut to the end of its data still maps").isEqualTo(100);
            }
        }
    }

    @Test
    void aClosedFilesViewAndAPoolsArrayPassTheFaultOn() throws IOException {
        Path file = dir.resolve("closed.npy");
        MappedArray array = MappedArray.create(file, ElementType.LONG, 100);
        LongArray view = array.longs();
        truncate(file, 4096);
        array.close();
        InternalError fault = new InternalError("after close");
        assertThatThrownBy(() -> view.fault(fault, 7)).as("the closed file has nothing to say").isSameAs(fault);
        try (ChunkPool pool = ChunkPool.builder().name("faults").jmx(false).build(); LongArray chunks = pool.longs(10)) {
            assertThatThrownBy(() -> chunks.fault(fault, 2)).isSameAs(fault);
        }
    }

    @Test
    void aViewSaysItIsAViewOfNoPool() throws IOException {
        Path file = dir.resolve("named.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.DOUBLE, 3)) {
            DoubleArray view = array.doubles();
            assertThat(view).hasToString("DoubleArray[length=3, contiguous]");
            view.close();
            assertThat(view).hasToString("DoubleArray[length=3, contiguous, released]");
        }
    }
}
