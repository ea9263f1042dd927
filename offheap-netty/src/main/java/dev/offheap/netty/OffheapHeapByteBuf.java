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
