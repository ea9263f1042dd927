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

import dev.offheap.account.MemoryBudget;
import dev.offheap.account.MemoryInUseException;
import dev.offheap.suite.Waits;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A closed mapped array and the views it handed out refuse every use, naming the file; unlinked files work on. */
class MappedArrayHandlesTest {
    @TempDir
    Path dir;

    @Test
    void everyMethodOfAClosedArrayThrowsNamingTheFile() throws IOException {
        Path file = dir.resolve("closed.npy");
        MappedArray array = MappedArray.create(file, ElementType.LONG, 100);
        array.close();
        List<ThrowingCallable> uses = List.of(array::elementType, array::length, array::mode, array::doubles,
                array::longs, array::ints, array::floats, array::bytes, array::force, () -> array.grow(200));
        for (ThrowingCallable use : uses) {
            assertThatThrownBy(use).isInstanceOf(IllegalStateException.class)
                    .hasMessage("mapped array " + file + " is closed");
        }
        assertThat(array.path()).isEqualTo(file);
        assertThat(array).hasToString("MappedArray[" + file + ", 100 int64, READ_WRITE]");
        assertThatCode(array::close).as("a second close does nothing, as for the pools").doesNotThrowAnyException();
    }

    @Test
    void viewsOfAClosedArrayThrowNamingTheFileInEveryOperation() throws IOException {
        Path file = dir.resolve("views.npy");
        MappedArray array = MappedArray.create(file, ElementType.LONG, 1000);
        LongArray view = array.longs();
        LongArray other = array.longs();
        array.grow(2000);
        LongArray grown = array.longs();
        MemorySegment segment = view.contiguousSegment().orElseThrow();
        view.set(5, 42);
        array.close();
        for (LongArray closed : List.of(view, other, grown)) {
            List<ThrowingCallable> uses = List.of(
                    () -> closed.get(5),
                    () -> closed.set(5, 1),
                    () -> closed.fill(7),
                    () -> closed.fill(0, 10, 0),
                    () -> closed.copyTo(0, new long[10], 0, 10),
                    () -> closed.copyFrom(new long[10], 0, 0, 10),
                    () -> closed.toArray(0, 10),
                    () -> closed.copyTo(0, grown == closed ? view : grown, 0, 10),
                    () -> closed.forEachChunk((s, first) -> s.get(ValueLayout.JAVA_LONG, 0)));
            for (ThrowingCallable use : uses) {
                assertThatThrownBy(use).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining(file.toString()).hasMessageContaining("closed");
            }
        }
        assertThatThrownBy(() -> segment.get(ValueLayout.JAVA_LONG, 0))
                .as("a segment a view handed out: the JDK's own exception").isInstanceOf(IllegalStateException.class);
        assertThatCode(view::close).as("the view's own reference is still there to drop").doesNotThrowAnyException();
        assertThatThrownBy(view::close).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
    }

    @Test
    void aReleasedViewThrowsNamingTheFileWhileTheArrayWorksOn() throws IOException {
        Path file = dir.resolve("released.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.INT, 10)) {
            IntArray view = array.ints();
            view.close();
            assertThatThrownBy(() -> view.get(0)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(file.toString());
            try (IntArray again = array.ints()) {
                again.set(0, 3);
                assertThat(again.get(0)).isEqualTo(3);
            }
        }
    }

    @Test
    void aFileRemovedWhileOpenKeepsWorkingUntilClosed() throws IOException {
        Path file = dir.resolve("unlinked.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.DOUBLE, 1000);
             DoubleArray doubles = array.doubles()) {
            Elements.write(doubles, 0, 1000);
            Files.delete(file);
            assertThat(file).doesNotExist();
            Elements.check(doubles, 0, 1000);
            doubles.set(3, -1.0);
            array.force();
            array.grow(5000);
            try (DoubleArray grown = array.doubles()) {
                assertThat(grown.get(3)).isEqualTo(-1.0);
                Elements.check(grown, 1000, 5000, true);
                grown.fill(1000, 5000, 2.5);
                assertThat(grown.get(4999)).isEqualTo(2.5);
            }
            assertThat(array.length()).isEqualTo(5000);
        }
        assertThat(file).doesNotExist();
    }

    @Test
    void growingAFileReplacedWhileOpenNeverTouchesTheNewFile() throws IOException {
        Path file = dir.resolve("replaced.npy");
        Path other = dir.resolve("other.bin");
        try (MappedArray array = MappedArray.create(file, ElementType.INT, 1000)) {
            Files.write(other, new byte[] {1, 2, 3});
            Files.move(other, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            array.grow(100_000);
            try (IntArray ints = array.ints()) {
                ints.set(99_999, 7);
                assertThat(ints.get(99_999)).isEqualTo(7);
            }
        }
        assertThat(Files.readAllBytes(file)).as("the file now at the path").containsExactly(1, 2, 3);
    }

    /**
     * JDK 25 sets the interrupt status of a thread that was inside an access when another thread closed the
     * arena (a view released or the array closed under it). A {@code FileChannel} closes itself when an
     * interrupted thread uses it: the array must never let that close its file for everyone.
     */
    @Test
    void anInterruptedThreadNeverClosesTheFileForTheOthers() throws IOException {
        Path file = dir.resolve("interrupted.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, 1000)) {
            try {
                Thread.currentThread().interrupt();
                try (LongArray longs = array.longs()) {
                    longs.set(1, 2);
                }
                array.force();
                array.grow(2000);
                assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is kept for the caller").isTrue();
            } finally {
                Thread.interrupted();
            }
            try (LongArray longs = array.longs()) {
                assertThat(longs.get(1)).isEqualTo(2);
                assertThat(longs.length()).isEqualTo(2000);
            }
            array.force();
        }
        try {
            Thread.currentThread().interrupt();
            try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE)) {
                assertThat(array.length()).isEqualTo(2000);
            }
            MappedArray.create(dir.resolve("interrupted-2.npy"), ElementType.INT, 10).close();
        } finally {
            Thread.interrupted();
        }
    }

    /**
     * The JDK refuses to close an arena while an I/O operation holds one of its segments (here a write to a
     * full pipe): close says so, and closing again once the operation is over unmaps the view and gives its
     * charge back instead of leaving it mapped for good.
     */
    @Test
    void aViewHeldByAnIoOperationIsUnmappedByTheNextClose() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("held-by-io");
        Path file = dir.resolve("held.npy");
        MappedArray array = MappedArray.create(file, ElementType.BYTE, 1 << 20,
                MappedArray.Options.defaults().budget(budget).jmx(false));
        ByteArray bytes = array.bytes();
        java.nio.channels.Pipe pipe = java.nio.channels.Pipe.open();
        java.nio.ByteBuffer whole = bytes.contiguousSegment().orElseThrow().asByteBuffer();
        Thread writer = Thread.ofPlatform().start(() -> {
            try (var sink = pipe.sink()) { // closed when done, so the reader below sees the end of the data
                while (whole.hasRemaining()) {
                    sink.write(whole);
                }
            } catch (IOException | IllegalStateException e) {
                throw new AssertionError(e);
            }
        });
        pipe.source().read(java.nio.ByteBuffer.allocate(1)); // the writer is inside its write, holding the segment
        assertThatThrownBy(array::close).isInstanceOf(MemoryInUseException.class)
                .hasMessageContaining("cannot close mapped array " + file + " completely")
                .hasMessageContaining("close() again once that operation has ended");
        assertThatThrownBy(array::length).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        java.nio.ByteBuffer sink = java.nio.ByteBuffer.allocate(1 << 16);
        // Read to the end: reading while the writer is alive could block for good once it wrote its last byte.
        while (pipe.source().read(sink.clear()) >= 0) {
            // drain
        }
        Waits.join(writer);
        assertThat(budget.used()).as("still mapped").isEqualTo(1 << 20);
        array.close();
        assertThat(array.openViews()).isZero();
        assertThat(budget.used()).isZero();
        assertThatThrownBy(() -> bytes.get(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(file.toString());
        assertThatCode(array::close).doesNotThrowAnyException();
        pipe.sink().close();
        pipe.source().close();
        budget.close();
    }
}
