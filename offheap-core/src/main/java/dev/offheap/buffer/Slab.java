package dev.offheap.buffer;

import dev.offheap.os.NativeRegion;
import java.lang.foreign.MemorySegment;

/**
 * A block taken from the OS for one size class, cut into equal slots from the front as they are needed.
 * Slots {@code firstId .. firstId + slotCount - 1} of the class's id table belong to it.
 */
final class Slab {
    final NativeRegion region;
    final int firstId;
    final int slotCount;
    /** Slots cut so far; guarded by the owning {@link SizeClassPool}. */
    int carved;

    Slab(NativeRegion region, int firstId, int slotCount) {
        this.region = region;
        this.firstId = firstId;
        this.slotCount = slotCount;
    }

    MemorySegment segment() {
        return region.segment();
    }

    boolean isExhausted() {
        return carved == slotCount;
    }

    long byteSize() {
        return region.byteSize();
    }
}
