package dev.offheap.buffer;

import dev.offheap.os.NativeRegion;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A lease larger than the largest size class: a region of its own, charged to the pool's budget, given
 * back to the OS at release. Its views die with the region, in every mode.
 */
final class DedicatedBuffer extends Lease {
    private final BufferPool owner;
    private final NativeRegion region;
    private final MemorySegment segment;
    private ByteBuffer buffer;

    DedicatedBuffer(BufferPool owner, NativeRegion region, int size) {
        this.owner = owner;
        this.region = region;
        this.segment = region.segment().asSlice(0, size);
        open();
    }

    @Override
    public MemorySegment segment() {
        checkLive("use");
        return segment;
    }

    @Override
    public ByteBuffer byteBuffer() {
        checkLive("use");
        if (buffer == null) {
            buffer = segment.asByteBuffer().order(ByteOrder.nativeOrder());
        }
        return buffer;
    }

    @Override
    public int size() {
        return (int) segment.byteSize();
    }

    long regionBytes() {
        return region.byteSize();
    }

    void closeRegion() {
        owner.giveToOs(region);
    }

    @Override
    void deallocate() {
        owner.freeDedicated(this);
    }
}
