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
