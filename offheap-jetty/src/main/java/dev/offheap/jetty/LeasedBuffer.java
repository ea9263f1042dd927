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

import dev.offheap.account.MemoryInUseException;
import dev.offheap.buffer.BufferLease;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Retainable;
import org.eclipse.jetty.io.RetainableByteBuffer;

/**
 * One offheap lease as Jetty's {@link RetainableByteBuffer.Pooled}: Jetty's reference counting (as its
 * {@code Retainable.ReferenceCounter} does it, kept in this object rather than in a counter and an
 * {@code AtomicInteger} of their own), the lease released exactly once when the count reaches zero.
 *
 * <p>The {@code ByteBuffer} is a view of a segment made for this buffer alone ({@code segment().asSlice(0)}),
 * so that every slice and duplicate Jetty derives from it keeps that one segment reachable: after
 * {@link #markRemoved()}, the lease goes back only when the GC proves no such view is left.
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

    private final BufferLease lease;
    /** The segment every view of this buffer holds on to; the Cleaner watches it after a removal. */
    private final MemorySegment views;
    /**
     * The reference count (0 once released for good) and the {@link #REMOVED} bit, in one int so that the
     * buffer is one object of 40 bytes. Accessed through {@link #STATE} only.
     */
    @SuppressWarnings("unused")
    private int state;

    private LeasedBuffer(ByteBufferPool owner, BufferLease lease, MemorySegment views, ByteBuffer view) {
        super(owner, view, CountedInline.INSTANCE);
        this.lease = lease;
        this.views = views;
        STATE.setRelease(this, 1);
    }

    /** Wraps {@code lease} in flush mode (position 0, limit 0); releases the lease if that fails. */
    static LeasedBuffer of(ByteBufferPool owner, BufferLease lease) {
        try {
            MemorySegment views = lease.segment().asSlice(0);
            ByteBuffer view = views.asByteBuffer(); // BIG_ENDIAN, whatever the pool's order
            view.limit(0);
            return new LeasedBuffer(owner, lease, views, view);
        } catch (RuntimeException | Error e) {
            lease.release();
            throw e;
        }
    }

    /**
     * Jetty's {@code releaseAndRemove}: the memory must not be lent again while a write that was aborted may
     * still read it, so when the count reaches zero the lease goes to a {@link Cleaner} instead of the pool.
     */
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
        if ((current & REMOVED) != 0) {
            RemovedLeases.CLEANER.register(views, new ReleaseLease(lease));
        } else {
            releaseLease();
        }
        return true;
    }

    /** Adds a reference; throws {@link IllegalStateException} once released, as Jetty's buffers do. */
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
    private void releaseLease() {
        try {
            lease.release();
        } catch (MemoryInUseException held) {
            RemovedLeases.CLEANER.register(views, new ReleaseLease(lease));
            LOG.log(System.Logger.Level.WARNING, "a Jetty buffer of " + capacity() + " bytes was released while an"
                    + " I/O operation or native call still used its memory; it goes back once no view of it is left",
                    held);
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

    /**
     * What the buffer hands Jetty's {@code Retainable.Wrapper} as the count it wraps: the buffer overrides every
     * method that would use it, so it is only what {@code getWrapped()} shows; it refuses to count.
     */
    private static final class CountedInline implements Retainable {
        static final CountedInline INSTANCE = new CountedInline();

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

    /** The Cleaner of removed buffers, and its thread, made at the first removal only. */
    private static final class RemovedLeases {
        static final Cleaner CLEANER = Cleaner.create();
    }

    /** The Cleaner's action: holds the lease, never the views, or they could never become unreachable. */
    private record ReleaseLease(BufferLease lease) implements Runnable {
        @Override
        public void run() {
            lease.release();
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
