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

/**
 * Walks elements {@code [from, to)} of one, two or three arrays of the same element size in runs that lie
 * within one segment of each (the whole array where it is contiguous, else a chunk), handing each run to a
 * loop that the segments' own checks keep within bounds.
 */
final class Runs {
    /** A loop over elements {@code [first, first + count)} of one segment. */
    @FunctionalInterface
    interface One {
        void run(MemorySegment segment, long first, long count);
    }

    /** A loop over {@code count} elements of two segments, from {@code a[aFirst]} and {@code b[bFirst]}. */
    @FunctionalInterface
    interface Two {
        void run(MemorySegment a, long aFirst, MemorySegment b, long bFirst, long count);
    }

    /** A loop over {@code count} elements of three segments. */
    @FunctionalInterface
    interface Three {
        void run(MemorySegment a, long aFirst, MemorySegment b, long bFirst, MemorySegment c, long cFirst,
                long count);
    }

    private Runs() {
    }

    static void over(TypedArray a, long from, long to, One loop) {
        int shift = a.elementType().shift();
        for (long i = from; i < to; ) {
            long offset = i << shift;
            long n = Math.min(to - i, left(a, offset) >>> shift);
            loop.run(a.segmentAt(offset), a.offsetIn(offset) >>> shift, n);
            i += n;
        }
    }

    static void over(TypedArray a, TypedArray b, long from, long to, Two loop) {
        int shift = a.elementType().shift();
        for (long i = from; i < to; ) {
            long offset = i << shift;
            long n = Math.min(to - i, Math.min(left(a, offset), left(b, offset)) >>> shift);
            loop.run(a.segmentAt(offset), a.offsetIn(offset) >>> shift, b.segmentAt(offset), b.offsetIn(offset) >>> shift,
                    n);
            i += n;
        }
    }

    static void over(TypedArray a, TypedArray b, TypedArray c, long from, long to, Three loop) {
        int shift = a.elementType().shift();
        for (long i = from; i < to; ) {
            long offset = i << shift;
            long n = Math.min(to - i, Math.min(left(a, offset), Math.min(left(b, offset), left(c, offset))) >>> shift);
            loop.run(a.segmentAt(offset), a.offsetIn(offset) >>> shift, b.segmentAt(offset), b.offsetIn(offset) >>> shift,
                    c.segmentAt(offset), c.offsetIn(offset) >>> shift, n);
            i += n;
        }
    }

    /** The bytes of {@code array}'s segment at {@code offset} from there on. */
    private static long left(TypedArray array, long offset) {
        return array.segmentAt(offset).byteSize() - array.offsetIn(offset);
    }
}
