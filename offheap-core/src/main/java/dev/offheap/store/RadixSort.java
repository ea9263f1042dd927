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

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Sorts an array of 4- or 8-byte elements in place, in the order of {@link Arrays#sort} for its type (for
 * floating point: {@code -0.0} before {@code 0.0}, NaN last), with no memory beyond a small buffer per worker.
 * A most-significant-digit radix sort: it counts the elements per value of their top byte (on every worker),
 * moves each element to its byte's bucket by following cycles of swaps, then sorts the buckets on the workers,
 * each by the next byte down, until a bucket is small enough for {@link Arrays#sort} on a Java array.
 */
final class RadixSort {
    /** Buckets of at most this many elements are copied out and sorted by {@link Arrays#sort}. */
    static final int LEAF = 1 << 14;
    private static final int RADIX = 256;

    private final TypedArray array;
    private final ElementType type;
    private final boolean wide;
    private final boolean floating;
    private final int shift;

    private RadixSort(TypedArray array) {
        this.array = array;
        this.type = array.elementType();
        this.shift = type.shift();
        this.wide = shift == 3;
        this.floating = type == ElementType.DOUBLE || type == ElementType.FLOAT;
    }

    static void sort(TypedArray array) {
        array.operate("sort", true, null, null, () -> new RadixSort(array).sortAll());
    }

    private void sortAll() {
        long n = array.length;
        if (n <= LEAF) {
            sortLeaf(0, n, scratch());
            return;
        }
        int top = wide ? 56 : 24;
        long per = Pieces.elementsPerPiece(n, shift);
        long[][] counts = new long[Pieces.count(n, per)][];
        Pieces.run(counts.length, piece -> counts[piece] = histogram(piece * per, Math.min(n, (piece + 1) * per), top));
        long[] total = new long[RADIX];
        for (long[] count : counts) {
            for (int b = 0; b < RADIX; b++) {
                total[b] += count[b];
            }
        }
        long[] starts = permute(0, total, top);
        Pieces.run(RADIX, b -> {
            long from = starts[b];
            long to = b + 1 < RADIX ? starts[b + 1] : n;
            if (to - from > 1) {
                sortBucket(from, to, top - 8, null);
            }
        });
    }

    /** Sorts {@code [from, to)}, whose keys agree above bit {@code digit + 8}. */
    private void sortBucket(long from, long to, int digit, Object scratch) {
        if (to - from <= LEAF) {
            sortLeaf(from, to, scratch != null ? scratch : scratch());
            return;
        }
        if (digit < 0) {
            return; // every key is the same
        }
        long[] count = histogram(from, to, digit);
        long[] starts = permute(from, count, digit);
        Object buffer = scratch != null ? scratch : scratch();
        for (int b = 0; b < RADIX; b++) {
            long end = b + 1 < RADIX ? starts[b + 1] : to;
            if (end - starts[b] > 1) {
                sortBucket(starts[b], end, digit - 8, buffer);
            }
        }
    }

    private long[] histogram(long from, long to, int digit) {
        long[] count = new long[RADIX];
        Runs.over(array, from, to, (s, first, n) -> {
            for (long i = first, end = first + n; i < end; i++) {
                count[digit(s, i, digit)]++;
            }
        });
        return count;
    }

    /**
     * Moves each element of {@code [from, from + sum(count))} into its digit's bucket, in place; returns where
     * each bucket starts.
     */
    private long[] permute(long from, long[] count, int digit) {
        long[] starts = new long[RADIX];
        long[] next = new long[RADIX];
        long[] ends = new long[RADIX];
        long at = from;
        for (int b = 0; b < RADIX; b++) {
            starts[b] = at;
            next[b] = at;
            at += count[b];
            ends[b] = at;
        }
        for (int b = 0; b < RADIX; b++) {
            while (next[b] < ends[b]) {
                long value = raw(next[b]);
                int d = digitOf(value, digit);
                while (d != b) {
                    long slot = next[d]++;
                    long displaced = raw(slot);
                    write(slot, value);
                    value = displaced;
                    d = digitOf(value, digit);
                }
                write(next[b]++, value);
            }
        }
        return starts;
    }

    private void sortLeaf(long from, long to, Object scratch) {
        int n = (int) (to - from);
        array.copyToArray(from, scratch, 0, LEAF, n);
        switch (scratch) {
            case long[] longs -> Arrays.sort(longs, 0, n);
            case double[] doubles -> Arrays.sort(doubles, 0, n);
            case int[] ints -> Arrays.sort(ints, 0, n);
            case float[] floats -> Arrays.sort(floats, 0, n);
            default -> throw new AssertionError(scratch);
        }
        array.copyFromArray(scratch, 0, LEAF, from, n);
    }

    private Object scratch() {
        return switch (type) {
            case LONG -> new long[LEAF];
            case DOUBLE -> new double[LEAF];
            case INT -> new int[LEAF];
            case FLOAT -> new float[LEAF];
            default -> throw new IllegalArgumentException("cannot sort " + array.describe());
        };
    }

    private int digit(MemorySegment s, long index, int digit) {
        return digitOf(wide ? s.getAtIndex(ValueLayout.JAVA_LONG, index) : s.getAtIndex(ValueLayout.JAVA_INT, index),
                digit);
    }

    /** Byte {@code digit / 8} of the element's key: its bits, ordered as unsigned numbers in its type's order. */
    private int digitOf(long bits, int digit) {
        return (int) (key(bits) >>> digit) & (RADIX - 1);
    }

    private long key(long bits) {
        if (wide) {
            if (floating) {
                if (Double.isNaN(Double.longBitsToDouble(bits))) {
                    return -1L;
                }
                bits ^= (bits >> 63) & Long.MAX_VALUE;
            }
            return bits ^ Long.MIN_VALUE;
        }
        int v = (int) bits;
        if (floating) {
            if (Float.isNaN(Float.intBitsToFloat(v))) {
                return 0xFFFF_FFFFL;
            }
            v ^= (v >> 31) & Integer.MAX_VALUE;
        }
        return (v ^ Integer.MIN_VALUE) & 0xFFFF_FFFFL;
    }

    private long raw(long index) {
        long offset = index << shift;
        MemorySegment s = array.segmentAt(offset);
        return wide ? s.get(ValueLayout.JAVA_LONG, array.offsetIn(offset)) : s.get(ValueLayout.JAVA_INT, array.offsetIn(offset));
    }

    private void write(long index, long bits) {
        long offset = index << shift;
        MemorySegment s = array.segmentAt(offset);
        if (wide) {
            s.set(ValueLayout.JAVA_LONG, array.offsetIn(offset), bits);
        } else {
            s.set(ValueLayout.JAVA_INT, array.offsetIn(offset), (int) bits);
        }
    }
}
