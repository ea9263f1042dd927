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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A lease larger than the largest size class: a region of its own, charged to the pool's budget, given
 * back to the OS at release. Its views die with the region, in every mode; the {@code ByteBuffer} is made on
 * first request.
 */
final class DedicatedBuffer extends Lease {
    private final DedicatedRegions regions;
    private final NativeRegion region;
    private final MemorySegment segment;
    private final ByteOrder order;
    private ByteBuffer buffer;

    DedicatedBuffer(DedicatedRegions regions, NativeRegion region, int size, ByteOrder order) {
        this.regions = regions;
        this.region = region;
        this.segment = region.segment().asSlice(0, size);
        this.order = order;
        open();
    }

    NativeRegion region() {
        return region;
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
            buffer = segment.asByteBuffer().order(order);
        }
        return buffer;
    }

    @Override
    public int size() {
        checkLive("ask the size of");
        return (int) segment.byteSize();
    }

    @Override
    int leasedSize() {
        return (int) segment.byteSize();
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
