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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Many threads: memory must follow what is live at once, not the number of threads, and thread caches stay
 * within their configured number.
 */
class ThreadScalingTest {
    private static final int KiB = 1024;
    private static final int MiB = 1 << 20;

    /** Counts leases in flight from before acquire to after release, so its maximum bounds the true one. */
    private static final class Live {
        final AtomicInteger now = new AtomicInteger();
        final AtomicInteger max = new AtomicInteger();

        void enter() {
            max.accumulateAndGet(now.incrementAndGet(), Math::max);
        }

        void exit() {
            now.decrementAndGet();
        }
    }

    @Test
    void hundredThousandVirtualThreads() throws Exception {
        int threads = 100_000;
        int threadCaches = 4;
        Live live = new Live();
        AtomicLong peakOsBytes = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (BufferPool pool = BufferPool.builder().name("virtual").threadCaches(threadCaches).leakSampling(0)
                .build()) {
            // A few thousand in flight at once at most: a bound on live memory, independent of scheduling.
            Semaphore inFlight = new Semaphore(2000);
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < threads; i++) {
                    int n = i;
                    executor.execute(() -> {
                        try {
                            inFlight.acquire();
                            live.enter();
                            try (BufferLease buffer = pool.acquire(KiB)) {
                                buffer.segment().fill((byte) n);
                                buffer.segment().set(ValueLayout.JAVA_INT_UNALIGNED, 0, n);
                                if (n % 64 == 0) {
                                    Thread.sleep(1);
                                } else {
                                    Thread.yield();
                                }
                                if (buffer.segment().get(ValueLayout.JAVA_INT_UNALIGNED, 0) != n
                                        || buffer.segment().get(ValueLayout.JAVA_BYTE, KiB - 1) != (byte) n) {
                                    throw new AssertionError("lease of thread " + n + " was overwritten");
                                }
                            } finally {
                                live.exit();
                                inFlight.release();
                            }
                            if (n % 1000 == 0) {
                                peakOsBytes.accumulateAndGet(pool.stats().bytesFromOs(), Math::max);
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    });
                }
            }
            assertThat(failures).isEmpty();
            BufferPoolStats stats = pool.stats();
            assertThat(stats.leases()).isZero();
            assertThat(stats.acquires()).isEqualTo(threads);
            assertThat(stats.threadCaches()).isLessThanOrEqualTo(threadCaches);
            // 1 KiB slots come 64 to a 64 KiB slab; a slot is cut only when none is free, so the pool holds
            // what was live at once, plus one slot per thread racing into a new slab, rounded to slabs.
            int maxLive = live.max.get();
            long bound = roundUp((long) 2 * maxLive * KiB, 64 * KiB) + 64 * KiB;
            assertThat(maxLive).isLessThanOrEqualTo(2000);
            assertThat(stats.bytesFromOs()).as("max live %d:%n%s", maxLive, stats.format()).isLessThanOrEqualTo(bound);
            assertThat(peakOsBytes.get()).isLessThanOrEqualTo(bound);
            assertThat(stats.bytesFromOs()).isLessThan(64L * MiB);
            pool.trim();
            assertThat(pool.stats().bytesFromOs()).isZero();
        }
    }

    @Test
    void sixtyFourPlatformThreadsShareABoundedNumberOfCaches() throws Exception {
        int threads = 64;
        int threadCaches = 8;
        int perThread = 4;
        int[] sizes = {KiB, 4 * KiB};
        CyclicBarrier allDone = new CyclicBarrier(threads + 1);
        CyclicBarrier checked = new CyclicBarrier(threads + 1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (BufferPool pool = BufferPool.builder().name("platform").threadCaches(threadCaches).leakSampling(0)
                .build()) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                workers.add(Thread.ofPlatform().name("scaling-" + t).start(() -> {
                    try {
                        List<BufferLease> held = new ArrayList<>();
                        for (int i = 0; i < 2000; i++) {
                            BufferLease b = pool.acquire(sizes[(i + id) % sizes.length]);
                            b.segment().set(ValueLayout.JAVA_INT_UNALIGNED, 0, id);
                            held.add(b);
                            if (held.size() == perThread) {
                                for (BufferLease h : held) {
                                    if (h.segment().get(ValueLayout.JAVA_INT_UNALIGNED, 0) != id) {
                                        throw new AssertionError("a lease of thread " + id + " was overwritten");
                                    }
                                    h.release();
                                }
                                held.clear();
                            }
                        }
                        held.forEach(BufferLease::release);
                    } catch (Throwable e) {
                        failures.add(e);
                    } finally {
                        await(allDone);
                        await(checked); // stay alive until the caches were counted
                    }
                }));
            }
            allDone.await(60, TimeUnit.SECONDS);
            BufferPoolStats stats;
            try {
                stats = pool.stats();
            } finally {
                checked.await(60, TimeUnit.SECONDS);
            }
            for (Thread w : workers) {
                w.join();
            }
            assertThat(failures).isEmpty();
            assertThat(stats.leases()).isZero();
            assertThat(stats.threadCaches()).as("caches while all %d threads are alive", threads)
                    .isBetween(1, threadCaches);
            // a cache holds at most max(2, min(128, 2 MiB / slot)) slots per class: 128 x 1 KiB + 128 x 4 KiB
            long oneCache = 128 * KiB + 512 * KiB;
            long inCaches = stats.sizeClasses().stream().mapToLong(c -> c.inThreadCaches() * c.slotSize()).sum();
            assertThat(inCaches).isLessThanOrEqualTo(threadCaches * oneCache);
            assertThat(stats.threadCacheBytes()).isEqualTo(inCaches);
            // live: 64 x 4 leases of <= 4 KiB; cached: 8 caches x 640 KiB (refill batches included); plus one
            // slot per thread without a cache racing for a new one, and a part-cut slab per class. 64 caches
            // of that size would need 40 MiB.
            long liveBytes = (long) threads * perThread * 4 * KiB;
            long cacheBytes = threadCaches * oneCache;
            long bound = liveBytes + cacheBytes + threads * 4 * KiB + sizes.length * 128 * KiB;
            assertThat(stats.bytesFromOs()).as("%s", stats.format()).isLessThanOrEqualTo(bound);
            pool.trim();
            assertThat(pool.stats().bytesFromOs()).as("all threads ended").isZero();
        }
    }

    @Test
    void producerAndConsumerKeepMemoryBounded() throws Exception {
        int count = 200_000;
        int[] sizes = {4 * KiB, 16 * KiB, 64 * KiB, 100 * KiB};
        BlockingQueue<BufferLease> queue = new ArrayBlockingQueue<>(64);
        AtomicLong peakOsBytes = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (BufferPool pool = BufferPool.builder().name("pipe").leakSampling(0).build()) {
            Thread producer = Thread.ofPlatform().name("producer").start(() -> {
                try {
                    for (int i = 0; i < count; i++) {
                        BufferLease b = pool.acquire(sizes[i % sizes.length]);
                        b.segment().set(ValueLayout.JAVA_INT_UNALIGNED, 0, i);
                        b.segment().set(ValueLayout.JAVA_INT_UNALIGNED, b.size() - 4, i);
                        queue.put(b);
                        if (i % 10_000 == 0) {
                            peakOsBytes.accumulateAndGet(pool.stats().bytesFromOs(), Math::max);
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            Thread consumer = Thread.ofPlatform().name("consumer").start(() -> {
                try {
                    for (int i = 0; i < count; i++) {
                        BufferLease b = queue.take();
                        if (b.segment().get(ValueLayout.JAVA_INT_UNALIGNED, 0) != i
                                || b.segment().get(ValueLayout.JAVA_INT_UNALIGNED, b.size() - 4) != i) {
                            throw new AssertionError("buffer " + i + " was overwritten in the queue");
                        }
                        if (!b.release()) {
                            throw new AssertionError("release of buffer " + i);
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            producer.join();
            consumer.join();
            assertThat(failures).isEmpty();
            BufferPoolStats stats = pool.stats();
            assertThat(stats.leases()).isZero();
            assertThat(stats.acquires()).isEqualTo(count);
            assertThat(peakOsBytes.get()).as("peak while running").isLessThan(16L * MiB);
            assertThat(stats.bytesFromOs()).as("%s", stats.format()).isLessThan(16L * MiB);
            pool.trim();
            assertThat(pool.stats().bytesFromOs()).isZero();
        }
    }

    private static long roundUp(long value, long unit) {
        return (value + unit - 1) / unit * unit;
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("barrier", e);
        }
    }
}
