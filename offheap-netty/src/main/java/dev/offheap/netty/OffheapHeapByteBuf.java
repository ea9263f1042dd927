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

import io.netty.buffer.UnpooledHeapByteBuf;

/**
 * A heap buffer of {@link OffheapByteBufAllocator}: Netty's unpooled heap buffer (a {@code byte[]} the garbage
 * collector frees), whose arrays are counted in the allocator's {@code usedHeapMemory()}.
 */
final class OffheapHeapByteBuf extends UnpooledHeapByteBuf {

    OffheapHeapByteBuf(OffheapByteBufAllocator alloc, int initialCapacity, int maxCapacity) {
        super(alloc, initialCapacity, maxCapacity);
    }

    @Override
    protected byte[] allocateArray(int initialCapacity) {
        byte[] array = super.allocateArray(initialCapacity);
        // Called from the super constructor: alloc() is set by then, fields of this class would not be.
        ((OffheapByteBufAllocator) alloc()).heapArrayAllocated(array.length);
        return array;
    }

    @Override
    protected void freeArray(byte[] array) {
        super.freeArray(array);
        ((OffheapByteBufAllocator) alloc()).heapArrayFreed(array.length);
    }
}
