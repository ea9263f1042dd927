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

import org.junit.jupiter.api.Test;

/** The figures that need a walk over every slot come from a snapshot, which lives for a while. */
class BufferPoolMetricsTest {

    @Test
    void figuresNeedingAWalkComeFromASnapshotAndCountersAreLive() {
        try (BufferPool pool = BufferPool.builder().name("metrics-snapshot").jmx(false).leakSampling(0).build()) {
            BufferPoolMetrics kept = new BufferPoolMetrics(pool, Long.MAX_VALUE);
            BufferLease first = pool.acquire(1000);
            assertThat(kept.getBytesInUse()).isEqualTo(1024);
            assertThat(kept.getLeases()).isEqualTo(1);

            BufferLease second = pool.acquire(1000);
            BufferLease large = pool.acquire(2 << 20);
            assertThat(kept.getBytesInUse()).as("the snapshot is still young").isEqualTo(1024);
            assertThat(kept.getLeases()).isEqualTo(1);
            assertThat(kept.getBytesFromOs()).as("a counter, read live").isEqualTo(64 * 1024 + (2 << 20));
            assertThat(kept.getPeakBytes()).isEqualTo(64 * 1024 + (2 << 20));

            BufferPoolMetrics fresh = new BufferPoolMetrics(pool, 0);
            assertThat(fresh.getBytesInUse()).isEqualTo(2 * 1024 + (2 << 20));
            assertThat(fresh.getLeases()).isEqualTo(3);
            assertThat(fresh.getBytesCached()).as("the rest of the slab")
                    .isEqualTo(fresh.getBytesFromOs() - fresh.getBytesInUse());

            large.release();
            first.release();
            second.release();
            assertThat(fresh.getBytesInUse()).isZero();
            assertThat(fresh.getBytesFromOs()).isEqualTo(64 * 1024);
            assertThat(fresh.getBytesCached()).isEqualTo(64 * 1024);
            assertThat(fresh.getPeakBytes()).isEqualTo(64 * 1024 + (2 << 20));
            assertThat(fresh.getAcquires()).isEqualTo(3);
            assertThat(pool.metrics().getName()).isEqualTo("metrics-snapshot");
        }
    }

    @Test
    void cachedBytesAreTheFreeSlotsAndTheSlabNotYetCut() {
        try (BufferPool pool = BufferPool.builder().name("metrics-cached").jmx(false).threadCaches(0).leakSampling(0)
                .build()) {
            BufferPoolMetrics fresh = new BufferPoolMetrics(pool, 0);
            BufferLease one = pool.acquire(1000);
            // without thread caches one slot is cut from the 64 KiB slab of the 1 KiB class: 63 are not
            assertThat(fresh.getBytesInUse()).isEqualTo(1024);
            assertThat(fresh.getBytesCached()).isEqualTo(63 * 1024);
            one.release();
            assertThat(fresh.getBytesCached()).isEqualTo(64 * 1024);
        }
    }

    @Test
    void threadCacheFiguresOfASteadyLoop() {
        try (BufferPool pool = BufferPool.builder().name("metrics-caches").jmx(false).leakSampling(0).build()) {
            BufferPoolMetrics fresh = new BufferPoolMetrics(pool, 0);
            assertThat(fresh.getThreadCaches()).isZero();
            assertThat(fresh.getThreadCacheHitRate()).as("no acquire yet").isNaN();
            for (int i = 0; i < 1000; i++) {
                pool.acquire(100).release();
            }
            assertThat(fresh.getThreadCaches()).as("this thread's").isEqualTo(1);
            assertThat(fresh.getThreadCacheHitRate()).as("only the first acquire missed").isEqualTo(0.999);
            // the first miss took a batch of 64 slots of 112 bytes; one of them is back in the cache as well
            assertThat(fresh.getThreadCacheBytes()).isEqualTo(64 * 112);
            assertThat(fresh.getLeaks()).isZero();
        }
    }

    @Test
    void theSnapshotAgeIsZeroBeforeTheFirstSnapshotThenItsAge() throws InterruptedException {
        try (BufferPool pool = BufferPool.builder().name("metrics-age").jmx(false).leakSampling(0).build()) {
            BufferPoolMetrics kept = new BufferPoolMetrics(pool, Long.MAX_VALUE);
            assertThat(kept.getSnapshotAgeMillis()).as("no snapshot yet").isZero();
            long before = System.nanoTime();
            assertThat(kept.getLeases()).isZero(); // takes the snapshot
            Thread.sleep(5);
            long age = kept.getSnapshotAgeMillis();
            long upperBound = (System.nanoTime() - before) / 1_000_000;
            assertThat(age).as("at least the 5 ms slept, at most the time since just before the snapshot")
                    .isBetween(5L, upperBound);
        }
    }

    /**
     * The lifetime is compared with the snapshot's age, never with the clock's reading: a lifetime as long as
     * the clock's reading now keeps a snapshot taken a moment ago. (On a clock whose origin makes its reading
     * negative the lifetime is 0, and the snapshot is taken again, as its lifetime says.)
     */
    @Test
    void aSnapshotYoungerThanItsLifetimeIsKeptWhateverTheClockReads() {
        try (BufferPool pool = BufferPool.builder().name("metrics-clock").jmx(false).leakSampling(0).build()) {
            long lifetime = Math.max(0, System.nanoTime());
            BufferPoolMetrics kept = new BufferPoolMetrics(pool, lifetime);
            assertThat(kept.getLeases()).isZero();
            BufferLease held = pool.acquire(100);
            if (lifetime > 60_000_000_000L) { // the clock reads more than a minute: the snapshot is far younger
                assertThat(kept.getLeases()).as("the snapshot taken before the acquire").isZero();
            }
            held.release();
        }
    }
}
