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

import dev.offheap.buffer.BufferPool;
import dev.offheap.buffer.BufferPoolStats;
import dev.offheap.buffer.LeaseTokens;
import java.io.IOException;
import java.util.Locale;
import java.util.Objects;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.util.annotation.ManagedAttribute;
import org.eclipse.jetty.util.annotation.ManagedObject;
import org.eclipse.jetty.util.annotation.ManagedOperation;
import org.eclipse.jetty.util.component.Dumpable;

/**
 * Jetty's {@link ByteBufferPool} whose direct buffers are leased from an offheap {@link BufferPool}: pass it to
 * {@code new Server(threadPool, scheduler, pool)} and every direct buffer Jetty's connectors, HTTP/1, HTTP/2
 * and your handlers acquire comes from offheap's size classes, under its budget, in its statistics.
 *
 * <p><b>Direct requests.</b> {@code acquire(size, true)} leases exactly {@code size} bytes (0 to the pool's
 * {@code maxLeaseSize}, 1 GiB by default) and returns a {@link RetainableByteBuffer.Pooled} in flush mode
 * (position 0, limit 0) with capacity {@code size}: Jetty promises "at least" the size; this pool does not
 * round up, because offheap's size classes already do so inside the pool. Jetty's reference count fronts the
 * lease: {@code release()} returns true when the last reference goes, and then the lease is released, exactly
 * once, on whatever thread that is; a further {@code release()} throws {@link IllegalStateException} as
 * Jetty's own buffers do, and never reaches the lease. After that last release every method of the buffer
 * throws {@link IllegalStateException}. Buffers above the pool's {@code largestPooledSize} (1 MiB by default)
 * get a region of their own, unmapped at release, not when a {@code Cleaner} runs.
 *
 * <p><b>One object per buffer.</b> A direct buffer is one object of 40 bytes of heap: it holds its lease as a
 * {@link dev.offheap.buffer.LeaseTokens token}, and its {@code ByteBuffer} is the pool's view of the lease's
 * memory, handed to the later leases of the same memory and size as Jetty's own pool hands its buffers out
 * again: a {@code ByteBuffer} kept past the release is the next owner's (in a
 * {@link BufferPool.Builder#checked(boolean) checked} pool, and for the leases sampled for use-after-release
 * detection, it throws instead). With {@link Builder#recycleBuffers(boolean) recycleBuffers(true)} the buffer
 * objects are recycled too, at Jetty's own level of safety.
 *
 * <p><b>{@code releaseAndRemove}.</b> Jetty versions after 12.1.14 call it when a write was aborted and may
 * still read the buffer, and their {@code ArrayByteBufferPool} then drops the buffer for the GC instead of
 * pooling it (12.1.14 has no such method; this class declares it with the later signature). Here the lease
 * is not given back at the last release but once the GC finds its {@code ByteBuffer} unreachable
 * ({@link dev.offheap.buffer.LeaseTokens#releaseWhenUnreachable}; the pool looks on its slow paths and at each
 * idle-return look), so that memory is never lent to someone else while a late write may read it. Until then
 * it counts as leased and quarantined in {@link BufferPool#stats()}.
 *
 * <p><b>Heap requests</b> ({@code direct == false}) go to a Jetty pool for heap buffers, by default an
 * {@link ArrayByteBufferPool} of this object's own: offheap manages native memory only.
 *
 * <p><b>Byte order.</b> Every buffer is {@code BIG_ENDIAN}, as Jetty assumes of any {@code ByteBuffer}, even if
 * {@code pool} was built with another {@link BufferPool#byteOrder()}.
 *
 * <p><b>Budgets.</b> When the pool's budget refuses the memory, {@code acquire} throws offheap's
 * {@link dev.offheap.account.BudgetExceededException}, naming the pool and the request; the pool stays usable.
 *
 * <p>{@link #clear()} gives the free memory back: {@link BufferPool#trim()} and the heap pool's
 * {@code clear()}. The pool shows in Jetty's dump ({@code Server.dump()}) and, with an {@code MBeanContainer},
 * in JMX with the attributes below. The caller keeps {@code pool} and closes it after the server stopped.
 */
@ManagedObject("A ByteBufferPool whose direct buffers are offheap leases")
public final class OffheapByteBufferPool implements ByteBufferPool, Dumpable {
    private final BufferPool pool;
    private final LeaseTokens tokens;
    private final ByteBufferPool heap;
    private final boolean recycles;
    private final LeasedBuffer.CountedInline countedInline = new LeasedBuffer.CountedInline(this);

    /**
     * A Jetty pool of direct buffers from {@code pool}, which the caller keeps and closes, and heap buffers
     * from an {@link ArrayByteBufferPool} of its own.
     *
     * @param pool the offheap pool direct requests lease from
     * @throws NullPointerException if {@code pool} is null
     */
    public OffheapByteBufferPool(BufferPool pool) {
        this(pool, new ArrayByteBufferPool());
    }

    /**
     * A Jetty pool of direct buffers from {@code pool}, which the caller keeps and closes, and heap buffers
     * from {@code heap}.
     *
     * @param pool the offheap pool direct requests lease from
     * @param heap the Jetty pool heap requests go to
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code heap} is this kind of pool (it would serve heap requests
     *         with direct buffers)
     */
    public OffheapByteBufferPool(BufferPool pool, ByteBufferPool heap) {
        this(pool, heap, false, false);
    }

    private OffheapByteBufferPool(BufferPool pool, ByteBufferPool heap, boolean recycles, boolean threadCaches) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.heap = Objects.requireNonNull(heap, "heap");
        if (heap instanceof OffheapByteBufferPool) {
            throw new IllegalArgumentException(
                    "the heap pool must serve heap buffers, not be an OffheapByteBufferPool");
        }
        this.tokens = threadCaches ? pool.tokens() : pool.tokens().withoutThreadCaches();
        this.recycles = recycles;
    }

    /**
     * A builder of a Jetty pool of direct buffers from {@code pool}, which the caller keeps and closes.
     *
     * @param pool the offheap pool direct requests lease from
     * @return a builder with the constructors' defaults: heap buffers from an {@link ArrayByteBufferPool} of
     *         its own, no recycling
     * @throws NullPointerException if {@code pool} is null
     */
    public static Builder builder(BufferPool pool) {
        return new Builder(Objects.requireNonNull(pool, "pool"));
    }

    /** Settings of an {@link OffheapByteBufferPool}; {@link #build()} makes it. */
    public static final class Builder {
        private final BufferPool pool;
        private ByteBufferPool heap;
        private boolean recycleBuffers;
        private boolean threadCaches;

        private Builder(BufferPool pool) {
            this.pool = pool;
        }

        /**
         * The Jetty pool heap requests go to (default: an {@link ArrayByteBufferPool} of the pool's own).
         *
         * @param heap the heap pool
         * @return this builder
         * @throws NullPointerException if {@code heap} is null
         */
        public Builder heapPool(ByteBufferPool heap) {
            this.heap = Objects.requireNonNull(heap, "heap");
            return this;
        }

        /**
         * Whether released direct buffers are recycled, as Jetty's {@code ArrayByteBufferPool} recycles its
         * own: each is kept with its memory and handed out again with the memory's next lease of the same
         * size, so that a buffer costs no heap at all once every slot has one. Off by default. What it gives
         * up: a released buffer throws {@link IllegalStateException} only until it is reused; a reference kept
         * past release then acts on the next owner's buffer, as it would with Jetty's own pool. A buffer
         * released with {@code releaseAndRemove}, and leases the pool samples, are never recycled.
         *
         * @param recycle true to recycle
         * @return this builder
         */
        public Builder recycleBuffers(boolean recycle) {
            this.recycleBuffers = recycle;
            return this;
        }

        /**
         * Whether Jetty's threads lease through the pool's thread caches. Off by default: Jetty's worker threads
         * idle in its thread pool for long stretches, and a cache a live idle thread holds is memory nothing
         * can give back until the thread ends; off, every buffer comes from and goes back to the pool's shared
         * lists (about 10 ns more per buffer than a cache hit, a compare-and-set each way), whose idle memory
         * idle return gives back to the OS. Jetty's own {@code ArrayByteBufferPool} has no thread caches either.
         *
         * @param cache true to use thread caches
         * @return this builder
         */
        public Builder threadCaches(boolean cache) {
            this.threadCaches = cache;
            return this;
        }

        /** {@return the Jetty pool} */
        public OffheapByteBufferPool build() {
            return new OffheapByteBufferPool(pool, heap != null ? heap : new ArrayByteBufferPool(), recycleBuffers,
                    threadCaches);
        }
    }

    /** {@return the offheap pool the direct buffers come from} */
    public BufferPool pool() {
        return pool;
    }

    /** {@return the Jetty pool heap requests go to} */
    public ByteBufferPool heapPool() {
        return heap;
    }

    /** {@return whether released direct buffers are recycled ({@link Builder#recycleBuffers})} */
    public boolean recycles() {
        return recycles;
    }

    LeaseTokens tokens() {
        return tokens;
    }

    LeasedBuffer.CountedInline countedInline() {
        return countedInline;
    }

    /**
     * A buffer of capacity {@code size} (direct) or at least {@code size} (heap), in flush mode.
     *
     * @param size   the bytes needed
     * @param direct true for a buffer leased from the offheap pool, false for one of the heap pool
     * @return the buffer, with one reference: the caller's
     * @throws IllegalArgumentException if {@code size} is negative or above the pool's {@code maxLeaseSize}
     *         (a heap request throws what the heap pool throws)
     * @throws dev.offheap.account.BudgetExceededException if the pool's budget refuses the memory
     * @throws IllegalStateException if the offheap pool is closed
     */
    @Override
    public RetainableByteBuffer.Mutable acquire(int size, boolean direct) {
        if (!direct) {
            return heap.acquire(size, false);
        }
        if (size < 0) {
            throw new IllegalArgumentException("buffer size must not be negative: " + size);
        }
        return LeasedBuffer.lease(this, size);
    }

    /**
     * Releases {@code buffer} and, if it is (or wraps, or is a slice of) one of this pool's direct buffers,
     * keeps its memory from being lent again until the GC finds no view of it left: for a buffer a write may
     * still read after it was aborted. Other buffers are simply released.
     *
     * <p>Jetty 12.1.14 has no such method in {@code ByteBufferPool}; later Jetty versions add
     * {@code ByteBufferPool.releaseAndRemove(RetainableByteBuffer)} with this signature and meaning, which this
     * method then implements.
     *
     * @param buffer a buffer of this pool or of any other, or null
     * @return whether that was the last reference, as {@link RetainableByteBuffer#release()}; false for null
     * @throws IllegalStateException if the buffer was already released
     */
    public boolean releaseAndRemove(RetainableByteBuffer buffer) {
        if (buffer == null) {
            return false;
        }
        LeasedBuffer leased = LeasedBuffer.unwrap(buffer);
        if (leased != null) {
            leased.markRemoved();
        }
        return buffer.release();
    }

    /** Gives free memory back to the OS ({@link BufferPool#trim()}) and clears the heap pool. */
    @Override
    @ManagedOperation(value = "Gives free direct memory back to the OS and clears the heap pool", impact = "ACTION")
    public void clear() {
        pool.trim();
        heap.clear();
    }

    /** {@return the offheap pool's name} */
    @ManagedAttribute("The name of the offheap pool")
    public String getPoolName() {
        return pool.name();
    }

    /**
     * {@return the native bytes the offheap pool holds from the OS now: slabs and dedicated regions}
     *
     * @throws IllegalStateException if the offheap pool is closed
     */
    @ManagedAttribute("Native bytes taken from the OS (slabs and dedicated regions)")
    public long getDirectMemory() {
        return stats().bytesFromOs();
    }

    /**
     * {@return the native bytes of the buffers leased now (whole slots)}
     *
     * @throws IllegalStateException if the offheap pool is closed
     */
    @ManagedAttribute("Native bytes of the buffers leased now")
    public long getLeasedDirectMemory() {
        return stats().bytesInUse();
    }

    /**
     * {@return the native bytes of free slots, kept for reuse, which {@link #clear()} gives back to the OS}
     *
     * @throws IllegalStateException if the offheap pool is closed
     */
    @ManagedAttribute("Native bytes free for reuse, given back by clear()")
    public long getAvailableDirectMemory() {
        return stats().freeSlotBytes();
    }

    /**
     * {@return the number of direct buffers leased now}
     *
     * @throws IllegalStateException if the offheap pool is closed
     */
    @ManagedAttribute("Direct buffers leased now")
    public long getDirectLeases() {
        return stats().leases();
    }

    /**
     * {@return the number of direct buffers ever acquired}
     *
     * @throws IllegalStateException if the offheap pool is closed
     */
    @ManagedAttribute("Direct buffers ever acquired")
    public long getDirectAcquires() {
        return stats().acquires();
    }

    /**
     * {@return the number of direct buffers found unreachable without release by offheap's leak detector}
     *
     * @throws IllegalStateException if the offheap pool is closed
     */
    @ManagedAttribute("Direct buffers found unreachable without release")
    public long getLeaksReported() {
        return stats().leaks();
    }

    /** {@return the bytes the heap pool retains, if it is an {@link ArrayByteBufferPool}; else -1} */
    @ManagedAttribute("Bytes retained by the heap pool")
    public long getHeapMemory() {
        return heap instanceof ArrayByteBufferPool array ? array.getHeapMemory() : -1;
    }

    private BufferPoolStats stats() {
        return pool.stats();
    }

    /**
     * Writes the offheap pool's statistics, one line each, then the heap pool, for Jetty's dump.
     *
     * @param out    where the text goes
     * @param indent the prefix of each line
     * @throws IOException if {@code out} fails
     * @throws IllegalStateException if the offheap pool is closed
     */
    @Override
    public void dump(Appendable out, String indent) throws IOException {
        Object[] lines = stats().format().lines().map(line -> line.startsWith("  ") ? line.substring(2) : line)
                .toArray();
        Object[] children = new Object[lines.length + 1];
        System.arraycopy(lines, 0, children, 0, lines.length);
        children[lines.length] = heap;
        Dumpable.dumpObjects(out, indent, this, children);
    }

    /** The pool's name and its figures in a line. */
    @Override
    public String toString() {
        BufferPoolStats s = stats();
        return String.format(Locale.ROOT, "%s@%x{pool=%s,direct=%d,leased=%d,available=%d,leases=%d,heap=%d}",
                getClass().getSimpleName(), hashCode(), s.name(), s.bytesFromOs(), s.bytesInUse(), s.freeSlotBytes(),
                s.leases(), getHeapMemory());
    }
}
