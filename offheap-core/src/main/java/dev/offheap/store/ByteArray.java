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

    /** The element at {@code index}. */
    public byte get(long index) {
        Objects.checkIndex(index, length);
        try {
            MemorySegment segment = whole;
            if (segment != null) {
                return segment.getAtIndex(LAYOUT, index);
            }
            long offset = index;
            return chunks[(int) (offset >>> chunkShift)].get(LAYOUT, offset & chunkMask);
        } catch (InternalError e) {
            throw fault(e, index);
        } catch (IllegalStateException e) {
            throw ifEnded(e, "get");
        }
    }

    /** Sets the element at {@code index}. */
    public void set(long index, byte value) {
        Objects.checkIndex(index, length);
        try {
            MemorySegment segment = whole;
            if (segment != null) {
                segment.setAtIndex(LAYOUT, index, value);
                return;
            }
            long offset = index;
            chunks[(int) (offset >>> chunkShift)].set(LAYOUT, offset & chunkMask, value);
        } catch (InternalError e) {
            throw fault(e, index);
        } catch (IllegalStateException e) {
            throw ifEnded(e, "set");
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
