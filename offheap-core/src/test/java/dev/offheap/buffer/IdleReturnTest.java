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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.suite.Waits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Idle return: memory the pool no longer needs goes back to the OS by itself. Most tests drive the looks by
 * hand ({@link BufferPool#returnIdle()}, with a clock too slow to fire), so that what each look gives back is
 * exact; one lets the clock run.
 */
class IdleReturnTest {
    /** A delay no test waits for: the looks are the test's own. */
    private static final Duration BY_HAND = Duration.ofDays(1);

    private static BufferPool pool(int threadCaches, long floor) {
        return BufferPool.builder().jmx(false).threadCaches(threadCaches).idleReturn(BY_HAND, floor).build();
    }

    @Test
    void aSlabWithNoLeaseAtTwoLooksGoesBackAtTheSecond() {
        try (BufferPool pool = pool(0, 0)) {
            pool.acquire(1024).release();
            long slab = pool.stats().bytesFromOs();
            assertThat(slab).isPositive();

            assertThat(pool.returnIdle()).as("first look: only remembers").isZero();
            assertThat(pool.returnIdle()).as("second look").isEqualTo(slab);
            assertThat(pool.stats().bytesFromOs()).isZero();
            assertThat(pool.budget().used()).isZero();
        }
    }

    @Test
    void aSlabWithALeaseStaysAndGoesTwoLooksAfterItsRelease() {
        try (BufferPool pool = pool(0, 0)) {
            BufferLease lease = pool.acquire(1024);
            long slab = pool.stats().bytesFromOs();
            assertThat(pool.returnIdle()).isZero();
            assertThat(pool.returnIdle()).isZero();
            lease.release();
            assertThat(pool.returnIdle()).as("the slab was leased at the look before").isZero();
            assertThat(pool.returnIdle()).isEqualTo(slab);
        }
    }

    @Test
    void aSlabLeasedAtOneLookOnlyStartsOver() {
        try (BufferPool pool = pool(0, 0)) {
            pool.acquire(1024).release();
            long slab = pool.stats().bytesFromOs();
            assertThat(pool.returnIdle()).isZero();
            BufferLease lease = pool.acquire(1024);
            assertThat(pool.returnIdle()).as("leased at this look").isZero();
            lease.release();
            assertThat(pool.returnIdle()).as("free at this look, leased at the one before").isZero();
            assertThat(pool.returnIdle()).isEqualTo(slab);
        }
    }

    @Test
    void theFloorStaysMapped() {
        try (BufferPool pool = pool(0, 1)) {
            pool.acquire(1024).release();
            pool.acquire(16 * 1024).release();
            long small = pool.stats().sizeClasses().stream().filter(c -> c.slotSize() == 1024).findFirst().orElseThrow()
                    .bytesFromOs();
            long all = pool.stats().bytesFromOs();
            pool.returnIdle();
            long freed = pool.returnIdle();

            assertThat(freed).as("one slab goes, the other keeps the floor of 1 byte").isPositive().isLessThan(all);
            assertThat(pool.stats().bytesFromOs()).isEqualTo(all - freed).isPositive();
            assertThat(pool.returnIdle()).as("never below the floor").isZero();
            assertThat(small).isPositive();
        }
    }

    @Test
    void theFloorIsWholeSlabsFromTheOs() {
        try (BufferPool pool = pool(0, Long.MAX_VALUE)) {
            pool.acquire(1024).release();
            long all = pool.stats().bytesFromOs();
            pool.returnIdle();
            assertThat(pool.returnIdle()).isZero();
            assertThat(pool.stats().bytesFromOs()).isEqualTo(all);
        }
    }

    @Test
    void aDeadThreadsCacheGoesBackAtTheNextLooks() throws InterruptedException {
        try (BufferPool pool = pool(4, 0)) {
            Thread user = Thread.ofPlatform().start(() -> pool.acquire(1024).release());
            Waits.join(user);
            assertThat(pool.stats().bytesFromOs()).isPositive();

            pool.returnIdle();
            pool.returnIdle();

            assertThat(pool.stats().bytesFromOs()).isZero();
        }
    }

    @Test
    void aLiveThreadsCacheStaysUntilThatThreadFindsItselfIdle() throws InterruptedException {
        try (BufferPool pool = pool(4, 0)) {
            CountDownLatch cached = new CountDownLatch(1);
            CountDownLatch look = new CountDownLatch(1);
            AtomicBoolean[] flushed = {new AtomicBoolean(), new AtomicBoolean(), new AtomicBoolean()};
            CountDownLatch done = new CountDownLatch(1);
            Thread user = Thread.ofPlatform().start(() -> {
                try {
                    pool.acquire(1024).release();
                    flushed[0].set(pool.flushThreadCacheIfIdle()); // first call: remembers only
                    cached.countDown();
                    Waits.await(look, "the looks of the test");
                    flushed[1].set(pool.flushThreadCacheIfIdle());
                    flushed[2].set(pool.flushThreadCacheIfIdle());
                    done.countDown();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Waits.await(cached, "the thread's acquire and release");
            long slab = pool.stats().bytesFromOs();
            pool.returnIdle();
            assertThat(pool.returnIdle()).as("the slot is in the live thread's cache").isZero();

            look.countDown();
            Waits.await(done, "the thread's flushes");
            assertThat(flushed[0]).as("first call").isFalse();
            assertThat(flushed[1]).as("idle since the first call").isTrue();
            assertThat(flushed[2]).as("nothing left, still idle").isTrue();
            assertThat(pool.returnIdle()).isEqualTo(slab);
            Waits.join(user);
        }
    }

    @Test
    void aBusyThreadsCacheIsNotFlushed() {
        try (BufferPool pool = pool(4, 0)) {
            pool.acquire(1024).release();
            assertThat(pool.flushThreadCacheIfIdle()).isFalse();
            pool.acquire(1024).release();
            assertThat(pool.flushThreadCacheIfIdle()).as("acquired since").isFalse();
            assertThat(pool.stats().sizeClasses().stream().mapToLong(SizeClassStats::inThreadCaches).sum())
                    .as("slots kept in the cache (a refill takes a batch)").isPositive();
        }
    }

    @Test
    void aThreadWithoutACacheHasNothingToFlushAndGetsNone() throws InterruptedException {
        try (BufferPool pool = pool(4, 0)) {
            assertThat(pool.flushThreadCacheIfIdle()).isFalse();
            assertThat(pool.flushThreadCacheIfIdle()).isFalse();
            boolean[] virtual = {true};
            Thread v = Thread.ofVirtual().start(() -> virtual[0] = pool.flushThreadCacheIfIdle());
            Waits.join(v);
            assertThat(virtual[0]).isFalse();
            assertThat(pool.stats().threadCaches()).as("no cache registered by asking").isZero();
        }
        try (BufferPool noCaches = pool(0, 0)) {
            assertThat(noCaches.flushThreadCacheIfIdle()).isFalse();
        }
    }

    @Test
    void theClockGivesIdleMemoryBackWithNoTrimCall() throws InterruptedException {
        try (BufferPool pool = BufferPool.builder().jmx(false).threadCaches(0)
                .idleReturn(Duration.ofMillis(20), 0).build()) {
            List<BufferLease> burst = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                burst.add(pool.acquire(16 * 1024));
            }
            burst.forEach(BufferLease::release);
            assertThat(pool.stats().bytesFromOs()).isPositive();
            assertThat(pool.idleReturnWatching()).isTrue();

            Waits.Stopwatch waited = new Waits.Stopwatch();
            while (pool.stats().bytesFromOs() > 0 && !waited.expired()) {
                Thread.sleep(10);
            }
            assertThat(pool.stats().bytesFromOs()).as("bytes from the OS, %s after the burst", Waits.LIMIT).isZero();
            pool.close();
            assertThat(pool.idleReturnWatching()).as("after close").isFalse();
        }
    }

    @Test
    void turnedOffItNeverLooks() {
        try (BufferPool pool = BufferPool.builder().jmx(false).idleReturn(Duration.ZERO, 0).build()) {
            assertThat(pool.idleReturnWatching()).isFalse();
        }
    }

    @Test
    void aClosedPoolIsNotLookedAt() {
        BufferPool pool = pool(0, 0);
        pool.acquire(1024).release();
        pool.close();
        assertThat(pool.returnIdle()).isZero();
        assertThat(pool.idleReturnWatching()).isFalse();
    }

    @Test
    void theDefaultIsTenSecondsUnlessTheSuiteTurnsItOff() {
        assertThat(IdleReturn.defaultDelay(null)).isEqualTo(Duration.ofSeconds(10));
        assertThat(IdleReturn.defaultDelay("off")).isZero();
        assertThat(IdleReturn.defaultDelay(System.getProperty(IdleReturn.DEFAULT_PROPERTY)))
                .as("this suite's pools: off unless they ask").isZero();
    }

    @Test
    void badSettingsAreRefused() {
        BufferPool.Builder b = BufferPool.builder();
        assertThatThrownBy(() -> b.idleReturn(null, 0)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> b.idleReturn(Duration.ofMillis(-1), 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 0 and a day");
        assertThatThrownBy(() -> b.idleReturn(Duration.ofDays(1).plusNanos(1), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.idleReturn(Duration.ofSeconds(1), -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("floorBytes");
    }
}
