package dev.offheap.jetty;

import dev.offheap.buffer.BufferPool;
import java.util.Objects;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;

/** Jetty's {@code ByteBufferPool} whose direct buffers are leased from an offheap {@link BufferPool}. */
public final class OffheapByteBufferPool implements ByteBufferPool {
    private final BufferPool pool;

    /** A Jetty pool of direct buffers from {@code pool}, which the caller keeps and closes. */
    public OffheapByteBufferPool(BufferPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /** The pool the direct buffers come from. */
    public BufferPool pool() {
        return pool;
    }

    @Override
    public RetainableByteBuffer.Mutable acquire(int size, boolean direct) {
        throw new UnsupportedOperationException("skeleton");
    }

    @Override
    public void clear() {
        pool.trim();
    }
}
