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

package dev.offheap.netty;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code ByteBuffer} views {@link OffheapDirectByteBuf#internalNioBuffer} hands out, kept across buffers: a
 * buffer whose lease has the same segment object as an earlier one (the pool's cached view of a slot, for the
 * same size) gets the same {@code ByteBuffer}, so Netty's socket reads and writes cost no view per buffer.
 *
 * <p>Safe because a segment object stands for one memory, one size and one lifetime: the pool lends a slot to
 * one lease at a time, every earlier lease of it was released before the current one was acquired (so its
 * owner stopped using the view, or it is a use after release, which could reach the slot through its own view
 * just as well), and a lease with views of its own (a checked or sampled pool's, a dedicated region's) has a
 * segment no other lease ever has, whose views die at its release. The table is a direct-mapped cache,
 * read and written without locks: an entry is immutable, and a lost or overwritten one only costs a new view.
 */
final class NioViews {
    private static final int BITS = 10;

    private final View[] views = new View[1 << BITS];

    /** One cached view: the segment it was made of, and the buffer. */
    private record View(MemorySegment segment, ByteBuffer buffer) {}

    /**
     * A big-endian view of all of {@code segment}: the cached one if it was made of this very segment object
     * (its position, limit and mark are the caller's to set), else a new one, cached.
     */
    ByteBuffer of(MemorySegment segment) {
        int index = (int) ((segment.address() * 0x9E3779B97F4A7C15L) >>> (Long.SIZE - BITS));
        View view = views[index];
        if (view != null && view.segment == segment) {
            ByteBuffer buffer = view.buffer;
            if (buffer.order() != ByteOrder.BIG_ENDIAN) {
                buffer.order(ByteOrder.BIG_ENDIAN); // an earlier owner changed it: a view looks as new
            }
            return buffer;
        }
        ByteBuffer buffer = segment.asByteBuffer();
        views[index] = new View(segment, buffer);
        return buffer;
    }
}
