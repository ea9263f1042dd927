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
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;

/**
 * An array of {@code long} of any length, in native memory, native byte order. See {@link TypedArray} for
 * lifetime and threading; {@link ChunkPool#longs(long)} and {@link MappedArray#longs()} make them.
 *
 * <p><b>Atomic element operations.</b> {@link #getAcquire}, {@link #setRelease}, {@link #getVolatile},
 * {@link #setVolatile}, {@link #compareAndSet} and {@link #getAndAdd} access one element atomically with the
 * memory order of the {@link VarHandle} access mode of the same name, on every array (a pool's, contiguous or
 * in chunks, or a view of a file). They hand data over between threads, and between processes that map the
 * same file ({@link MappedArray.Mode#SHARED}, whose javadoc gives the rule for who writes what): write plain
 * elements with {@code set}, then publish them with {@code setRelease} of a counter; read the counter with
 * {@code getAcquire}, then the elements it covers.
 *
 * {@snippet :
 * // writer                                  // reader
 * data.set(n, value);                        long published = data.getAcquire(0);
 * data.setRelease(0, n);                     if (published >= n) use(data.get(n));
 * }
 *
 * <p>Each checks its index and fails like {@code get} and {@code set}: the same exceptions, for a bad index,
 * an array that has ended or a truncated file, and a write ({@code setRelease}, {@code setVolatile},
 * {@code compareAndSet}, {@code getAndAdd}) to a read-only view. Elements are always naturally aligned (pool
 * chunks are page aligned, and {@link MappedArray} opens only files whose data offset is a multiple of the
 * element size), which atomic access needs; were one not, the access would throw the JDK's
 * {@link IllegalArgumentException} ("misaligned access"), never tear or crash.
 */
public final class LongArray extends TypedArray {
    private static final ValueLayout.OfLong LAYOUT = ValueLayout.JAVA_LONG;
    /** {@code set}'s path, {@link IndexedElements#handle}: coordinates (indexed, 0L, index). */
    private static final VarHandle ELEMENTS = IndexedElements.handle(LAYOUT);
    /** The atomic and ordered accesses: coordinates (segment, byte offset), aligned (the layout's alignment). */
    private static final VarHandle HANDLE = LAYOUT.varHandle();

    LongArray(ArrayMemory memory, long length) {
        super(memory, ElementType.LONG, length);
    }

    /**
     * Adds an owner, as {@link TypedArray#retain()}.
     *
     * @return this array
     * @throws IllegalStateException if the array has ended, or has {@code Integer.MAX_VALUE} owners
     */
    @Override
    public LongArray retain() {
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
    public long get(long index) {
        return whole != null ? getContiguous(index) : getScattered(index);
    }

    // get, set and their contiguous paths stay within HotSpot's MaxInlineSize (AccessorsInlineTest)
    private long getContiguous(long index) {
        try {
            return indexed.getAtIndex(LAYOUT, checkedIndex(index));
        } catch (IndexOutOfBoundsException | IllegalStateException | InternalError e) {
            throw accessFailed(e, index, "get");
        }
    }

    private long getScattered(long index) {
        long offset = Objects.checkIndex(index, length) << 3;
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
    public void set(long index, long value) {
        if (whole != null) {
            setContiguous(index, value);
        } else {
            setScattered(index, value);
        }
    }

    private void setContiguous(long index, long value) {
        try {
            ELEMENTS.set(indexed, 0L, checkedIndex(index), value);
            return;
        } catch (IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "set");
        }
    }

    private void setScattered(long index, long value) {
        long offset = Objects.checkIndex(index, length) << 3;
        try {
            chunks[(int) (offset >>> chunkShift)].set(LAYOUT, offset & chunkMask, value);
        } catch (IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "set");
        }
    }

    /**
     * The element at {@code index}, read with acquire order ({@link VarHandle#getAcquire}): no read or write
     * after it in this thread happens before it. Read a counter or sequence element this way before the plain
     * elements it publishes (see the class description).
     *
     * @param index the element's index, from 0 to {@link #length()} - 1
     * @return the element
     * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #length()}
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public long getAcquire(long index) {
        return whole != null ? getAcquireContiguous(index) : getAcquireScattered(index);
    }

    private long getAcquireContiguous(long index) {
        try {
            return (long) HANDLE.getAcquire(indexed, checkedIndex(index) << 3);
        } catch (IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "getAcquire");
        }
    }

    private long getAcquireScattered(long index) {
        long offset = Objects.checkIndex(index, length) << 3;
        try {
            return (long) HANDLE.getAcquire(chunks[(int) (offset >>> chunkShift)], offset & chunkMask);
        } catch (IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "getAcquire");
        }
    }

    /**
     * Sets the element at {@code index} with release order ({@link VarHandle#setRelease}): every read and write
     * before it in this thread happens before it, so a reader that sees the value with {@link #getAcquire} sees
     * them too. Publish plain writes this way.
     *
     * @param index the element's index, from 0 to {@link #length()} - 1
     * @param value the new value
     * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #length()}
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     * @throws IllegalArgumentException if the array is a read-only view of a file (naming it)
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public void setRelease(long index, long value) {
        if (whole != null) {
            setReleaseContiguous(index, value);
        } else {
            setReleaseScattered(index, value);
        }
    }

    private void setReleaseContiguous(long index, long value) {
        try {
            HANDLE.setRelease(indexed, checkedIndex(index) << 3, value);
            return;
        } catch (IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "setRelease");
        }
    }

    private void setReleaseScattered(long index, long value) {
        long offset = Objects.checkIndex(index, length) << 3;
        try {
            HANDLE.setRelease(chunks[(int) (offset >>> chunkShift)], offset & chunkMask, value);
        } catch (IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "setRelease");
        }
    }

    /**
     * The element at {@code index}, read as a volatile read ({@link VarHandle#getVolatile}): acquire order, and
     * one total order with every other volatile access.
     *
     * @param index the element's index, from 0 to {@link #length()} - 1
     * @return the element
     * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #length()}
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public long getVolatile(long index) {
        return whole != null ? getVolatileContiguous(index) : getVolatileScattered(index);
    }

    private long getVolatileContiguous(long index) {
        try {
            return (long) HANDLE.getVolatile(indexed, checkedIndex(index) << 3);
        } catch (IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "getVolatile");
        }
    }

    private long getVolatileScattered(long index) {
        long offset = Objects.checkIndex(index, length) << 3;
        try {
            return (long) HANDLE.getVolatile(chunks[(int) (offset >>> chunkShift)], offset & chunkMask);
        } catch (IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "getVolatile");
        }
    }

    /**
     * Sets the element at {@code index} as a volatile write ({@link VarHandle#setVolatile}): release order, and
     * one total order with every other volatile access (costlier than {@link #setRelease} on x86: a full fence).
     *
     * @param index the element's index, from 0 to {@link #length()} - 1
     * @param value the new value
     * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #length()}
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     * @throws IllegalArgumentException if the array is a read-only view of a file (naming it)
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public void setVolatile(long index, long value) {
        if (whole != null) {
            setVolatileContiguous(index, value);
        } else {
            setVolatileScattered(index, value);
        }
    }

    private void setVolatileContiguous(long index, long value) {
        try {
            HANDLE.setVolatile(indexed, checkedIndex(index) << 3, value);
            return;
        } catch (IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "setVolatile");
        }
    }

    private void setVolatileScattered(long index, long value) {
        long offset = Objects.checkIndex(index, length) << 3;
        try {
            HANDLE.setVolatile(chunks[(int) (offset >>> chunkShift)], offset & chunkMask, value);
        } catch (IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "setVolatile");
        }
    }

    /**
     * Sets the element at {@code index} to {@code value} if it is {@code expected}, atomically, with volatile
     * order ({@link VarHandle#compareAndSet}). Never fails spuriously.
     *
     * @param index    the element's index, from 0 to {@link #length()} - 1
     * @param expected the value the element must hold
     * @param value    the new value
     * @return true if the element held {@code expected} and now holds {@code value}, false if it held another
     *         value (left unchanged)
     * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #length()}
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     * @throws IllegalArgumentException if the array is a read-only view of a file (naming it)
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public boolean compareAndSet(long index, long expected, long value) {
        return whole != null ? compareAndSetContiguous(index, expected, value) : compareAndSetScattered(index, expected, value);
    }

    private boolean compareAndSetContiguous(long index, long expected, long value) {
        try {
            return (boolean) HANDLE.compareAndSet(indexed, checkedIndex(index) << 3, expected, value);
        } catch (IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "compareAndSet");
        }
    }

    private boolean compareAndSetScattered(long index, long expected, long value) {
        long offset = Objects.checkIndex(index, length) << 3;
        try {
            return (boolean) HANDLE.compareAndSet(chunks[(int) (offset >>> chunkShift)], offset & chunkMask, expected, value);
        } catch (IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "compareAndSet");
        }
    }

    /**
     * Adds {@code delta} to the element at {@code index}, atomically, with volatile order
     * ({@link VarHandle#getAndAdd}); it wraps around on overflow, as {@code +} does.
     *
     * @param index the element's index, from 0 to {@link #length()} - 1
     * @param delta the value to add (negative to subtract)
     * @return the element before the addition
     * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #length()}
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     * @throws IllegalArgumentException if the array is a read-only view of a file (naming it)
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public long getAndAdd(long index, long delta) {
        return whole != null ? getAndAddContiguous(index, delta) : getAndAddScattered(index, delta);
    }

    private long getAndAddContiguous(long index, long delta) {
        try {
            return (long) HANDLE.getAndAdd(indexed, checkedIndex(index) << 3, delta);
        } catch (IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "getAndAdd");
        }
    }

    private long getAndAddScattered(long index, long delta) {
        long offset = Objects.checkIndex(index, length) << 3;
        try {
            return (long) HANDLE.getAndAdd(chunks[(int) (offset >>> chunkShift)], offset & chunkMask, delta);
        } catch (IllegalStateException | IllegalArgumentException | InternalError e) {
            throw accessFailed(e, index, "getAndAdd");
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
    public void fill(long value) {
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
    public void fill(long fromIndex, long toIndex, long value) {
        LongOps.fill(this, fromIndex, toIndex, value);
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
    public void copyTo(long srcIndex, long[] dst, int dstIndex, int count) {
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
    public void copyFrom(long[] src, int srcIndex, long dstIndex, int count) {
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
    public void copyTo(long srcIndex, LongArray dst, long dstIndex, long count) {
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
    public long[] toArray(long fromIndex, long toIndex) {
        Objects.checkFromToIndex(fromIndex, toIndex, length);
        long count = toIndex - fromIndex;
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a Java array cannot hold " + count + " elements");
        }
        long[] result = new long[(int) count];
        copyTo(fromIndex, result, 0, result.length);
        return result;
    }

    // Whole-array operations: on every core, or on the Workers the caller chose (see Workers)

    /**
     * The sum of the elements, on the current {@link Workers}, as a {@code long} that wraps around on overflow
     * as {@code long} arithmetic does.
     *
     * @return the sum, 0 for an empty array
     * @throws IllegalStateException       if the array has ended (released, or its pool or file closed)
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public long sum() {
        return LongOps.sum(this, null, "sum");
    }

    /**
     * The dot product with {@code other}: the sum of {@code this[i] * other[i]} as {@code long}s, wrapping
     * around on overflow.
     *
     * @param other an array of the same length
     * @return the dot product, 0 for empty arrays
     * @throws NullPointerException        if {@code other} is null
     * @throws IllegalArgumentException    if the lengths differ
     * @throws IllegalStateException       if either array has ended
     * @throws ArrayFileTruncatedException if either array is a view of a file someone else truncated
     */
    public long dot(LongArray other) {
        return LongOps.sum(this, Objects.requireNonNull(other, "other"), "take the dot product of");
    }

    /**
     * The least element.
     *
     * @return the least element
     * @throws NoSuchElementException if the array is empty
     * @throws IllegalStateException            if the array has ended
     * @throws ArrayFileTruncatedException      if the array is a view of a file someone else truncated
     */
    public long min() {
        return LongOps.extreme(this, true);
    }

    /**
     * The greatest element.
     *
     * @return the greatest element
     * @throws NoSuchElementException if the array is empty
     * @throws IllegalStateException            if the array has ended
     * @throws ArrayFileTruncatedException      if the array is a view of a file someone else truncated
     */
    public long max() {
        return LongOps.extreme(this, false);
    }

    /**
     * Sets each element to {@code x * a[i] + y * b[i]}, wrapping around on overflow as {@code long} arithmetic
     * does; {@code a} and {@code b} may be this array.
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
    public void mix(long x, LongArray a, long y, LongArray b) {
        LongOps.mix(this, x, Objects.requireNonNull(a, "a"), y, Objects.requireNonNull(b, "b"));
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
    public void add(LongArray other) {
        LongOps.add(this, Objects.requireNonNull(other, "other"));
    }

    /**
     * Multiplies each element by {@code factor}.
     *
     * @param factor the factor
     * @throws IllegalArgumentException    if the array is a read-only view of a file
     * @throws IllegalStateException       if the array has ended
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public void scale(long factor) {
        LongOps.scale(this, factor);
    }

    /**
     * Limits each element to {@code [min, max]}.
     *
     * @param min the least value kept
     * @param max the greatest value kept
     * @throws IllegalArgumentException    if {@code min} is above {@code max}, or the array is
     *                                     a read-only view of a file
     * @throws IllegalStateException       if the array has ended
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public void clamp(long min, long max) {
        LongOps.clamp(this, min, max);
    }

    /**
     * Sets each element to {@code function(a[i])}; {@code a} may be this array. The function runs on the
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
    public void apply(LongArray a, LongUnaryOperator function) {
        LongOps.apply(this, Objects.requireNonNull(a, "a"), Objects.requireNonNull(function, "function"));
    }

    /**
     * Sets each element to {@code function(a[i], b[i])}; {@code a} and {@code b} may be this array. The function
     * runs as in {@link #apply(LongArray, LongUnaryOperator)}.
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
    public void apply(LongArray a, LongArray b, LongBinaryOperator function) {
        LongOps.apply(this, Objects.requireNonNull(a, "a"), Objects.requireNonNull(b, "b"),
                Objects.requireNonNull(function, "function"));
    }

    /**
     * Replaces each element with the sum of it and every element before it (an inclusive scan), on the current
     * {@link Workers}, wrapping around on overflow as {@code long} arithmetic does.
     *
     * @throws IllegalArgumentException    if the array is a read-only view of a file
     * @throws IllegalStateException       if the array has ended
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public void prefixSum() {
        LongOps.prefixSum(this);
    }

    /**
     * Sorts the elements into ascending order. In place, on the current
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
     * Searches a sorted array for {@code key}, as {@link Arrays#binarySearch(long[], long)} does.
     *
     * @param key the value to find
     * @return the index of an element equal to {@code key}, else
     *         {@code -(insertion point) - 1}, where the insertion point is the index of the first greater element
     *         or the length; unspecified if the array is not sorted
     * @throws IllegalStateException       if the array has ended
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     */
    public long binarySearch(long key) {
        return LongOps.binarySearch(this, key);
    }
}
