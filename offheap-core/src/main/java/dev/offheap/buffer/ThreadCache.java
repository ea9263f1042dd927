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

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free slots kept by one platform thread, a small stack per size class, touched only by that thread with
 * plain loads and stores: the lock-free, allocation-free fast path. It refills from and flushes to the
 * shared {@link StripedFreeList} of the class a whole batch (half its capacity) at a time, with one
 * compare-and-set per batch, so a thread that only acquires or only releases (either side of a
 * producer/consumer pair) touches a shared line once per batch, not once per lease. Flushes go to the
 * stripes in turn, refills look at the thread's home stripe first, so the traffic spreads over all stripes.
 *
 * <p>Idle decay: every {@value #DECAY_INTERVAL} acquires, the slots of each class this thread has not
 * acquired since the last look go back to the shared stripes, where {@code trim()} can free them.
 *
 * <p>Sampling: the acquires between two sampled leases of each kind are drawn at random, geometric with the
 * interval as mean ({@link #gap(int)}), so every lease is sampled with probability 1/interval whatever the
 * pattern of calls: a fixed period would never sample the first of two acquires per request when the
 * period is even. The decay keeps its fixed period; one countdown to the nearest of the three keeps the fast
 * path to a decrement and a branch, and draws only when it runs out.
 *
 * <p>Other threads touch a cache only through {@link #requestFlush()}, drain it once its owner is dead, or
 * {@link #detach()} it when the pool closes. A cache is the value of a thread-local, which lives as long as
 * its thread: it keeps no reference to its pool but through the slots on its stacks, which detach drops,
 * so a closed pool is garbage even while the threads that used it live on.
 */
final class ThreadCache {
    private static final int REGISTER_RETRY_INTERVAL = 4096;
    static final int DECAY_INTERVAL = 1 << 16;
    /** Bits of {@link #sample()}. */
    static final int LEAK = 1;
    static final int USE_AFTER_RELEASE = 2;

    final Thread owner;
    final boolean registered;
    /** The stripe this thread refills from first; flushes start here and go round. */
    private final int home;
    private int flushes;
    private final int[] capacities;
    /**
     * Per class, null until first used; the whole array null once detached. Read once per call. A plain
     * field: the owner may go on with the old array for a moment, but the garbage collector sees the null.
     */
    private Slot[][] stacks;
    private final int[] counts;
    /** Per class: acquires served from this cache, and acquires that had to refill it. */
    final long[] hits;
    final long[] misses;
    /** Per class: hits + misses at the last decay. */
    private final long[] acquiresAtDecay;
    private volatile boolean flushRequested;
    /** Acquires served (every class) at the last {@link #flushIfIdle()}; -1 before the first. */
    private long acquiresAtIdleLook = -1;
    private final int leakInterval;
    private final int useAfterReleaseInterval;
    /**
     * Acquires until the next sample of either kind or decay, and what each had left when it was set: the
     * sampling gaps drawn at random, the decay's fixed.
     */
    private int countdown;
    private int countdownStart;
    private int leakLeft;
    private int useAfterReleaseLeft;
    private int decayLeft = DECAY_INTERVAL;
    private int registerCountdown = REGISTER_RETRY_INTERVAL;

    ThreadCache(Thread owner, int[] capacities, boolean registered, int leakInterval,
            int useAfterReleaseInterval) {
        this.owner = owner;
        this.capacities = registered ? capacities : new int[capacities.length];
        this.registered = registered;
        this.stacks = new Slot[capacities.length][];
        this.counts = new int[capacities.length];
        this.hits = new long[capacities.length];
        this.misses = new long[capacities.length];
        this.acquiresAtDecay = new long[capacities.length];
        this.home = stripeHint(owner);
        this.leakInterval = leakInterval;
        this.useAfterReleaseInterval = useAfterReleaseInterval;
        this.leakLeft = leakInterval > 0 ? gap(leakInterval) : Integer.MAX_VALUE;
        this.useAfterReleaseLeft = useAfterReleaseInterval > 0 ? gap(useAfterReleaseInterval) : Integer.MAX_VALUE;
        this.countdown = this.countdownStart = Math.min(Math.min(leakLeft, useAfterReleaseLeft), decayLeft);
    }

    /** A thread's home stripe: its id, mixed so that consecutive ids land on different stripes. */
    static int stripeHint(Thread thread) {
        long id = thread.threadId() * 0x9E3779B97F4A7C15L;
        return (int) (id >>> 32);
    }

    /** A free slot of class {@code cls}, whose shared pool is {@code pool}: from this cache if it has one. */
    Slot take(int cls, SizeClassPool pool) {
        if (flushRequested) {
            flushAll();
        }
        Slot[][] all = stacks;
        int c = counts[cls];
        if (c > 0 && all != null) {
            counts[cls] = --c;
            hits[cls]++;
            return all[cls][c];
        }
        return refill(cls, pool, all);
    }

    /** Keeps a released slot, flushing half of the class's stack to the shared one when it is full. */
    void give(Slot slot) {
        if (flushRequested) {
            flushAll();
        }
        int cls = slot.home.index;
        int capacity = capacities[cls];
        Slot[][] all = stacks;
        if (capacity == 0 || all == null) {
            slot.home.give(slot, home);
            return;
        }
        Slot[] stack = all[cls];
        if (stack == null) {
            all[cls] = stack = new Slot[capacity];
        }
        int c = counts[cls];
        if (c == capacity) {
            c = flush(all, cls, capacity / 2);
        }
        if (stack[c] != slot) {
            stack[c] = slot; // a LIFO acquire/release finds its slot still there: no store, no GC barrier
        }
        counts[cls] = c + 1;
    }

    /**
     * Counts one acquire: 0 for almost every call; {@link #LEAK} for one in every leak interval on average
     * (the leases leak detection tracks), {@link #USE_AFTER_RELEASE} for one in every use-after-release
     * interval on average, or both. One counter for both kinds and the idle decay keeps the fast path to a
     * decrement and a branch.
     */
    int sample() {
        if (--countdown > 0) {
            return 0;
        }
        return nextSample();
    }

    private int nextSample() {
        int elapsed = countdownStart;
        int kinds = 0;
        if (leakInterval > 0 && (leakLeft -= elapsed) <= 0) {
            kinds |= LEAK;
            leakLeft = gap(leakInterval);
        }
        if (useAfterReleaseInterval > 0 && (useAfterReleaseLeft -= elapsed) <= 0) {
            kinds |= USE_AFTER_RELEASE;
            useAfterReleaseLeft = gap(useAfterReleaseInterval);
        }
        if ((decayLeft -= elapsed) <= 0) {
            decay();
            decayLeft = DECAY_INTERVAL;
        }
        countdown = countdownStart = Math.min(Math.min(leakLeft, useAfterReleaseLeft), decayLeft);
        return kinds;
    }

    /**
     * Acquires up to and including the next sampled one: geometric with mean {@code interval} (each acquire
     * sampled with probability 1/interval, independently of the others, as {@code nextInt(interval) == 0}
     * per acquire does where no cache counts down), at least 1, at most {@code Integer.MAX_VALUE}.
     */
    static int gap(int interval) {
        if (interval == 1) {
            return 1;
        }
        double u = 1.0 - ThreadLocalRandom.current().nextDouble(); // (0, 1]
        double failures = Math.floor(Math.log(u) / Math.log1p(-1.0 / interval));
        return (int) Math.min(Integer.MAX_VALUE, 1 + failures);
    }

    /** Flushes every class with no acquire since the last decay. */
    private void decay() {
        Slot[][] all = stacks;
        if (all == null) {
            return;
        }
        for (int cls = 0; cls < counts.length; cls++) {
            long acquires = hits[cls] + misses[cls];
            if (acquires == acquiresAtDecay[cls] && counts[cls] > 0) {
                flush(all, cls, counts[cls]);
            }
            acquiresAtDecay[cls] = acquires;
        }
    }

    /** Counts down to the next attempt of an unregistered thread to get a cache of its own. */
    boolean shouldRetryRegistration() {
        if (--registerCountdown > 0) {
            return false;
        }
        registerCountdown = REGISTER_RETRY_INTERVAL;
        return true;
    }

    /** Asks the owner to flush at its next acquire or release (trim() cannot touch a live thread's cache). */
    void requestFlush() {
        flushRequested = true;
    }

    /**
     * Moves every slot to the shared stacks if this cache served no acquire since the last call (never at the
     * first). Only the owner: the way a thread that may stay idle for long gives its cache back.
     *
     * @return true if it was idle
     */
    boolean flushIfIdle() {
        long acquires = 0;
        for (int cls = 0; cls < counts.length; cls++) {
            acquires += hits[cls] + misses[cls];
        }
        boolean idle = acquires == acquiresAtIdleLook;
        acquiresAtIdleLook = acquires;
        if (idle) {
            flushAll();
        }
        return idle;
    }

    /** Moves every slot to the shared stacks. Only the owner, or anyone once the owner is dead. */
    void flushAll() {
        flushRequested = false;
        Slot[][] all = stacks;
        if (all == null) {
            return;
        }
        for (int cls = 0; cls < counts.length; cls++) {
            if (counts[cls] > 0) {
                flush(all, cls, counts[cls]);
            }
        }
    }

    /**
     * Drops every slot, for good: the pool is closing. Any thread may call it; the owner, if it is inside a
     * take or give meanwhile, works on the old stacks, which are garbage from now on.
     */
    void detach() {
        stacks = null;
    }

    int count(int cls) {
        return stacks == null ? 0 : counts[cls];
    }

    private Slot refill(int cls, SizeClassPool pool, Slot[][] all) {
        int capacity = capacities[cls];
        if (capacity == 0 || all == null) {
            return pool.takeUncached(home);
        }
        Slot[] stack = all[cls];
        if (stack == null) {
            all[cls] = stack = new Slot[capacity];
        }
        int got = pool.takeBatch(stack, home);
        misses[cls]++; // once served: an acquire the OS or the budget refused acquired nothing
        counts[cls] = got - 1;
        return stack[got - 1];
    }

    /**
     * Moves the top {@code n} slots of class {@code cls} to its shared stripes, a batch per compare-and-set;
     * returns the count left. {@code 1 <= n <= counts[cls]}: every caller flushes from a non-empty stack.
     */
    private int flush(Slot[][] all, int cls, int n) {
        int c = counts[cls];
        Slot[] stack = all[cls];
        SizeClassPool pool = stack[c - 1].home;
        int end = c - n;
        while (c > end) {
            int batch = Math.min(pool.batchSize, c - end);
            c -= batch;
            pool.giveBatch(stack, c, batch, home + flushes++);
            Arrays.fill(stack, c, c + batch, null);
        }
        counts[cls] = c;
        return c;
    }
}
