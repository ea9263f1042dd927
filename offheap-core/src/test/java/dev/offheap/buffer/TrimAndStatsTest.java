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

import dev.offheap.os.NativeMemory;
import dev.offheap.suite.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What stats() reports, and what trim() gives back. */
class TrimAndStatsTest {
    private static final int[] SIZES = {1, 64, 65, 100, 1000, 4096, 5000, 20_000, 65_536, 70_000, 300_000};

    private static BufferPool pool(boolean portable) {
        return BufferPool.builder().name("stats-pool").leakSampling(0)
                .nativeMemory(portable ? NativeMemory.portable() : NativeMemory.system()).build();
    }

    @ParameterizedTest(name = "portable memory: {0}")
    @ValueSource(booleans = {false, true})
    void afterUseOnOneThreadTrimGivesEverythingBack(boolean portable) {
        try (BufferPool pool = pool(portable)) {
            List<BufferLease> held = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                for (int size : SIZES) {
                    for (int i = 0; i < 20; i++) {
                        held.add(pool.acquire(size));
                    }
                }
                held.forEach(BufferLease::release);
                held.clear();
            }
            BufferPoolStats before = pool.stats();
            assertThat(before.bytesFromOs()).isPositive();
            assertThat(before.leases()).isZero();
            assertThat(before.bytesFromOs()).isEqualTo(before.bytesInUse() + before.bytesCached());
            assertThat(pool.trim()).as("trim returns the bytes it gave back, as ChunkPool.trim does")
                    .isEqualTo(before.bytesFromOs());
            BufferPoolStats after = pool.stats();
            assertThat(after.bytesFromOs()).as("after trim:%n%s", after.format()).isZero();
            assertThat(after.slabBytes()).isZero();
            assertThat(after.freeSlotBytes()).isZero();
            assertThat(after.uncutBytes()).isZero();
            assertThat(pool.budget().used()).isZero();
            for (SizeClassStats c : after.sizeClasses()) {
                assertThat(c.slabs()).isZero();
                assertThat(c.slabsFreed()).isEqualTo(c.slabsCreated());
            }
            // and the pool works as before
            try (BufferLease again = pool.acquire(1000)) {
                Patterns.fill(again.segment(), 1);
                Patterns.verify(again.segment(), 1);
            }
        }
    }

    @Test
    void trimKeepsTheSlabsOfLiveLeases() {
        try (BufferPool pool = pool(false)) {
            List<BufferLease> held = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                held.add(pool.acquire(1000));
            }
            for (int i = 0; i < 100; i++) {
                Patterns.fill(held.get(i).segment(), i);
            }
            pool.trim();
            BufferPoolStats stats = pool.stats();
            assertThat(stats.leases()).isEqualTo(100);
            assertThat(stats.bytesFromOs()).isPositive();
            for (int i = 0; i < 100; i++) {
                Patterns.verify(held.get(i).segment(), i);
            }
            held.forEach(BufferLease::release);
            pool.trim();
            assertThat(pool.stats().bytesFromOs()).isZero();
        }
    }

    @Test
    void trimGivesBackTheCachesOfThreadsThatEnded() throws Exception {
        try (BufferPool pool = pool(false)) {
            Thread worker = Thread.ofPlatform().start(() -> {
                List<BufferLease> held = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    held.add(pool.acquire(2000));
                }
                held.forEach(BufferLease::release);
            });
            worker.join();
            assertThat(pool.stats().freeSlotBytes()).isPositive();
            pool.trim();
            assertThat(pool.stats().bytesFromOs()).isZero();
            assertThat(pool.stats().threadCaches()).as("the dead thread's cache is gone").isLessThanOrEqualTo(1);
        }
    }

    @Test
    void aLiveThreadFlushesItsCacheAtItsNextCallAfterTrim() throws Exception {
        try (BufferPool pool = pool(false)) {
            CountDownLatch filled = new CountDownLatch(1);
            CountDownLatch trimmed = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            Thread worker = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < 10; i++) {
                        pool.acquire(2000).release();
                    }
                    filled.countDown();
                    trimmed.await();
                    pool.acquire(100).release(); // another class: the 2000-byte class is left to the flush
                    done.countDown();
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    // end
                }
            });
            Waits.await(filled, "the worker filling its cache");
            pool.trim();
            SizeClassStats cls2000 = classOf(pool.stats(), 2048);
            assertThat(cls2000.inThreadCaches()).as("a live thread's cache is not touched by trim").isPositive();
            trimmed.countDown();
            Waits.await(done, "the worker's next call after trim");
            pool.trim();
            assertThat(classOf(pool.stats(), 2048).slabs()).as("flushed at the worker's next call, then trimmed")
                    .isZero();
            worker.interrupt();
            Waits.join(worker);
        }
    }

    /**
     * Threads that find the current slab of a class used up at the same moment each take a new slab; every
     * slab taken must be either cut into slots or given back, so that trim() can return it.
     */
    @Test
    void trimGivesEverythingBackAfterThreadsRacedForNewSlabs() throws Exception {
        int threads = 4;
        for (int round = 0; round < 10; round++) {
            try (BufferPool pool = BufferPool.builder().name("race-" + round).threadCaches(0).leakSampling(0)
                    .build()) {
                CyclicBarrier start = new CyclicBarrier(threads);
                ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
                List<Thread> workers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    workers.add(Thread.ofPlatform().start(() -> {
                        List<BufferLease> held = new ArrayList<>();
                        try {
                            start.await();
                            for (int i = 0; i < 300; i++) {
                                held.add(pool.acquire(1024)); // 64 slots per 64 KiB slab
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        } finally {
                            held.forEach(BufferLease::release);
                        }
                    }));
                }
                for (Thread w : workers) {
                    w.join();
                }
                assertThat(failures).isEmpty();
                BufferPoolStats used = pool.stats();
                assertThat(used.leases()).isZero();
                SizeClassStats cls = classOf(used, 1024);
                pool.trim();
                BufferPoolStats trimmed = pool.stats();
                assertThat(trimmed.bytesFromOs())
                        .as("round %d after trim (before it: %d slots cut, which need %d slabs; the class held %d)"
                                + ":%n%s", round, cls.slots(), (cls.slots() + 63) / 64, cls.slabs(), trimmed.format())
                        .isZero();
                assertThat(pool.budget().used()).isZero();
            }
        }
    }

    /**
     * Thread caches are for threads that acquire and release; a thread that only calls trim() (a
     * housekeeping thread) must not take one of the limited places, leaving a worker without a cache.
     */
    @Test
    void aThreadThatOnlyTrimsDoesNotTakeAThreadCache() throws Exception {
        try (BufferPool pool = BufferPool.builder().name("one-cache").threadCaches(1).leakSampling(0).build()) {
            pool.trim();
            Thread worker = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 1000; i++) {
                    pool.acquire(100).release();
                }
            });
            worker.join();
            BufferPoolStats stats = pool.stats();
            assertThat(classOf(stats, 112).threadCacheHits())
                    .as("the only worker got the only cache (not the thread that merely trimmed):%n%s", stats.format())
                    .isPositive();
        }
    }

    @Test
    void statsAddUp() {
        try (BufferPool pool = pool(false)) {
            List<BufferLease> held = new ArrayList<>();
            for (int size : SIZES) {
                for (int i = 0; i < 10; i++) {
                    held.add(pool.acquire(size));
                }
            }
            for (int i = 0; i < held.size(); i += 3) {
                held.get(i).release();
            }
            long live = held.stream().filter(b -> b.refCount() > 0).count();

            BufferPoolStats stats = pool.stats();
            assertThat(stats.name()).isEqualTo("stats-pool");
            assertThat(stats.memorySource()).isEqualTo(NativeMemory.system().name());
            assertThat(stats.leases()).isEqualTo(live);
            assertThat(stats.dedicatedLeases()).isZero();
            assertThat(stats.acquires()).isEqualTo(held.size());
            assertThat(stats.bytesFromOs()).isEqualTo(stats.bytesInUse() + stats.freeSlotBytes() + stats.uncutBytes());
            assertThat(stats.slabBytes()).isEqualTo(stats.bytesFromOs());
            assertThat(stats.bytesFromOs()).isEqualTo(pool.budget().used());

            long slabBytes = 0;
            long leased = 0;
            long leasedBytes = 0;
            long cachedBytes = 0;
            long uncutBytes = 0;
            int previousSlot = 0;
            for (SizeClassStats c : stats.sizeClasses()) {
                assertThat(c.slotSize()).as("classes in increasing order").isGreaterThan(previousSlot);
                previousSlot = c.slotSize();
                assertThat(c.slots()).isEqualTo(c.leased() + c.cached());
                assertThat(c.inThreadCaches()).isBetween(0L, c.cached());
                assertThat(c.bytesFromOs()).isEqualTo(c.slots() * c.slotSize() + c.uncutBytes());
                assertThat(c.uncutBytes()).isNotNegative();
                assertThat(c.bytesInUse()).isEqualTo(c.leased() * c.slotSize());
                assertThat(c.freeSlotBytes()).isEqualTo(c.cached() * c.slotSize());
                assertThat(c.slabsCreated() - c.slabsFreed()).isEqualTo(c.slabs());
                assertThat(c.acquires()).isEqualTo(c.threadCacheHits() + c.threadCacheMisses() + c.uncachedAcquires());
                slabBytes += c.bytesFromOs();
                leased += c.leased();
                leasedBytes += c.bytesInUse();
                cachedBytes += c.freeSlotBytes();
                uncutBytes += c.uncutBytes();
            }
            assertThat(slabBytes).isEqualTo(stats.slabBytes());
            assertThat(leased).isEqualTo(stats.leases());
            assertThat(leasedBytes).isEqualTo(stats.bytesInUse());
            assertThat(cachedBytes).isEqualTo(stats.freeSlotBytes());
            assertThat(uncutBytes).isEqualTo(stats.uncutBytes());
            SizeClasses classes = new SizeClasses(1 << 20);
            for (int size : SIZES) {
                SizeClassStats c = classOf(stats, classes.size(classes.indexOf(size)));
                assertThat(c.acquires()).as("acquires of the class of %d bytes", size).isGreaterThanOrEqualTo(10);
            }
            held.stream().filter(b -> b.refCount() > 0).forEach(BufferLease::release);
            assertThat(pool.stats().leases()).isZero();
            assertThat(pool.stats().bytesInUse()).isZero();
        }
    }

    @Test
    void dedicatedLeasesAreCountedApart() {
        try (BufferPool pool = pool(false)) {
            BufferLease small = pool.acquire(100);
            BufferLease big = pool.acquire((1 << 20) + 1);
            BufferPoolStats stats = pool.stats();
            assertThat(stats.leases()).isEqualTo(2);
            assertThat(stats.dedicatedLeases()).isEqualTo(1);
            assertThat(stats.dedicatedBytes()).isEqualTo((1 << 20) + 4096);
            assertThat(stats.bytesFromOs()).isEqualTo(stats.slabBytes() + stats.dedicatedBytes());
            assertThat(stats.bytesInUse()).isEqualTo(112 + stats.dedicatedBytes());
            assertThat(stats.acquires()).isEqualTo(2);
            big.release();
            small.release();
            stats = pool.stats();
            assertThat(stats.dedicatedLeases()).isZero();
            assertThat(stats.dedicatedBytes()).isZero();
            assertThat(stats.bytesFromOs()).isEqualTo(stats.slabBytes());
        }
    }

    @Test
    void threadCacheHitRateIsARateAfterUse() {
        try (BufferPool pool = pool(false)) {
            assertThat(pool.stats().threadCacheHitRate()).as("no acquire yet").isNaN();
            for (int i = 0; i < 1000; i++) {
                pool.acquire(i % 5000).release();
            }
            BufferPoolStats stats = pool.stats();
            assertThat(stats.threadCacheHitRate()).as("a steady acquire/release on one thread hits its cache")
                    .isGreaterThan(0.5);
            long hits = 0;
            long misses = 0;
            for (SizeClassStats c : stats.sizeClasses()) {
                hits += c.threadCacheHits();
                misses += c.threadCacheMisses();
                if (c.threadCacheHits() + c.threadCacheMisses() > 0) {
                    assertThat(c.threadCacheHitRate()).as("class of %d bytes", c.slotSize())
                            .isEqualTo((double) c.threadCacheHits() / (c.threadCacheHits() + c.threadCacheMisses()));
                }
            }
            assertThat(hits + misses).as("every acquire on this platform thread is a hit or a miss").isEqualTo(1000);
            assertThat(stats.threadCacheHitRate()).isEqualTo((double) hits / 1000);
        }
    }

    @Test
    void aSteadyLoopMissesOnlyItsFirstAcquire() {
        try (BufferPool pool = pool(false)) {
            for (int i = 0; i < 1000; i++) {
                pool.acquire(100).release();
            }
            SizeClassStats c = classOf(pool.stats(), 112);
            assertThat(c.threadCacheMisses()).as("the first acquire finds the cache empty").isEqualTo(1);
            assertThat(c.threadCacheHits()).isEqualTo(999);
            assertThat(c.threadCacheHitRate()).isEqualTo(0.999);
            assertThat(pool.stats().threadCacheHitRate()).isEqualTo(0.999);
        }
    }

    @Test
    void withoutThreadCachesEveryAcquireIsUncached() {
        try (BufferPool pool = BufferPool.builder().threadCaches(0).build()) {
            for (int i = 0; i < 100; i++) {
                pool.acquire(100).release();
            }
            BufferPoolStats stats = pool.stats();
            assertThat(stats.threadCaches()).isZero();
            assertThat(stats.threadCacheHitRate()).isNaN();
            assertThat(classOf(stats, 112).uncachedAcquires()).isEqualTo(100);
            assertThat(stats.acquires()).isEqualTo(100);
        }
    }

    @Test
    void formatMentionsThePoolAndItsClasses() {
        try (BufferPool pool = BufferPool.builder().name("formatted-pool").build()) {
            try (BufferLease a = pool.acquire(100); BufferLease b = pool.acquire(3 << 20)) {
                assertThat(a.size() + b.size()).isEqualTo(100 + (3 << 20));
                String text = pool.stats().format();
                assertThat(text).contains("formatted-pool").contains(NativeMemory.system().name())
                        .contains("112 B").contains("2 leases").contains("1 dedicated");
                assertThat(pool.toString()).contains("formatted-pool");
            }
        }
    }

    @Test
    void statsOfANewPoolAreEmpty() {
        try (BufferPool pool = BufferPool.builder().name("empty").build()) {
            BufferPoolStats stats = pool.stats();
            assertThat(stats.bytesFromOs()).isZero();
            assertThat(stats.leases()).isZero();
            assertThat(stats.acquires()).isZero();
            assertThat(stats.sizeClasses()).isEmpty();
            assertThat(stats.format()).contains("empty").contains("0 acquires, thread-cache hit rate -, ");
        }
    }

    @Test
    void hitRateOfAMixedWorkloadStaysARate() {
        try (BufferPool pool = pool(false)) {
            List<BufferLease> held = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                held.add(pool.acquire(64 + i % 300));
                if (held.size() > 100) {
                    held.subList(0, 50).forEach(BufferLease::release);
                    held.subList(0, 50).clear();
                }
            }
            held.forEach(BufferLease::release);
            BufferPoolStats stats = pool.stats();
            long hits = stats.sizeClasses().stream().mapToLong(SizeClassStats::threadCacheHits).sum();
            long misses = stats.sizeClasses().stream().mapToLong(SizeClassStats::threadCacheMisses).sum();
            assertThat(hits + misses).as("every acquire on this platform thread is a hit or a miss").isEqualTo(2000);
            assertThat(misses).as("a miss refills a batch: far fewer misses than acquires").isPositive()
                    .isLessThan(hits);
            assertThat(stats.threadCacheHitRate()).isEqualTo((double) hits / 2000);
        }
    }

    @Test
    void oneMissAndOneHitAreAHitRateOfOneHalf() {
        try (BufferPool pool = pool(false)) {
            pool.acquire(100).release(); // the cache is empty: a miss, which refills it
            pool.acquire(100).release(); // a hit
            BufferPoolStats stats = pool.stats();
            assertThat(stats.threadCacheHitRate()).isEqualTo(0.5);
            assertThat(classOf(stats, 112).threadCacheHitRate()).isEqualTo(0.5);
            String text = stats.format();
            assertThat(text).contains(", 2 acquires, thread-cache hit rate 50.0 %, ");
            String classLine = text.lines().filter(line -> line.trim().startsWith("112 B")).findFirst().orElseThrow();
            assertThat(classLine).endsWith(" 2    50.0 %");
        }
    }

    @Test
    void aSteadyLoopFormatsItsHitRateToOneDecimal() {
        try (BufferPool pool = pool(false)) {
            for (int i = 0; i < 1000; i++) {
                pool.acquire(100).release();
            }
            assertThat(pool.stats().format()).contains(", 1000 acquires, thread-cache hit rate 99.9 %, ");
        }
    }

    /** Acquires counted on the slots of a slab that trim() frees are kept in the class's figures. */
    @Test
    void uncachedAcquiresOutliveTheSlabsTheyWereCountedOn() {
        try (BufferPool pool = BufferPool.builder().name("uncached-trimmed").threadCaches(0).leakSampling(0)
                .jmx(false).build()) {
            List<BufferLease> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                held.add(pool.acquire(100));
            }
            held.forEach(BufferLease::release);
            for (int i = 0; i < 97; i++) {
                pool.acquire(100).release();
            }
            assertThat(classOf(pool.stats(), 112).uncachedAcquires()).isEqualTo(100);
            pool.trim();
            SizeClassStats cls = classOf(pool.stats(), 112);
            assertThat(cls.slabs()).isZero();
            assertThat(cls.slabsFreed()).isEqualTo(1);
            assertThat(cls.uncachedAcquires()).isEqualTo(100);
            assertThat(cls.acquires()).isEqualTo(100);
        }
    }

    /**
     * trim() asks a live thread to flush its cache; the thread does at its next call, whether an acquire or a
     * release.
     */
    @ParameterizedTest(name = "next call an acquire: {0}")
    @ValueSource(booleans = {true, false})
    void aLiveThreadFlushesAtItsNextAcquireOrRelease(boolean acquireNext) throws Exception {
        try (BufferPool pool = pool(false)) {
            CountDownLatch filled = new CountDownLatch(1);
            CountDownLatch trimmed = new CountDownLatch(1);
            CountDownLatch called = new CountDownLatch(1);
            CountDownLatch end = new CountDownLatch(1);
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            Thread worker = Thread.ofPlatform().start(() -> {
                List<BufferLease> held = new ArrayList<>();
                try {
                    held.add(pool.acquire(100));
                    for (int i = 0; i < 10; i++) {
                        pool.acquire(2000).release();
                    }
                    filled.countDown();
                    Waits.await(trimmed, "the trim");
                    if (acquireNext) {
                        held.add(pool.acquire(100));
                    } else {
                        held.removeFirst().release();
                    }
                    called.countDown();
                    Waits.await(end, "the end of the test");
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    held.forEach(BufferLease::release);
                }
            });
            try {
                Waits.await(filled, "the worker filling its cache");
                pool.trim();
                // the first miss took every slot of the class's first slab: 32 of 2 KiB in 64 KiB
                assertThat(classOf(pool.stats(), 2048).inThreadCaches()).as("a live thread's cache is not touched")
                        .isEqualTo(32);
                trimmed.countDown();
                Waits.await(called, "the worker's next call after trim");
                assertThat(classOf(pool.stats(), 2048).inThreadCaches()).as("flushed at that call").isZero();
                pool.trim();
                assertThat(classOf(pool.stats(), 2048).slabs()).isZero();
            } finally {
                trimmed.countDown();
                end.countDown();
                Waits.join(worker);
            }
            assertThat(failures).isEmpty();
        }
    }

    /**
     * A thread cache that runs dry takes whole batches from the shared level until it holds at least one batch:
     * one batch of 64 when the shared level holds two.
     */
    @Test
    void aRefillTakesOneBatchWhenTheSharedLevelHoldsTwo() throws Exception {
        try (BufferPool pool = pool(false)) {
            List<BufferLease> held = new ArrayList<>();
            for (int i = 0; i < 256; i++) {
                held.add(pool.acquire(100));
            }
            // four refills of 64 slots, all taken; then 256 releases: a full stack of 128, and twice a flush of
            // half of it to the shared level
            held.forEach(BufferLease::release);
            SizeClassStats before = classOf(pool.stats(), 112);
            assertThat(before.cached()).isEqualTo(256);
            assertThat(before.inThreadCaches()).isEqualTo(128);
            Thread other = Thread.ofPlatform().start(() -> pool.acquire(100).release());
            Waits.join(other);
            assertThat(classOf(pool.stats(), 112).inThreadCaches()).as("128 here, one batch in the other thread's")
                    .isEqualTo(128 + 64);
        }
    }

    private static SizeClassStats classOf(BufferPoolStats stats, int slotSize) {
        return stats.sizeClasses().stream().filter(c -> c.slotSize() == slotSize).findFirst()
                .orElseThrow(() -> new AssertionError("no class of " + slotSize + " bytes in " + stats.format()));
    }
}
