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
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.buffer.CompositeByteBuf;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.internal.ThreadExecutorMap;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Netty's {@code ByteBufAllocator} whose direct buffers are leased from an offheap {@link BufferPool}: exact
 * capacities, growth through the pool, release on any thread, the pool's budgets, JMX and {@code inspect}
 * view. Hand it to Netty through {@code ChannelOption.ALLOCATOR}:
 *
 * {@snippet :
 * BufferPool pool = BufferPool.builder().name("netty").build();
 * OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
 * new ServerBootstrap()
 *         .option(ChannelOption.ALLOCATOR, alloc)
 *         .childOption(ChannelOption.ALLOCATOR, alloc);
 * }
 *
 * <p><b>Direct buffers</b> are big-endian like every Netty buffer, have exactly the capacity asked for, and
 * keep Netty's reference counting: the lease goes back to the pool once, when the count reaches zero, on
 * whichever thread releases it. Any use after that throws ({@code IllegalReferenceCountException}, or
 * {@code IndexOutOfBoundsException} with Netty's checks turned off) and never reaches the pool's memory.
 * Netty's leak detector is attached as Netty's own allocators attach it. When the pool's budget refuses
 * memory, {@link #directBuffer(int, int)} (and any growth of a buffer) throws
 * {@link dev.offheap.account.BudgetExceededException}; a size above the pool's largest lease throws
 * {@link IllegalArgumentException}.
 *
 * <p><b>One object per direct buffer</b>: the {@code ByteBuf} holds its lease as a {@link LeaseTokens token}
 * and its view for Netty's socket paths ({@code internalNioBuffer}) is the pool's, so a buffer costs its own
 * 56 bytes of heap and nothing else. A released {@code ByteBuf} stays released: no later allocation ever
 * reuses it. For the frameworks' own level of safety and no garbage at all, an allocator made with
 * {@link Builder#recycleBuffers(boolean) recycleBuffers(true)} keeps each buffer with its memory and
 * hands it out again with the memory's next lease, as Netty's pooled allocator recycles its buffers: a
 * released buffer then throws until it is reused, and a reference kept past release acts on whichever lease
 * has it next.
 *
 * <p><b>Heap buffers</b> are Netty's unpooled heap buffers ({@code byte[]} the garbage collector frees),
 * counted in {@link ByteBufAllocatorMetric#usedHeapMemory()}: offheap pools native memory only.
 *
 * <p>Safe for use by any number of threads, as the pool is.
 */
public final class OffheapByteBufAllocator extends AbstractByteBufAllocator
        implements ByteBufAllocatorMetricProvider, AutoCloseable {
    private final BufferPool pool;
    private final LeaseTokens tokens;
    /** What threads without a cache of their own lease through: the pool's shared lists. */
    private final LeaseTokens uncachedTokens;
    private final boolean preferDirect;
    private final boolean ownsPool;
    private final boolean recycles;
    private final boolean cacheForAllThreads;
    private final LongAdder heapBytes = new LongAdder();
    private final OffheapByteBufAllocatorMetric metric = new OffheapByteBufAllocatorMetric(this);
    /**
     * Per event-loop thread: set at its first direct buffer, when the loop is given its idle flush. A
     * {@code FastThreadLocal}, read only on Netty's own threads: an indexed load there.
     */
    private final FastThreadLocal<Boolean> idleFlushScheduled = new FastThreadLocal<>() {
        @Override
        protected Boolean initialValue() {
            scheduleIdleFlush();
            return Boolean.TRUE;
        }
    };

    /**
     * An allocator of direct buffers from {@code pool}, preferring direct buffers for {@link #buffer()}. The
     * caller keeps the pool and closes it once Netty is done with it.
     *
     * @param pool the pool direct buffers lease from
     * @throws NullPointerException if {@code pool} is null
     */
    public OffheapByteBufAllocator(BufferPool pool) {
        this(pool, true);
    }

    /**
     * An allocator of direct buffers from {@code pool}, which the caller keeps and closes.
     *
     * @param pool         the pool direct buffers lease from
     * @param preferDirect whether {@link #buffer()} and {@link #compositeBuffer()} give direct buffers (else
     *        heap ones); unlike Netty's allocators this does not depend on whether Netty may use the JDK's
     *        internal memory access, because the pool frees its memory itself
     * @throws NullPointerException if {@code pool} is null
     */
    public OffheapByteBufAllocator(BufferPool pool, boolean preferDirect) {
        this(pool, preferDirect, false, false, false);
    }

    private OffheapByteBufAllocator(BufferPool pool, boolean preferDirect, boolean ownsPool, boolean recycles,
            boolean cacheForAllThreads) {
        super(preferDirect);
        this.pool = Objects.requireNonNull(pool, "pool");
        this.tokens = pool.tokens();
        this.uncachedTokens = tokens.withoutThreadCaches();
        this.preferDirect = preferDirect;
        this.ownsPool = ownsPool;
        this.recycles = recycles;
        this.cacheForAllThreads = cacheForAllThreads;
    }

    /**
     * An allocator with a pool of its own (named {@code netty}, default settings), closed by {@link #close()}.
     *
     * @return the allocator, preferring direct buffers
     */
    public static OffheapByteBufAllocator create() {
        return new OffheapByteBufAllocator(BufferPool.builder().name("netty").build(), true, true, false, false);
    }

    /**
     * A builder of an allocator of direct buffers from {@code pool}, which the caller keeps and closes.
     *
     * @param pool the pool direct buffers lease from
     * @return a builder, preferring direct buffers and recycling none, as the constructors make them
     * @throws NullPointerException if {@code pool} is null
     */
    public static Builder builder(BufferPool pool) {
        return new Builder(Objects.requireNonNull(pool, "pool"));
    }

    /** Settings of an {@link OffheapByteBufAllocator}; {@link #build()} makes it. */
    public static final class Builder {
        private final BufferPool pool;
        private boolean preferDirect = true;
        private boolean recycleBuffers;
        private boolean cacheForAllThreads;

        private Builder(BufferPool pool) {
            this.pool = pool;
        }

        /**
         * Whether {@link OffheapByteBufAllocator#buffer()} and {@code compositeBuffer()} give direct buffers (the
         * default) or heap ones.
         *
         * @param preferDirect true for direct buffers
         * @return this builder
         */
        public Builder preferDirect(boolean preferDirect) {
            this.preferDirect = preferDirect;
            return this;
        }

        /**
         * Whether released direct buffers are recycled, as Netty's pooled allocator recycles its own: each is
         * kept with its memory and handed out again with the memory's next lease, so that a buffer costs no
         * heap at all once every slot has one. Off by default. What it gives up: a released {@code ByteBuf}
         * throws ({@code IllegalReferenceCountException}) only until it is reused; a reference kept past release
         * then acts on the next owner's buffer, as it would with Netty's pooled buffers. Netty's leak detector
         * and the pool's own leak sampling still watch every buffer in use. Leases the pool samples, and those
         * of a checked pool, are never recycled.
         *
         * @param recycle true to recycle
         * @return this builder
         */
        public Builder recycleBuffers(boolean recycle) {
            this.recycleBuffers = recycle;
            return this;
        }

        /**
         * Whether threads other than Netty's event loops ({@code FastThreadLocalThread}s) lease through the
         * pool's thread caches too. Off by default, as Netty's pooled allocator caches for event loops only: a
         * cache saves about 10 ns per buffer, but a thread that goes idle keeps it for as long as it lives (an
         * event loop gives its cache back by itself when idle), which for the threads of an executor (gRPC's,
         * a server's worker pool) is memory nothing gives back. Off, those threads lease from and release to
         * the pool's shared lists ({@link LeaseTokens#withoutThreadCaches()}).
         *
         * @param cache true for caches on every platform thread
         * @return this builder
         */
        public Builder cacheForAllThreads(boolean cache) {
            this.cacheForAllThreads = cache;
            return this;
        }

        /** {@return the allocator} */
        public OffheapByteBufAllocator build() {
            return new OffheapByteBufAllocator(pool, preferDirect, false, recycleBuffers, cacheForAllThreads);
        }
    }

    /** {@return the pool the direct buffers come from: its stats, budget, JMX name and trim} */
    public BufferPool pool() {
        return pool;
    }

    /** {@return whether {@link #buffer()} gives direct buffers} */
    public boolean preferDirect() {
        return preferDirect;
    }

    /** {@return true: direct buffers come from the pool} */
    @Override
    public boolean isDirectBufferPooled() {
        return true;
    }

    /**
     * Gives the pool's idle memory back to the OS at once ({@link BufferPool#trim()}): the calling thread's
     * cache and every slab with no buffer leased. Without any call, an idle server gives its memory back by
     * itself: each event loop that allocated empties its own cache once it allocated nothing for the pool's
     * {@linkplain BufferPool#idleReturnDelay() idle-return delay}, and the pool's idle return gives the slabs
     * back (within about four delays, 40 s with the defaults). To give everything back now, use
     * {@link #trim(EventExecutorGroup)}: event-loop threads keep their caches through this method.
     *
     * @throws IllegalStateException if the pool is closed
     */
    public void trim() {
        pool.trim();
    }

    /**
     * Trims from every event loop of {@code group} in turn, so that each empties its own thread cache (which
     * only its thread may touch), then once more from the caller: what an idle Netty server should call to
     * give all its free buffer memory back. Waits for each loop, except the caller's own (trimmed in place),
     * and skips loops that are shutting down.
     *
     * @param group the event loops that use this allocator, e.g. a server's child group
     * @throws NullPointerException if {@code group} is null
     * @throws IllegalStateException if the pool is closed (from a loop's trim, through its future)
     */
    public void trim(EventExecutorGroup group) {
        for (EventExecutor loop : group) {
            if (loop.inEventLoop()) {
                pool.trim();
            } else if (!loop.isShuttingDown()) {
                loop.submit(pool::trim).syncUninterruptibly();
            }
        }
        pool.trim();
    }

    /**
     * Direct and heap memory in use: direct as the pool counts it ({@code pool().stats().bytesInUse()}, whole
     * slots, every lease of the pool, also those of other users when it is shared; it walks the pool's slots,
     * so poll it rather than call it per allocation), heap as the allocator counts its live heap buffers.
     *
     * @return the metric, the same object on every call
     */
    @Override
    public ByteBufAllocatorMetric metric() {
        return metric;
    }

    /**
     * Closes the pool if this allocator made it ({@link #create()}); does nothing for a pool passed in, which
     * its owner closes. Buffers still live then throw on use.
     */
    @Override
    public void close() {
        if (ownsPool) {
            pool.close();
        }
    }

    @Override
    public ByteBuf buffer() {
        return preferDirect ? directBuffer() : heapBuffer();
    }

    @Override
    public ByteBuf buffer(int initialCapacity) {
        return preferDirect ? directBuffer(initialCapacity) : heapBuffer(initialCapacity);
    }

    @Override
    public ByteBuf buffer(int initialCapacity, int maxCapacity) {
        return preferDirect ? directBuffer(initialCapacity, maxCapacity) : heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public CompositeByteBuf compositeBuffer() {
        return preferDirect ? compositeDirectBuffer() : compositeHeapBuffer();
    }

    @Override
    public CompositeByteBuf compositeBuffer(int maxNumComponents) {
        return preferDirect ? compositeDirectBuffer(maxNumComponents) : compositeHeapBuffer(maxNumComponents);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        LeaseTokens leaseTokens = uncachedTokens;
        if (FastThreadLocalThread.currentThreadHasFastThreadLocal()) {
            idleFlushScheduled.get();
            leaseTokens = tokens;
        } else if (cacheForAllThreads) {
            leaseTokens = tokens;
        }
        return toLeakAwareBuffer(OffheapDirectByteBuf.lease(this, leaseTokens, initialCapacity, maxCapacity));
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return toLeakAwareBuffer(new OffheapHeapByteBuf(this, initialCapacity, maxCapacity));
    }

    @Override
    public String toString() {
        return "OffheapByteBufAllocator[" + pool + ", preferDirect=" + preferDirect + "]";
    }

    /**
     * Gives the calling event loop a task that, every idle-return delay of the pool, empties the loop's own
     * thread cache if the loop allocated nothing since the last time ({@link BufferPool#flushThreadCacheIfIdle()}):
     * a thread's cache is its own, and an idle loop would otherwise keep its buffers for as long as it lives.
     * The pool's idle return then gives them back to the OS. As Netty's pooled allocator schedules its cache
     * trim on the loop that owns the cache.
     */
    private void scheduleIdleFlush() {
        Duration delay = pool.idleReturnDelay();
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        if (loop == null || delay.isZero()) {
            return;
        }
        IdleFlush flush = new IdleFlush(pool);
        long nanos = delay.toNanos();
        flush.future = loop.scheduleWithFixedDelay(flush, nanos, nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** One event loop's idle flush; ends itself once the pool is closed. */
    private static final class IdleFlush implements Runnable {
        private final BufferPool pool;
        volatile ScheduledFuture<?> future;

        IdleFlush(BufferPool pool) {
            this.pool = pool;
        }

        @Override
        public void run() {
            if (pool.isClosed()) {
                ScheduledFuture<?> f = future;
                if (f != null) {
                    f.cancel(false);
                }
                return;
            }
            pool.flushThreadCacheIfIdle();
        }
    }

    /** The views {@code internalNioBuffer} hands out, shared by the buffers on the same memory of the pool. */
    LeaseTokens tokens() {
        return tokens;
    }

    /** The way this thread leases and releases: through its cache if it has one here, else the shared lists. */
    LeaseTokens tokensOfThisThread() {
        return cacheForAllThreads || FastThreadLocalThread.currentThreadHasFastThreadLocal() ? tokens : uncachedTokens;
    }

    /** {@return whether released direct buffers are recycled ({@link Builder#recycleBuffers})} */
    public boolean recycles() {
        return recycles;
    }

    long usedHeapBytes() {
        return heapBytes.sum();
    }

    void heapArrayAllocated(int bytes) {
        heapBytes.add(bytes);
    }

    void heapArrayFreed(int bytes) {
        heapBytes.add(-bytes);
    }
}
