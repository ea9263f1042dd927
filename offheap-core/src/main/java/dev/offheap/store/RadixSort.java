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
        array.operate("sort", true, 0, null, null, () -> new RadixSort(array).sortAll());
    }

    private void sortAll() {
        long n = array.length;
        if (n <= LEAF) {
            sortLeaf(0, n, scratch());
            return;
        }
        long per = Pieces.elementsPerPiece(n, shift);
        long[][] counts = new long[Pieces.count(n, per)][];
        int top = highestDifferingDigit(per, counts.length);
        if (top < 0) {
            return; // every key is the same
        }
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

    /**
     * The lowest bit of the highest byte in which two keys differ, or -1 if all keys are the same: the first
     * digit worth sorting by (so that keys which share their top bytes still split into buckets for the workers).
     */
    private int highestDifferingDigit(long per, int pieces) {
        long[] least = new long[pieces];
        long[] most = new long[pieces];
        Pieces.run(pieces, piece -> {
            long[] range = {-1L, 0L};
            Runs.over(array, piece * per, Math.min(array.length, (piece + 1) * per), (s, first, n) -> {
                long low = range[0];
                long high = range[1];
                for (long i = first, end = first + n; i < end; i++) {
                    long key = key(bitsAt(s, i));
                    low = Long.compareUnsigned(key, low) < 0 ? key : low;
                    high = Long.compareUnsigned(key, high) > 0 ? key : high;
                }
                range[0] = low;
                range[1] = high;
            });
            least[piece] = range[0];
            most[piece] = range[1];
        });
        long low = -1L;
        long high = 0L;
        for (int piece = 0; piece < pieces; piece++) {
            low = Long.compareUnsigned(least[piece], low) < 0 ? least[piece] : low;
            high = Long.compareUnsigned(most[piece], high) > 0 ? most[piece] : high;
        }
        long differing = low ^ high;
        return differing == 0 ? -1 : (63 - Long.numberOfLeadingZeros(differing)) / 8 * 8;
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
        for (long c : count) {
            if (c == to - from) { // one digit for all: nothing moves at this one
                sortBucket(from, to, digit - 8, scratch);
                return;
            }
        }
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
                if (d == b) { // in its bucket already: left unwritten, so sorted parts of a file stay clean
                    next[b]++;
                    continue;
                }
                do {
                    long slot = next[d]++;
                    long displaced = raw(slot);
                    write(slot, value);
                    value = displaced;
                    d = digitOf(value, digit);
                } while (d != b);
                write(next[b]++, value);
            }
        }
        return starts;
    }

    private void sortLeaf(long from, long to, Object scratch) {
        int n = (int) (to - from);
        array.copyToArray(from, scratch, 0, LEAF, n);
        if (isSorted(scratch, n)) {
            return; // nothing to write back
        }
        switch (scratch) {
            case long[] longs -> Arrays.sort(longs, 0, n);
            case double[] doubles -> Arrays.sort(doubles, 0, n);
            case int[] ints -> Arrays.sort(ints, 0, n);
            case float[] floats -> Arrays.sort(floats, 0, n);
            default -> throw new AssertionError(scratch);
        }
        array.copyFromArray(scratch, 0, LEAF, from, n);
    }

    /** Whether the first {@code n} elements are in {@link Arrays#sort}'s order already (NaNs last, of any bits). */
    private static boolean isSorted(Object scratch, int n) {
        switch (scratch) {
            case long[] longs -> {
                for (int i = 1; i < n; i++) {
                    if (longs[i - 1] > longs[i]) {
                        return false;
                    }
                }
            }
            case double[] doubles -> {
                for (int i = 1; i < n; i++) {
                    if (Double.compare(doubles[i - 1], doubles[i]) > 0) {
                        return false;
                    }
                }
            }
            case int[] ints -> {
                for (int i = 1; i < n; i++) {
                    if (ints[i - 1] > ints[i]) {
                        return false;
                    }
                }
            }
            case float[] floats -> {
                for (int i = 1; i < n; i++) {
                    if (Float.compare(floats[i - 1], floats[i]) > 0) {
                        return false;
                    }
                }
            }
            default -> throw new AssertionError(scratch);
        }
        return true;
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
        return digitOf(bitsAt(s, index), digit);
    }

    /** The bits of element {@code index} of {@code s}, a run of this array's elements. */
    private long bitsAt(MemorySegment s, long index) {
        return wide ? s.getAtIndex(ValueLayout.JAVA_LONG, index) : s.getAtIndex(ValueLayout.JAVA_INT, index);
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
        return bitsAt(array.segmentAt(offset), array.offsetIn(offset) >>> shift);
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
