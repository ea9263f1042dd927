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

package dev.offheap.netty;

import io.netty.buffer.ByteBufAllocatorMetric;

/**
 * What an {@link OffheapByteBufAllocator} holds: direct memory as its pool counts it, heap memory as the
 * allocator counts its live heap buffers.
 */
final class OffheapByteBufAllocatorMetric implements ByteBufAllocatorMetric {
    private final OffheapByteBufAllocator alloc;

    OffheapByteBufAllocatorMetric(OffheapByteBufAllocator alloc) {
        this.alloc = alloc;
    }

    /**
     * Bytes of the pool leased now ({@code pool.stats().bytesInUse()}): slot sizes, up to 20 % above the
     * capacities asked for, and every lease of the pool, also those of other users when the pool is shared.
     * Walks the pool's slots: poll it, do not call it per allocation.
     */
    @Override
    public long usedDirectMemory() {
        return alloc.pool().stats().bytesInUse();
    }

    /** Bytes of the live heap buffers of this allocator (their arrays' lengths). */
    @Override
    public long usedHeapMemory() {
        return alloc.usedHeapBytes();
    }

    @Override
    public String toString() {
        return "OffheapByteBufAllocatorMetric(usedDirectMemory: " + usedDirectMemory() + "; usedHeapMemory: "
                + usedHeapMemory() + ")";
    }
}
