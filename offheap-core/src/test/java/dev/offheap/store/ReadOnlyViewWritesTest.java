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
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every write through a view of a file opened {@code READ_ONLY} is refused with an exception that names the file
 * and the mode (the JDK's own says only "Attempt to write a read-only segment"), and changes nothing.
 */
class ReadOnlyViewWritesTest {
    @TempDir
    Path dir;

    @Test
    void everyWriteThroughAReadOnlyViewNamesTheFileAndTheMode() throws IOException {
        Path file = dir.resolve("read-only.npy");
        try (MappedArray writable = MappedArray.create(file, ElementType.DOUBLE, 1000);
             DoubleArray doubles = writable.doubles()) {
            doubles.fill(2.5);
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
             DoubleArray view = array.doubles();
             ChunkPool pool = ChunkPool.builder().chunkSize(64 << 10).jmx(false).build();
             DoubleArray source = pool.doubles(1000)) {
            List<ThrowingCallable> writes = List.of(
                    () -> view.set(3, 1.0),
                    () -> view.fill(1.0),
                    () -> view.fill(0.0),
                    () -> view.fill(10, 20, 1.0),
                    () -> view.copyFrom(new double[] {1, 2, 3}, 0, 5, 3),
                    () -> source.copyTo(0, view, 0, 10),
                    () -> view.copyTo(0, view, 1, 10),
                    () -> view.forEachChunk((segment, first) -> segment.set(ValueLayout.JAVA_DOUBLE, 0, 1.0)));
            for (ThrowingCallable write : writes) {
                assertThatThrownBy(write).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(file.toString())
                        .hasMessageContaining("opened READ_ONLY");
            }
            assertThat(view.toArray(0, 1000)).containsOnly(2.5);
        }
    }

    @Test
    void setOnAReadOnlyViewOfEveryTypeNamesTheFile() throws IOException {
        for (ElementType type : ElementType.values()) {
            Path file = dir.resolve(type + ".npy");
            MappedArray.create(file, type, 10).close();
            try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY)) {
                ThrowingCallable set = switch (type) {
                    case BYTE -> () -> array.bytes().set(1, (byte) 1);
                    case SHORT -> () -> array.shorts().set(1, (short) 1);
                    case INT -> () -> array.ints().set(1, 1);
                    case LONG -> () -> array.longs().set(1, 1L);
                    case FLOAT -> () -> array.floats().set(1, 1f);
                    case DOUBLE -> () -> array.doubles().set(1, 1.0);
                };
                assertThatThrownBy(set).as("%s", type).isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("cannot set element 1 of " + file + ": its views are read-only, the file was"
                                + " opened READ_ONLY (MappedArray.Mode.READ_ONLY); open it READ_WRITE to write")
                        .hasCauseInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    @Test
    void aKernelsOwnIllegalArgumentExceptionPassesUnchanged() throws IOException {
        Path file = dir.resolve("kernel.npy");
        MappedArray.create(file, ElementType.LONG, 10).close();
        IllegalArgumentException own = new IllegalArgumentException("the kernel's own");
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
             LongArray view = array.longs()) {
            assertThatThrownBy(() -> view.forEachChunk((segment, first) -> {
                throw own;
            })).isSameAs(own);
        }
    }
}
