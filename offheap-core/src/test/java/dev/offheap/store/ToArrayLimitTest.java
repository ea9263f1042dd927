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
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code toArray} makes Java arrays of up to {@code Integer.MAX_VALUE - 8} elements, the most every JVM allows,
 * and refuses one more with an {@link IllegalArgumentException} saying so. The arrays are views of sparse files
 * (nothing on disk); the test JVM's heap cannot hold the largest Java array, which it says with an
 * {@link OutOfMemoryError} rather than a refusal.
 */
class ToArrayLimitTest {
    private static final int MOST = Integer.MAX_VALUE - 8;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ElementType.class)
    void theLargestJavaArrayIsMadeOrOutOfHeapOneMoreIsRefused(ElementType type) throws IOException {
        long length = MOST + 2L;
        Path file = dir.resolve(type + ".npy");
        byte[] header = NpyFiles.header(1, NpyFiles.dict(NpyHeader.create(type, 0).descr(), false, "(" + length + ",)"));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(header));
            channel.write(ByteBuffer.allocate(1), header.length + length * type.byteSize() - 1);
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY,
                MappedArray.Options.defaults().jmx(false));
             TypedArray view = Elements.view(array)) {
            assertThat(view.length()).isEqualTo(length);
            assertThatThrownBy(() -> toArray(view, 0, MOST + 1L)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a Java array cannot hold 2147483640 elements");
            assertThatThrownBy(() -> toArray(view, 1, MOST + 2L)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a Java array cannot hold 2147483640 elements");
            try {
                assertThat(toArray(view, 2, MOST + 2L)).as("the largest Java array").isEqualTo(MOST);
            } catch (OutOfMemoryError heapTooSmall) {
                // made, not refused: the heap cannot hold it
            }
        }
    }

    /** The length of the Java array {@code toArray} made. */
    private static int toArray(TypedArray view, long from, long to) {
        return switch (view) {
            case ByteArray a -> a.toArray(from, to).length;
            case ShortArray a -> a.toArray(from, to).length;
            case IntArray a -> a.toArray(from, to).length;
            case LongArray a -> a.toArray(from, to).length;
            case FloatArray a -> a.toArray(from, to).length;
            case DoubleArray a -> a.toArray(from, to).length;
        };
    }
}
