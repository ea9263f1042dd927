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
package dev.offheap.netty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.buffer.BufferPool;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which threads lease through a thread cache: Netty's event loops (FastThreadLocalThreads), which give their
 * cache back when idle, and by default no other thread, as Netty's pooled allocator: an executor's threads
 * (gRPC's, a worker pool's) would keep a cache for as long as they live, idle or not.
 */
class ThreadCachesTest {
    private final List<BufferPool> pools = new ArrayList<>();

    @AfterEach
    void closePools() {
        pools.forEach(BufferPool::close);
    }

    private BufferPool pool(String name) {
        BufferPool pool = BufferPool.builder().name(name).jmx(false).build();
        pools.add(pool);
        return pool;
    }

    private static void burst(OffheapByteBufAllocator alloc) {
        List<ByteBuf> held = new ArrayList<>();
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 64; i++) {
                held.add(alloc.directBuffer(512 + 1024 * (i % 8)));
            }
            held.forEach(ByteBuf::release);
            held.clear();
        }
    }

    @Test
    void liveIdleExecutorThreadsKeepNothingThatTrimCannotGiveBack() throws Exception {
        BufferPool pool = pool("netty-executor-threads");
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        CountDownLatch burstDone = new CountDownLatch(3);
        CountDownLatch end = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(3);
        try {
            for (int t = 0; t < 3; t++) {
                executor.submit(() -> {
                    burst(alloc);
                    burstDone.countDown();
                    end.await(); // alive and idle, as an executor's threads are between bursts
                    return null;
                });
            }
            burstDone.await();
            assertThat(pool.stats().threadCaches()).as("threads holding a cache").isZero();
            assertThat(pool.stats().leases()).isZero();
            pool.trim();
            assertThat(pool.stats().bytesFromOs()).as("all given back while the executor's threads live").isZero();
        } finally {
            end.countDown();
            executor.shutdown();
        }
    }

    @Test
    void anEventLoopThreadLeasesThroughItsCache() throws Exception {
        BufferPool pool = pool("netty-event-loop-thread");
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        Thread loop = new FastThreadLocalThread(() -> burst(alloc), "event-loop-like");
        loop.start();
        loop.join();
        assertThat(pool.stats().threadCaches()).isEqualTo(1);
    }

    @Test
    void cacheForAllThreadsGivesEveryThreadACache() throws Exception {
        BufferPool pool = pool("netty-cache-for-all");
        OffheapByteBufAllocator alloc = OffheapByteBufAllocator.builder(pool).cacheForAllThreads(true).build();
        Thread plain = new Thread(() -> burst(alloc), "plain");
        plain.start();
        plain.join();
        assertThat(pool.stats().threadCaches()).isEqualTo(1);
    }
}
