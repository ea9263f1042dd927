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
    /**
     * True while the slab waits to be given back and cannot be: an I/O operation or native call holds a view
     * of it. Its slots are never lent again. Guarded by the owning {@link SizeClassPool}.
     */
    boolean held;

    /**
     * The last generation of each slot of this id range under the slab before, or null if none: this slab's
     * slots start past them ({@link Slot#generation()}).
     */
    final int[] generationsBefore;

    Slab(NativeRegion region, int firstId, int slotCount, int[] generationsBefore) {
        this.region = region;
        this.firstId = firstId;
        this.slotCount = slotCount;
        this.generationsBefore = generationsBefore;
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
