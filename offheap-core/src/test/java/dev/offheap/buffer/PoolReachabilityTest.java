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

import dev.offheap.account.MemoryBudget;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A closed pool leaves nothing that keeps it reachable: no thread-local of a thread that used it (whether that
 * thread lives on or not), no MBean, no budget reclaimer list.
 */
class PoolReachabilityTest {
    private static final int POOLS = 50;

    @Test
    void closedPoolsUsedByTheClosingThreadAreCollected() throws Exception {
        assertCollectedAfterClose(pool -> use(pool), true);
    }

    @Test
    void closedPoolsUsedByLivingPlatformThreadsAreCollected() throws Exception {
        // Threads that used the pool, and live on idle in an executor: their thread-locals must not hold it.
        ExecutorService executor = Executors.newFixedThreadPool(3);
        try {
            assertCollectedAfterClose(pool -> {
                List<java.util.concurrent.Future<?>> done = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    done.add(executor.submit(() -> use(pool)));
                }
                for (var f : done) {
                    try {
                        f.get();
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }
            }, true);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void closedPoolsUsedByVirtualThreadsAreCollected() throws Exception {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            assertCollectedAfterClose(pool -> {
                CountDownLatch done = new CountDownLatch(4);
                for (int i = 0; i < 4; i++) {
                    executor.submit(() -> {
                        use(pool);
                        done.countDown();
                    });
                }
                try {
                    done.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }, true);
        }
    }

    @Test
    void closedPoolsThatSharedALongLivedBudgetAreCollected() throws Exception {
        MemoryBudget shared = MemoryBudget.root("long-lived", 1L << 30);
        List<WeakReference<BufferPool>> refs = new ArrayList<>();
        for (int i = 0; i < POOLS; i++) {
            BufferPool pool = BufferPool.builder().name("shared-" + i).budget(shared).checked(i % 2 == 0)
                    .leakSampling(1).build();
            use(pool);
            pool.close();
            refs.add(new WeakReference<>(pool));
        }
        assertAllCollected(refs);
        assertThat(shared.used()).isZero();
        shared.close();
    }

    private static void assertCollectedAfterClose(Consumer<BufferPool> user, boolean jmx) throws Exception {
        List<WeakReference<BufferPool>> refs = new ArrayList<>();
        for (int i = 0; i < POOLS; i++) {
            BufferPool pool = BufferPool.builder().jmx(jmx).leakSampling(i % 3 == 0 ? 1 : 4096)
                    .useAfterReleaseSampling(i % 5 == 0 ? 1 : 0).build();
            user.accept(pool);
            pool.close();
            refs.add(new WeakReference<>(pool));
        }
        assertAllCollected(refs);
    }

    private static void use(BufferPool pool) {
        List<BufferLease> held = new ArrayList<>();
        for (int size : new int[] {64, 1000, 20_000, 2 << 20}) {
            BufferLease b = pool.acquire(size);
            b.byteBuffer().putInt(0, 1);
            b.segment().fill((byte) 1);
            held.add(b);
        }
        held.forEach(BufferLease::release);
        pool.acquire(128).release();
    }

    static <T> void assertAllCollected(List<WeakReference<T>> refs) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        long alive;
        do {
            System.gc();
            Thread.sleep(20);
            alive = refs.stream().filter(r -> r.get() != null).count();
        } while (alive > 0 && System.nanoTime() < deadline);
        assertThat(alive).as("pools still reachable after close and GC, of " + refs.size()).isZero();
    }
}
