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

/**
 * The value each element type holds at each index in these tests, in Java and, as {@link #NUMPY}, in NumPy,
 * and helpers to write and check it through any typed view.
 */
final class Elements {
    /** A NumPy expression for the same values over {@code i = np.arange(n, dtype=np.int64)}, by element type. */
    static final String NUMPY = """
            import numpy as np
            def expected(kind, n):
                i = np.arange(n, dtype=np.int64)
                if kind == 'f8': return i * 0.5 + 0.25
                if kind == 'f4': return ((i % 100000) * 0.25).astype(np.float32)
                if kind == 'i8': return i * 1000000007 - 5
                if kind == 'i4': return (i * 31 + 7).astype(np.int32)
                if kind == 'i2': return ((i * 13 - 11) % 65536).astype(np.uint16).view(np.int16)
                if kind == 'i1': return ((i * 7 + 3) % 256).astype(np.uint8).view(np.int8)
                raise ValueError(kind)
            """;

    private Elements() {}

    static double doubleAt(long i) {
        return i * 0.5 + 0.25;
    }

    static float floatAt(long i) {
        return (float) ((i % 100_000) * 0.25);
    }

    static long longAt(long i) {
        return i * 1_000_000_007L - 5;
    }

    static int intAt(long i) {
        return (int) (i * 31 + 7);
    }

    static short shortAt(long i) {
        return (short) (i * 13 - 11);
    }

    static byte byteAt(long i) {
        return (byte) (i * 7 + 3);
    }

    /** Sets elements {@code [from, to)} to their values. */
    static void write(TypedArray array, long from, long to) {
        switch (array) {
            case DoubleArray a -> {
                for (long i = from; i < to; i++) {
                    a.set(i, doubleAt(i));
                }
            }
            case FloatArray a -> {
                for (long i = from; i < to; i++) {
                    a.set(i, floatAt(i));
                }
            }
            case LongArray a -> {
                for (long i = from; i < to; i++) {
                    a.set(i, longAt(i));
                }
            }
            case IntArray a -> {
                for (long i = from; i < to; i++) {
                    a.set(i, intAt(i));
                }
            }
            case ShortArray a -> {
                for (long i = from; i < to; i++) {
                    a.set(i, shortAt(i));
                }
            }
            case ByteArray a -> {
                for (long i = from; i < to; i++) {
                    a.set(i, byteAt(i));
                }
            }
        }
    }

    /** Throws unless elements {@code [from, to)} hold their values ({@code zeros}: hold zero). */
    static void check(TypedArray array, long from, long to, boolean zeros) {
        for (long i = from; i < to; i++) {
            Object found = get(array, i);
            Object expected = zeros ? zero(array) : valueAt(array, i);
            if (!found.equals(expected)) {
                throw new AssertionError(array + " index " + i + " holds " + found + ", expected " + expected);
            }
        }
    }

    static void check(TypedArray array, long from, long to) {
        check(array, from, to, false);
    }

    static Object get(TypedArray array, long i) {
        return switch (array) {
            case DoubleArray a -> a.get(i);
            case FloatArray a -> a.get(i);
            case LongArray a -> a.get(i);
            case IntArray a -> a.get(i);
            case ShortArray a -> a.get(i);
            case ByteArray a -> a.get(i);
        };
    }

    static void setZero(TypedArray array, long i) {
        switch (array) {
            case DoubleArray a -> a.set(i, 0);
            case FloatArray a -> a.set(i, 0);
            case LongArray a -> a.set(i, 0);
            case IntArray a -> a.set(i, 0);
            case ShortArray a -> a.set(i, (short) 0);
            case ByteArray a -> a.set(i, (byte) 0);
        }
    }

    private static Object valueAt(TypedArray array, long i) {
        return switch (array) {
            case DoubleArray a -> doubleAt(i);
            case FloatArray a -> floatAt(i);
            case LongArray a -> longAt(i);
            case IntArray a -> intAt(i);
            case ShortArray a -> shortAt(i);
            case ByteArray a -> byteAt(i);
        };
    }

    private static Object zero(TypedArray array) {
        return switch (array) {
            case DoubleArray a -> 0.0;
            case FloatArray a -> 0.0f;
            case LongArray a -> 0L;
            case IntArray a -> 0;
            case ShortArray a -> (short) 0;
            case ByteArray a -> (byte) 0;
        };
    }

    /** A new view of the file's whole array, whatever its type. */
    static TypedArray view(MappedArray file) {
        return switch (file.elementType()) {
            case DOUBLE -> file.doubles();
            case FLOAT -> file.floats();
            case LONG -> file.longs();
            case INT -> file.ints();
            case SHORT -> file.shorts();
            case BYTE -> file.bytes();
        };
    }
}
