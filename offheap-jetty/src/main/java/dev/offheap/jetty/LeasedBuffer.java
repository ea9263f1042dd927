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

package dev.offheap.jetty;

import dev.offheap.buffer.LeaseTokens;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Retainable;
import org.eclipse.jetty.io.RetainableByteBuffer;

/**
 * One offheap lease as Jetty's {@link RetainableByteBuffer.Pooled}, held as a {@link LeaseTokens token}: the
 * buffer is the one object per lease. Jetty's reference counting (as its {@code Retainable.ReferenceCounter}
 * does it, kept in this object rather than in a counter and an {@code AtomicInteger} of their own), the lease
 * released exactly once when the count reaches zero.
 *
 * <p>The {@code ByteBuffer} is the pool's view of the lease's slot ({@link LeaseTokens#byteBuffer}), shared
 * with the later leases of the slot of the same size, as {@code ArrayByteBufferPool} shares its buffers: so
 * every method of a released buffer throws, rather than act on the next lease's buffer. After
 * {@link #markRemoved()}, the lease goes back only once the GC proves the view unreachable
 * ({@link LeaseTokens#releaseWhenUnreachable}). A recycling pool keeps a buffer with its slot (weakly) and
 * hands it out again with the slot's next lease of the same size.
 */
final class LeasedBuffer extends RetainableByteBuffer.Pooled {
    private static final System.Logger LOG = System.getLogger(LeasedBuffer.class.getName());
    /** {@link #state}'s bit set by {@link #markRemoved()}; the bits below it are the reference count. */
    private static final int REMOVED = 1 << 30;
    private static final int COUNT = REMOVED - 1;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(LeasedBuffer.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The lease; stale once released (every method checks the count first). */
    private long token;
    /**
     * The reference count (0 once released for good) and the {@link #REMOVED} bit, in one int so that the
     * buffer is one object of 40 bytes. Accessed through {@link #STATE} only.
     */
    @SuppressWarnings("unused")
    private int state;

    private LeasedBuffer(OffheapByteBufferPool owner, ByteBuffer view) {
        super(owner, view, owner.countedInline());
    }

    /**
     * A buffer of exactly {@code size} bytes leased from {@code owner}'s pool, in flush mode (position 0, limit
     * 0): a new one, or with a recycling pool the one kept with the slot leased, if it has this size.
     */
    static LeasedBuffer lease(OffheapByteBufferPool owner, int size) {
        LeaseTokens tokens = owner.tokens();
        long token = tokens.acquire(size);
        try {
            LeasedBuffer kept = owner.recycles() ? keptWith(tokens, token, size) : null;
            LeasedBuffer buffer = kept != null ? kept : new LeasedBuffer(owner, flushMode(tokens.byteBuffer(token)));
            if (kept == null && owner.recycles()) {
                tokens.attach(token, new Kept(buffer));
            }
            buffer.token = token;
            tokens.watch(token, buffer);
            STATE.setRelease(buffer, 1);
            if (kept != null) {
                kept.asNew();
            }
            return buffer;
        } catch (RuntimeException | Error e) {
            tokens.release(token);
            throw e;
        }
    }

    /**
     * The buffer kept with the slot {@code token} leases, free since that slot is, if it has {@code size} bytes
     * (its view is then of the slot's first {@code size} bytes, as the lease's); or null.
     */
    private static LeasedBuffer keptWith(LeaseTokens tokens, long token, int size) {
        return tokens.attachment(token) instanceof Kept kept && kept.get() instanceof LeasedBuffer buffer
                && buffer.capacity() == size ? buffer : null;
    }

    /**
     * How a recycling pool keeps a buffer with its slot: weakly, so that a buffer in use that is lost unreleased
     * is still collected and reported; and once, so that nothing is written into the slot when the buffer goes
     * back and out again (each reference stored into an old object costs a GC write barrier).
     */
    private static final class Kept extends java.lang.ref.WeakReference<LeasedBuffer> {
        Kept(LeasedBuffer buffer) {
            super(buffer);
        }
    }

    /** {@code view} big-endian, as Jetty assumes of any ByteBuffer, and empty in flush mode. */
    private static ByteBuffer flushMode(ByteBuffer view) {
        view.order(ByteOrder.BIG_ENDIAN).clear().limit(0);
        return view;
    }

    /** A recycled buffer back to how a new one starts: flush mode, empty, big-endian. */
    private void asNew() {
        super.clear(); // fill mode from 0, whatever the last lease left: the flip position Jetty keeps is private
        flushMode(super.getByteBuffer()); // flipped back to flush mode
    }

    void markRemoved() {
        STATE.getAndBitwiseOr(this, REMOVED);
    }

    /**
     * Releases this buffer, keeping its memory from being lent again until no view of it is left (see
     * {@link OffheapByteBufferPool#releaseAndRemove(RetainableByteBuffer)}). Jetty 12.1.14 has no such method;
     * later versions declare it in {@code RetainableByteBuffer}, which this then overrides.
     */
    public boolean releaseAndRemove() {
        markRemoved();
        return release();
    }

    /** Drops a reference; throws {@link IllegalStateException} on a double release, as Jetty's buffers do. */
    @Override
    public boolean release() {
        int current;
        do {
            current = (int) STATE.getVolatile(this);
            if ((current & COUNT) == 0) {
                throw new IllegalStateException("cannot release a Jetty buffer of " + capacity()
                        + " bytes: it was already released (a double release, or use after release)");
            }
        } while (!STATE.weakCompareAndSet(this, current, current - 1));
        if (((current - 1) & COUNT) != 0) {
            return false;
        }
        OffheapByteBufferPool owner = owner();
        LeaseTokens tokens = owner.tokens();
        if ((current & REMOVED) != 0) {
            if (owner.recycles()) {
                tokens.attach(token, null); // never handed out again: a late write may still use its view
            }
            tokens.releaseWhenUnreachable(token, super.getByteBuffer());
        } else {
            releaseToken(tokens); // a recycled buffer stays kept with its slot
        }
        Reference.reachabilityFence(this); // watched for leaks until the token went back
        return true;
    }

    @Override
    public void retain() {
        int current;
        do {
            current = (int) STATE.getVolatile(this);
            int count = current & COUNT;
            if (count == 0) {
                throw new IllegalStateException("cannot retain a Jetty buffer of " + capacity()
                        + " bytes: it was already released");
            }
            if (count == COUNT) {
                throw new IllegalStateException("reference count overflow on a Jetty buffer of " + capacity()
                        + " bytes");
            }
        } while (!STATE.weakCompareAndSet(this, current, current + 1));
    }

    @Override
    public boolean canRetain() {
        return references() > 0;
    }

    @Override
    public boolean isRetained() {
        return references() > 1;
    }

    @Override
    public int getRetained() {
        return references();
    }

    private int references() {
        return (int) STATE.getAcquire(this) & COUNT;
    }

    /**
     * Releases the lease once, whatever happens: Jetty's count has already reached 0. If an I/O operation still
     * holds a view of it (only a checked, sampled or dedicated lease can tell: a release racing an I/O on another
     * thread), the lease goes back once no view of it is left, as after a removal, and the race is logged.
     */
    private void releaseToken(LeaseTokens tokens) {
        if (!tokens.releaseWhenFree(token)) {
            LOG.log(System.Logger.Level.WARNING, "a Jetty buffer of " + capacity() + " bytes was released while an"
                    + " I/O operation or native call still used its memory; it goes back once that has ended");
        }
    }

    private void checkLive() {
        if (references() == 0) {
            throw new IllegalStateException(
                    "a Jetty buffer of " + capacity() + " bytes was used after its last release");
        }
    }

    @Override
    public ByteBuffer getByteBuffer() {
        checkLive();
        return super.getByteBuffer();
    }

    @Override
    public int remaining() {
        checkLive();
        return super.remaining();
    }

    @Override
    public boolean hasRemaining() {
        checkLive();
        return super.hasRemaining();
    }

    @Override
    public long space() {
        checkLive();
        return super.space();
    }

    @Override
    public String toString() {
        return references() == 0 ? "LeasedBuffer@" + Integer.toHexString(System.identityHashCode(this))
                + "[released, capacity " + capacity() + "]" : super.toString();
    }

    @Override
    public byte get(long index) {
        checkLive();
        return super.get(index);
    }

    @Override
    public void clear() {
        checkLive();
        super.clear();
    }

    @Override
    public void limit(long size) {
        checkLive();
        super.limit(size);
    }

    @Override
    public boolean append(ByteBuffer bytes) throws ReadOnlyBufferException {
        checkLive();
        return super.append(bytes);
    }

    @Override
    public boolean append(RetainableByteBuffer bytes) throws ReadOnlyBufferException {
        checkLive();
        return super.append(bytes);
    }

    @Override
    public Mutable add(ByteBuffer bytes) throws ReadOnlyBufferException {
        checkLive();
        return super.add(bytes);
    }

    @Override
    public Mutable add(RetainableByteBuffer bytes) throws ReadOnlyBufferException {
        checkLive();
        return super.add(bytes);
    }

    @Override
    public Mutable put(byte b) {
        checkLive();
        return super.put(b);
    }

    @Override
    public Mutable put(long index, byte b) {
        checkLive();
        return super.put(index, b);
    }

    @Override
    public Mutable putShort(short s) {
        checkLive();
        return super.putShort(s);
    }

    @Override
    public Mutable putInt(int i) {
        checkLive();
        return super.putInt(i);
    }

    @Override
    public Mutable putLong(long l) {
        checkLive();
        return super.putLong(l);
    }

    @Override
    public Mutable put(byte[] bytes, int offset, int length) {
        checkLive();
        return super.put(bytes, offset, length);
    }

    @Override
    public RetainableByteBuffer slice(long length) {
        checkLive();
        return super.slice(length);
    }

    @Override
    public RetainableByteBuffer copy() {
        checkLive();
        return super.copy();
    }

    /** The Jetty pool this buffer came from, kept in the object Jetty's wrapper holds (no field of its own). */
    private OffheapByteBufferPool owner() {
        return ((CountedInline) getWrapped()).owner;
    }

    /**
     * What the buffer hands Jetty's {@code Retainable.Wrapper} as the count it wraps, one per Jetty pool: the
     * buffer overrides every method that would use it, so it is only what {@code getWrapped()} shows; it refuses
     * to count, and carries the pool, which {@code Pooled} keeps in a field of its own that it does not show.
     */
    static final class CountedInline implements Retainable {
        private final OffheapByteBufferPool owner;

        CountedInline(OffheapByteBufferPool owner) {
            this.owner = owner;
        }

        @Override
        public void retain() {
            throw new UnsupportedOperationException("a Jetty buffer of offheap's pool counts its references itself");
        }

        @Override
        public boolean release() {
            throw new UnsupportedOperationException("a Jetty buffer of offheap's pool counts its references itself");
        }

        @Override
        public String toString() {
            return "counted by the buffer";
        }
    }

    /** The offheap lease behind {@code buffer}, through Jetty's wrappers and slices, or null if none. */
    static LeasedBuffer unwrap(Retainable buffer) {
        Retainable actual = buffer;
        for (int depth = 0; actual != null && depth < 64; depth++) {
            if (actual instanceof LeasedBuffer leased) {
                return leased;
            }
            if (actual instanceof RetainableByteBuffer.Wrapper wrapper) {
                actual = wrapper.getWrapped();
            } else if (actual instanceof Retainable.Wrapper wrapper) {
                actual = wrapper.getWrapped();
            } else {
                return null;
            }
        }
        return null;
    }
}
