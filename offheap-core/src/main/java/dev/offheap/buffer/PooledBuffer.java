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

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The handle of one lease of a {@link Slot}: a new object per lease, so that a handle kept past its release
 * throws on every use instead of acting on whoever leases the slot next. Its views are the slot's memory,
 * cached per slot; or, for a lease of a checked pool or one sampled for use-after-release detection, views in
 * an {@link OwnArena} that release closes. What a view kept past release does is described at
 * {@link BufferPool.Builder#checked(boolean)}.
 *
 * <p>Every pooled lease is of this one class, sampled ones included (for leak detection: a
 * {@link LeakDetector.Record}; for use after release: an {@link OwnArena}): a second lease class on the hot
 * path makes the callers' call sites bimorphic, which cost ~3-5 ns per acquire and release in
 * AcquireReleaseBenchmark. What only sampled leases need is in one {@link Special} beside the handle, so the
 * common handle is 32 bytes (with compressed oops and class pointers), not 40: it is garbage made per lease.
 */
final class PooledBuffer extends Lease {
    private final Slot slot;
    private final int size;
    /** Null for the common lease; the views and leak record of a checked or sampled one. */
    private final Special special;
    private ByteBuffer buffer;

    /** What a checked or sampled lease has beyond the common one: views of its own, a leak record. */
    private record Special(OwnArena own, LeakDetector.Record record, boolean returnShared) {}

    PooledBuffer(Slot slot, int size) {
        this.slot = slot;
        this.size = size;
        this.special = null;
        open();
    }

    /**
     * A lease with views in {@code own} (or null), watched by {@code detector} (or null): if the handle is lost
     * unreleased, the detector ends the views and the slot goes back. With {@code returnShared}, its slot goes
     * back to the shared free list, never into the releasing thread's cache ({@link LeaseTokens#withoutThreadCaches()}).
     */
    PooledBuffer(Slot slot, int size, OwnArena own, LeakDetector detector, boolean returnShared) {
        this.slot = slot;
        this.size = size;
        SlotReturns returns = slot.home.returns;
        this.special = new Special(own,
                detector == null ? null : detector.watch(this, size, () -> returns.endLeaked(slot, own)),
                returnShared);
        open();
    }

    /** The views of their own of a checked or use-after-release-sampled lease, else null. */
    private OwnArena own() {
        Special s = special;
        return s == null ? null : s.own;
    }

    @Override
    public MemorySegment segment() {
        checkLive("use");
        OwnArena o = own();
        return o == null ? slot.view(size) : o.segment;
    }

    @Override
    public ByteBuffer byteBuffer() {
        checkLive("use");
        ByteBuffer b = buffer;
        if (b == null) {
            OwnArena o = own();
            b = o == null ? slot.newByteBuffer(size) : o.segment.asByteBuffer();
            ByteOrder order = slot.home.byteOrder;
            if (order != ByteOrder.BIG_ENDIAN) {
                b.order(order);
            }
            buffer = b;
        }
        return b;
    }

    @Override
    public int size() {
        checkLive("ask the size of");
        return size;
    }

    @Override
    void deallocate() {
        Special s = special;
        if (s == null) {
            slot.home.returns.free(slot); // the common case without the fence below: ~2 ns cheaper (JMH, 1 KiB)
            return;
        }
        OwnArena own = s.own;
        LeakDetector.Record record = s.record;
        if (own != null) {
            if (!own.tryEnd()) {
                throw held(size);
            }
            own.released();
        }
        if (record != null) {
            record.disarm();
        }
        slot.home.returns.end(slot, own, s.returnShared);
        // Until the record is disarmed this handle must stay reachable, or the detector could take it for a
        // leak and free the slot a second time.
        Reference.reachabilityFence(this);
    }

    @Override
    Throwable acquiredAt() {
        OwnArena own = own();
        return own == null ? null : own.acquiredAt;
    }

    @Override
    Throwable releasedAt() {
        OwnArena own = own();
        return own == null ? null : own.releasedAt;
    }

    @Override
    String describe() {
        return "buffer of " + size + " bytes from pool '" + slot.home.poolName + "' (slot " + slot.id
                + " of the " + slot.describeClass() + ")";
    }

    @Override
    int leasedSize() {
        return size;
    }

    @Override
    String poolName() {
        return slot.home.poolName;
    }
}
