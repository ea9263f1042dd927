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
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One slot of a slab: where a pooled lease's memory is. The object lives as long as its slab and is never
 * handed to a caller; each lease of it gets a handle of its own ({@link PooledBuffer}), so a handle kept
 * past its release can never act on a later lease of the same slot, or a token ({@link LeaseTokens}) that
 * carries the slot's {@link #generation}, which each token release moves on, so a token kept past its
 * release can never end a later lease either.
 *
 * <p>The views of the last leased size are cached here, so a steady acquire and release of one size cuts
 * no new segment.
 */
final class Slot {
    private static final VarHandle GENERATION;

    static {
        try {
            GENERATION = MethodHandles.lookup().findVarHandle(Slot.class, "generation", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final SizeClassPool home;
    final Slab slab;
    final long offset;
    final int id;
    /** While free in a shared batch: the next slot of the batch, null for the last ({@link BatchStack}). */
    Slot link;
    /** For the first slot of a shared batch: how many slots the batch holds. */
    int batchSize;
    /** For the first slot of a shared batch: the id of the first slot of the batch below, -1 if none. */
    int nextBatch;
    /**
     * The thread cache that handed out the current lease, or null. A release on that cache's own thread
     * goes straight back to it, without a ThreadLocal lookup.
     */
    ThreadCache lender;
    /** True from take to free; plain reads and writes, for statistics (exact when threads are quiet). */
    boolean leased;
    /**
     * Leases of this slot by threads without a cache; written only by the thread that holds the slot, read
     * by statistics (exact when threads are quiet).
     */
    long uncachedAcquires;

    /**
     * The generation a token lease of this slot carries: moved on by one, atomically, by each token release
     * ({@link #endGeneration}); starts past the last generation of the slot that had this id before, if any.
     */
    private int generation;
    /** The size of the current token lease; written by the thread that took the slot, before the token is out. */
    int tokenSize;
    /** An object a framework keeps with this slot from one token lease to the next ({@link LeaseTokens#attach}). */
    Object attachment;

    private MemorySegment view;
    private ByteBuffer template;

    Slot(SizeClassPool home, Slab slab, long offset, int id, int generation) {
        this.home = home;
        this.slab = slab;
        this.offset = offset;
        this.id = id;
        this.generation = generation;
    }

    int generation() {
        return (int) GENERATION.getOpaque(this);
    }

    /**
     * Ends the token lease of generation {@code expected}: true for the one call that finds the slot at that
     * generation, false for a stale or repeated token.
     */
    boolean endGeneration(int expected) {
        return GENERATION.compareAndSet(this, expected, expected + 1);
    }

    /** The slot's first {@code size} bytes, a segment of the slab's arena. */
    MemorySegment view(int size) {
        MemorySegment v = view;
        if (v == null || v.byteSize() != size) {
            view = v = slab.segment().asSlice(offset, size);
        }
        return v;
    }

    /**
     * A new {@code ByteBuffer} over the slot's first {@code size} bytes, big-endian, position 0: a duplicate
     * of a cached one, so that a buffer kept from an earlier lease shares no position, limit or order with
     * this one.
     */
    ByteBuffer newByteBuffer(int size) {
        return template(size).duplicate().clear(); // clear(): the template may be a token's, as it left it
    }

    /**
     * The {@code ByteBuffer} cached over the slot's first {@code size} bytes itself, as new: position 0, limit
     * {@code size}, no mark, in {@code order}. A token lease's view, shared with the later token leases of the
     * slot of the same size.
     */
    ByteBuffer sharedByteBuffer(int size, ByteOrder order) {
        ByteBuffer t = template(size).clear();
        if (t.order() != order) {
            t.order(order);
        }
        return t;
    }

    /** Forgets the cached {@code ByteBuffer}, so that no later lease of the slot is handed the one out now. */
    void forgetByteBuffer() {
        template = null;
    }

    private ByteBuffer template(int size) {
        ByteBuffer t = template;
        if (t == null || t.capacity() != size) {
            template = t = view(size).asByteBuffer();
        }
        return t;
    }

    /** The address of this slot, for views with a lifetime of their own (checked and sampled leases). */
    long address() {
        return slab.segment().address() + offset;
    }

    String describeClass() {
        return home.slotSize + "-byte class";
    }
}
