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

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every element type's own accessors ({@code get}, {@code set}, {@code fill}, copies to and from Java arrays and
 * between arrays, {@code toArray}, {@code retain}) at the edges of chunks and of the array, on the contiguous
 * layout and on the portable one, whose chunks are separate segments: each reaches exactly the elements asked.
 */
class ElementsAcrossChunkEdgesTest {
    private static final long CHUNK = 64 << 10;

    /** One element type's accessors, with element values carried as {@code long}s (small, exact in every type). */
    private interface Typed {
        TypedArray make(ChunkPool pool, long length);

        long get(TypedArray array, long index);

        void set(TypedArray array, long index, long value);

        void fill(TypedArray array, long value);

        void fill(TypedArray array, long from, long to, long value);

        /** Into a Java array of {@code size} elements that hold -1, returned as longs. */
        long[] copyTo(TypedArray array, long srcIndex, int size, int dstIndex, int count);

        void copyFrom(TypedArray array, long[] values, int srcIndex, long dstIndex, int count);

        void copyTo(TypedArray array, long srcIndex, TypedArray dst, long dstIndex, long count);

        long[] toArray(TypedArray array, long from, long to);

        TypedArray retain(TypedArray array);
    }

    private static long[] widen(int size, LongUnaryOperator element) {
        long[] out = new long[size];
        for (int i = 0; i < size; i++) {
            out[i] = element.applyAsLong(i);
        }
        return out;
    }

    private static final Typed BYTES = new Typed() {
        public TypedArray make(ChunkPool pool, long length) { return pool.bytes(length); }
        public long get(TypedArray a, long i) { return ((ByteArray) a).get(i); }
        public void set(TypedArray a, long i, long v) { ((ByteArray) a).set(i, (byte) v); }
        public void fill(TypedArray a, long v) { ((ByteArray) a).fill((byte) v); }
        public void fill(TypedArray a, long from, long to, long v) { ((ByteArray) a).fill(from, to, (byte) v); }
        public long[] copyTo(TypedArray a, long src, int size, int dstIndex, int count) {
            byte[] dst = new byte[size];
            java.util.Arrays.fill(dst, (byte) -1);
            ((ByteArray) a).copyTo(src, dst, dstIndex, count);
            return widen(size, i -> dst[(int) i]);
        }
        public void copyFrom(TypedArray a, long[] values, int srcIndex, long dstIndex, int count) {
            byte[] src = new byte[values.length];
            for (int i = 0; i < src.length; i++) {
                src[i] = (byte) values[i];
            }
            ((ByteArray) a).copyFrom(src, srcIndex, dstIndex, count);
        }
        public void copyTo(TypedArray a, long src, TypedArray dst, long dstIndex, long count) {
            ((ByteArray) a).copyTo(src, (ByteArray) dst, dstIndex, count);
        }
        public long[] toArray(TypedArray a, long from, long to) {
            byte[] out = ((ByteArray) a).toArray(from, to);
            return widen(out.length, i -> out[(int) i]);
        }
        public TypedArray retain(TypedArray a) { return ((ByteArray) a).retain(); }
        public String toString() { return "bytes"; }
    };

    private static final Typed INTS = new Typed() {
        public TypedArray make(ChunkPool pool, long length) { return pool.ints(length); }
        public long get(TypedArray a, long i) { return ((IntArray) a).get(i); }
        public void set(TypedArray a, long i, long v) { ((IntArray) a).set(i, (int) v); }
        public void fill(TypedArray a, long v) { ((IntArray) a).fill((int) v); }
        public void fill(TypedArray a, long from, long to, long v) { ((IntArray) a).fill(from, to, (int) v); }
        public long[] copyTo(TypedArray a, long src, int size, int dstIndex, int count) {
            int[] dst = new int[size];
            java.util.Arrays.fill(dst, -1);
            ((IntArray) a).copyTo(src, dst, dstIndex, count);
            return widen(size, i -> dst[(int) i]);
        }
        public void copyFrom(TypedArray a, long[] values, int srcIndex, long dstIndex, int count) {
            int[] src = new int[values.length];
            for (int i = 0; i < src.length; i++) {
                src[i] = (int) values[i];
            }
            ((IntArray) a).copyFrom(src, srcIndex, dstIndex, count);
        }
        public void copyTo(TypedArray a, long src, TypedArray dst, long dstIndex, long count) {
            ((IntArray) a).copyTo(src, (IntArray) dst, dstIndex, count);
        }
        public long[] toArray(TypedArray a, long from, long to) {
            int[] out = ((IntArray) a).toArray(from, to);
            return widen(out.length, i -> out[(int) i]);
        }
        public TypedArray retain(TypedArray a) { return ((IntArray) a).retain(); }
        public String toString() { return "ints"; }
    };

    private static final Typed SHORTS = new Typed() {
        public TypedArray make(ChunkPool pool, long length) { return pool.shorts(length); }
        public long get(TypedArray a, long i) { return ((ShortArray) a).get(i); }
        public void set(TypedArray a, long i, long v) { ((ShortArray) a).set(i, (short) v); }
        public void fill(TypedArray a, long v) { ((ShortArray) a).fill((short) v); }
        public void fill(TypedArray a, long from, long to, long v) { ((ShortArray) a).fill(from, to, (short) v); }
        public long[] copyTo(TypedArray a, long src, int size, int dstIndex, int count) {
            short[] dst = new short[size];
            java.util.Arrays.fill(dst, (short) -1);
            ((ShortArray) a).copyTo(src, dst, dstIndex, count);
            return widen(size, i -> dst[(int) i]);
        }
        public void copyFrom(TypedArray a, long[] values, int srcIndex, long dstIndex, int count) {
            short[] src = new short[values.length];
            for (int i = 0; i < src.length; i++) {
                src[i] = (short) values[i];
            }
            ((ShortArray) a).copyFrom(src, srcIndex, dstIndex, count);
        }
        public void copyTo(TypedArray a, long src, TypedArray dst, long dstIndex, long count) {
            ((ShortArray) a).copyTo(src, (ShortArray) dst, dstIndex, count);
        }
        public long[] toArray(TypedArray a, long from, long to) {
            short[] out = ((ShortArray) a).toArray(from, to);
            return widen(out.length, i -> out[(int) i]);
        }
        public TypedArray retain(TypedArray a) { return ((ShortArray) a).retain(); }
        public String toString() { return "shorts"; }
    };

    private static final Typed LONGS = new Typed() {
        public TypedArray make(ChunkPool pool, long length) { return pool.longs(length); }
        public long get(TypedArray a, long i) { return ((LongArray) a).get(i); }
        public void set(TypedArray a, long i, long v) { ((LongArray) a).set(i, v); }
        public void fill(TypedArray a, long v) { ((LongArray) a).fill(v); }
        public void fill(TypedArray a, long from, long to, long v) { ((LongArray) a).fill(from, to, v); }
        public long[] copyTo(TypedArray a, long src, int size, int dstIndex, int count) {
            long[] dst = new long[size];
            java.util.Arrays.fill(dst, -1);
            ((LongArray) a).copyTo(src, dst, dstIndex, count);
            return dst;
        }
        public void copyFrom(TypedArray a, long[] values, int srcIndex, long dstIndex, int count) {
            ((LongArray) a).copyFrom(values.clone(), srcIndex, dstIndex, count);
        }
        public void copyTo(TypedArray a, long src, TypedArray dst, long dstIndex, long count) {
            ((LongArray) a).copyTo(src, (LongArray) dst, dstIndex, count);
        }
        public long[] toArray(TypedArray a, long from, long to) { return ((LongArray) a).toArray(from, to); }
        public TypedArray retain(TypedArray a) { return ((LongArray) a).retain(); }
        public String toString() { return "longs"; }
    };

    private static final Typed FLOATS = new Typed() {
        public TypedArray make(ChunkPool pool, long length) { return pool.floats(length); }
        public long get(TypedArray a, long i) { return (long) ((FloatArray) a).get(i); }
        public void set(TypedArray a, long i, long v) { ((FloatArray) a).set(i, v); }
        public void fill(TypedArray a, long v) { ((FloatArray) a).fill(v); }
        public void fill(TypedArray a, long from, long to, long v) { ((FloatArray) a).fill(from, to, v); }
        public long[] copyTo(TypedArray a, long src, int size, int dstIndex, int count) {
            float[] dst = new float[size];
            java.util.Arrays.fill(dst, -1);
            ((FloatArray) a).copyTo(src, dst, dstIndex, count);
            return widen(size, i -> (long) dst[(int) i]);
        }
        public void copyFrom(TypedArray a, long[] values, int srcIndex, long dstIndex, int count) {
            float[] src = new float[values.length];
            for (int i = 0; i < src.length; i++) {
                src[i] = values[i];
            }
            ((FloatArray) a).copyFrom(src, srcIndex, dstIndex, count);
        }
        public void copyTo(TypedArray a, long src, TypedArray dst, long dstIndex, long count) {
            ((FloatArray) a).copyTo(src, (FloatArray) dst, dstIndex, count);
        }
        public long[] toArray(TypedArray a, long from, long to) {
            float[] out = ((FloatArray) a).toArray(from, to);
            return widen(out.length, i -> (long) out[(int) i]);
        }
        public TypedArray retain(TypedArray a) { return ((FloatArray) a).retain(); }
        public String toString() { return "floats"; }
    };

    private static final Typed DOUBLES = new Typed() {
        public TypedArray make(ChunkPool pool, long length) { return pool.doubles(length); }
        public long get(TypedArray a, long i) { return (long) ((DoubleArray) a).get(i); }
        public void set(TypedArray a, long i, long v) { ((DoubleArray) a).set(i, v); }
        public void fill(TypedArray a, long v) { ((DoubleArray) a).fill(v); }
        public void fill(TypedArray a, long from, long to, long v) { ((DoubleArray) a).fill(from, to, v); }
        public long[] copyTo(TypedArray a, long src, int size, int dstIndex, int count) {
            double[] dst = new double[size];
            java.util.Arrays.fill(dst, -1);
            ((DoubleArray) a).copyTo(src, dst, dstIndex, count);
            return widen(size, i -> (long) dst[(int) i]);
        }
        public void copyFrom(TypedArray a, long[] values, int srcIndex, long dstIndex, int count) {
            double[] src = new double[values.length];
            for (int i = 0; i < src.length; i++) {
                src[i] = values[i];
            }
            ((DoubleArray) a).copyFrom(src, srcIndex, dstIndex, count);
        }
        public void copyTo(TypedArray a, long src, TypedArray dst, long dstIndex, long count) {
            ((DoubleArray) a).copyTo(src, (DoubleArray) dst, dstIndex, count);
        }
        public long[] toArray(TypedArray a, long from, long to) {
            double[] out = ((DoubleArray) a).toArray(from, to);
            return widen(out.length, i -> (long) out[(int) i]);
        }
        public TypedArray retain(TypedArray a) { return ((DoubleArray) a).retain(); }
        public String toString() { return "doubles"; }
    };

    /** Every element type on the contiguous layout and on the portable one (separate chunk segments). */
    static Stream<Arguments> typesAndLayouts() {
        List<Arguments> all = new ArrayList<>();
        for (Typed typed : List.of(BYTES, SHORTS, INTS, LONGS, FLOATS, DOUBLES)) {
            all.add(Arguments.of(typed, false));
            all.add(Arguments.of(typed, true));
        }
        return all.stream();
    }

    private static ChunkPool pool(boolean portable) {
        return ChunkPool.builder().name("edges").chunkSize(CHUNK).portable(portable).jmx(false).build();
    }

    /** Elements per chunk. */
    private static long perChunk(TypedArray array) {
        return CHUNK / array.elementType().byteSize();
    }

    @ParameterizedTest(name = "{0}, portable={1}")
    @MethodSource("typesAndLayouts")
    void getAndSetReachTheElementAskedOnEitherSideOfEveryChunkEdge(Typed typed, boolean portable) {
        try (ChunkPool pool = pool(portable)) {
            TypedArray probe = typed.make(pool, 1);
            long c = perChunk(probe);
            probe.close();
            long n = 2 * c + 3;
            try (TypedArray array = typed.make(pool, n)) {
                assertThat(array.isContiguous()).isEqualTo(!portable);
                long[] edges = {0, 1, c - 1, c, c + 1, 2 * c - 1, 2 * c, n - 1};
                for (int k = 0; k < edges.length; k++) {
                    typed.set(array, edges[k], 10 + k);
                }
                for (int k = 0; k < edges.length; k++) {
                    assertThat(typed.get(array, edges[k])).as("element %d", edges[k]).isEqualTo(10 + k);
                }
                assertThat(typed.get(array, 2)).isZero();
                assertThat(typed.get(array, c - 2)).isZero();
                assertThat(typed.get(array, c + 2)).isZero();
                assertThat(typed.get(array, 2 * c + 1)).isZero();
                assertThat(typed.get(array, n - 2)).isZero();
                assertThatThrownBy(() -> typed.get(array, n)).isInstanceOf(IndexOutOfBoundsException.class)
                        .hasMessage("Index " + n + " out of bounds for length " + n);
                assertThatThrownBy(() -> typed.set(array, n, 1)).isInstanceOf(IndexOutOfBoundsException.class)
                        .hasMessage("Index " + n + " out of bounds for length " + n);
                assertThatThrownBy(() -> typed.get(array, -1)).isInstanceOf(IndexOutOfBoundsException.class)
                        .hasMessage("Index -1 out of bounds for length " + n);
                assertThat(typed.get(array, n - 1)).isEqualTo(17);
            }
        }
    }

    @ParameterizedTest(name = "{0}, portable={1}")
    @MethodSource("typesAndLayouts")
    void fillSetsExactlyItsRangeWithZerosAndWithOtherValues(Typed typed, boolean portable) {
        try (ChunkPool pool = pool(portable)) {
            TypedArray probe = typed.make(pool, 1);
            long c = perChunk(probe);
            probe.close();
            long n = 2 * c + 3;
            try (TypedArray array = typed.make(pool, n)) {
                typed.fill(array, 7);
                typed.fill(array, c - 2, c + 3, 0); // zeros across the first chunk edge
                typed.fill(array, 2 * c - 1, 2 * c + 1, 9); // a value across the second
                typed.fill(array, 1, 3, 0); // zeros within the first chunk, not from its start
                typed.fill(array, 5, 5, 0); // nothing
                typed.fill(array, n - 1, n, 4);
                assertThat(typed.toArray(array, 0, 7)).containsExactly(7, 0, 0, 7, 7, 7, 7);
                assertThat(typed.toArray(array, c - 3, c + 4)).containsExactly(7, 0, 0, 0, 0, 0, 7);
                assertThat(typed.toArray(array, 2 * c - 2, 2 * c + 2)).containsExactly(7, 9, 9, 7);
                assertThat(typed.toArray(array, n - 2, n)).containsExactly(7, 4);
                long sevens = 0;
                for (long value : typed.toArray(array, 0, n)) {
                    sevens += value == 7 ? 1 : 0;
                }
                assertThat(sevens).as("every other element keeps its 7").isEqualTo(n - 2 - 5 - 2 - 1);
                assertThatThrownBy(() -> typed.fill(array, n - 1, n + 1, 1))
                        .isInstanceOf(IndexOutOfBoundsException.class)
                        .hasMessage("Range [" + (n - 1) + ", " + (n + 1) + ") out of bounds for length " + n);
                assertThat(typed.get(array, n - 1)).isEqualTo(4);
            }
        }
    }

    @ParameterizedTest(name = "{0}, portable={1}")
    @MethodSource("typesAndLayouts")
    void copiesWithJavaArraysMoveExactlyTheirRangeAcrossAChunkEdge(Typed typed, boolean portable) {
        try (ChunkPool pool = pool(portable)) {
            TypedArray probe = typed.make(pool, 1);
            long c = perChunk(probe);
            probe.close();
            try (TypedArray array = typed.make(pool, 2 * c + 3)) {
                typed.copyFrom(array, new long[] {10, 11, 12, 13, 14, 15, 16, 17}, 1, c - 3, 6);
                assertThat(typed.toArray(array, c - 4, c + 4)).containsExactly(0, 11, 12, 13, 14, 15, 16, 0);
                assertThat(typed.copyTo(array, c - 4, 10, 2, 8)).containsExactly(-1, -1, 0, 11, 12, 13, 14, 15, 16, 0);
                assertThat(typed.copyTo(array, c, 3, 1, 2)).containsExactly(-1, 14, 15);
                assertThatThrownBy(() -> typed.copyTo(array, c, 3, 2, 2))
                        .isInstanceOf(IndexOutOfBoundsException.class)
                        .hasMessage("Range [2, 2 + 2) out of bounds for length 3");
                assertThatThrownBy(() -> typed.copyFrom(array, new long[4], 0, 2 * c, 4))
                        .isInstanceOf(IndexOutOfBoundsException.class)
                        .hasMessage("Range [" + 2 * c + ", " + 2 * c + " + 4) out of bounds for length " + (2 * c + 3));
            }
        }
    }

    @ParameterizedTest(name = "{0}, portable={1}")
    @MethodSource("typesAndLayouts")
    void copiesBetweenArraysAndWithinOneMoveExactlyTheirRange(Typed typed, boolean portable) {
        try (ChunkPool pool = pool(portable)) {
            TypedArray probe = typed.make(pool, 1);
            long c = perChunk(probe);
            probe.close();
            try (TypedArray a = typed.make(pool, 2 * c + 3); TypedArray b = typed.make(pool, 2 * c + 3)) {
                typed.copyFrom(a, new long[] {1, 2, 3, 4, 5, 6}, 0, c - 3, 6);
                typed.copyTo(a, c - 3, b, 2 * c - 2, 5);
                assertThat(typed.toArray(b, 2 * c - 3, 2 * c + 3)).containsExactly(0, 1, 2, 3, 4, 5);
                typed.copyTo(a, c - 3, a, c - 1, 5); // overlapping, towards higher indices
                assertThat(typed.toArray(a, c - 3, c + 5)).containsExactly(1, 2, 1, 2, 3, 4, 5, 0);
                typed.copyTo(a, c - 1, a, c - 2, 4); // overlapping, towards lower indices
                assertThat(typed.toArray(a, c - 3, c + 5)).containsExactly(1, 1, 2, 3, 4, 4, 5, 0);
            }
        }
    }

    @ParameterizedTest(name = "{0}, portable={1}")
    @MethodSource("typesAndLayouts")
    void toArrayHoldsExactlyTheRangeAsked(Typed typed, boolean portable) {
        try (ChunkPool pool = pool(portable)) {
            TypedArray probe = typed.make(pool, 1);
            long c = perChunk(probe);
            probe.close();
            long n = 2 * c + 3;
            try (TypedArray array = typed.make(pool, n)) {
                typed.set(array, c - 1, 21);
                typed.set(array, c, 22);
                typed.set(array, c + 1, 23);
                typed.set(array, n - 1, 24);
                assertThat(typed.toArray(array, c - 1, c + 2)).containsExactly(21, 22, 23);
                assertThat(typed.toArray(array, c, c + 1)).containsExactly(22);
                assertThat(typed.toArray(array, n - 1, n)).containsExactly(24);
                assertThat(typed.toArray(array, 4, 4)).isEmpty();
                assertThat(typed.toArray(array, 0, n)).hasSize((int) n);
                assertThatThrownBy(() -> typed.toArray(array, 0, n + 1)).isInstanceOf(IndexOutOfBoundsException.class)
                        .hasMessage("Range [0, " + (n + 1) + ") out of bounds for length " + n);
            }
        }
    }

    @ParameterizedTest(name = "{0}, portable={1}")
    @MethodSource("typesAndLayouts")
    void retainReturnsTheSameArrayWithOneMoreOwner(Typed typed, boolean portable) {
        try (ChunkPool pool = pool(portable)) {
            TypedArray array = typed.make(pool, 3);
            assertThat(typed.retain(array)).isSameAs(array);
            assertThat(array.refCount()).isEqualTo(2);
            assertThat(array.release()).isFalse();
            assertThat(array.release()).isTrue();
            assertThat(array.refCount()).isZero();
        }
    }
}
