package dev.offheap.buffer;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A lease over one segment fixed for its lifetime, viewed as a {@code ByteBuffer} on first request. */
abstract sealed class SegmentLease extends Lease permits DedicatedBuffer {
    private final MemorySegment segment;
    private final ByteOrder order;
    private ByteBuffer buffer;

    SegmentLease(MemorySegment segment, ByteOrder order) {
        this.segment = segment;
        this.order = order;
        open();
    }

    @Override
    public final MemorySegment segment() {
        checkLive("use");
        return segment;
    }

    @Override
    public final ByteBuffer byteBuffer() {
        checkLive("use");
        if (buffer == null) {
            buffer = segment.asByteBuffer().order(order);
        }
        return buffer;
    }

    @Override
    public final int size() {
        checkLive("ask the size of");
        return (int) segment.byteSize();
    }

    @Override
    final int leasedSize() {
        return (int) segment.byteSize();
    }
}
