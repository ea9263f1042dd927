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
import dev.offheap.account.Bytes;
import dev.offheap.account.MemoryBudget;
import dev.offheap.account.MemoryInUseException;
import dev.offheap.account.Reclaimer;
import dev.offheap.metrics.BufferPoolMXBean;
import dev.offheap.metrics.jfr.JfrEvents;
import dev.offheap.metrics.jmx.Jmx;
import dev.offheap.metrics.jmx.Registration;
import dev.offheap.os.Grace;
import dev.offheap.os.NativeMemory;
import dev.offheap.os.OwnedMappings;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Predicate;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool of native buffers for I/O: cheaper than {@code ByteBuffer.allocate}, with no garbage collector in
 * the way.
 *
 * {@snippet :
 * try (BufferPool pool = BufferPool.create();
 *      BufferLease buffer = pool.acquire(16 * 1024)) {
 *     buffer.byteBuffer().putLong(42);          // big-endian, as any new ByteBuffer
 *     buffer.segment().get(ValueLayout.JAVA_LONG, 0);
 * }
 * }
 *
 * <p>Memory comes from large slabs mapped from the OS, one size class per slab (64 bytes, then four classes
 * per doubling up to {@link Builder#largestPooledSize(int)}); larger requests get a region of their own.
 * Every byte taken from the OS is charged to the pool's {@link MemoryBudget}, through an owner named after
 * the pool; when the budget (or an ancestor) runs short, the pool gives its idle slabs back before the
 * charge is refused (it is one of the budget's {@link Reclaimer}s). A platform thread keeps a
 * small cache of free slots, so a steady acquire and release on one thread takes no lock and allocates
 * nothing; a buffer may be released by any thread.
 *
 * <p>Every lease is a handle of its own: once released, each of its methods but {@code refCount()} throws
 * {@link IllegalStateException}, and a handle kept by mistake can never act on a later lease of the same
 * memory. What a view ({@code ByteBuffer}, {@code MemorySegment}) kept past release does depends on the
 * mode: see {@link Builder#checked(boolean)} and {@link Builder#useAfterReleaseSampling(int)}.
 *
 * <p>A pool is safe for use by any number of threads. {@link #close()} gives all memory back to the OS;
 * views of buffers still leased then throw {@link IllegalStateException} instead of touching freed memory.
 */
public final class BufferPool implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(BufferPool.class.getName());
    private static final AtomicInteger POOL_NUMBER = new AtomicInteger();

    private final String name;
    private final MemoryBudget budget;
    private final boolean ownBudget;
    private final Reclaimer reclaimer = new Reclaimer() {
        @Override
        public long reclaim(long bytesWanted) {
            return BufferPool.this.reclaim(bytesWanted);
        }

        @Override
        public void budgetClosed(MemoryBudget closed) {
            refusing = true; // acquires from caches and free lists charge nothing: they must be told
        }
    };
    private final SlabSource slabs;
    private final OwnedMappings.Owner owner;
    private final SizeClassPool[] classPools;
    /** Which slot a thread gets and whether its lease is sampled: the acquire side. */
    private final SlotTakes takes;
    private final LeaseTokens tokens;
    private final ThreadCaches caches;
    /** Where the slots of ended leases go: the release side, apart from the acquire side here. */
    private final SlotReturns returns;
    /** The most all thread caches together can hold: caches x the slot bytes of one full cache. */
    private final long threadCacheLimitBytes;
    private final LeakDetector leaks;
    private final DeferredReleases deferred = new DeferredReleases();
    private final boolean checked;
    private final ByteOrder byteOrder;
    private final int maxLeaseSize;
    private final int largestPooledSize;
    private final DedicatedRegions dedicated;
    private final BufferPoolMetrics metrics = new BufferPoolMetrics(this);
    private final Registration jmx;
    /** Bytes of slabs idle return leaves mapped whatever happens. */
    private final long idleFloor;
    private final Duration idleDelay;
    /** Idle return's periodic look, or null if off; cancelled at close. */
    private final ScheduledFuture<?> idleLook;
    /** Set by the first close: no acquire from then on. */
    private volatile boolean closed;
    /**
     * Set after {@code closed}, or when the budget (or an ancestor) closes: the one flag an acquire reads,
     * which then says why it refuses.
     */
    private volatile boolean refusing;
    /** Set once a close gave everything back; until then every close tries again. Guarded by closing. */
    private boolean closeDone;
    private final Object closing = new Object();

    private BufferPool(Builder b) {
        this.name = b.name != null ? b.name : "buffer-pool-" + POOL_NUMBER.incrementAndGet();
        this.ownBudget = b.budget == null;
        this.budget = ownBudget ? MemoryBudget.unlimited(name) : b.budget;
        this.owner = OwnedMappings.Owner.named(name);
        this.slabs = new SlabSource(name, budget.owner("buffer pool " + name), b.memory.ownedBy(owner));
        SizeClasses classes = new SizeClasses(b.largestPooledSize);
        this.classPools = new SizeClassPool[classes.count()];
        int[] capacities = new int[classes.count()];
        int stripes = Builder.defaultStripes(Runtime.getRuntime().availableProcessors());
        long cacheBytes = 0;
        for (int i = 0; i < classPools.length; i++) {
            int slot = classes.size(i);
            capacities[i] = slot > b.threadCacheLargestSize ? 0
                    : Math.clamp(b.threadCacheBytes / slot, 2, Builder.MAX_CACHED_PER_CLASS);
            cacheBytes += (long) capacities[i] * slot;
        }
        this.threadCacheLimitBytes = b.threadCaches * cacheBytes;
        this.caches = b.threadCaches == 0 ? null
                : new ThreadCaches(capacities, b.threadCaches, b.leakSampling, b.useAfterReleaseSampling);
        this.returns = new SlotReturns(caches);
        for (int i = 0; i < classPools.length; i++) {
            int slot = classes.size(i);
            int batch = capacities[i] == 0 ? Builder.MAX_CACHED_PER_CLASS / 2 : capacities[i] / 2;
            classPools[i] = new SizeClassPool(name, b.byteOrder, returns, slabs, i, slot,
                    slabBytes(slot, b.effectiveMaxSlabSize()), batch, stripes);
        }
        this.takes = new SlotTakes(classes, classPools, caches, b.leakSampling, b.useAfterReleaseSampling);
        this.tokens = new LeaseTokens(this, takes, classes.count());
        this.leaks = new LeakDetector(name);
        this.checked = b.checked;
        this.byteOrder = b.byteOrder;
        this.dedicated = new DedicatedRegions(slabs, byteOrder);
        this.maxLeaseSize = b.maxLeaseSize;
        // A request above maxLeaseSize must reach acquireDedicated, which refuses it.
        this.largestPooledSize = Math.min(classes.largest(), b.maxLeaseSize);
        this.jmx = Jmx.registerPool(b.jmx, "BufferPool", name, BufferPoolMXBean.class, metrics, List.of(budget));
        this.idleFloor = b.idleFloor;
        this.idleDelay = b.idleDelay;
        budget.addReclaimer(reclaimer); // last: another thread's refusal may call it at once
        this.idleLook = b.idleDelay.isZero() ? null : IdleReturn.watch(this, b.idleDelay);
    }

    /**
     * A pool with the defaults of {@link Builder}.
     *
     * @return the new pool, to close after use
     */
    public static BufferPool create() {
        return builder().build();
    }

    /**
     * Settings for a new pool: {@code BufferPool.builder().name("io").budget(io).build()}.
     *
     * @return a builder with the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Leases exactly {@code size} bytes. The memory may hold what an earlier lease wrote: overwrite what
     * you read, as with any I/O buffer.
     *
     * @param size the number of bytes, from 0 to {@link Builder#maxLeaseSize(int)}
     * @return the lease, with one reference: the caller's
     * @throws IllegalArgumentException if {@code size} is negative or above {@link Builder#maxLeaseSize(int)}
     * @throws dev.offheap.account.BudgetExceededException if the pool needs memory its budget does not allow,
     *         naming this pool, the size asked and the slab or region charged for it (the pool stays usable)
     * @throws IllegalStateException if the pool is closed
     */
    public BufferLease acquire(int size) {
        try {
            return lease(size);
        } catch (BudgetExceededException refused) {
            throw refusal(refused, "acquire(" + size + ")", size);
        }
    }

    /**
     * Leases without a handle object, for frameworks that wrap every buffer in an object of their own: see
     * {@link LeaseTokens}.
     *
     * @return this pool's token leases (one object per pool)
     */
    public LeaseTokens tokens() {
        return tokens;
    }

    /** A budget's refusal of {@code request}, named after this pool and recorded as a JFR event. */
    BudgetExceededException refusal(BudgetExceededException refused, String request, int size) {
        BudgetExceededException named = refused.forRequest("buffer pool '" + name + "'", request, size);
        JfrEvents.budgetExceeded(name, named);
        return named;
    }

    /**
     * Drops one reference to {@code lease}, as {@link BufferLease#release()} does, but never throws
     * {@link MemoryInUseException}: if that was the last reference and an I/O operation or native call still
     * holds a view of the lease (only a checked or sampled lease, or one above the largest size class, can
     * tell), the pool releases it by itself once the operation has ended, trying again on its slow paths (a
     * sampled acquire, {@link #stats()}, {@link #trim()}, {@link #close()}); meanwhile its bytes count in
     * {@link BufferPoolStats#bytesQuarantined()}. For frameworks whose own release cannot be repeated, such as
     * a Netty {@code ByteBuf}'s.
     *
     * @param lease a lease of this pool, with at least one reference
     * @return true if the lease was released now, false if its release waits for an operation to end
     * @throws IllegalStateException if the lease was already released, or is not from this pool
     */
    public boolean releaseWhenFree(BufferLease lease) {
        if (!(lease instanceof Lease ours) || !ours.poolName().equals(name)) {
            throw new IllegalStateException(lease + " is not a lease of buffer pool '" + name + "'");
        }
        return deferred.release(lease);
    }

    private BufferLease lease(int size) {
        if (size < 0 || size > largestPooledSize) {
            return acquireDedicated(size);
        }
        checkAcquirable();
        int cls = takes.classOf(size);
        ThreadCache cache = takes.cacheOfCurrentThread();
        Slot slot = takes.take(cache, cls);
        return handOut(slot, size, takes.samples(cache));
    }

    /** The lease of {@code slot}: a plain handle, or a special one if checked or {@code samples} says so. */
    private PooledBuffer handOut(Slot slot, int size, int samples) {
        if (samples != 0 || checked) {
            return special(slot, size, (samples & ThreadCache.LEAK) != 0,
                    (samples & ThreadCache.USE_AFTER_RELEASE) != 0, false);
        }
        return new PooledBuffer(slot, size);
    }

    /**
     * The handle a token keeps for {@code slot} when the lease is special (checked, sampled, or a slot id
     * beyond what a token can name): views of its own if checked or sampled for use after release; never
     * watched for leaks through the handle, which the tokens keep (they watch the holder of the token). Its
     * slot goes back to the shared free list, never into a thread's cache: a token may be released by a thread
     * that should keep no cache ({@link LeaseTokens#withoutThreadCaches()}), or its leak cured by whichever
     * thread polls the detector.
     */
    PooledBuffer specialForToken(Slot slot, int size, int samples) {
        boolean useAfterRelease = (samples & ThreadCache.USE_AFTER_RELEASE) != 0;
        return checked || useAfterRelease ? special(slot, size, false, useAfterRelease, true)
                : new PooledBuffer(slot, size, null, null, true);
    }

    /**
     * A lease of a checked pool, or one sampled: for leak detection (watched by the detector), or for
     * use-after-release detection (views in an arena of their own, sites recorded).
     */
    private PooledBuffer special(Slot slot, int size, boolean leak, boolean useAfterRelease,
            boolean returnShared) {
        OwnArena own = null;
        if (checked || useAfterRelease) {
            own = new OwnArena(slot, size, useAfterRelease && !checked);
            returns.lent(own);
            if (closed) {
                own.tryEnd(); // never handed out: nothing can hold it
                returns.end(slot, own, true);
                checkOpen();
            }
        }
        if (leak) {
            pollSlowPath();
        }
        return new PooledBuffer(slot, size, own, leak ? leaks : null, returnShared);
    }

    /**
     * What the pool holds now. Counts are exact when no thread is acquiring or releasing; while they are,
     * thread cache figures may lag. Walks every slot, so it costs time in proportion to the pool's size.
     *
     * @return the snapshot
     */
    public BufferPoolStats stats() {
        pollSlowPath();
        int[] inCaches = caches == null ? new int[classPools.length] : caches.cachedCounts();
        long[] hits = caches == null ? new long[classPools.length] : caches.hits();
        long[] misses = caches == null ? new long[classPools.length] : caches.misses();
        List<SizeClassStats> perClass = new ArrayList<>();
        for (int i = 0; i < classPools.length; i++) {
            perClass.add(classPools[i].stats(hits[i], misses[i], inCaches[i]));
        }
        long heldSlabBytes = 0;
        for (SizeClassPool pool : classPools) {
            heldSlabBytes += pool.heldBytes();
        }
        long quarantined = heldSlabBytes + dedicated.heldBytes() // after close, these hold the leaks' and deferred
                + (closed ? 0 : leaks.heldBytes() + deferred.bytes() + tokens.waitingBytes());
        return BufferPoolStats.of(name, budget.path(), slabs.memoryName(), slabs.bytes(), peakBytesFromOs(),
                budget.limit(), heldSlabBytes, quarantined, dedicated.leased(), dedicated.bytes(),
                dedicated.acquires(), caches == null ? 0 : caches.registeredCount(),
                caches == null ? 0 : threadCacheLimitBytes, leaks.reported(),
                leaks.watchedCount(), perClass);
    }

    /**
     * The pool's figures as JMX shows them ({@code dev.offheap:type=BufferPool,name=...}, unless built with
     * {@code jmx(false)}), for other monitoring systems. Cheap to read: see {@link BufferPoolMXBean}.
     *
     * @return the figures
     */
    public BufferPoolMXBean metrics() {
        return metrics;
    }

    /**
     * Gives idle memory back to the OS: the caller's thread cache and those of dead threads are emptied,
     * live threads are asked to empty theirs at their next acquire or release, and every slab whose slots
     * are all free is unmapped. Slots still in the caches of live threads are freed by a later trim.
     *
     * <p>A slab an I/O operation or native call still holds a view of (a view kept past its lease's release)
     * is not unmapped: it is set aside, its slots never lent again, counted in
     * {@link BufferPoolStats#bytesQuarantined()}, and given back by the first trim or close after the
     * operation has ended. So is the memory of a leaked lease found while an I/O holds its views.
     *
     * @return the bytes given back to the OS by this call
     * @throws IllegalStateException if the pool is closed
     */
    public long trim() {
        checkOpen();
        if (returns.cooling()) {
            Grace.await(); // slots whose views just ended join the free lists first
        }
        pollSlowPath();
        if (caches != null) {
            caches.reclaim();
        }
        long freed = trimSlabs();
        checkOpen(); // a close that raced this trim is reported as such
        return freed;
    }

    /**
     * Moves the buffers the calling thread keeps in its cache to the pool's shared free lists, where idle
     * return (or {@link #trim()}) gives them back to the OS, if this thread acquired no buffer since its
     * previous call. A thread's cache is touched by that thread only, so a thread that stays alive but stops
     * using the pool (an idle event loop, a parked worker) keeps up to a full cache until it acquires or
     * releases again, calls this, or ends; call it now and then on such threads (offheap-netty does it on
     * every event loop that allocates). Cheap: it looks at the calling thread's counters only.
     *
     * @return true if the cache was idle since the previous call and was emptied; false at the first call,
     *         while the thread is busy, and on a thread without a cache (a virtual thread, or caches off)
     */
    public boolean flushThreadCacheIfIdle() {
        ThreadCaches c = caches;
        Thread thread = Thread.currentThread();
        if (c == null || thread.isVirtual() || closed) {
            return false;
        }
        ThreadCache cache = c.registeredOf(thread);
        return cache != null && cache.flushIfIdle();
    }

    /**
     * The time between two looks of idle return ({@link Builder#idleReturn(Duration, long)}): also how often a
     * thread that may stay idle should call {@link #flushThreadCacheIfIdle()}.
     *
     * @return the delay, zero if idle return is off
     */
    public Duration idleReturnDelay() {
        return idleDelay;
    }

    /**
     * Gives all memory back to the OS. Buffers still leased are reported through {@code System.Logger}; their
     * views throw from now on, and releasing them is harmless. No acquire succeeds once close has begun.
     *
     * <p>Memory an I/O operation or native call still holds through a view (a {@code ByteBuffer} in a blocked
     * read, say) is never unmapped under it: it stays mapped and charged, counted in
     * {@link BufferPoolStats#bytesQuarantined()}, and this throws {@link MemoryInUseException} after giving
     * everything else back. Call close again once the operation has ended: it gives the rest back. Once a
     * close has given everything back, closing again does nothing.
     *
     * @throws MemoryInUseException if views of some of the memory are held (see above)
     */
    @Override
    public void close() {
        boolean first;
        synchronized (this) {
            first = !closed;
            closed = true;
            returns.close();
            refusing = true;
            slabs.close(); // classes growing from now on give their new slab straight back
        }
        synchronized (closing) {
            if (closeDone) {
                return;
            }
            if (first) {
                jmx.close();
                budget.removeReclaimer(reclaimer);
                if (idleLook != null) {
                    idleLook.cancel(false);
                }
            }
            pollSlowPath();
            // Views with an arena of their own first: they point into slabs, which must outlive them.
            Set<Slab> pinned = Collections.newSetFromMap(new IdentityHashMap<>());
            for (OwnArena own : returns.outstanding()) {
                if (!own.tryEnd()) {
                    pinned.add(own.slot.slab);
                }
            }
            Predicate<Slab> isPinned = pinned::contains;
            int leased = 0;
            for (SizeClassPool pool : classPools) {
                leased += pool.close(isPinned);
            }
            leased += dedicated.releaseAll();
            if (first && leased > 0) {
                LOG.log(System.Logger.Level.WARNING, "buffer pool ''{0}'' closed with {1} buffers still leased;"
                        + " their views now throw and their memory goes back to the OS (what an I/O operation still"
                        + " holds once it has ended)", name, leased);
            }
            long held = dedicated.heldBytes();
            for (SizeClassPool pool : classPools) {
                held += pool.heldBytes();
            }
            if (held > 0) {
                throw new MemoryInUseException("cannot close buffer pool '" + name + "' completely", held,
                        "everything else went back to the OS; this memory stays mapped and charged to '"
                                + budget.path() + "' (stats().bytesQuarantined()) until close() is called again"
                                + " once that operation has ended", null);
            }
            closeDone = true;
            returns.forgetOutstanding();
            tokens.forgetWaiting();
            if (caches != null) {
                caches.detachAll();
            }
            slabs.closeAccount();
            if (ownBudget) {
                budget.closeQuietly();
            }
            Grace.awaitPending(); // the addresses too are unmapped before close returns
        }
    }

    /** Whether idle return still looks at this pool (false once closed, or if it was built without). */
    boolean idleReturnWatching() {
        return idleLook != null && !idleLook.isDone();
    }

    /** The addresses the pool holds from the OS, as {@link OwnedMappings.Owner#ranges()} pairs. */
    long[] addressRanges() {
        return owner.ranges();
    }

    /**
     * The pool's name, as given to the builder or {@code buffer-pool-N}.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The budget every byte the pool takes from the OS is charged to: the builder's, or an unlimited one of
     * the pool's own named after it.
     *
     * @return the pool's budget
     */
    public MemoryBudget budget() {
        return budget;
    }

    /**
     * The byte order of every new {@code ByteBuffer} view: big-endian unless built with another.
     *
     * @return the byte order
     */
    public ByteOrder byteOrder() {
        return byteOrder;
    }

    /**
     * Whether {@link #close()} was called.
     *
     * @return true once the pool is closed
     */
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return "BufferPool[" + name + ", " + Bytes.human(slabs.bytes()) + " from the OS"
                + (closed ? ", closed" : "") + "]";
    }

    // ---- package-private plumbing for the classes that make up the pool ----

    long bytesFromOs() {
        return slabs.bytes();
    }

    long peakBytesFromOs() {
        return slabs.peakBytes();
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("buffer pool '" + name + "' is closed");
        }
    }

    /**
     * An acquire's check, one volatile read as {@link #checkOpen()}'s: the pool closed, or its budget (or an
     * ancestor) closed, which refuses even a slot that needs no charge, with the budget's own error.
     */
    void checkAcquirable() {
        if (refusing) {
            checkOpen();
            budget.checkOpen();
        }
    }

    private BufferLease acquireDedicated(int size) {
        DedicatedBuffer buffer = dedicatedLease(size);
        return takes.leakSampledAtRandom() ? decorate(buffer, true) : buffer;
    }

    /** A lease above the largest size class, of memory of its own, not watched for leaks. */
    DedicatedBuffer dedicatedLease(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("buffer size must be >= 0: " + size);
        }
        if (size > maxLeaseSize) {
            throw new IllegalArgumentException("buffer size " + Bytes.format(size) + " is above the largest lease"
                    + " of pool '" + name + "', " + Bytes.format(maxLeaseSize) + " (Builder.maxLeaseSize)");
        }
        checkAcquirable();
        return dedicated.acquire(size);
    }

    /** Work for the pool's slow paths: leaks found, and releases waiting for an I/O to end. */
    void pollSlowPath() {
        leaks.poll();
        deferred.retry();
        tokens.poll();
    }

    LeakDetector leaks() {
        return leaks;
    }

    int largestPooledSize() {
        return largestPooledSize;
    }

    boolean isChecked() {
        return checked;
    }

    /** A dedicated lease watched through a wrapper. */
    private Lease decorate(Lease lease, boolean sampled) {
        if (!sampled) {
            return lease;
        }
        pollSlowPath();
        return new TrackedBuffer(lease, leaks);
    }

    /**
     * The budget ran short: empties the calling thread's cache (and those of dead threads), asks live
     * threads to empty theirs, and unmaps every idle slab. Runs on the refused thread, which may hold a
     * class's {@code growLock}; trimming takes only class monitors, never a growLock.
     */
    private long reclaim(long bytesWanted) {
        if (closed) {
            return 0;
        }
        if (caches != null) {
            caches.reclaim();
        }
        return trimSlabs();
    }

    /**
     * Idle return's look (every {@link Builder#idleReturn delay}, on its own thread): the work of the slow
     * paths (leaks found, deferred releases), the caches of threads that died, and the slabs with no lease at
     * this look and the previous one, down to the floor. Returns the bytes given back.
     */
    long returnIdle() {
        if (closed) {
            return 0;
        }
        pollSlowPath();
        if (caches != null) {
            caches.drainDead();
        }
        long allowed = slabs.bytes() - idleFloor;
        long freed = 0;
        for (SizeClassPool pool : classPools) {
            freed += Math.max(0, pool.returnIdle(allowed - freed)); // every class looks, to keep its last look
        }
        if (freed > 0) {
            JfrEvents.poolTrimmed(name, "BufferPool", freed);
        }
        return freed;
    }

    private long trimSlabs() {
        long freed = 0;
        for (SizeClassPool pool : classPools) {
            freed += Math.max(0, pool.trim()); // -1: closed meanwhile
        }
        JfrEvents.poolTrimmed(name, "BufferPool", freed);
        return freed;
    }

    private static long slabBytes(int slotSize, long maxSlab) {
        long wanted = Math.clamp(32L * slotSize, 64 * 1024, maxSlab);
        return NativeMemory.roundToPage(Math.max(wanted, slotSize));
    }

    /**
     * Settings of a new pool. Every setter checks its argument at once; {@link #build()} checks that they
     * agree.
     */
    public static final class Builder {
        static final int DEFAULT_USE_AFTER_RELEASE_SAMPLING = 131072;
        /** Slots one thread may cache per class: two batches of 64, the most one shared operation moves. */
        static final int MAX_CACHED_PER_CLASS = 128;
        private static final long DEFAULT_MAX_SLAB_SIZE = 4L << 20;

        private String name;
        private MemoryBudget budget;
        private NativeMemory memory = NativeMemory.system();
        private int largestPooledSize = 1 << 20;
        private int maxLeaseSize = 1 << 30;
        /** 0 while unset: then 4 MiB, or largestPooledSize if that is larger. */
        private long maxSlabSize;
        private int threadCaches = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        private int threadCacheBytes = 1 << 20;
        private int threadCacheLargestSize = 64 * 1024;
        private int leakSampling = 4096;
        private int useAfterReleaseSampling = DEFAULT_USE_AFTER_RELEASE_SAMPLING;
        private boolean checked;
        private ByteOrder byteOrder = ByteOrder.BIG_ENDIAN;
        private Jmx.Mode jmx = Jmx.Mode.WHEN_SERVER_EXISTS;
        private Duration idleDelay = IdleReturn.defaultDelay();
        private long idleFloor;

        private Builder() {}

        /**
         * Stripes of each class's shared free list: twice the processors (as Netty's arenas), at least 16,
         * a power of two, so that no stripe sees more than a small share of the batches.
         */
        static int defaultStripes(int processors) {
            return Math.max(16, Integer.highestOneBit(Math.clamp(2L * processors, 1, 1 << 10) * 2 - 1));
        }

        /**
         * A name for logs, statistics, JMX and budget messages: non-blank, without {@code '/'} (budget paths
         * use it). Default {@code buffer-pool-N}, N counting the pools built.
         *
         * @param name the name
         * @return this builder
         * @throws NullPointerException     if {@code name} is null
         * @throws IllegalArgumentException if {@code name} is blank or contains {@code '/'}
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank() || name.indexOf('/') >= 0) {
                throw new IllegalArgumentException("pool name must be non-blank and contain no '/': '" + name + "'");
            }
            this.name = name;
            return this;
        }

        /**
         * The budget every byte taken from the OS is charged to. Default: an unlimited budget of its own.
         *
         * @param budget the budget, which the pool never closes
         * @return this builder
         * @throws NullPointerException if {@code budget} is null
         */
        public Builder budget(MemoryBudget budget) {
            this.budget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /**
         * Requests up to this size come from size classes; larger ones get a region of their own, mapped and
         * unmapped per lease. Default 1 MiB; from 64 bytes to 64 MiB.
         *
         * @param bytes the largest pooled size
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is out of that range
         */
        public Builder largestPooledSize(int bytes) {
            this.largestPooledSize = checkRange("largestPooledSize", bytes, SizeClasses.SMALLEST, 64 << 20);
            return this;
        }

        /**
         * The largest lease at all; larger requests throw. Default 1 GiB; from 1 byte to 2 GiB - 1.
         *
         * @param bytes the largest lease
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is out of that range
         */
        public Builder maxLeaseSize(int bytes) {
            this.maxLeaseSize = checkRange("maxLeaseSize", bytes, 1, Integer.MAX_VALUE);
            return this;
        }

        /**
         * The largest slab taken from the OS at once (small classes take smaller ones). Default 4 MiB, or
         * {@link #largestPooledSize(int)} if that is larger; set explicitly, it must be at least that
         * (checked by {@link #build()}). From 64 KiB to 1 GiB.
         *
         * @param bytes the largest slab
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is out of that range
         */
        public Builder maxSlabSize(long bytes) {
            this.maxSlabSize = checkRange("maxSlabSize", bytes, 64 * 1024, 1L << 30);
            return this;
        }

        /**
         * How many platform threads may keep a cache of free buffers at once; others work on the shared
         * free lists. 0 turns thread caches off. Default {@code max(4, 2 x processors)}; at most 4096.
         *
         * @param count the number of thread caches
         * @return this builder
         * @throws IllegalArgumentException if {@code count} is out of that range
         */
        public Builder threadCaches(int count) {
            this.threadCaches = checkRange("threadCaches", count, 0, 4096);
            return this;
        }

        /**
         * Bytes one thread may cache per size class (at least 2 and at most 128 buffers), and the largest
         * size class cached at all. Default 1 MiB and 64 KiB: 128 buffers of each class up to 8 KiB, 16 of
         * 64 KiB.
         *
         * <p>A thread cache moves half its buffers of a class to or from the shared level with one atomic
         * operation, so the fewer buffers it may hold, the more often threads meet on a shared cache line: a
         * buffer acquired on one thread and released on another costs 1/32 of a shared atomic operation with
         * 128 (64 per batch), 1/8 with 32, 1/4 with 16, 1 with 4. Larger caches cost memory and locality:
         * with 2 MiB per class, buffers of random sizes handed between two threads took up to 28 % longer
         * on a 2-vCPU machine than with 256 KiB (BENCHMARKS.md). The memory the caches may hold is bounded by
         * {@code threadCaches} x the bytes of one full cache (about 18 MiB with the defaults), reported as
         * {@link BufferPoolStats#threadCacheLimitBytes()}; classes a thread stops acquiring decay back to the
         * shared level, where {@link BufferPool#trim()} frees them.
         *
         * @param bytesPerClass     bytes one thread may cache per class, from 0 to 64 MiB
         * @param largestCachedSize the largest size class cached, 0 or more
         * @return this builder
         * @throws IllegalArgumentException if either is out of its range
         */
        public Builder threadCacheSize(int bytesPerClass, int largestCachedSize) {
            this.threadCacheBytes = checkRange("threadCacheSize bytesPerClass", bytesPerClass, 0, 64 << 20);
            this.threadCacheLargestSize = checkRange("threadCacheSize largestCachedSize", largestCachedSize,
                    0, Integer.MAX_VALUE);
            return this;
        }

        /**
         * Leak detection: one lease in {@code interval} on average is tracked, at random (1 tracks every lease,
         * 0 none). Each lease is tracked with probability 1/interval, whichever call site and thread acquires it
         * (on a thread with a cache the gap to the next tracked lease is drawn at random, with the interval as
         * mean), so no call site escapes because of the pattern of its calls. A tracked lease that becomes
         * unreachable without release is logged with the stack of its acquisition and its memory goes back to
         * the pool. Default 4096.
         *
         * @param interval one lease in how many, on average, is tracked; 0 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code interval} is out of that range
         */
        public Builder leakSampling(int interval) {
            this.leakSampling = checkRange("leakSampling", interval, 0, Integer.MAX_VALUE);
            return this;
        }

        /**
         * Checked mode: the views of every lease live in an arena of their own that release closes, so any
         * {@code MemorySegment} or {@code ByteBuffer} kept past release throws {@link IllegalStateException}
         * and never reaches memory lent to someone else. Costs a shared arena per lease, tens of
         * microseconds (see BENCHMARKS.md): use it in tests. Default off: then the handle of a released
         * lease still throws on every use (in every mode), but a view kept past release reaches the slot,
         * which the pool may have lent again, unless the lease was one of those sampled by
         * {@link #useAfterReleaseSampling(int)}. A view never reaches memory outside the pool's slabs, and
         * never memory returned to the OS.
         *
         * @param checked whether every lease gets views of its own
         * @return this builder
         */
        public Builder checked(boolean checked) {
            this.checked = checked;
            return this;
        }

        /**
         * Use-after-release detection in production, in the spirit of GWP-ASan: one lease in
         * {@code interval} on average, at random, is served as in checked mode, its views dying at release, and
         * it records where it was acquired and released. Each lease is sampled with probability 1/interval,
         * whichever call site and thread acquires it (on a thread with a cache the gap to the next sampled lease
         * is drawn at random, with the interval as mean, as heap profilers do), so a call site is never left out
         * because of the pattern of its calls. A view of such a lease kept
         * past release throws {@link IllegalStateException} (the JDK's "Already closed"); a use of its
         * handle throws with both stacks in the message and a {@code dev.offheap.UseAfterRelease} JFR event.
         * 0 turns it off. Default {@value #DEFAULT_USE_AFTER_RELEASE_SAMPLING}, chosen to cost under 5 % of
         * an acquire and release on average (BENCHMARKS.md).
         *
         * @param interval one lease in how many, on average, is sampled; 0 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code interval} is out of that range
         */
        public Builder useAfterReleaseSampling(int interval) {
            this.useAfterReleaseSampling = checkRange("useAfterReleaseSampling", interval, 0, Integer.MAX_VALUE);
            return this;
        }

        /**
         * The byte order of every new {@code ByteBuffer} view of a lease. Default {@code BIG_ENDIAN}, as any
         * new {@code ByteBuffer} and {@code allocateDirect}'s, so the pool is a drop-in replacement; pass
         * {@code ByteOrder.nativeOrder()} to opt in to native order (about 1 % faster for multi-byte values on
         * JDK 25, and what {@code MemorySegment}'s {@code JAVA_*} layouts use). {@link BufferLease#segment()} is
         * not affected: the layout you pass says the order.
         *
         * @param order the byte order of new views
         * @return this builder
         * @throws NullPointerException if {@code order} is null
         */
        public Builder byteOrder(ByteOrder order) {
            this.byteOrder = Objects.requireNonNull(order, "order");
            return this;
        }

        /**
         * Whether and when the pool shows in JMX as {@code dev.offheap:type=BufferPool,name=<name>} (with a suffix
         * {@code -2}, {@code -3}... if the name is taken), and its budget as
         * {@code dev.offheap:type=MemoryBudget,name=<path>}, until close. By default (this method not called)
         * it registers once the JVM's platform {@code MBeanServer} exists: at once if something made it already
         * (a JMX agent, a framework, the application), else within a quarter of a second of its making (one
         * daemon thread, {@code offheap-jmx-wait}, looks while pools wait), so that a JVM that never uses JMX
         * never loads the JDK's JMX implementation for offheap (about 500 classes, 2 MB of metaspace on JDK 25).
         * {@code true} registers at once, making the platform {@code MBeanServer} if need be; {@code false}
         * never.
         *
         * @param register whether to register the MXBeans at once ({@code true}) or never ({@code false})
         * @return this builder
         */
        public Builder jmx(boolean register) {
            this.jmx = register ? Jmx.Mode.AT_ONCE : Jmx.Mode.OFF;
            return this;
        }

        /**
         * Idle return: memory the pool took from the OS and no longer needs goes back by itself, with no
         * {@link BufferPool#trim()} call. Every {@code delay} the pool looks at its slabs (from a daemon thread
         * shared by every pool, never from acquire or release); a slab none of whose buffers was leased at
         * two looks in a row and whose buffers are all in the pool's shared free lists goes back to the OS,
         * unless the pool would then hold fewer than {@code floorBytes} from the OS. So memory idle for
         * {@code delay} goes back within twice the delay, and a slab in use at any look stays. The caches of
         * threads that ended go back at the next look; a live thread's cache is its own (see
         * {@link BufferPool#flushThreadCacheIfIdle()}). Each look also finds leaked leases and finishes
         * releases waiting for an I/O to end. Default 10 seconds and 0 bytes; a {@code delay} of zero turns it
         * off.
         *
         * @param delay the time between two looks, zero for off; at most a day
         * @param floorBytes bytes the pool may keep from the OS however idle; 0 or more
         * @return this builder
         * @throws NullPointerException if {@code delay} is null
         * @throws IllegalArgumentException if {@code delay} is negative or above a day, or {@code floorBytes}
         *         negative
         */
        public Builder idleReturn(Duration delay, long floorBytes) {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative() || delay.compareTo(Duration.ofDays(1)) > 0) {
                throw new IllegalArgumentException("idle return delay must be between 0 and a day: " + delay);
            }
            this.idleFloor = checkRange("idle return floorBytes", floorBytes, 0, Long.MAX_VALUE);
            this.idleDelay = delay;
            return this;
        }

        /** Where slabs come from; the portable arena source is used by tests on Linux. */
        Builder nativeMemory(NativeMemory memory) {
            this.memory = Objects.requireNonNull(memory, "memory");
            return this;
        }

        /**
         * Builds the pool: its budget (unless given), its size classes and, unless turned off, its JMX beans.
         * No memory is taken from the OS before the first acquire.
         *
         * @return the new pool, to close after use
         * @throws IllegalArgumentException if {@code maxSlabSize} was set below {@code largestPooledSize}
         */
        public BufferPool build() {
            if (maxSlabSize != 0 && maxSlabSize < largestPooledSize) {
                throw new IllegalArgumentException("maxSlabSize (" + Bytes.format(maxSlabSize) + ") must be >="
                        + " largestPooledSize (" + Bytes.format(largestPooledSize) + "): set maxSlabSize to at least "
                        + largestPooledSize + ", or leave it unset to follow largestPooledSize");
            }
            return new BufferPool(this);
        }

        long effectiveMaxSlabSize() {
            return maxSlabSize != 0 ? maxSlabSize : Math.max(DEFAULT_MAX_SLAB_SIZE, largestPooledSize);
        }

        private static int checkRange(String what, int value, int min, int max) {
            return (int) checkRange(what, (long) value, min, max);
        }

        private static long checkRange(String what, long value, long min, long max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(what + " must be between " + min + " and " + max + ": " + value);
            }
            return value;
        }
    }
}
