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
import dev.offheap.suite.Waits;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A close that finds two views held by I/O operations reports both: its {@link MemoryInUseException} counts
 * the two views and their bytes. Both views stay mapped until the next close.
 */
class CloseWithTwoHeldViewsTest {
    @TempDir
    Path dir;

    @Test
    void bothHeldViewsAreReportedAndUnmappedByTheNextClose() throws Exception {
        Path file = dir.resolve("held-twice.npy");
        MappedArray array = MappedArray.create(file, ElementType.BYTE, 1 << 20,
                MappedArray.Options.defaults().jmx(false));
        List<Pipe> pipes = new ArrayList<>();
        List<Thread> writers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ByteArray view = array.bytes();
            ByteBuffer whole = view.contiguousSegment().orElseThrow().asByteBuffer();
            Pipe pipe = Pipe.open();
            pipes.add(pipe);
            writers.add(Thread.ofPlatform().start(() -> {
                try (Pipe.SinkChannel sink = pipe.sink()) { // closed when done: the reader sees the end
                    while (whole.hasRemaining()) {
                        sink.write(whole);
                    }
                } catch (IOException | IllegalStateException e) {
                    throw new AssertionError(e);
                }
            }));
            pipe.source().read(ByteBuffer.allocate(1)); // the writer is inside its write, holding the view
        }
        assertThatThrownBy(array::close).isInstanceOf(MemoryInUseException.class)
                .hasMessageStartingWith("cannot close mapped array " + file + " completely: 2 of its views cannot end")
                .hasMessageContaining("close() again once that operation has ended")
                .satisfies(e -> assertThat(((MemoryInUseException) e).heldBytes()).isEqualTo(2 << 20));
        assertThat(array.openViews()).isEqualTo(2);
        assertThat(array.mappedBytes()).as("both stay mapped").isEqualTo(2 << 20);
        for (Pipe pipe : pipes) {
            ByteBuffer sink = ByteBuffer.allocate(1 << 16);
            while (pipe.source().read(sink.clear()) >= 0) {
                // drain to the end, which the writer's close marks
            }
            pipe.source().close();
        }
        for (Thread writer : writers) {
            Waits.join(writer);
        }
        array.close();
        assertThat(array.openViews()).isZero();
        assertThat(array.mappedBytes()).isZero();
    }
}
