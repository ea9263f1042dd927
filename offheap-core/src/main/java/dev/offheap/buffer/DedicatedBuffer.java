package dev.offheap.buffer;

import dev.offheap.os.NativeRegion;
import java.nio.ByteOrder;

/**
 * A lease larger than the largest size class: a region of its own, charged to the pool's budget, given
 * back to the OS at release. Its views die with the region, in every mode.
 */
final class DedicatedBuffer extends SegmentLease {
    private final DedicatedRegions regions;
    private final NativeRegion region;

    DedicatedBuffer(DedicatedRegions regions, NativeRegion region, int size, ByteOrder order) {
        super(region.segment().asSlice(0, size), order);
        this.regions = regions;
        this.region = region;
    }

    NativeRegion region() {
        return region;
    }

    @Override
    void deallocate() {
        regions.release(this);
    }

    @Override
    String poolName() {
        return regions.poolName();
    }
}
