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

import dev.offheap.suite.Waits;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * A platform thread that finds every place taken works without a cache and asks again every 4096th acquire;
 * once a place is free (its thread died) it registers, and keeps that cache. A release goes back to the cache
 * that lent the buffer when it is the releasing thread's, so a buffer lent before the registration goes to
 * the shared level, and one leased on a virtual thread (which lends from no cache) goes to the releasing
 * thread's cache.
 */
class ThreadCacheRegistrationTest {
    private static final int RETRY_INTERVAL = 4096;

    @Test
    void aThreadWithoutACacheRegistersAtItsFourThousandNinetySixthAcquireOnceAPlaceIsFree() throws Exception {
        try (BufferPool pool = BufferPool.builder().name("late-registration").threadCaches(1).leakSampling(0)
                .useAfterReleaseSampling(0).jmx(false).build()) {
            Holder holder = holdTheOnlyPlace(pool);
            // this thread's first acquire: no place left, so no cache; the lease is lent by no cache of its own
            BufferLease early = pool.acquire(100);
            holder.endAndJoin(); // the place is free now, but taken only at the next retry
            for (int i = 2; i < RETRY_INTERVAL; i++) {
                pool.acquire(100).release();
            }
            SizeClassStats before = classOf(pool, 112);
            assertThat(before.uncachedAcquires()).as("4095 acquires without a cache").isEqualTo(RETRY_INTERVAL - 1);
            assertThat(before.threadCacheMisses() + before.threadCacheHits()).isZero();

            pool.acquire(100).release(); // the 4096th: registers, and the new cache misses once
            for (int i = 0; i < 3; i++) {
                pool.acquire(100).release(); // hits
            }
            SizeClassStats after = classOf(pool, 112);
            assertThat(after.uncachedAcquires()).isEqualTo(RETRY_INTERVAL - 1);
            assertThat(after.threadCacheMisses()).isEqualTo(1);
            assertThat(after.threadCacheHits()).isEqualTo(3);
            assertThat(after.inThreadCaches()).isEqualTo(1);
            assertThat(pool.stats().threadCaches()).isEqualTo(1);

            early.release();
            assertThat(classOf(pool, 112).inThreadCaches())
                    .as("lent before this thread had a cache: back to the shared level, not into the new cache")
                    .isEqualTo(1);

            // a virtual thread leases the only free slot at the shared level: lent by no cache
            AtomicReference<BufferLease> fromVirtual = new AtomicReference<>();
            Thread virtual = Thread.ofVirtual().start(() -> fromVirtual.set(pool.acquire(100)));
            Waits.join(virtual);
            assertThat(classOf(pool, 112).uncachedAcquires()).isEqualTo(RETRY_INTERVAL);
            fromVirtual.get().release();
            assertThat(classOf(pool, 112).inThreadCaches()).as("released here: into this thread's cache")
                    .isEqualTo(2);
        }
    }

    /**
     * The fast table that finds a thread's cache by its id has four places for two caches (a thread's place is
     * its id mod 4). A thread that registers late while a live thread holds its place in that table is not
     * found there, and still uses its cache: the thread-local holds it.
     */
    @Test
    void aLateRegistrationKeepsItsCacheWhenALiveThreadHoldsItsPlaceInTheFastTable() throws Exception {
        try (BufferPool pool = BufferPool.builder().name("late-registration-shared-place").threadCaches(2)
                .leakSampling(0).useAfterReleaseSampling(0).jmx(false).build()) {
            long here = Thread.currentThread().threadId() & 3;
            Holder sameFastPlace = holdAPlace(pool, id -> (id & 3) == here, 1);
            Holder otherFastPlace = holdAPlace(pool, id -> (id & 3) != here, 2);
            BufferLease early = pool.acquire(100); // both places taken: no cache
            otherFastPlace.endAndJoin();
            for (int i = 2; i <= RETRY_INTERVAL; i++) {
                pool.acquire(100).release(); // the last one registers, and misses once
            }
            for (int i = 0; i < 3; i++) {
                pool.acquire(100).release(); // hits, though the fast table has the other thread's cache
            }
            SizeClassStats cls = classOf(pool, 112);
            assertThat(cls.uncachedAcquires()).isEqualTo(RETRY_INTERVAL - 1);
            assertThat(cls.threadCacheMisses()).isEqualTo(1);
            assertThat(cls.threadCacheHits()).isEqualTo(3);
            early.release();
            sameFastPlace.endAndJoin();
        }
    }

    /** A thread holding the pool's only cache place until let go; then it ends, freeing the place. */
    private record Holder(Thread thread, CountDownLatch letGo) {
        void endAndJoin() throws InterruptedException {
            letGo.countDown();
            Waits.join(thread);
        }
    }

    private static Holder holdTheOnlyPlace(BufferPool pool) throws InterruptedException {
        return holdAPlace(pool, id -> true, 1);
    }

    /**
     * Starts a platform thread whose id satisfies {@code wanted}, which registers a cache (with a lease of 10
     * bytes, another class than the tests'), then holds its place until let go.
     */
    private static Holder holdAPlace(BufferPool pool, LongPredicate wanted, int cachesThen)
            throws InterruptedException {
        CountDownLatch registered = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        Runnable task = () -> {
            pool.acquire(10).release();
            registered.countDown();
            try {
                Waits.await(letGo, "the end of the holder's turn");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        Thread thread;
        do {
            thread = Thread.ofPlatform().unstarted(task);
        } while (!wanted.test(thread.threadId()));
        thread.start();
        Waits.await(registered, "the holder's registration");
        assertThat(pool.stats().threadCaches()).isEqualTo(cachesThen);
        return new Holder(thread, letGo);
    }

    private static SizeClassStats classOf(BufferPool pool, int slotSize) {
        BufferPoolStats stats = pool.stats();
        return stats.sizeClasses().stream().filter(c -> c.slotSize() == slotSize).findFirst()
                .orElseThrow(() -> new AssertionError("no class of " + slotSize + " bytes in " + stats.format()));
    }
}
