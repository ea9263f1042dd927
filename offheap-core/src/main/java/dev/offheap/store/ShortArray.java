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
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * An array of {@code short} (16-bit signed integers, NumPy's int16) of any length, in native memory, native
 * byte order. See {@link TypedArray} for lifetime and threading; {@link ChunkPool#shorts(long)} and
 * {@link MappedArray#shorts()} make them.
 *
 * <p>A view of an {@code .npy} file of NumPy's uint16 ({@link NpyDtype#UINT16}) is a {@code ShortArray} too:
 * its elements read as Java's signed {@code short}, the same 16 bits, so values from 32768 to 65535 read as
 * -32768 to -1. {@link Short#toUnsignedInt(short)} gives the unsigned value, and {@code (short) value} writes
 * one from 0 to 65535.
 */
public final class ShortArray extends TypedArray {
    private static final ValueLayout.OfShort LAYOUT = ValueLayout.JAVA_SHORT;
    /** {@code set}'s path, {@link IndexedElements#handle}: coordinates (indexed, 0L, index). */
    private static final VarHandle ELEMENTS = IndexedElements.handle(LAYOUT);

    ShortArray(ArrayMemory memory, long length) {
        super(memory, ElementType.SHORT, length);
    }

    /**
     * Adds an owner, as {@link TypedArray#retain()}.
     *
     * @return this array
     * @throws IllegalStateException if the array has ended, or has {@code Integer.MAX_VALUE} owners
     */
    @Override
    public ShortArray retain() {
        super.retain();
        return this;
    }

    /**
     * The element at {@code index}.
     *
     * @param index the element's index, from 0 to {@link #length()} - 1
     * @return the element
     * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #length()}
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public short get(long index) {
        return whole != null ? getContiguous(index) : getScattered(index);
    }

    // get, set and their contiguous paths stay within HotSpot's MaxInlineSize (AccessorsInlineTest)
    private short getContiguous(long index) {
        try {
            return indexed.getAtIndex(LAYOUT, checkedIndex(index));
        } catch (IndexOutOfBoundsException | IllegalStateException | InternalError e) {
            throw accessFailed(e, index, "get");
        }
    }

    private short getScattered(long index) {
        long offset = Objects.checkIndex(index, length) << 1;
        try {
            return chunks[(int) (offset >>> chunkShift)].get(LAYOUT, offset & chunkMask);
        } catch (IllegalStateException | InternalError e) {
            throw accessFailed(e, index, "get");
        }
    }

    /**
     * Sets the element at {@code index}.
     *
     * @param index the element's index, from 0 to {@link #length()} - 1
     * @param value the new value
     * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #length()}
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     * @throws IllegalArgumentException if the array is a read-only view of a file (naming it)
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public void set(long index, short value) {
        if (whole != null) {
            setContiguous(index, value);
        } else {
            setScattered(index, value);
        }
    }

    private void setContiguous(long index, short value) {
        try {
            ELEMENTS.set(indexed, 0L, checkedIndex(index), value);
            return;
        } catch (IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "set");
        }
    }

    private void setScattered(long index, short value) {
        long offset = Objects.checkIndex(index, length) << 1;
        try {
            chunks[(int) (offset >>> chunkShift)].set(LAYOUT, offset & chunkMask, value);
        } catch (IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "set");
        }
    }

    /**
     * Sets every element to {@code value}.
     *
     * @param value the new value of every element
     * @throws IllegalStateException         if the array has ended (released, or its pool or file closed)
     * @throws IllegalArgumentException     if the array is a read-only view of a file (naming it)
     * @throws ArrayFileTruncatedException   if the array is a view of a file someone else truncated
     */
    public void fill(short value) {
        fill(0, length, value);
    }

    /**
     * Sets the elements {@code [fromIndex, toIndex)} to {@code value}.
     *
     * @param fromIndex the first element to set
     * @param toIndex   the element after the last one to set
     * @param value     the new value
     * @throws IndexOutOfBoundsException     if {@code fromIndex} is negative, {@code toIndex} is larger than
     *                                       {@link #length()}, or {@code fromIndex} is larger than {@code toIndex}
     * @throws IllegalStateException         if the array has ended (released, or its pool or file closed)
     * @throws IllegalArgumentException     if the array is a read-only view of a file (naming it)
     * @throws ArrayFileTruncatedException   if the array is a view of a file someone else truncated
     */
    public void fill(long fromIndex, long toIndex, short value) {
        Sweeps.inPlace(this, "fill", fromIndex, toIndex, (segment, first, count) -> {
            for (long i = first, end = first + count; i < end; i++) {
                segment.setAtIndex(LAYOUT, i, value);
            }
        });
    }

    /**
     * Copies {@code count} elements from {@code this[srcIndex..]} into {@code dst[dstIndex..]}.
     *
     * @param srcIndex the first element of this array to copy
     * @param dst      the Java array to copy into
     * @param dstIndex where the first element goes in {@code dst}
     * @param count    the number of elements
     * @throws NullPointerException          if {@code dst} is null
     * @throws IndexOutOfBoundsException     if either range lies outside its array, or {@code count} is negative
     * @throws IllegalStateException         if the array has ended (released, or its pool or file closed)
     * @throws ArrayFileTruncatedException   if the array is a view of a file someone else truncated
     */
    public void copyTo(long srcIndex, short[] dst, int dstIndex, int count) {
        copyToArray(srcIndex, dst, dstIndex, dst.length, count);
    }

    /**
     * Copies {@code count} elements from {@code src[srcIndex..]} into {@code this[dstIndex..]}.
     *
     * @param src      the Java array to copy from
     * @param srcIndex the first element of {@code src} to copy
     * @param dstIndex where the first element goes in this array
     * @param count    the number of elements
     * @throws NullPointerException          if {@code src} is null
     * @throws IndexOutOfBoundsException     if either range lies outside its array, or {@code count} is negative
     * @throws IllegalStateException         if the array has ended (released, or its pool or file closed)
     * @throws IllegalArgumentException     if the array is a read-only view of a file (naming it)
     * @throws ArrayFileTruncatedException   if the array is a view of a file someone else truncated
     */
    public void copyFrom(short[] src, int srcIndex, long dstIndex, int count) {
        copyFromArray(src, srcIndex, src.length, dstIndex, count);
    }

    /**
     * Copies {@code count} elements from {@code this[srcIndex..]} into {@code dst[dstIndex..]}, which may
     * be this array: overlapping ranges copy as if through a temporary copy.
     *
     * @param srcIndex the first element of this array to copy
     * @param dst      the array to copy into, this one or another
     * @param dstIndex where the first element goes in {@code dst}
     * @param count    the number of elements
     * @throws NullPointerException          if {@code dst} is null
     * @throws IndexOutOfBoundsException     if either range lies outside its array, or {@code count} is negative
     * @throws IllegalStateException         if either array has ended (released, or its pool or file closed)
     * @throws IllegalArgumentException     if {@code dst} is a read-only view of a file (naming it)
     * @throws ArrayFileTruncatedException   if either array is a view of a file someone else truncated
     */
    public void copyTo(long srcIndex, ShortArray dst, long dstIndex, long count) {
        copyElements(srcIndex, dst, dstIndex, count);
    }

    /**
     * A new Java array with the elements {@code [fromIndex, toIndex)}.
     *
     * @param fromIndex the first element to copy
     * @param toIndex   the element after the last one to copy
     * @return a new array of {@code toIndex - fromIndex} elements
     * @throws IndexOutOfBoundsException     if {@code fromIndex} is negative, {@code toIndex} is larger than
     *                                       {@link #length()}, or {@code fromIndex} is larger than {@code toIndex}
     * @throws IllegalArgumentException     if a Java array cannot hold that many elements
     * @throws IllegalStateException         if the array has ended (released, or its pool or file closed)
     * @throws ArrayFileTruncatedException   if the array is a view of a file someone else truncated
     */
    public short[] toArray(long fromIndex, long toIndex) {
        Objects.checkFromToIndex(fromIndex, toIndex, length);
        long count = toIndex - fromIndex;
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a Java array cannot hold " + count + " elements");
        }
        short[] result = new short[(int) count];
        copyTo(fromIndex, result, 0, result.length);
        return result;
    }
}
