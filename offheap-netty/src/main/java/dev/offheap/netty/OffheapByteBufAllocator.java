package dev.offheap.netty;

import dev.offheap.buffer.BufferPool;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import java.util.Objects;

/** Netty's {@code ByteBufAllocator} whose direct buffers are leased from an offheap {@link BufferPool}. */
public final class OffheapByteBufAllocator extends AbstractByteBufAllocator {
    private final BufferPool pool;

    /** An allocator of direct buffers from {@code pool}, which the caller keeps and closes. */
    public OffheapByteBufAllocator(BufferPool pool) {
        super(true);
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /** The pool the direct buffers come from. */
    public BufferPool pool() {
        return pool;
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        throw new UnsupportedOperationException("skeleton");
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        throw new UnsupportedOperationException("skeleton");
    }

    @Override
    public boolean isDirectBufferPooled() {
        return true;
    }
}
