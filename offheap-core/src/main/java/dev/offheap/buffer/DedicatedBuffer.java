package dev.offheap.buffer;

import dev.offheap.os.NativeRegion;

/**
 * A lease larger than the largest size class: a region of its own, charged to the pool's budget, given
 * back to the OS at release. Its views die with the region, in every mode.
 */
final class DedicatedBuffer extends SegmentLease {
    private final BufferPool owner;
    private final NativeRegion region;

    DedicatedBuffer(BufferPool owner, NativeRegion region, int size) {
        super(region.segment().asSlice(0, size));
        this.owner = owner;
        this.region = region;
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
