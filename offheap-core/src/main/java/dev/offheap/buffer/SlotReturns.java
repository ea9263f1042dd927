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

import dev.offheap.os.Grace;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The release side of a pool, apart from the acquire side ({@link BufferPool}'s {@code lease}) as mimalloc keeps
 * {@code free.c} apart from {@code alloc.c}: where the slot of an ended lease goes. A lease reaches it downward,
 * through its slot's class ({@code slot.home.returns}), never back up through the pool.
 *
 * <p>A common lease's slot goes to the cache of the thread that lent it if that thread releases it (no lookup),
 * else to the releasing thread's cache, else (a virtual thread, caches off) to its class's shared free list. A
 * special lease (checked, or sampled for use after release: views in an {@link OwnArena} of its own) is ended
 * only once its views ended, and its slot joins the shared free list after their {@link Grace}, so an access
 * straggling past the end lands in this ended lease, never in the next one. The special leases still out are
 * known here, for the pool's close.
 */
final class SlotReturns {
    private final ThreadCaches caches;
    /** Arenas of special leases still out: close ends them first. */
    private final Set<OwnArena> outstanding = ConcurrentHashMap.newKeySet();
    /** Slots of ended special leases waiting for their grace before they join the free lists. */
    private final AtomicInteger cooling = new AtomicInteger();
    /** Set by the pool's first close, before any slab goes: a slot released from then on goes nowhere. */
    private volatile boolean closed;

    /** Returns to {@code caches}, or straight to the shared lists if null (thread caches off). */
    SlotReturns(ThreadCaches caches) {
        this.caches = caches;
    }

    /** The slot of a common lease, released by the calling thread. */
    void free(Slot slot) {
        slot.leased = false;
        if (closed) {
            return;
        }
        ThreadCache lender = slot.lender;
        Thread thread = Thread.currentThread();
        if (lender != null && lender.owner == thread) {
            lender.give(slot);
            return;
        }
        ThreadCache cache = caches == null ? null : caches.lookup(thread);
        if (cache != null) {
            cache.give(slot);
        } else if (caches == null || thread.isVirtual()) {
            slot.home.give(slot, ThreadCache.stripeHint(thread));
        } else {
            caches.current().give(slot);
        }
    }

    /**
     * Gives {@code slot}, whose lease ended, to its class's shared free list, not to any thread's cache: for a
     * release that must leave nothing in the releasing thread ({@link LeaseTokens#withoutThreadCaches()}).
     */
    void freeShared(Slot slot) {
        slot.leased = false;
        if (!closed) {
            slot.home.give(slot, ThreadCache.stripeHint(Thread.currentThread()));
        }
    }

    /** A special lease handed out with views in {@code own}: known until it ends. */
    void lent(OwnArena own) {
        outstanding.add(own);
    }

    /**
     * Ends a special lease whose own views, if any, have ended (at release, or when found leaked). A slot without
     * views of its own goes to the releasing thread's cache, or with {@code shared} to the shared free list.
     */
    void end(Slot slot, OwnArena own, boolean shared) {
        if (own == null) {
            if (shared) {
                freeShared(slot);
            } else {
                free(slot);
            }
            return;
        }
        outstanding.remove(own);
        slot.leased = false;
        cooling.incrementAndGet();
        Grace.later(() -> afterGrace(slot));
    }

    /**
     * The cure of a leaked special lease: false, with nothing changed, while its views are held. It runs on
     * whichever thread polls the detector, whose cache the slot must not join (it may be idle return's thread).
     */
    boolean endLeaked(Slot slot, OwnArena own) {
        if (own != null && !own.tryEnd()) {
            return false;
        }
        end(slot, own, true);
        return true;
    }

    private void afterGrace(Slot slot) {
        cooling.decrementAndGet();
        if (!closed) {
            slot.home.give(slot, ThreadCache.stripeHint(Thread.currentThread())); // lock-free, as Grace asks
        }
    }

    /** Whether slots of ended special leases still wait for their grace. */
    boolean cooling() {
        return cooling.get() > 0;
    }

    /** The arenas of the special leases still out, for the pool's close. */
    List<OwnArena> outstanding() {
        return List.copyOf(outstanding);
    }

    /** The pool is closing: released slots go nowhere from now on. */
    void close() {
        closed = true;
    }

    /** The pool's close gave everything back: it forgets the special leases it ended. */
    void forgetOutstanding() {
        outstanding.clear();
    }
}
