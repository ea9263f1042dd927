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

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The memory thread caches may hold is bounded by configuration and reported, whatever the number of
 * threads; idle classes decay back to the shared level; and nothing is lost: once every thread has ended, a
 * trim gives every byte back to the OS, which it can only do if every slot came back.
 */
class ThreadCacheBoundTest {
    private static final int KiB = 1024;

    @Test
    void theLimitIsCachesTimesOneFullCache() {
        // classes 64, 80, 96, 112, 128, 160, 192, 224, 256; 1 KiB per class: 16, 12, 10, 9, 8, 6, 5, 4, 4 slots
        long oneFullCache = 1024 + 960 + 960 + 1008 + 1024 + 960 + 960 + 896 + 1024;
        try (BufferPool pool = BufferPool.builder().largestPooledSize(256).threadCacheSize(1024, 256)
                .threadCaches(3).jmx(false).build()) {
            assertThat(pool.stats().threadCacheLimitBytes()).isEqualTo(3 * oneFullCache);
        }
        try (BufferPool pool = BufferPool.builder().threadCaches(0).jmx(false).build()) {
            assertThat(pool.stats().threadCacheLimitBytes()).isZero();
        }
    }

    @Test
    void sixtyFourPlatformThreadsStayWithinTheLimitAndLoseNothing() throws Exception {
        int threads = 64;
        CyclicBarrier allDone = new CyclicBarrier(threads + 1);
        CyclicBarrier counted = new CyclicBarrier(threads + 1);
        ConcurrentLinkedQueue<BufferLease> handedOver = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (BufferPool pool = BufferPool.builder().name("bound-64").threadCaches(threads).leakSampling(0)
                .jmx(false).build()) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                workers.add(Thread.ofPlatform().name("bound-" + t).start(() -> {
                    try {
                        leaseAndHandOver(pool, id, 3000, handedOver);
                    } catch (Throwable e) {
                        failures.add(e);
                    } finally {
                        await(allDone);
                        await(counted); // alive, caches full, until counted
                    }
                }));
            }
            allDone.await(120, TimeUnit.SECONDS);
            BufferPoolStats whileAlive;
            try {
                whileAlive = pool.stats();
            } finally {
                counted.await(60, TimeUnit.SECONDS);
            }
            for (Thread w : workers) {
                w.join(TimeUnit.SECONDS.toMillis(60));
            }
            assertThat(failures).isEmpty();
            assertThat(whileAlive.threadCaches()).isEqualTo(threads);
            assertThat(whileAlive.threadCacheBytes()).as(whileAlive.format()).isPositive()
                    .isLessThanOrEqualTo(whileAlive.threadCacheLimitBytes());
            for (SizeClassStats c : whileAlive.sizeClasses()) {
                assertThat(c.inThreadCaches()).as("%d-byte class", c.slotSize())
                        .isLessThanOrEqualTo((long) threads * BufferPool.Builder.MAX_CACHED_PER_CLASS);
            }
            releaseAll(handedOver);
            pool.trim();
            BufferPoolStats after = pool.stats();
            assertThat(after.leases()).isZero();
            assertThat(after.threadCacheBytes()).isZero();
            assertThat(after.bytesFromOs()).as("every slot back, every slab unmapped:%n%s", after.format()).isZero();
        }
    }

    @Test
    void tenThousandVirtualThreadsLeaseAndExitAndLoseNothing() throws Exception {
        ConcurrentLinkedQueue<BufferLease> handedOver = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (BufferPool pool = BufferPool.builder().name("bound-virtual").leakSampling(0).jmx(false).build()) {
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int t = 0; t < 10_000; t++) {
                    int id = t;
                    executor.execute(() -> {
                        try {
                            leaseAndHandOver(pool, id, 20, handedOver);
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    });
                }
            }
            assertThat(failures).isEmpty();
            assertThat(pool.stats().threadCaches()).isZero();
            releaseAll(handedOver);
            pool.trim();
            BufferPoolStats after = pool.stats();
            assertThat(after.leases()).isZero();
            assertThat(after.bytesFromOs()).as("every slot back, every slab unmapped:%n%s", after.format()).isZero();
        }
    }

    @Test
    void aClassNoLongerAcquiredDecaysBackToTheSharedLevel() throws Exception {
        decaysBackToTheSharedLevel(0);
    }

    /** The decay keeps its fixed period while the sampling gaps, on the same countdown, are drawn at random. */
    @Test
    void aClassNoLongerAcquiredDecaysBackWhileLeasesAreSampledAtRandom() throws Exception {
        decaysBackToTheSharedLevel(3);
    }

    private static void decaysBackToTheSharedLevel(int leakSampling) throws Exception {
        try (BufferPool pool = BufferPool.builder().name("decay").leakSampling(leakSampling)
                .useAfterReleaseSampling(0).jmx(false).build()) {
            java.util.concurrent.FutureTask<Void> task = new java.util.concurrent.FutureTask<>(() -> {
                List<BufferLease> held = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    held.add(pool.acquire(KiB));
                }
                held.forEach(BufferLease::release);
                // two refills of a batch (32) for 40 acquires, then all 40 back: a full stack of 64
                assertThat(inThreadCaches(pool, KiB)).isEqualTo(64);
                for (int i = 0; i < ThreadCache.DECAY_INTERVAL; i++) {
                    pool.acquire(128).release();
                }
                assertThat(inThreadCaches(pool, KiB)).as("one interval: still in use").isEqualTo(64);
                for (int i = 0; i < ThreadCache.DECAY_INTERVAL; i++) {
                    pool.acquire(128).release();
                }
                assertThat(inThreadCaches(pool, KiB)).as("a whole interval without a 1 KiB acquire").isZero();
                assertThat(inThreadCaches(pool, 128)).as("the class in use keeps its slots").isPositive();
                return null;
            });
            Thread thread = Thread.ofPlatform().start(task);
            task.get(60, TimeUnit.SECONDS);
            thread.join(TimeUnit.SECONDS.toMillis(60)); // a dead thread's cache is drained by trim()
            pool.trim();
            assertThat(pool.stats().bytesFromOs()).isZero();
        }
    }

    /**
     * A class is idle at a decay only if it had no acquire at all since the last one: one that missed once and
     * hit once keeps its slots, whatever the balance of hits and misses.
     */
    @Test
    void aClassThatMissedAndHitSinceTheLastLookIsNotIdle() throws Exception {
        try (BufferPool pool = BufferPool.builder().name("decay-balanced").leakSampling(0).useAfterReleaseSampling(0)
                .jmx(false).build()) {
            java.util.concurrent.FutureTask<Void> task = new java.util.concurrent.FutureTask<>(() -> {
                pool.acquire(100).release(); // a miss: a batch of 64 slots of 112 bytes
                pool.acquire(100).release(); // a hit
                assertThat(inThreadCaches(pool, 112)).isEqualTo(64);
                // the decay comes with the last of DECAY_INTERVAL acquires on this thread
                for (int i = 0; i < ThreadCache.DECAY_INTERVAL - 2; i++) {
                    pool.acquire(128).release();
                }
                SizeClassStats cls = pool.stats().sizeClasses().stream().filter(c -> c.slotSize() == 112)
                        .findFirst().orElseThrow();
                assertThat(cls.threadCacheHits()).isEqualTo(1);
                assertThat(cls.threadCacheMisses()).isEqualTo(1);
                assertThat(cls.inThreadCaches()).as("one miss and one hit since the thread started").isEqualTo(64);
                return null;
            });
            Thread thread = Thread.ofPlatform().start(task);
            dev.offheap.suite.Waits.join(thread);
            task.get();
        }
    }

    /**
     * Leases {@code rounds} buffers of random sizes from 64 B to 64 KiB, each filled with its thread's
     * mark and checked before release; every third one is handed to the queue, and as many are taken from
     * it (mostly other threads' leases) and released here.
     */
    private static void leaseAndHandOver(BufferPool pool, int id, int rounds, ConcurrentLinkedQueue<BufferLease> queue) {
        SplittableRandom random = new SplittableRandom(id);
        List<BufferLease> held = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            int size = randomSize(random);
            BufferLease b = pool.acquire(size);
            b.segment().set(ValueLayout.JAVA_INT_UNALIGNED, 0, id);
            b.segment().set(ValueLayout.JAVA_INT_UNALIGNED, size - 4, id);
            held.add(b);
            if (held.size() == 8 || i == rounds - 1) {
                for (BufferLease h : held) {
                    if (h.segment().get(ValueLayout.JAVA_INT_UNALIGNED, 0) != id
                            || h.segment().get(ValueLayout.JAVA_INT_UNALIGNED, h.size() - 4) != id) {
                        throw new AssertionError("a lease of thread " + id + " was overwritten");
                    }
                    if (random.nextInt(3) == 0) {
                        queue.add(h);
                        BufferLease other = queue.poll();
                        if (other != null) {
                            other.release();
                        }
                    } else {
                        h.release();
                    }
                }
                held.clear();
            }
        }
    }

    /** Log-uniform from 64 B to 64 KiB. */
    private static int randomSize(SplittableRandom random) {
        int exponent = random.nextInt(6, 16);
        return Math.min(65536, (1 << exponent) + random.nextInt(1 << exponent));
    }

    private static long inThreadCaches(BufferPool pool, int slotSize) {
        return pool.stats().sizeClasses().stream().filter(c -> c.slotSize() == slotSize)
                .mapToLong(SizeClassStats::inThreadCaches).sum();
    }

    private static void releaseAll(ConcurrentLinkedQueue<BufferLease> queue) {
        for (BufferLease b; (b = queue.poll()) != null; ) {
            b.release();
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("a barrier wait failed", e);
        }
    }
}
