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

import dev.offheap.account.MemoryInUseException;
import dev.offheap.metrics.jfr.JfrEvents;
import dev.offheap.os.NativeMemory;
import dev.offheap.os.NativeRegion;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Leases above the largest size class: a region each, taken from the OS at acquire and given back at
 * release (or when the pool closes, for those still leased).
 */
final class DedicatedRegions {
    private final SlabSource slabs;
    private final ByteOrder byteOrder;
    private final Set<DedicatedBuffer> live = ConcurrentHashMap.newKeySet();
    /** Those the last {@link #releaseAll()} could not give back: a view held by an I/O operation. */
    private final Set<DedicatedBuffer> held = ConcurrentHashMap.newKeySet();
    private final AtomicLong bytes = new AtomicLong();
    private final LongAdder acquires = new LongAdder();

    DedicatedRegions(SlabSource slabs, ByteOrder byteOrder) {
        this.slabs = slabs;
        this.byteOrder = byteOrder;
    }

    DedicatedBuffer acquire(int size) {
        long regionBytes = NativeMemory.roundToPage(size);
        NativeRegion region = slabs.take(regionBytes);
        JfrEvents.slabAllocated(slabs.poolName(), regionBytes, 0);
        DedicatedBuffer buffer = new DedicatedBuffer(this, region, size, byteOrder);
        live.add(buffer);
        bytes.addAndGet(regionBytes);
        acquires.increment();
        if (slabs.isClosed() && release(buffer)) {
            slabs.checkOpen(); // close() ran meanwhile and may have missed this one
        }
        return buffer;
    }

    /**
     * Gives the buffer's region back, once: false if close() already did.
     *
     * @throws MemoryInUseException if an I/O operation or native call holds a view: nothing changed
     */
    boolean release(DedicatedBuffer buffer) {
        synchronized (buffer) { // the owner's release and the pool's close may race
            if (!live.contains(buffer)) {
                return false;
            }
            long regionBytes = buffer.region().byteSize();
            if (!slabs.give(buffer.region())) {
                throw buffer.held(regionBytes);
            }
            live.remove(buffer);
            held.remove(buffer);
            bytes.addAndGet(-regionBytes);
        }
        JfrEvents.slabReleased(slabs.poolName(), buffer.region().byteSize(), 0);
        return true;
    }

    /**
     * Gives back every region still leased, but those an I/O operation holds a view of (they stay, for the
     * next call); returns how many were given back.
     */
    int releaseAll() {
        int released = 0;
        for (DedicatedBuffer buffer : List.copyOf(live)) {
            try {
                if (release(buffer)) {
                    released++;
                }
            } catch (MemoryInUseException inUse) {
                held.add(buffer); // stays in live, for the pool's next close
            }
        }
        return released;
    }

    /** Bytes of the regions the last {@link #releaseAll()} could not give back. */
    long heldBytes() {
        long sum = 0;
        for (DedicatedBuffer buffer : held) {
            sum += buffer.region().byteSize();
        }
        return sum;
    }

    String poolName() {
        return slabs.poolName();
    }

    int leased() {
        return live.size();
    }

    long bytes() {
        return bytes.get();
    }

    long acquires() {
        return acquires.sum();
    }
}
