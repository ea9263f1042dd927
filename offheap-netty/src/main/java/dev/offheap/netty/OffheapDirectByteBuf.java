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

import dev.offheap.buffer.BufferPool;
import dev.offheap.buffer.LeaseTokens;
import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.internal.ObjectUtil;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;

/**
 * A direct {@link ByteBuf} on one lease of a {@link BufferPool}, held as a {@link LeaseTokens token}: the buffer
 * is the one object per lease. Every access goes through the lease's {@link MemorySegment}, whose bounds the JDK
 * checks even when Netty's own checks are turned off.
 *
 * <p>Reference counts are Netty's, kept in this object (as Netty's {@code AbstractReferenceCountedByteBuf}
 * kept them before it moved them to a {@code RefCnt} object of their own). The token is released exactly once,
 * when the count reaches zero (on whichever thread), and the segment is then replaced by an empty one, so a
 * stale access throws instead of reaching memory the pool may have lent again. {@link #capacity(int)} moves
 * the contents to a new lease of exactly the new capacity.
 *
 * <p>An allocator that {@linkplain OffheapByteBufAllocator.Builder#recycleBuffers recycles its buffers} keeps
 * each buffer with the slot it was made for ({@link LeaseTokens#attach}, weakly) and hands it out again with the
 * slot's next lease: a released buffer then throws until it is reused, as Netty's pooled buffers do.
 */
final class OffheapDirectByteBuf extends AbstractByteBuf {
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfShort SHORT_BE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort SHORT_LE =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT_BE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG_BE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong LONG_LE =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final System.Logger LOG = System.getLogger(OffheapDirectByteBuf.class.getName());

    /** What a released buffer points at: no bytes, so every access is out of bounds. */
    private static final MemorySegment RELEASED = MemorySegment.NULL;
    /** The largest temporary array a stream copy uses at once. */
    private static final int STREAM_CHUNK = 8192;
    /** {@link #refCnt}'s atomic access. */
    private static final VarHandle REF_CNT;

    static {
        try {
            REF_CNT = MethodHandles.lookup().findVarHandle(OffheapDirectByteBuf.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final OffheapByteBufAllocator alloc;
    /** The lease; stale once released (every path to it checks the count first). */
    private long token;
    private MemorySegment segment;
    private int capacity;
    /**
     * The reference count in Netty's encoding: even while live (the count is half the value), odd once
     * released, so that a retain racing the last release can never bring a released buffer back. Accessed
     * through {@link #REF_CNT} only.
     */
    @SuppressWarnings("unused")
    private int refCnt;

    private OffheapDirectByteBuf(OffheapByteBufAllocator alloc, int maxCapacity) {
        super(maxCapacity);
        this.alloc = alloc;
    }

    /**
     * A buffer of exactly {@code initialCapacity} bytes leased from {@code alloc}'s pool: a new one, or with a
     * recycling allocator the one kept with the slot leased, if any.
     *
     * @throws dev.offheap.account.BudgetExceededException if the pool's budget refuses the memory
     * @throws IllegalArgumentException if the pool cannot lease that size
     */
    static OffheapDirectByteBuf lease(OffheapByteBufAllocator alloc, int initialCapacity, int maxCapacity) {
        return lease(alloc, alloc.tokensOfThisThread(), initialCapacity, maxCapacity);
    }

    /** The same, leased through {@code tokens}: {@code alloc}'s tokens, through thread caches or not. */
    static OffheapDirectByteBuf lease(OffheapByteBufAllocator alloc, LeaseTokens tokens, int initialCapacity,
            int maxCapacity) {
        if (initialCapacity < 0 || initialCapacity > maxCapacity) {
            throw new IllegalArgumentException(
                    "initialCapacity: " + initialCapacity + " (expected: 0-" + maxCapacity + ")");
        }
        long token = tokens.acquire(initialCapacity);
        try {
            OffheapDirectByteBuf buf = alloc.recycles() ? keptWith(alloc, tokens, token) : null;
            if (buf == null) {
                buf = new OffheapDirectByteBuf(alloc, maxCapacity);
                if (alloc.recycles()) {
                    tokens.attach(token, new Kept(buf));
                }
            } else {
                buf.maxCapacity(maxCapacity);
                buf.setIndex(0, 0);
                buf.markReaderIndex().markWriterIndex();
            }
            buf.use(token, tokens.segment(token));
            tokens.watch(token, buf);
            REF_CNT.set(buf, 2);
            VarHandle.storeStoreFence(); // as Netty's RefCnt: a buffer published by a race still reads as live
            return buf;
        } catch (RuntimeException | Error e) {
            tokens.release(token);
            throw e;
        }
    }

    /** The buffer of {@code alloc} kept with the slot {@code token} leases, free since that slot is; or null. */
    private static OffheapDirectByteBuf keptWith(OffheapByteBufAllocator alloc, LeaseTokens tokens, long token) {
        return tokens.attachment(token) instanceof Kept kept && kept.get() instanceof OffheapDirectByteBuf buf
                && buf.alloc == alloc ? buf : null;
    }

    /**
     * How a recycling allocator keeps a buffer with its slot: weakly, so that a buffer in use that is lost
     * unreleased is still collected and reported by the leak detectors; and once, so that neither the buffer
     * nor the slot is written when the buffer goes back and out again (each reference stored into an old
     * object costs a GC write barrier).
     */
    private static final class Kept extends java.lang.ref.WeakReference<OffheapDirectByteBuf> {
        Kept(OffheapDirectByteBuf buf) {
            super(buf);
        }
    }

    private void use(long newToken, MemorySegment memory) {
        token = newToken;
        capacity = (int) memory.byteSize(); // first: the indices are checked against it
        if (segment != memory) {
            segment = memory; // a recycled buffer on its slot has it already: no write barrier
        }
    }

    // ---- reference counting: Netty's RefCnt (4.2), on a field of this object ----

    @Override
    public int refCnt() {
        return (int) REF_CNT.getAcquire(this) >>> 1;
    }

    @Override
    public ByteBuf retain() {
        return retain0(2);
    }

    @Override
    public ByteBuf retain(int increment) {
        return retain0(ObjectUtil.checkPositive(increment, "increment") << 1);
    }

    private ByteBuf retain0(int increment) {
        int old = (int) REF_CNT.getAndAdd(this, increment);
        if ((old & 0x80000001) != 0 || old > Integer.MAX_VALUE - increment) {
            REF_CNT.getAndAdd(this, -increment); // released (odd) or overflowed: undone, as Netty does
            throw new IllegalReferenceCountException(0, increment >>> 1);
        }
        return this;
    }

    @Override
    public boolean release() {
        return release0(2);
    }

    @Override
    public boolean release(int decrement) {
        return release0(ObjectUtil.checkPositive(decrement, "decrement") << 1);
    }

    private boolean release0(int decrement) {
        int current;
        int next;
        do {
            current = (int) REF_CNT.get(this);
            if (current == decrement) {
                next = 1;
            } else {
                if (current < decrement || (current & 1) == 1) {
                    throw new IllegalReferenceCountException(current >>> 1, -(decrement >>> 1));
                }
                next = current - decrement;
            }
        } while (!REF_CNT.compareAndSet(this, current, next));
        if (next == 1) {
            deallocate();
            return true;
        }
        return false;
    }

    @Override
    public ByteBuf touch() {
        return this;
    }

    @Override
    public ByteBuf touch(Object hint) {
        return this;
    }

    // ---- identity ----

    @Override
    public ByteBufAllocator alloc() {
        return alloc;
    }

    @Override
    public ByteOrder order() {
        return ByteOrder.BIG_ENDIAN;
    }

    @Override
    public ByteBuf unwrap() {
        return null;
    }

    @Override
    public boolean isDirect() {
        return true;
    }

    @Override
    public boolean isContiguous() {
        return true;
    }

    @Override
    public boolean hasArray() {
        return false;
    }

    @Override
    public byte[] array() {
        throw new UnsupportedOperationException("direct buffer");
    }

    @Override
    public int arrayOffset() {
        throw new UnsupportedOperationException("direct buffer");
    }

    @Override
    public boolean hasMemoryAddress() {
        return true;
    }

    /** The native address of the first byte; valid until the buffer is released or its capacity changes. */
    @Override
    public long memoryAddress() {
        ensureAccessible();
        return segment.address();
    }

    // ---- capacity ----

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        checkNewCapacity(newCapacity);
        int oldCapacity = capacity;
        if (newCapacity == oldCapacity) {
            return this;
        }
        LeaseTokens tokens = alloc.tokensOfThisThread();
        long grown = tokens.acquire(newCapacity); // first: a refusal leaves this buffer as it was
        MemorySegment to;
        try {
            to = tokens.segment(grown);
            tokens.watch(grown, this);
        } catch (RuntimeException | Error e) {
            tokens.release(grown);
            throw e;
        }
        if (newCapacity < oldCapacity) {
            trimIndicesToCapacity(newCapacity);
        }
        MemorySegment.copy(segment, 0, to, 0, Math.min(oldCapacity, newCapacity));
        long old = token;
        if (alloc.recycles()) {
            moveKept(tokens, old, grown);
        }
        use(grown, to);
        releaseToken(old);
        return this;
    }

    /**
     * A recycling allocator's buffer moves from the slot of {@code from} to that of {@code to}: the old slot must
     * not hand it out while it is in use on the new one; the new slot keeps it unless it keeps one already.
     */
    private void moveKept(LeaseTokens tokens, long from, long to) {
        if (tokens.attachment(from) instanceof Kept kept && kept.get() == this) {
            tokens.attach(from, null);
        }
        if (tokens.attachment(to) == null) {
            tokens.attach(to, new Kept(this));
        }
    }

    /**
     * Gives the lease back, once: called when the count reached zero. A buffer that is not recycled drops its
     * memory, so that even with Netty's accessibility checks off its use throws. A recycled one keeps it for
     * its slot's next lease (its count, checked before every access, stops its use meanwhile): no reference is
     * stored into the long-lived object, and so no GC write barrier paid, per buffer.
     */
    private void deallocate() {
        if (!alloc.recycles()) {
            segment = RELEASED;
        }
        releaseToken(token);
    }

    /**
     * Releases {@code old} once, whatever happens: Netty's count has already reached 0, so its release cannot be
     * repeated. If an I/O operation still holds a view of it (only a checked, sampled or dedicated lease can
     * tell: a release racing an I/O on another thread, a use after release), the pool gives it back once that
     * operation has ended, and the race is logged.
     */
    private void releaseToken(long old) {
        if (!alloc.tokensOfThisThread().releaseWhenFree(old)) {
            LOG.log(System.Logger.Level.WARNING, "a Netty buffer from pool ''{0}'' was released while an I/O"
                    + " operation or native call still used its memory; the pool gives the memory back once that"
                    + " has ended", alloc.pool().name());
        }
        Reference.reachabilityFence(this); // watched for leaks until the token went back
    }

    // ---- single values: Netty has checked the index (unless told not to); the segment checks it again ----

    @Override
    protected byte _getByte(int index) {
        return segment.get(BYTE, index);
    }

    @Override
    protected short _getShort(int index) {
        return segment.get(SHORT_BE, index);
    }

    @Override
    protected short _getShortLE(int index) {
        return segment.get(SHORT_LE, index);
    }

    @Override
    protected int _getUnsignedMedium(int index) {
        MemorySegment s = segment;
        return (s.get(BYTE, index) & 0xff) << 16 | (s.get(BYTE, index + 1) & 0xff) << 8
                | s.get(BYTE, index + 2) & 0xff;
    }

    @Override
    protected int _getUnsignedMediumLE(int index) {
        MemorySegment s = segment;
        return s.get(BYTE, index) & 0xff | (s.get(BYTE, index + 1) & 0xff) << 8
                | (s.get(BYTE, index + 2) & 0xff) << 16;
    }

    @Override
    protected int _getInt(int index) {
        return segment.get(INT_BE, index);
    }

    @Override
    protected int _getIntLE(int index) {
        return segment.get(INT_LE, index);
    }

    @Override
    protected long _getLong(int index) {
        return segment.get(LONG_BE, index);
    }

    @Override
    protected long _getLongLE(int index) {
        return segment.get(LONG_LE, index);
    }

    @Override
    protected void _setByte(int index, int value) {
        segment.set(BYTE, index, (byte) value);
    }

    @Override
    protected void _setShort(int index, int value) {
        segment.set(SHORT_BE, index, (short) value);
    }

    @Override
    protected void _setShortLE(int index, int value) {
        segment.set(SHORT_LE, index, (short) value);
    }

    @Override
    protected void _setMedium(int index, int value) {
        MemorySegment s = segment;
        s.set(BYTE, index, (byte) (value >>> 16));
        s.set(BYTE, index + 1, (byte) (value >>> 8));
        s.set(BYTE, index + 2, (byte) value);
    }

    @Override
    protected void _setMediumLE(int index, int value) {
        MemorySegment s = segment;
        s.set(BYTE, index, (byte) value);
        s.set(BYTE, index + 1, (byte) (value >>> 8));
        s.set(BYTE, index + 2, (byte) (value >>> 16));
    }

    @Override
    protected void _setInt(int index, int value) {
        segment.set(INT_BE, index, value);
    }

    @Override
    protected void _setIntLE(int index, int value) {
        segment.set(INT_LE, index, value);
    }

    @Override
    protected void _setLong(int index, long value) {
        segment.set(LONG_BE, index, value);
    }

    @Override
    protected void _setLongLE(int index, long value) {
        segment.set(LONG_LE, index, value);
    }

    // ---- bulk copies out ----

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        checkDstIndex(index, length, dstIndex, dst.length);
        MemorySegment.copy(segment, BYTE, index, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        int length = dst.remaining();
        checkIndex(index, length);
        if (dst.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        int position = dst.position();
        MemorySegment.copy(segment, index, MemorySegment.ofBuffer(dst), 0, length);
        dst.position(position + length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        checkDstIndex(index, length, dstIndex, dst.capacity());
        if (dst.hasArray()) {
            getBytes(index, dst.array(), dst.arrayOffset() + dstIndex, length);
        } else if (dst.nioBufferCount() > 0) {
            for (ByteBuffer part : dst.nioBuffers(dstIndex, length)) {
                int partLength = part.remaining();
                getBytes(index, part);
                index += partLength;
            }
        } else {
            dst.setBytes(dstIndex, this, index, length);
        }
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, OutputStream out, int length) throws IOException {
        checkIndex(index, length);
        if (length == 0) {
            return this;
        }
        byte[] chunk = new byte[Math.min(length, STREAM_CHUNK)];
        MemorySegment s = segment;
        for (int done = 0; done < length; ) {
            int n = Math.min(chunk.length, length - done);
            MemorySegment.copy(s, BYTE, index + done, chunk, 0, n);
            out.write(chunk, 0, n);
            done += n;
        }
        return this;
    }

    @Override
    public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
        checkIndex(index, length);
        if (length == 0) {
            return 0;
        }
        return out.write(view(index, length));
    }

    @Override
    public int getBytes(int index, FileChannel out, long position, int length) throws IOException {
        checkIndex(index, length);
        if (length == 0) {
            return 0;
        }
        return out.write(view(index, length), position);
    }

    // ---- bulk copies in ----

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        checkSrcIndex(index, length, srcIndex, src.length);
        MemorySegment.copy(src, srcIndex, segment, BYTE, index, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        int length = src.remaining();
        checkIndex(index, length);
        int position = src.position();
        MemorySegment.copy(MemorySegment.ofBuffer(src), 0, segment, index, length); // overlap-safe
        src.position(position + length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        checkSrcIndex(index, length, srcIndex, src.capacity());
        if (src.hasArray()) {
            setBytes(index, src.array(), src.arrayOffset() + srcIndex, length);
        } else if (src.nioBufferCount() > 0) {
            for (ByteBuffer part : src.nioBuffers(srcIndex, length)) {
                int partLength = part.remaining();
                setBytes(index, part);
                index += partLength;
            }
        } else {
            src.getBytes(srcIndex, this, index, length);
        }
        return this;
    }

    @Override
    public int setBytes(int index, InputStream in, int length) throws IOException {
        checkIndex(index, length);
        byte[] bytes = new byte[length];
        int read = in.read(bytes, 0, length);
        if (read > 0) {
            MemorySegment.copy(bytes, 0, segment, BYTE, index, read);
        }
        return read;
    }

    @Override
    public int setBytes(int index, ScatteringByteChannel in, int length) throws IOException {
        checkIndex(index, length);
        try {
            return in.read(internalNioBuffer(index, length)); // Netty's read path: no new view per read
        } catch (ClosedChannelException ignored) {
            return -1;
        }
    }

    @Override
    public int setBytes(int index, FileChannel in, long position, int length) throws IOException {
        checkIndex(index, length);
        try {
            return in.read(internalNioBuffer(index, length), position);
        } catch (ClosedChannelException ignored) {
            return -1;
        }
    }

    // ---- copies and NIO views ----

    @Override
    public ByteBuf copy(int index, int length) {
        checkIndex(index, length);
        ByteBuf copy = alloc.directBuffer(length, maxCapacity());
        try {
            return copy.writeBytes(this, index, length);
        } catch (RuntimeException | Error e) {
            copy.release();
            throw e;
        }
    }

    @Override
    public int nioBufferCount() {
        return 1;
    }

    /** A new big-endian {@code ByteBuffer} on these bytes, sharing the memory, independent indexes. */
    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        checkIndex(index, length);
        return view(index, length);
    }

    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        return new ByteBuffer[] {nioBuffer(index, length)};
    }

    /**
     * The view Netty's socket reads and writes use, position {@code index} and limit {@code index + length}: the
     * pool's view of the lease's slot ({@link LeaseTokens#byteBuffer}), the same object for every buffer on the
     * same memory, so it costs no object per buffer. Like any view handed out, it is the caller's to drop at
     * release.
     */
    @Override
    public ByteBuffer internalNioBuffer(int index, int length) {
        checkIndex(index, length);
        ByteBuffer nio = alloc.tokens().byteBuffer(token);
        if (nio.order() != ByteOrder.BIG_ENDIAN) {
            nio.order(ByteOrder.BIG_ENDIAN); // a pool in native order: Netty's buffers are big-endian
        }
        return nio.limit(index + length).position(index);
    }

    /** A new big-endian buffer on {@code [index, index + length)}; the segment checks the range. */
    private ByteBuffer view(int index, int length) {
        return segment.asSlice(index, length).asByteBuffer();
    }
}
