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

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Any index outside the array, however large, throws {@link IndexOutOfBoundsException} in
 * {@code Objects.checkIndex}'s words from {@code get} and {@code set} of every element type, on the contiguous
 * layout and the portable one, and {@code set} writes nothing. Indices whose byte offset overflows a
 * {@code long} ({@code 1L << 61} doubles is byte 0 again) are the ones the JDK's own {@code getAtIndex} does not
 * catch. The contiguous path relies on the array's own check alone (its segment is widened,
 * {@link IndexedElements}), so indices just past the end, which would land in the same chunk's unused tail, are
 * tried too.
 */
class IndexOutsideTheArrayProperties {
    private static final long LENGTH = 9000; // doubles and longs take two 64 KiB chunks on the portable path
    private static ChunkPool contiguous;
    private static ChunkPool portable;

    @BeforeContainer
    static void pools() {
        contiguous = ChunkPool.builder().name("index-contiguous").chunkSize(64 << 10).jmx(false).build();
        portable = ChunkPool.builder().name("index-portable").chunkSize(64 << 10).portable(true).jmx(false).build();
    }

    @AfterContainer
    static void close() {
        contiguous.close();
        portable.close();
    }

    @Property(tries = 300)
    void getAndSetRefuseEveryIndexOutsideAndWriteNothing(@ForAll("outside") long index, @ForAll boolean onPortable,
                                                         @ForAll ElementType type) {
        ChunkPool pool = onPortable ? portable : contiguous;
        try (TypedArray array = make(pool, type)) {
            Elements.write(array, 0, LENGTH);
            String message = "Index " + index + " out of bounds for length " + LENGTH;
            assertThatThrownBy(() -> get(array, index)).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessage(message);
            assertThatThrownBy(() -> set(array, index)).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessage(message);
            Elements.check(array, 0, LENGTH, false);
        }
    }

    @Provide
    Arbitrary<Long> outside() {
        Arbitrary<Long> wrapping = Arbitraries.of(61, 62, 63).flatMap(bit -> Arbitraries.longs()
                .between(-64, 64).map(delta -> (1L << bit) + delta * LENGTH + delta));
        return Arbitraries.oneOf(
                Arbitraries.longs().between(Long.MIN_VALUE, -1),
                Arbitraries.longs().between(LENGTH, Long.MAX_VALUE),
                Arbitraries.longs().between(LENGTH, 2 * LENGTH),
                Arbitraries.of(-1L, LENGTH, LENGTH + 1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 60, (1L << 60) - 1,
                        1L << 61, (1L << 61) + 1, 1L << 62, -(1L << 61), -(1L << 62), Long.MIN_VALUE + 1),
                wrapping.filter(i -> i < 0 || i >= LENGTH));
    }

    private static TypedArray make(ChunkPool pool, ElementType type) {
        return switch (type) {
            case BYTE -> pool.bytes(LENGTH);
            case SHORT -> pool.shorts(LENGTH);
            case INT -> pool.ints(LENGTH);
            case LONG -> pool.longs(LENGTH);
            case FLOAT -> pool.floats(LENGTH);
            case DOUBLE -> pool.doubles(LENGTH);
        };
    }

    private static Object get(TypedArray array, long index) {
        return switch (array) {
            case ByteArray a -> a.get(index);
            case ShortArray a -> a.get(index);
            case IntArray a -> a.get(index);
            case LongArray a -> a.get(index);
            case FloatArray a -> a.get(index);
            case DoubleArray a -> a.get(index);
        };
    }

    private static void set(TypedArray array, long index) {
        switch (array) {
            case ByteArray a -> a.set(index, (byte) 7);
            case ShortArray a -> a.set(index, (short) 7);
            case IntArray a -> a.set(index, 7);
            case LongArray a -> a.set(index, 7);
            case FloatArray a -> a.set(index, 7);
            case DoubleArray a -> a.set(index, 7);
        }
    }
}
