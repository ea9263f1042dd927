package dev.offheap.store;

import java.lang.foreign.MemorySegment;

/**
 * Code run over an array's memory one segment at a time: the whole array at once where its memory is
 * contiguous, else chunk by chunk. Loops inside a kernel run at flat-segment speed.
 *
 * {@snippet :
 * double[] sum = {0};
 * array.forEachChunk((segment, firstIndex) -> {
 *     for (long i = 0; i < segment.byteSize() / Double.BYTES; i++) {
 *         sum[0] += segment.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
 *     }
 * });
 * }
 */
@FunctionalInterface
public interface ChunkKernel {
    /**
     * Processes one piece of the array. An exception thrown here ends the walk:
     * {@link TypedArray#forEachChunk(ChunkKernel)} throws it on.
     *
     * @param segment    a piece of the array, a whole number of elements, native byte order
     * @param firstIndex the array index of the piece's first element
     */
    void apply(MemorySegment segment, long firstIndex);
}
