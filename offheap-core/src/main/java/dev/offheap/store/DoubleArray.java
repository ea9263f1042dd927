package dev.offheap.store;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * An array of {@code double} of any length, in native memory, native byte order. See {@link TypedArray} for
 * lifetime and threading; {@link ChunkPool#doubles(long)} and {@link MappedArray#doubles()} make them.
 */
public final class DoubleArray extends TypedArray {
    private static final ValueLayout.OfDouble LAYOUT = ValueLayout.JAVA_DOUBLE;

    DoubleArray(ArrayMemory memory, long length) {
        super(memory, ElementType.DOUBLE, length);
    }

    @Override
    public DoubleArray retain() {
        super.retain();
        return this;
    }

    /** The element at {@code index}. */
    public double get(long index) {
        Objects.checkIndex(index, length);
        try {
            MemorySegment segment = whole;
            if (segment != null) {
                return segment.getAtIndex(LAYOUT, index);
            }
            long offset = index << 3;
            return chunks[(int) (offset >>> chunkShift)].get(LAYOUT, offset & chunkMask);
        } catch (InternalError e) {
            throw fault(e, index);
        } catch (IllegalStateException e) {
            throw ifEnded(e, "get");
        }
    }

    /** Sets the element at {@code index}. */
    public void set(long index, double value) {
        Objects.checkIndex(index, length);
        try {
            MemorySegment segment = whole;
            if (segment != null) {
                segment.setAtIndex(LAYOUT, index, value);
                return;
            }
            long offset = index << 3;
            chunks[(int) (offset >>> chunkShift)].set(LAYOUT, offset & chunkMask, value);
        } catch (InternalError e) {
            throw fault(e, index);
        } catch (IllegalStateException e) {
            throw ifEnded(e, "set");
        }
    }

    /** Sets every element to {@code value}. */
    public void fill(double value) {
        fill(0, length, value);
    }

    /** Sets the elements {@code [fromIndex, toIndex)} to {@code value}. */
    public void fill(long fromIndex, long toIndex, double value) {
        boolean zero = Double.doubleToRawLongBits(value) == 0;
        forEachPiece(fromIndex, toIndex, (segment, first, count) -> {
            if (zero) {
                segment.asSlice(first << 3, count << 3).fill((byte) 0);
                return;
            }
            for (long i = first, end = first + count; i < end; i++) {
                segment.setAtIndex(LAYOUT, i, value);
            }
        });
    }

    /** Copies {@code count} elements from {@code this[srcIndex..]} into {@code dst[dstIndex..]}. */
    public void copyTo(long srcIndex, double[] dst, int dstIndex, int count) {
        copyToArray(srcIndex, dst, dstIndex, dst.length, count);
    }

    /** Copies {@code count} elements from {@code src[srcIndex..]} into {@code this[dstIndex..]}. */
    public void copyFrom(double[] src, int srcIndex, long dstIndex, int count) {
        copyFromArray(src, srcIndex, src.length, dstIndex, count);
    }

    /**
     * Copies {@code count} elements from {@code this[srcIndex..]} into {@code dst[dstIndex..]}, which may
     * be this array: overlapping ranges copy as if through a temporary copy.
     */
    public void copyTo(long srcIndex, DoubleArray dst, long dstIndex, long count) {
        copyElements(srcIndex, dst, dstIndex, count);
    }

    /** A new Java array with the elements {@code [fromIndex, toIndex)}. */
    public double[] toArray(long fromIndex, long toIndex) {
        Objects.checkFromToIndex(fromIndex, toIndex, length);
        long count = toIndex - fromIndex;
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a Java array cannot hold " + count + " elements");
        }
        double[] result = new double[(int) count];
        copyTo(fromIndex, result, 0, result.length);
        return result;
    }
}
