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

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Which platform threads get a {@link ThreadCache}: at most a fixed number at a time, so cached memory does
 * not grow with the number of threads. A thread beyond the limit works straight on the shared stacks and
 * tries again now and then; a cache whose thread has died is drained and its place reused. Virtual threads
 * never get one (100,000 of them would mean 100,000 caches): see ARCHITECTURE.md for the measurements.
 */
final class ThreadCaches {
    private final int classCount;
    private final int[] capacities;
    private final int leakInterval;
    private final int useAfterReleaseInterval;
    private final AtomicReferenceArray<ThreadCache> registered;
    /**
     * Registered caches by thread id (id & mask), for a lookup cheaper than the ThreadLocal's: a plain array
     * written only when a thread registers, read by its owner only (a cache whose owner is not the caller
     * does not count, so a torn or stale read just falls back to the ThreadLocal).
     */
    private final ThreadCache[] byThread;
    private final int mask;
    private final ThreadLocal<ThreadCache> local = ThreadLocal.withInitial(this::create);
    /** Set by {@link #detachAll()} before it detaches: a cache registered afterwards must not stay. */
    private volatile boolean detached;

    ThreadCaches(int[] capacities, int maxCaches, int leakInterval, int useAfterReleaseInterval) {
        this.classCount = capacities.length;
        this.capacities = capacities;
        this.leakInterval = leakInterval;
        this.useAfterReleaseInterval = useAfterReleaseInterval;
        this.registered = new AtomicReferenceArray<>(maxCaches);
        int size = Integer.highestOneBit(Math.max(1, maxCaches) * 4 - 1);
        this.byThread = new ThreadCache[size];
        this.mask = size - 1;
    }

    /** The calling thread's registered cache if the fast table has it, else null (then use current()). */
    ThreadCache lookup(Thread thread) {
        ThreadCache cache = byThread[(int) thread.threadId() & mask];
        return cache != null && cache.owner == thread ? cache : null;
    }

    /** The registered cache of {@code thread}, or null if it has none: never registers one. */
    ThreadCache registeredOf(Thread thread) {
        ThreadCache cache = lookup(thread);
        for (int i = 0; cache == null && i < registered.length(); i++) {
            ThreadCache there = registered.get(i);
            if (there != null && there.owner == thread) {
                cache = there;
            }
        }
        return cache;
    }

    /** The calling platform thread's cache (possibly an unregistered one with no capacity). */
    ThreadCache current() {
        ThreadCache cache = local.get();
        if (cache.registered) {
            index(cache);
        } else if (cache.shouldRetryRegistration()) {
            ThreadCache retry = create();
            if (retry.registered) {
                local.set(retry);
                index(retry);
                return retry;
            }
        }
        return cache;
    }

    /**
     * Empties the caller's cache and those of dead threads, and asks the other live ones to flush at their
     * next acquire or release.
     */
    void reclaim() {
        Thread caller = Thread.currentThread();
        for (int i = 0; i < registered.length(); i++) {
            ThreadCache cache = registered.get(i);
            if (cache == null) {
                continue;
            }
            if (cache.owner == caller) {
                cache.flushAll();
            } else if (cache.owner.isAlive()) {
                cache.requestFlush();
            } else if (registered.compareAndSet(i, cache, null)) {
                cache.flushAll();
            }
        }
    }

    /**
     * Empties the caches of threads that have died and frees their places; a live thread's cache is its own
     * (see {@link ThreadCache#flushIfIdle()}).
     */
    void drainDead() {
        for (int i = 0; i < registered.length(); i++) {
            ThreadCache cache = registered.get(i);
            if (cache != null && !cache.owner.isAlive() && registered.compareAndSet(i, cache, null)) {
                cache.flushAll();
            }
        }
    }

    /** Per class: slots held in registered caches now (racy reads: exact only when threads are quiet). */
    int[] cachedCounts() {
        int[] counts = new int[classCount];
        forEach(cache -> {
            for (int cls = 0; cls < counts.length; cls++) {
                counts[cls] += cache.count(cls);
            }
        });
        return counts;
    }

    long[] hits() {
        long[] sums = new long[classCount];
        forEach(cache -> add(sums, cache.hits));
        return sums;
    }

    long[] misses() {
        long[] sums = new long[classCount];
        forEach(cache -> add(sums, cache.misses));
        return sums;
    }

    int registeredCount() {
        int[] n = {0};
        forEach(cache -> n[0]++);
        return n[0];
    }

    /**
     * The pool is closing: every registered cache drops its slots, so that no thread-local of a thread that
     * used the pool keeps the pool reachable (unregistered caches never hold any).
     */
    void detachAll() {
        detached = true;
        for (int i = 0; i < registered.length(); i++) {
            ThreadCache cache = registered.getAndSet(i, null);
            if (cache != null) {
                cache.detach();
            }
        }
        java.util.Arrays.fill(byThread, null);
    }

    /** Puts a registered cache into the fast table, unless a live thread holds its place. */
    private void index(ThreadCache cache) {
        int i = (int) cache.owner.threadId() & mask;
        ThreadCache there = byThread[i];
        if (there != cache && (there == null || !there.owner.isAlive() || !there.registered)) {
            byThread[i] = cache;
        }
    }

    private ThreadCache create() {
        Thread thread = Thread.currentThread();
        ThreadCache cache = new ThreadCache(thread, capacities, true, leakInterval, useAfterReleaseInterval);
        for (int i = 0; i < registered.length(); i++) {
            ThreadCache there = registered.get(i);
            if (there == null && registered.compareAndSet(i, null, cache)) {
                return unlessDetached(i, cache);
            }
            if (there != null && !there.owner.isAlive() && registered.compareAndSet(i, there, cache)) {
                there.flushAll();
                return unlessDetached(i, cache);
            }
        }
        return new ThreadCache(thread, capacities, false, leakInterval, useAfterReleaseInterval);
    }

    /**
     * A cache registered at place {@code i} while the pool closed: if {@link #detachAll()} may have passed
     * that place already, the cache leaves it and is detached here, so that a closed pool counts no cache and
     * no cache keeps slots of it (and through them the pool) in a thread-local.
     */
    private ThreadCache unlessDetached(int i, ThreadCache cache) {
        if (detached) {
            registered.compareAndSet(i, cache, null);
            cache.detach();
        }
        return cache;
    }

    private void forEach(java.util.function.Consumer<ThreadCache> action) {
        for (int i = 0; i < registered.length(); i++) {
            ThreadCache cache = registered.get(i);
            if (cache != null) {
                action.accept(cache);
            }
        }
    }

    private static void add(long[] sums, long[] values) {
        for (int i = 0; i < sums.length; i++) {
            sums[i] += values[i];
        }
    }
}
