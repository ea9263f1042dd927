package dev.offheap.buffer;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A lease over a plain {@code ByteBuffer} from one of the comparison strategies (heap, direct, view):
 * release only ends the lease, and the garbage collector frees the memory when the buffer is unreachable.
 */
final class UnpooledBuffer extends Lease {
    private final ByteBuffer buffer;
    private final MemorySegment segment;
    private final String strategy;

    UnpooledBuffer(ByteBuffer buffer, String strategy) {
        this.buffer = buffer;
        this.strategy = strategy;
        this.segment = MemorySegment.ofBuffer(buffer);
        open();
    }

    @Override
    public ByteBuffer byteBuffer() {
        checkLive("use");
        return buffer;
    }

    @Override
    public MemorySegment segment() {
        checkLive("use");
        return segment;
    }

    @Override
    public int size() {
        checkLive("ask the size of");
        return buffer.capacity();
    }

    @Override
    int leasedSize() {
        return buffer.capacity();
    }

    @Override
    String poolName() {
        return "strategy " + strategy;
    }

    @Override
    void deallocate() {
        // nothing to give back: the buffer is garbage once unreachable
    }
}
