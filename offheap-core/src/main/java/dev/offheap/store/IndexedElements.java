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

import dev.offheap.os.Views;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Element access with one exact bounds check per access: the array's own, of the index against its length.
 *
 * <p>The JDK's {@code getAtIndex} and {@code setAtIndex} multiply the index by the element size without an overflow
 * check ({@code setAtIndex(JAVA_DOUBLE, 1L << 61, v)} writes element 0), so an accessor over the array's exact
 * segment needed a check against overflow besides the segment's bounds check. In a loop HotSpot does not optimise
 * (a long loop compiled on stack replacement, which is how a loop in a method called a few times runs) both stay:
 * one compare more per element than a flat segment's loop, 12 % on {@code set} loops. Instead every contiguous
 * access checks the index against {@code length & INDEXABLE} ({@link TypedArray#checkedIndex}) and goes to the
 * array's segment {@link #widen widened} to {@link #SPAN} bytes (same address, same arena, so it ends with the
 * array; no index that could overflow reaches it). {@code set} writes through a {@link #handle} over a sequence of
 * SPAN bytes of elements, whose index check against the sequence's constant count HotSpot drops (the mask tells it
 * the checked index is below), and whose segment check covers the whole sequence whatever the index: one check per
 * element, as a flat segment's loop makes. Reads and the atomic operations use {@code getAtIndex} and the layout's
 * handle on the widened segment (its bounds check stays, as in a flat loop): a sum through the sequence handle
 * does not vectorize (its whole-sequence check stays inside the loop; an int sum ran 2.2x the flat loop), and a
 * loop that reads and writes the same array vectorizes only if both go through the same segment.
 */
final class IndexedElements {
    /** Bytes a widened segment spans; every address plus it stays below 2^63. */
    static final long SPAN = 1L << 62;
    /** Above every array's length (arrays are at most 2^57 bytes) and below every element type's count in SPAN. */
    static final long INDEXABLE = (1L << 59) - 1;

    private IndexedElements() {}

    /** Coordinates (segment, 0L, element index), with the layout's alignment and byte order. */
    static VarHandle handle(ValueLayout layout) {
        return MemoryLayout.sequenceLayout(SPAN / layout.byteSize(), layout)
                .varHandle(MemoryLayout.PathElement.sequenceElement());
    }

    /**
     * {@code whole} widened to SPAN bytes, for accessors that check the index themselves; never handed out. If
     * {@code whole} has already ended (its pool closed while the array was being made), a segment that has too.
     */
    @SuppressWarnings("restricted")
    static MemorySegment widen(MemorySegment whole) {
        try {
            return whole.reinterpret(SPAN);
        } catch (IllegalStateException ended) {
            return Views.ended(SPAN);
        }
    }
}
