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
 * A store array together with what it must hold: every element, as the long bit pattern
 * {@link StoreModelProperties.Access} sees (absent writes: zeros). Writes and copies go to both; {@link #check()}
 * compares every element.
 */
final class ModelArray {
    final TypedArray array;
    /** The pool's (or file's) name as the array's messages give it. */
    final String owner;
    final long[] model;
    private final StoreModelProperties.Access access;

    ModelArray(TypedArray array, String owner) {
        this.array = array;
        this.owner = owner;
        this.access = StoreModelProperties.Access.of(array);
        this.model = new long[Math.toIntExact(array.length())];
    }

    int length() {
        return model.length;
    }

    ElementType type() {
        return array.elementType();
    }

    /** A value for element {@code i} of array {@code id}: different between arrays and between indices. */
    static long pattern(long id, long i) {
        long x = id * 0x9E3779B97F4A7C15L + (i + 1) * 0xC2B2AE3D27D4EB4FL;
        x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
        x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
        return x ^ (x >>> 31);
    }

    /** Writes {@code pattern(id, i)} to elements {@code [from, to)} with one bulk copy. */
    void writePattern(long id, int from, int to) {
        long[] values = new long[to - from];
        for (int i = 0; i < values.length; i++) {
            values[i] = access.normalize(pattern(id, from + i));
        }
        access.copyIn(values, from);
        System.arraycopy(values, 0, model, from, values.length);
    }

    void set(int index, long value) {
        access.set(index, value);
        model[index] = access.normalize(value);
    }

    void fill(int from, int to, long value) {
        access.fill(from, to, value);
        java.util.Arrays.fill(model, from, to, access.normalize(value));
    }

    /** Copies {@code count} elements to {@code dst} (of the same type; may be this array) with the array's copyTo. */
    void copyTo(int from, ModelArray dst, int to, int count) {
        copy(array, from, dst.array, to, count);
        System.arraycopy(model, from, dst.model, to, count);
    }

    /** Throws unless every element holds its model's value (read with one bulk copy). */
    void check() {
        long[] found = access.copyOut(0, model.length);
        for (int i = 0; i < model.length; i++) {
            if (found[i] != model[i]) {
                throw new AssertionError(array + " of " + owner + ": element " + i + " holds " + found[i]
                        + ", expected " + model[i] + mismatches(found));
            }
        }
    }

    /** Throws unless every element, read with {@code get} one by one, holds its model's value. */
    void checkByGet() {
        for (int i = 0; i < model.length; i++) {
            long found = access.get(i);
            if (found != model[i]) {
                throw new AssertionError(array + " of " + owner + ": get(" + i + ") returns " + found
                        + ", expected " + model[i]);
            }
        }
    }

    long get(int index) {
        return access.get(index);
    }

    long[] read(int from, int count) {
        return access.copyOut(from, count);
    }

    long normalize(long value) {
        return access.normalize(value);
    }

    private String mismatches(long[] found) {
        int count = 0;
        int first = -1;
        int last = -1;
        for (int i = 0; i < model.length; i++) {
            if (found[i] != model[i]) {
                count++;
                first = first < 0 ? i : first;
                last = i;
            }
        }
        return " (" + count + " elements differ, from " + first + " to " + last + ")";
    }

    /** {@code src.copyTo(from, dst, to, count)} for two arrays of one element type. */
    static void copy(TypedArray src, long from, TypedArray dst, long to, long count) {
        switch (src) {
            case DoubleArray a -> a.copyTo(from, (DoubleArray) dst, to, count);
            case FloatArray a -> a.copyTo(from, (FloatArray) dst, to, count);
            case LongArray a -> a.copyTo(from, (LongArray) dst, to, count);
            case IntArray a -> a.copyTo(from, (IntArray) dst, to, count);
            case ShortArray a -> a.copyTo(from, (ShortArray) dst, to, count);
            case ByteArray a -> a.copyTo(from, (ByteArray) dst, to, count);
        }
    }

    static TypedArray allocate(ChunkPool pool, ElementType type, long length, Contents contents) {
        return switch (type) {
            case BYTE -> pool.bytes(length, contents);
            case SHORT -> pool.shorts(length, contents);
            case INT -> pool.ints(length, contents);
            case LONG -> pool.longs(length, contents);
            case FLOAT -> pool.floats(length, contents);
            case DOUBLE -> pool.doubles(length, contents);
        };
    }

    @Override
    public String toString() {
        return array + " of " + owner;
    }
}
