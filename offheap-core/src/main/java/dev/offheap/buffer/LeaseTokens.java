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

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryInUseException;
import java.lang.foreign.MemorySegment;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Leases of a {@link BufferPool} without a handle object, for frameworks that wrap every buffer in an object of
 * their own and count its references there (Netty's {@code ByteBuf}, Jetty's {@code RetainableByteBuffer}): the
 * lease is a {@code long} token, and the framework's object is the one object per buffer.
 *
 * <pre>{@code
 * LeaseTokens tokens = pool.tokens();
 * long token = tokens.acquire(1024);
 * MemorySegment memory = tokens.segment(token);   // keep it with the token; 1024 bytes
 * ...
 * tokens.release(token);                          // once: a second release, or any use of the token after it, throws
 * }</pre>
 *
 * <p>A token says which slot of the pool it leases and the slot's generation, which each release moves on:
 * a token kept past its release is refused by every method here (an {@link IllegalStateException}), never
 * taken for a later lease of the same slot. Generations are 32 bits and start at random, so a token of
 * another pool, or one kept for four billion leases of its slot, is refused but with probability 2<sup>-32</sup>.
 * The segment and {@code ByteBuffer} of a lease are the pool's views of its slot, shared with later leases of
 * it, as a {@link BufferLease}'s are in the default mode: keep them no longer than the token (in a checked pool,
 * and for a lease sampled for use-after-release detection, they die at release).
 *
 * <p>A lease the pool samples (leak or use-after-release detection), a lease of a checked pool and a lease
 * above the largest pooled size are handle leases kept by this object under a token of their own: they cost
 * what a {@link BufferLease} costs and behave like one. To be found if lost, a lease must be
 * {@linkplain #watch watched} through the object that holds its token.
 *
 * <p>Thread-safe. A token may be released on any thread.
 */
public final class LeaseTokens {
    /** The tag of a token that names a handle lease kept here (sampled, checked, dedicated). */
    private static final long SPECIAL = 1L << 63;
    private static final int CLASS_SHIFT = 56;
    private static final int CLASS_MASK = 0x7F;
    private static final int ID_SHIFT = 32;
    /** Slots with a larger id (past 16 M slots of one class) are leased as handles under a special token. */
    static final int MAX_ID = (1 << 24) - 1;

    private final BufferPool pool;
    private final SlotTakes takes;
    private final int classCount;
    /** Whether acquires and releases go through the calling thread's cache ({@link #withoutThreadCaches()}). */
    private final boolean threadCaches;
    /** The other way to the same tokens: without caches if this one uses them, and the reverse. */
    private final LeaseTokens otherWay;
    // Shared by both ways: a token of one is a token of the other.
    private final Map<Long, Special> specials;
    private final AtomicLong nextSpecial;
    private final ReferenceQueue<Object> unreachable;
    private final Set<WhenUnreachable> waiting;

    /** A handle lease kept under a special token, and its leak record once watched. */
    private static final class Special {
        final Lease lease;
        final boolean leakSampled;
        volatile LeakDetector.Record record;

        Special(Lease lease, boolean leakSampled) {
            this.lease = lease;
            this.leakSampled = leakSampled;
        }

        /** Released, or taken over by the pool: no longer watched for a leak. */
        void disarm() {
            LeakDetector.Record r = record;
            if (r != null) {
                r.disarm();
            }
        }
    }

    LeaseTokens(BufferPool pool, SlotTakes takes, int classCount) {
        this.pool = pool;
        this.takes = takes;
        this.classCount = classCount;
        this.threadCaches = true;
        this.specials = new ConcurrentHashMap<>();
        this.nextSpecial = new AtomicLong();
        this.unreachable = new ReferenceQueue<>();
        this.waiting = ConcurrentHashMap.newKeySet();
        this.otherWay = new LeaseTokens(this);
    }

    /** The way to {@code cached}'s tokens without thread caches. */
    private LeaseTokens(LeaseTokens cached) {
        this.pool = cached.pool;
        this.takes = cached.takes;
        this.classCount = cached.classCount;
        this.threadCaches = false;
        this.specials = cached.specials;
        this.nextSpecial = cached.nextSpecial;
        this.unreachable = cached.unreachable;
        this.waiting = cached.waiting;
        this.otherWay = cached;
    }

    /**
     * The same tokens, acquired and released without the calling thread's cache: straight from and to the size
     * classes' shared free lists (a compare-and-set each, about 10 ns more per lease than a cache hit), so that
     * a thread that goes idle keeps nothing of the pool. For the worker threads of a thread pool (Jetty's, a
     * gRPC executor's), which idle for long stretches and cannot give a cache back while they live; a thread
     * that acquires and releases all the time, such as a Netty event loop, is better served by its cache.
     * Tokens of either way are the same tokens: one acquired by one way may be released by the other.
     *
     * @return the tokens without thread caches (the same object at every call)
     */
    public LeaseTokens withoutThreadCaches() {
        return threadCaches ? otherWay : this;
    }

    /**
     * The pool these tokens lease from.
     *
     * @return the pool
     */
    public BufferPool pool() {
        return pool;
    }

    /**
     * Leases {@code size} bytes, as {@link BufferPool#acquire(int)} does.
     *
     * @param size the number of bytes, from 0 to the pool's {@link BufferPool.Builder#maxLeaseSize}
     * @return the lease's token
     * @throws IllegalArgumentException if {@code size} is negative or above the largest lease
     * @throws BudgetExceededException if the pool's budget refuses the memory
     * @throws IllegalStateException if the pool (or its budget) is closed
     */
    public long acquire(int size) {
        try {
            return take(size);
        } catch (BudgetExceededException refused) {
            throw pool.refusal(refused, "tokens().acquire(" + size + ")", size);
        }
    }

    private long take(int size) {
        if (size < 0 || size > pool.largestPooledSize()) {
            return keep(pool.dedicatedLease(size), takes.leakSampledAtRandom());
        }
        pool.checkAcquirable();
        int cls = takes.classOf(size);
        ThreadCache cache = threadCaches ? takes.cacheOfCurrentThread() : null;
        Slot slot = takes.take(cache, cls);
        int samples = takes.samples(cache);
        if (samples != 0 || pool.isChecked() || slot.id > MAX_ID) {
            return keep(pool.specialForToken(slot, size, samples), (samples & ThreadCache.LEAK) != 0);
        }
        slot.tokenSize = size;
        return (long) cls << CLASS_SHIFT | (long) slot.id << ID_SHIFT | (slot.generation() & 0xFFFFFFFFL);
    }

    private long keep(Lease lease, boolean leakSampled) {
        long number = nextSpecial.incrementAndGet();
        specials.put(number, new Special(lease, leakSampled));
        if (leakSampled) {
            pool.pollSlowPath();
        }
        return SPECIAL | number;
    }

    /**
     * Watches {@code holder}, the object that holds {@code token}, if the pool sampled this lease for leak
     * detection: should the holder become unreachable before the token's release, the pool reports the leak
     * (where the lease was watched from) and takes its memory back. Does nothing for a lease not sampled (one
     * branch); call it once, right after {@link #acquire}.
     *
     * @param token  a token of this pool, not yet released
     * @param holder the object holding the token, which must not be reachable from the pool
     * @throws IllegalStateException if the token was released, or is not a token of this pool
     */
    public void watch(long token, Object holder) {
        if (token >= 0) {
            return;
        }
        Special special = special(token, "watch");
        if (special.leakSampled && special.record == null) {
            special.record = pool.leaks().watch(holder, special.lease.leasedSize(), () -> cure(token));
        }
    }

    /** A watched holder was lost: the lease goes back, unless an I/O holds a view of it (false: try later). */
    private boolean cure(long token) {
        Special special = specials.remove(token & ~SPECIAL);
        if (special == null) {
            return true;
        }
        try {
            special.lease.release();
            return true;
        } catch (MemoryInUseException held) {
            specials.put(token & ~SPECIAL, special);
            return false;
        }
    }

    /**
     * The lease's memory: a segment of exactly the size acquired, the same object for every call in a lease.
     *
     * @param token a token of this pool, not yet released
     * @return the leased memory
     * @throws IllegalStateException if the token was released, or is not a token of this pool
     */
    public MemorySegment segment(long token) {
        if (token < 0) {
            return special(token, "use").lease.segment();
        }
        Slot slot = liveSlot(token, "use");
        return slot.view(slot.tokenSize);
    }

    /**
     * The lease's memory as a {@code ByteBuffer}, set as new at each call: position 0, limit the size acquired,
     * no mark, in the pool's byte order. The object is the slot's and may be handed to a later lease of it of
     * the same size: keep it no longer than the token. For a framework's internal view (Netty's
     * {@code internalNioBuffer}); a lease sampled for use-after-release detection, or of a checked pool, has a
     * buffer of its own that dies at release.
     *
     * @param token a token of this pool, not yet released
     * @return the leased memory as a buffer
     * @throws IllegalStateException if the token was released, or is not a token of this pool
     */
    public ByteBuffer byteBuffer(long token) {
        if (token < 0) {
            ByteBuffer own = special(token, "use").lease.byteBuffer().clear();
            return own.order() == pool.byteOrder() ? own : own.order(pool.byteOrder());
        }
        Slot slot = liveSlot(token, "use");
        return slot.sharedByteBuffer(slot.tokenSize, pool.byteOrder());
    }

    /**
     * The object a framework {@linkplain #attach attached} to this lease's slot during an earlier lease, or
     * null: what lets a framework recycle its buffer object with the memory, as Netty's and Jetty's own pools
     * recycle theirs (a buffer object kept past its release then becomes a later lease's: that is the
     * frameworks' own level of safety, to be chosen explicitly). Always null for a lease kept as a handle
     * (sampled, checked, dedicated).
     *
     * @param token a token of this pool, not yet released
     * @return the attached object, or null
     * @throws IllegalStateException if the token was released, or is not a token of this pool
     */
    public Object attachment(long token) {
        if (token < 0) {
            special(token, "use");
            return null;
        }
        return liveSlot(token, "use").attachment;
    }

    /**
     * Attaches {@code attachment} to this lease's slot, for a later lease of it ({@link #attachment}); null
     * detaches. Does nothing for a lease kept as a handle.
     *
     * @param token      a token of this pool, not yet released
     * @param attachment the object to keep with the slot, or null
     * @throws IllegalStateException if the token was released, or is not a token of this pool
     */
    public void attach(long token, Object attachment) {
        if (token < 0) {
            special(token, "use");
            return;
        }
        Slot slot = liveSlot(token, "use");
        if (slot.attachment != attachment) {
            slot.attachment = attachment;
        }
    }

    /**
     * Ends the lease: its memory goes back to the pool, and the token is refused from now on. After the pool's
     * close, does nothing.
     *
     * @param token a token of this pool, not yet released
     * @throws IllegalStateException if the token was already released (a double release), or is not a token of
     *         this pool
     * @throws MemoryInUseException if an I/O operation or native call holds a view of a lease that has views
     *         of its own (a checked or sampled one, or one above the largest size class): then nothing changed
     *         and the token is still live
     */
    public void release(long token) {
        if (token < 0) {
            if (pool.isClosed() && !specials.containsKey(token & ~SPECIAL)) {
                return;
            }
            Special special = claim(token);
            try {
                special.lease.release();
            } catch (MemoryInUseException held) {
                specials.put(token & ~SPECIAL, special);
                throw held;
            }
            special.disarm();
            return;
        }
        Slot slot = slotOf(token);
        if (slot == null || !slot.endGeneration((int) token)) {
            if (pool.isClosed()) {
                return;
            }
            throw released(token, "release");
        }
        if (threadCaches) {
            slot.home.returns.free(slot);
        } else {
            slot.home.returns.freeShared(slot);
        }
    }

    /**
     * Ends the lease as {@link #release} does, but never throws {@link MemoryInUseException}: if an I/O
     * operation holds a view of it, the pool ends it by itself once that has ended, as
     * {@link BufferPool#releaseWhenFree} does. For a framework's release, which cannot be repeated.
     *
     * @param token a token of this pool, not yet released
     * @return true if the memory went back now, false if it waits for an operation to end
     * @throws IllegalStateException if the token was already released, or is not a token of this pool
     */
    public boolean releaseWhenFree(long token) {
        if (token >= 0) {
            release(token);
            return true;
        }
        Special special = claim(token);
        special.disarm(); // the pool has it from now on: it cannot leak
        return pool.releaseWhenFree(special.lease);
    }

    /**
     * Ends the lease, but gives its memory back only once {@code referent} is unreachable: for memory an
     * operation may still use through an object of the framework's (Jetty's {@code releaseAndRemove}: a
     * {@code ByteBuffer} a failed write may still hold). The token is refused from now on; the slot's shared
     * {@code ByteBuffer} is forgotten, so that no later lease is handed the one out now. The pool looks on its
     * slow paths and at each idle-return look; until then the bytes count in
     * {@link BufferPoolStats#bytesQuarantined()}.
     *
     * @param token    a token of this pool, not yet released
     * @param referent the object whose reachability decides (often the lease's {@link #byteBuffer})
     * @throws IllegalStateException if the token was already released, or is not a token of this pool
     */
    public void releaseWhenUnreachable(long token, Object referent) {
        if (token < 0) {
            Special special = claim(token);
            special.disarm();
            waiting.add(new WhenUnreachable(referent, unreachable, special.lease.leasedSize(),
                    () -> pool.releaseWhenFree(special.lease)));
            return;
        }
        Slot slot = slotOf(token);
        if (slot == null || !slot.endGeneration((int) token)) {
            throw released(token, "release");
        }
        slot.forgetByteBuffer();
        waiting.add(new WhenUnreachable(referent, unreachable, slot.tokenSize, () -> slot.home.returns.freeShared(slot)));
    }

    /** Gives back what waited for its referent to become unreachable and now is; on the pool's slow paths. */
    void poll() {
        Reference<?> ref;
        while ((ref = unreachable.poll()) != null) {
            WhenUnreachable due = (WhenUnreachable) ref;
            if (waiting.remove(due)) {
                due.giveBack.run();
            }
        }
    }

    /** Bytes of leases released but waiting for their referent to become unreachable. */
    long waitingBytes() {
        long bytes = 0;
        for (WhenUnreachable w : waiting) {
            bytes += w.size;
        }
        return bytes;
    }

    /** At the pool's close: what waits is unmapped with the pool, so nothing waits any longer. */
    void forgetWaiting() {
        waiting.clear();
    }

    /** Leases kept as handles under a token, still out. */
    int specialCount() {
        return specials.size();
    }

    private static final class WhenUnreachable extends PhantomReference<Object> {
        final int size;
        final Runnable giveBack;

        WhenUnreachable(Object referent, ReferenceQueue<Object> queue, int size, Runnable giveBack) {
            super(referent, queue);
            this.size = size;
            this.giveBack = giveBack;
        }
    }

    /** Takes the handle lease of a special token out, for its release: one caller gets it, the others throw. */
    private Special claim(long token) {
        Special special = specials.remove(token & ~SPECIAL);
        if (special == null) {
            throw released(token, "release");
        }
        return special;
    }

    private Special special(long token, String operation) {
        Special special = specials.get(token & ~SPECIAL);
        if (special == null) {
            throw released(token, operation);
        }
        return special;
    }

    /** The slot a common token names, or null if there is none. */
    private Slot slotOf(long token) {
        int cls = (int) (token >>> CLASS_SHIFT) & CLASS_MASK;
        return cls < classCount ? takes.classPool(cls).slotById((int) (token >>> ID_SHIFT) & MAX_ID) : null;
    }

    private Slot liveSlot(long token, String operation) {
        Slot slot = slotOf(token);
        if (slot == null || slot.generation() != (int) token) {
            throw released(token, operation);
        }
        return slot;
    }

    private IllegalStateException released(long token, String operation) {
        if (pool.isClosed()) {
            return new IllegalStateException("cannot " + operation + " lease token " + Long.toHexString(token)
                    + ": buffer pool '" + pool.name() + "' is closed");
        }
        return new IllegalStateException("cannot " + operation + " lease token " + Long.toHexString(token)
                + " of buffer pool '" + pool.name() + "': it was already released (a double release, or use after"
                + " release), or it is not a token of this pool");
    }
}
