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
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

/**
 * An array of {@code float} of any length, in native memory, native byte order. See {@link TypedArray} for
 * lifetime and threading; {@link ChunkPool#floats(long)} and {@link MappedArray#floats()} make them.
 */
public final class FloatArray extends TypedArray {
    private static final ValueLayout.OfFloat LAYOUT = ValueLayout.JAVA_FLOAT;
    /** {@code set}'s path, {@link IndexedElements#handle}: coordinates (indexed, 0L, index). */
    private static final VarHandle ELEMENTS = IndexedElements.handle(LAYOUT);

    FloatArray(ArrayMemory memory, long length) {
        super(memory, ElementType.FLOAT, length);
    }

    /**
     * Adds an owner, as {@link TypedArray#retain()}.
     *
     * @return this array
     * @throws IllegalStateException if the array has ended, or has {@code Integer.MAX_VALUE} owners
     */
    @Override
    public FloatArray retain() {
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
    public float get(long index) {
        return whole != null ? getContiguous(index) : getScattered(index);
    }

    // get, set and their contiguous paths stay within HotSpot's MaxInlineSize (AccessorsInlineTest)
    private float getContiguous(long index) {
        try {
            return indexed.getAtIndex(LAYOUT, checkedIndex(index));
        } catch (IndexOutOfBoundsException | IllegalStateException | InternalError e) {
            throw accessFailed(e, index, "get");
        }
    }

    private float getScattered(long index) {
        long offset = Objects.checkIndex(index, length) << 2;
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
    public void set(long index, float value) {
        if (whole != null) {
            setContiguous(index, value);
        } else {
            setScattered(index, value);
        }
    }

    private void setContiguous(long index, float value) {
        try {
            ELEMENTS.set(indexed, 0L, checkedIndex(index), value);
            return;
        } catch (IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "set");
        }
    }

    private void setScattered(long index, float value) {
        long offset = Objects.checkIndex(index, length) << 2;
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
    public void fill(float value) {
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
    public void fill(long fromIndex, long toIndex, float value) {
        FloatOps.fill(this, fromIndex, toIndex, value);
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
    public void copyTo(long srcIndex, float[] dst, int dstIndex, int count) {
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
    public void copyFrom(float[] src, int srcIndex, long dstIndex, int count) {
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
    public void copyTo(long srcIndex, FloatArray dst, long dstIndex, long count) {
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
    public float[] toArray(long fromIndex, long toIndex) {
        Objects.checkFromToIndex(fromIndex, toIndex, length);
        long count = toIndex - fromIndex;
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a Java array cannot hold " + count + " elements");
        }
        float[] result = new float[(int) count];
        copyTo(fromIndex, result, 0, result.length);
        return result;
    }

    // Whole-array operations: on every core, or on the Workers the caller chose (see Workers)

    /**
     * The sum of the elements, on the current {@link Workers}. The elements are added in an order fixed by the
     * length alone (eight running sums per piece of 256 KiB, added pairwise, then the pieces in index order), so
     * the result is the same on any workers and layout, but may differ in the last bits from one running sum.
     * The elements are added as {@code double}s. A NaN element makes the sum NaN; infinities of both signs too.
     *
     * @return the sum, {@code 0.0} for an empty array
     * @throws IllegalStateException       if the array has ended (released, or its pool or file closed)
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public double sum() {
        return FloatOps.sum(this);
    }

    /**
     * The dot product with {@code other}: the sum of {@code this[i] * other[i]}, added as {@code double}s, in {@link #sum()}'s order.
     *
     * @param other an array of the same length
     * @return the dot product, {@code 0.0} for empty arrays
     * @throws NullPointerException        if {@code other} is null
     * @throws IllegalArgumentException    if the lengths differ
     * @throws IllegalStateException       if either array has ended
     * @throws ArrayFileTruncatedException if either array is a view of a file someone else truncated
     */
    public double dot(FloatArray other) {
        return FloatOps.dot(this, Objects.requireNonNull(other, "other"));
    }

    /**
     * The least element, as {@link Math#min(float, float)} sees it: NaN if any element is NaN, and
     * {@code -0.0} below {@code 0.0}.
     *
     * @return the least element
     * @throws NoSuchElementException if the array is empty
     * @throws IllegalStateException            if the array has ended
     * @throws ArrayFileTruncatedException      if the array is a view of a file someone else truncated
     */
    public float min() {
        return FloatOps.extreme(this, true);
    }

    /**
     * The greatest element, as {@link Math#max(float, float)} sees it: NaN if any element is NaN, and
     * {@code 0.0} above {@code -0.0}.
     *
     * @return the greatest element
     * @throws NoSuchElementException if the array is empty
     * @throws IllegalStateException            if the array has ended
     * @throws ArrayFileTruncatedException      if the array is a view of a file someone else truncated
     */
    public float max() {
        return FloatOps.extreme(this, false);
    }

    /**
     * Sets each element to {@code x * a[i] + y * b[i]}, computed in {@code float} (two signals mixed into this one); {@code a} and
     * {@code b} may be this array.
     *
     * @param x the weight of {@code a}
     * @param a an array of the same length
     * @param y the weight of {@code b}
     * @param b an array of the same length
     * @throws NullPointerException        if {@code a} or {@code b} is null
     * @throws IllegalArgumentException    if the lengths differ, or this array is a read-only view of a file
     * @throws IllegalStateException       if any of the arrays has ended
     * @throws ArrayFileTruncatedException if any of them is a view of a file someone else truncated
     */
    public void mix(float x, FloatArray a, float y, FloatArray b) {
        FloatOps.mix(this, x, Objects.requireNonNull(a, "a"), y, Objects.requireNonNull(b, "b"));
    }

    /**
     * Adds {@code other[i]} to each element {@code i}.
     *
     * @param other an array of the same length; may be this one
     * @throws NullPointerException        if {@code other} is null
     * @throws IllegalArgumentException    if the lengths differ, or this array is a read-only view of a file
     * @throws IllegalStateException       if either array has ended
     * @throws ArrayFileTruncatedException if either array is a view of a file someone else truncated
     */
    public void add(FloatArray other) {
        FloatOps.add(this, Objects.requireNonNull(other, "other"));
    }

    /**
     * Multiplies each element by {@code factor}.
     *
     * @param factor the factor
     * @throws IllegalArgumentException    if the array is a read-only view of a file
     * @throws IllegalStateException       if the array has ended
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public void scale(float factor) {
        FloatOps.scale(this, factor);
    }

    /**
     * Limits each element to {@code [min, max]}; NaN elements stay NaN, and {@code -0.0} and {@code 0.0} are
     * ordered as by {@link Math#min(float, float)}.
     *
     * @param min the least value kept
     * @param max the greatest value kept
     * @throws IllegalArgumentException    if {@code min} is above {@code max} or either is NaN, or the array is
     *                                     a read-only view of a file
     * @throws IllegalStateException       if the array has ended
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public void clamp(float min, float max) {
        FloatOps.clamp(this, min, max);
    }

    /**
     * Sets each element to {@code function(a[i])}, the element given as a {@code double} and the result rounded
     * to {@code float}; {@code a} may be this array. The function runs on the
     * current {@link Workers}, so it must be safe to call from several threads at once, and an element's call
     * may come in any order.
     *
     * @param a        an array of the same length
     * @param function the function of an element
     * @throws NullPointerException        if {@code a} or {@code function} is null
     * @throws IllegalArgumentException    if the lengths differ, or this array is a read-only view of a file
     * @throws IllegalStateException       if either array has ended
     * @throws ArrayFileTruncatedException if either array is a view of a file someone else truncated
     * @throws RuntimeException            what {@code function} throws first; some elements may be set then
     */
    public void apply(FloatArray a, DoubleUnaryOperator function) {
        FloatOps.apply(this, Objects.requireNonNull(a, "a"), Objects.requireNonNull(function, "function"));
    }

    /**
     * Sets each element to {@code function(a[i], b[i])}; {@code a} and {@code b} may be this array. The function
     * runs as in {@link #apply(FloatArray, DoubleUnaryOperator)}.
     *
     * @param a        an array of the same length
     * @param b        an array of the same length
     * @param function the function of two elements
     * @throws NullPointerException        if an argument is null
     * @throws IllegalArgumentException    if the lengths differ, or this array is a read-only view of a file
     * @throws IllegalStateException       if any of the arrays has ended
     * @throws ArrayFileTruncatedException if any of them is a view of a file someone else truncated
     * @throws RuntimeException            what {@code function} throws first; some elements may be set then
     */
    public void apply(FloatArray a, FloatArray b, DoubleBinaryOperator function) {
        FloatOps.apply(this, Objects.requireNonNull(a, "a"), Objects.requireNonNull(b, "b"),
                Objects.requireNonNull(function, "function"));
    }

    /**
     * Replaces each element with the sum of it and every element before it (an inclusive scan), on the current
     * {@link Workers}: each piece of 256 KiB is summed as {@link #sum()} sums it, then runs one sum from the sum
     * of the pieces before it, so an element may differ in its last bits from one running sum over the array (the
     * same on any workers). Each piece's running sum is a {@code float}, started from the sum before it
     * rounded to {@code float}.
     *
     * @throws IllegalArgumentException    if the array is a read-only view of a file
     * @throws IllegalStateException       if the array has ended
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public void prefixSum() {
        FloatOps.prefixSum(this);
    }

    /**
     * Sorts the elements into ascending order, in the order of {@link Arrays#sort(float[])}: {@code -0.0}
     * before {@code 0.0}, NaN (of any bits, kept as they are) after positive infinity. In place, on the current
     * {@link Workers}, with 128 KiB of heap per worker and no other memory, whatever the length.
     *
     * @throws IllegalArgumentException    if the array is a read-only view of a file
     * @throws IllegalStateException       if the array has ended
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public void sort() {
        RadixSort.sort(this);
    }

    /**
     * Searches a sorted array for {@code key}, as {@link Arrays#binarySearch(float[], float)} does.
     *
     * @param key the value to find
     * @return the index of an element equal to {@code key} (in {@link #sort()}'s order), else
     *         {@code -(insertion point) - 1}, where the insertion point is the index of the first greater element
     *         or the length; unspecified if the array is not sorted
     * @throws IllegalStateException       if the array has ended
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public long binarySearch(float key) {
        return FloatOps.binarySearch(this, key);
    }
}
