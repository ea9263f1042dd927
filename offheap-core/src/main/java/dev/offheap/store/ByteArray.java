package dev.offheap.store;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * An array of {@code byte} of any length, in native memory, native byte order. See {@link TypedArray} for
 * lifetime and threading; {@link ChunkPool#bytes(long)} and {@link MappedArray#bytes()} make them.
 */
public final class ByteArray extends TypedArray {
    private static final ValueLayout.OfByte LAYOUT = ValueLayout.JAVA_BYTE;

    ByteArray(ArrayMemory memory, long length) {
        super(memory, ElementType.BYTE, length);
    }

    @Override
    public ByteArray retain() {
        super.retain();
        return this;
    }

    /**
     * The element at {@code index}.
     *
     * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #length()}
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     */
    public byte get(long index) {
        return whole != null ? getContiguous(index) : getScattered(index);
    }

    // get, set and their contiguous paths stay within HotSpot's MaxInlineSize (AccessorsInlineTest)
    private byte getContiguous(long index) {
        try {
            return whole.getAtIndex(LAYOUT, index);
        } catch (IndexOutOfBoundsException | IllegalStateException | InternalError e) {
            throw accessFailed(e, index, "get");
        }
    }

    private byte getScattered(long index) {
        long offset = Objects.checkIndex(index, length);
        try {
            return chunks[(int) (offset >>> chunkShift)].get(LAYOUT, offset & chunkMask);
        } catch (IllegalStateException | InternalError e) {
            throw accessFailed(e, index, "get");
        }
    }

    /**
     * Sets the element at {@code index}.
     *
     * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #length()}
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     */
    public void set(long index, byte value) {
        if (whole != null) {
            setContiguous(index, value);
        } else {
            setScattered(index, value);
        }
    }

    private void setContiguous(long index, byte value) {
        try {
            whole.setAtIndex(LAYOUT, index, value);
            return;
        } catch (IndexOutOfBoundsException | IllegalStateException | InternalError e) {
            throw accessFailed(e, index, "set");
        }
    }

    private void setScattered(long index, byte value) {
        long offset = Objects.checkIndex(index, length);
        try {
            chunks[(int) (offset >>> chunkShift)].set(LAYOUT, offset & chunkMask, value);
        } catch (IllegalStateException | InternalError e) {
            throw accessFailed(e, index, "set");
        }
    }

    /** Sets every element to {@code value}. */
    public void fill(byte value) {
        fill(0, length, value);
    }

    /** Sets the elements {@code [fromIndex, toIndex)} to {@code value}. */
    public void fill(long fromIndex, long toIndex, byte value) {
        forEachPiece(fromIndex, toIndex, (segment, first, count) -> segment.asSlice(first, count).fill(value));
    }

    /** Copies {@code count} elements from {@code this[srcIndex..]} into {@code dst[dstIndex..]}. */
    public void copyTo(long srcIndex, byte[] dst, int dstIndex, int count) {
        copyToArray(srcIndex, dst, dstIndex, dst.length, count);
    }

    /** Copies {@code count} elements from {@code src[srcIndex..]} into {@code this[dstIndex..]}. */
    public void copyFrom(byte[] src, int srcIndex, long dstIndex, int count) {
        copyFromArray(src, srcIndex, src.length, dstIndex, count);
    }

    /**
     * Copies {@code count} elements from {@code this[srcIndex..]} into {@code dst[dstIndex..]}, which may
     * be this array: overlapping ranges copy as if through a temporary copy.
     */
    public void copyTo(long srcIndex, ByteArray dst, long dstIndex, long count) {
        copyElements(srcIndex, dst, dstIndex, count);
    }

    /** A new Java array with the elements {@code [fromIndex, toIndex)}. */
    public byte[] toArray(long fromIndex, long toIndex) {
        Objects.checkFromToIndex(fromIndex, toIndex, length);
        long count = toIndex - fromIndex;
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a Java array cannot hold " + count + " elements");
        }
        byte[] result = new byte[(int) count];
        copyTo(fromIndex, result, 0, result.length);
        return result;
    }
}
