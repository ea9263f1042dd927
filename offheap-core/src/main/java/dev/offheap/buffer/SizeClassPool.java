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

import dev.offheap.metrics.jfr.JfrEvents;
import dev.offheap.os.NativeRegion;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * Every slot of one size class: the slabs they are cut from, the table that finds a slot by id, and the
 * shared free slots ({@link StripedFreeList}) that thread caches refill from and flush to, a batch at a time.
 *
 * <p>Locking: the shared free list is lock-free. Cutting slots, adding and freeing slabs and the id table are
 * guarded by {@code this}. Memory is taken from the OS under {@code growLock} only, never under
 * {@code this}, so a budget refusal that trims every class cannot deadlock with another class growing.
 */
final class SizeClassPool {
    /** The pool's name, for messages about its leases. */
    final String poolName;
    /** The byte order of new {@code ByteBuffer} views of its leases. */
    final ByteOrder byteOrder;
    /** Where the slots of its ended leases go ({@code slot.home.returns}); memory comes from {@code source}. */
    final SlotReturns returns;
    private final SlabSource source;
    final int index;
    final int slotSize;
    final int slotsPerSlab;
    final long slabBytes;
    /** Slots moved at once between a thread cache and the shared stripes: half a thread cache's stack. */
    final int batchSize;
    private final StripedFreeList free;
    /** Set by close, under the monitor: trim then leaves the free list alone. */
    private boolean closed;
    /** Uncached acquires of slots whose slab was freed since; guarded by {@code this}. */
    private long uncachedAcquiresOfFreedSlabs;
    private final SharedLines.Line growthLine;

    /** Slot objects by id; replaced by a larger copy under the lock, read without it. */
    private final ReentrantLock growLock = new ReentrantLock();
    private volatile Slot[] table = new Slot[0];
    private final List<Slab> slabs = new ArrayList<>();
    /**
     * Slabs to give back whose views an I/O operation or native call holds (a view kept past release, or a
     * lease outstanding at close): out of {@code slabs}, their slots never lent again, tried again by every
     * trim and close. Guarded by {@code this}.
     */
    private final List<Slab> held = new ArrayList<>();
    private final List<Integer> freeRanges = new ArrayList<>();
    /**
     * The last generation of each slot of a freed range, by the range's first id: the slots a later slab cuts
     * there start past them, so a token of a freed slot never matches the slot that has its id next.
     */
    private final Map<Integer, int[]> generationsOfFreedRanges = new HashMap<>();
    /** Slabs with no slot leased at idle return's last look; guarded by {@code this}. */
    private Set<Slab> unleasedAtLastLook = Collections.newSetFromMap(new IdentityHashMap<>());
    private int nextRange;
    private Slab current;
    private long slabsCreated;
    private long slabsFreed;

    SizeClassPool(String poolName, ByteOrder byteOrder, SlotReturns returns, SlabSource source, int index,
            int slotSize, long slabBytes, int batchSize, int stripes) {
        this.poolName = poolName;
        this.byteOrder = byteOrder;
        this.returns = returns;
        this.source = source;
        this.index = index;
        this.slotSize = slotSize;
        this.slabBytes = slabBytes;
        this.slotsPerSlab = (int) (slabBytes / slotSize);
        this.batchSize = batchSize;
        this.free = new StripedFreeList(this, stripes);
        this.growthLine = SharedLines.line(() -> "slab cutting of the " + slotSize + "-byte class");
    }

    Slot slotById(int id) {
        Slot[] t = table;
        return id < t.length ? t[id] : null;
    }

    /** One free slot for a caller with no thread cache, from stripe {@code hint} first. */
    Slot takeUncached(int hint) {
        Slot slot = free.popOne(hint);
        if (slot == null) {
            Slot[] one = new Slot[1];
            carve(one, 0, 1);
            slot = one[0];
        }
        slot.uncachedAcquires++; // counted on the slot, a line the lease writes anyway: no shared counter
        return slot;
    }

    /**
     * Fills {@code into[0 ..]} with free slots, for a thread cache that ran dry: whole batches from the
     * shared stripes (stripe {@code hint} first) until it has at least {@link #batchSize} or they are empty,
     * else {@code batchSize} new ones. {@code into} must hold {@code 2 x batchSize - 1}. Returns the count.
     */
    int takeBatch(Slot[] into, int hint) {
        int got = free.popInto(into, batchSize, hint);
        return got > 0 ? got : carve(into, 0, batchSize);
    }

    /** Gives back {@code from[start .. start + n)}, {@code n <= batchSize}, as one batch onto stripe {@code hint}. */
    void giveBatch(Slot[] from, int start, int n, int hint) {
        free.push(from, start, n, hint);
    }

    /** Gives back one slot of a caller with no thread cache. */
    void give(Slot slot, int hint) {
        free.push(slot, hint);
    }

    /**
     * Cuts between 1 and {@code n} new slots, taking a new slab from the OS if the current one is used up.
     * One thread at a time grows the class (the others wait and then cut from its slab), so a crowd of
     * threads missing at once takes one slab, not one each.
     */
    private int carve(Slot[] into, int from, int n) {
        int got = cutFromCurrent(into, from, n);
        if (got > 0) {
            return got;
        }
        if (SharedLines.COUNTING) {
            growthLine.add();
        }
        growLock.lock();
        try {
            for (;;) {
                got = cutFromCurrent(into, from, n);
                if (got > 0) {
                    return got;
                }
                NativeRegion region = source.take(slabBytes);
                synchronized (this) {
                    if (source.isClosed()) {
                        source.give(region);
                        source.checkOpen();
                    }
                    current = addSlab(region);
                }
                JfrEvents.slabAllocated(source.poolName(), slabBytes, slotSize);
            }
        } finally {
            growLock.unlock();
        }
    }

    private synchronized int cutFromCurrent(Slot[] into, int from, int n) {
        if (SharedLines.COUNTING) {
            growthLine.add();
        }
        source.checkOpen();
        if (current == null || current.isExhausted()) {
            return 0;
        }
        int got = Math.min(n, current.slotCount - current.carved);
        for (int i = 0; i < got; i++) {
            into[from + i] = cut(current);
        }
        return got;
    }

    private Slot cut(Slab slab) {
        int i = slab.carved++;
        int[] before = slab.generationsBefore;
        // Random where no slot had the id before: a token of another pool, or of another slot, matches no slot
        // but by a 2^-32 chance.
        int generation = before == null ? ThreadLocalRandom.current().nextInt() : before[i] + 1;
        Slot slot = new Slot(this, slab, (long) i * slotSize, slab.firstId + i, generation);
        table[slot.id] = slot;
        return slot;
    }

    private Slab addSlab(NativeRegion region) {
        int firstId = freeRanges.isEmpty() ? nextRange++ * slotsPerSlab : freeRanges.removeLast();
        if (firstId + slotsPerSlab > table.length) {
            table = Arrays.copyOf(table, Math.max(firstId + slotsPerSlab, table.length * 2));
        }
        Slab slab = new Slab(region, firstId, slotsPerSlab, generationsOfFreedRanges.remove(firstId));
        slabs.add(slab);
        slabsCreated++;
        return slab;
    }

    /**
     * Frees every slab whose slots are all free in the shared stack (slots in live thread caches keep theirs);
     * returns the bytes given back to the OS, or -1 once the class is closed: a release racing close may have
     * pushed a slot of a freed slab, which the closed class's free list then keeps. A slab whose views are
     * held is kept out of use until a later trim or close can give it back.
     */
    synchronized long trim() {
        if (closed) {
            return -1;
        }
        return retryHeld(slab -> false) + freeWholeSlabs(slab -> true, Long.MAX_VALUE);
    }

    /**
     * Idle return's look at this class: gives back, up to {@code maxBytes}, the slabs that had no slot leased
     * at this look and at the previous one and whose slots are all free in the shared stack now; returns the
     * bytes given back, or -1 once the class is closed. The look at the leases is a racy read, a hint only:
     * what is given back is decided, as by {@link #trim()}, from the shared stack itself.
     */
    synchronized long returnIdle(long maxBytes) {
        if (closed) {
            return -1;
        }
        Set<Slab> unleased = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Slab slab : slabs) {
            if (noneLeased(slab)) {
                unleased.add(slab);
            }
        }
        Set<Slab> idle = unleasedAtLastLook;
        idle.retainAll(unleased);
        unleasedAtLastLook = unleased;
        long freed = retryHeld(slab -> false);
        if (idle.isEmpty() || maxBytes <= 0) {
            return freed;
        }
        return freed + freeWholeSlabs(idle::contains, maxBytes);
    }

    private boolean noneLeased(Slab slab) {
        Slot[] t = table;
        for (int id = slab.firstId; id < slab.firstId + slab.carved; id++) {
            if (t[id].leased) {
                return false;
            }
        }
        return true;
    }

    /**
     * Frees the slabs {@code eligible} says whose slots are all in the shared stack, at most {@code maxBytes}
     * together; the other free slots go back on the stack.
     */
    private long freeWholeSlabs(Predicate<Slab> eligible, long maxBytes) {
        long freed = 0;
        List<Slot> drained = free.drain();
        Map<Slab, Integer> freeBySlab = new IdentityHashMap<>();
        for (Slot s : drained) {
            freeBySlab.merge(s.slab, 1, Integer::sum);
        }
        for (Map.Entry<Slab, Integer> e : freeBySlab.entrySet()) {
            Slab slab = e.getKey();
            if (e.getValue() == slab.carved && slab.byteSize() <= maxBytes - freed && eligible.test(slab)) {
                freed += removeSlab(slab);
            }
        }
        if (current != null && current.carved == 0 && current.byteSize() <= maxBytes - freed
                && eligible.test(current)) {
            freed += removeSlab(current);
        }
        Slot[] kept = drained.stream().filter(s -> slotById(s.id) == s && !s.slab.held).toArray(Slot[]::new);
        for (int start = 0, stripe = 0; start < kept.length; start += batchSize, stripe++) {
            free.push(kept, start, Math.min(batchSize, kept.length - start), stripe);
        }
        return freed;
    }

    /**
     * Gives {@code slab} back to the OS and forgets it; returns its bytes, or 0 if a view of it is held: then
     * it moves to {@code held}.
     */
    private long removeSlab(Slab slab) {
        if (!slabs.remove(slab)) {
            return 0;
        }
        if (slab == current) {
            current = null;
        }
        if (!source.give(slab.region)) {
            slab.held = true;
            held.add(slab);
            return 0;
        }
        forget(slab);
        return slab.byteSize();
    }

    /** Gives back the held slabs whose views have ended, but those {@code pinned}; returns the bytes. */
    private long retryHeld(Predicate<Slab> pinned) {
        long freed = 0;
        for (Slab slab : List.copyOf(held)) {
            if (!pinned.test(slab) && source.give(slab.region)) {
                held.remove(slab);
                forget(slab);
                freed += slab.byteSize();
            }
        }
        return freed;
    }

    /** A slab given back: its slots leave the id table, its id range is free for the next slab. */
    private void forget(Slab slab) {
        int[] generations = slab.generationsBefore != null ? slab.generationsBefore : new int[slab.slotCount];
        for (int id = slab.firstId; id < slab.firstId + slab.carved; id++) {
            uncachedAcquiresOfFreedSlabs += table[id].uncachedAcquires;
            generations[id - slab.firstId] = table[id].generation();
        }
        generationsOfFreedRanges.put(slab.firstId, generations);
        Arrays.fill(table, slab.firstId, slab.firstId + slab.slotCount, null);
        freeRanges.add(slab.firstId);
        slabsFreed++;
        JfrEvents.slabReleased(source.poolName(), slab.byteSize(), slotSize);
    }

    /**
     * Frees every slab, leased or not, but those {@code pinned} (a slot's own views still held) and those whose
     * views are held: they stay, for the next close. Returns the number of slots still leased. May be called
     * again.
     */
    synchronized int close(Predicate<Slab> pinned) {
        boolean first = !closed;
        closed = true;
        int leased = first ? countLeased(true) : 0;
        free.drain(); // unlink before the slots go: a stripe must never hold a slot whose slab is freed
        retryHeld(pinned); // held by a trim, or by an earlier close
        for (Slab slab : List.copyOf(slabs)) {
            if (pinned.test(slab)) {
                slabs.remove(slab);
                slab.held = true;
                held.add(slab);
            } else {
                removeSlab(slab);
            }
        }
        current = null;
        return leased;
    }

    /** Bytes of slabs waiting to be given back while views of them are held. */
    synchronized long heldBytes() {
        long bytes = 0;
        for (Slab slab : held) {
            bytes += slab.byteSize();
        }
        return bytes;
    }

    synchronized SizeClassStats stats(long cacheHits, long cacheMisses, int inThreadCaches) {
        long carved = 0;
        long osBytes = 0;
        for (Slab slab : slabs) {
            carved += slab.carved;
            osBytes += slab.byteSize();
        }
        int leased = countLeased(false);
        long uncached = uncachedAcquiresOfFreedSlabs;
        for (Slot slot : table) {
            if (slot != null) {
                uncached += slot.uncachedAcquires;
            }
        }
        return new SizeClassStats(slotSize, slabs.size(), osBytes, carved, leased, carved - leased,
                inThreadCaches, cacheHits, cacheMisses, uncached, slabsCreated, slabsFreed);
    }

    /** Slots leased now, in held slabs too or only in the slabs in use. */
    private int countLeased(boolean inHeldSlabs) {
        int leased = 0;
        for (Slot slot : table) {
            if (slot != null && slot.leased && (inHeldSlabs || !slot.slab.held)) {
                leased++;
            }
        }
        return leased;
    }
}
