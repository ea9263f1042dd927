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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.suite.Waits;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ResourceLeakDetector;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What offheap's allocator promises beyond Netty's tests: pool accounting, safety after release, budgets, leaks. */
class OffheapByteBufAllocatorContractTest {
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : toClose.reversed()) {
            c.close();
        }
    }

    private BufferPool pool(BufferPool.Builder builder) {
        BufferPool pool = builder.jmx(false).build();
        toClose.add(pool);
        return pool;
    }

    private BufferPool pool() {
        return pool(BufferPool.builder().name("netty-contract"));
    }

    private static OffheapDirectByteBuf raw(ByteBuf buf) {
        return (OffheapDirectByteBuf) (buf instanceof OffheapDirectByteBuf ? buf : buf.unwrap());
    }

    private static void fill(ByteBuf buf, int seed) {
        for (int i = 0; i < buf.capacity(); i++) {
            buf.setByte(i, seed + i * 31);
        }
    }

    private static void assertFilled(ByteBuf buf, int length, int seed) {
        for (int i = 0; i < length; i++) {
            if (buf.getByte(i) != (byte) (seed + i * 31)) {
                throw new AssertionError("byte " + i + " of " + buf + " is " + buf.getByte(i) + ", wrote "
                        + (byte) (seed + i * 31));
            }
        }
    }

    @Test
    void directBuffersAreExactLeasesOfThePool() {
        BufferPool pool = pool();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        ByteBuf buf = alloc.directBuffer(1024, 4096);
        assertThat(raw(buf)).isInstanceOf(OffheapDirectByteBuf.class);
        assertThat(buf.capacity()).isEqualTo(1024);
        assertThat(buf.maxCapacity()).isEqualTo(4096);
        assertThat(buf.isDirect()).isTrue();
        assertThat(buf.hasArray()).isFalse();
        assertThat(buf.hasMemoryAddress()).isTrue();
        assertThat(buf.nioBufferCount()).isEqualTo(1);
        assertThat(buf.isContiguous()).isTrue();
        assertThat(buf.alloc()).isSameAs(alloc);
        assertThat(pool.stats().leases()).isEqualTo(1);
        assertThat(pool.stats().bytesInUse()).isEqualTo(1024);
        assertThat(alloc.metric().usedDirectMemory()).isEqualTo(1024);
        assertThat(buf.release()).isTrue();
        assertThat(pool.stats().leases()).isZero();
        assertThat(alloc.metric().usedDirectMemory()).isZero();
    }

    @Test
    void bufferPrefersDirectAsConfigured() {
        BufferPool pool = pool();
        ByteBuf direct = new OffheapByteBufAllocator(pool).buffer(16);
        ByteBuf heap = new OffheapByteBufAllocator(pool, false).buffer(16);
        assertThat(direct.isDirect()).isTrue();
        assertThat(heap.isDirect()).isFalse();
        assertThat(heap.hasArray()).isTrue();
        direct.release();
        heap.release();
    }

    @Test
    void releaseOnAnotherThreadGivesTheLeaseBack() throws Exception {
        BufferPool pool = pool();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        ByteBuf buf = alloc.directBuffer(4096);
        fill(buf, 7);
        Thread releaser = Thread.ofPlatform().start(() -> {
            assertFilled(buf, 4096, 7);
            buf.release();
        });
        Waits.join(releaser);
        assertThat(buf.refCnt()).isZero();
        assertThat(pool.stats().leases()).isZero();
        assertThatThrownBy(() -> buf.getByte(0)).isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void capacityChangesGoThroughThePool() {
        BufferPool pool = pool();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        ByteBuf buf = alloc.directBuffer(1024);
        byte[] data = new byte[3000];
        new Random(1).nextBytes(data);
        buf.writeBytes(data); // ensureWritable: Netty's calculateNewCapacity makes it 4096
        assertThat(buf.capacity()).isEqualTo(4096);
        assertThat(pool.stats().leases()).isEqualTo(1);
        assertThat(pool.stats().bytesInUse()).isEqualTo(4096);
        assertThat(ByteBufUtil.getBytes(buf)).isEqualTo(data);

        buf.capacity(2048); // shrinks: the writer index is trimmed, the first 2048 bytes kept
        assertThat(buf.writerIndex()).isEqualTo(2048);
        assertThat(pool.stats().bytesInUse()).isEqualTo(2048);
        assertThat(ByteBufUtil.getBytes(buf)).isEqualTo(Arrays.copyOf(data, 2048));

        buf.capacity(2 << 20); // above the largest size class: a region of its own
        assertThat(pool.stats().bytesInUse()).isEqualTo(2 << 20);
        assertThat(ByteBufUtil.getBytes(buf)).isEqualTo(Arrays.copyOf(data, 2048));
        buf.release();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void useAfterReleaseThrowsAndNeverReachesTheSlotLentAgain() {
        BufferPool pool = pool(BufferPool.builder().name("netty-stale").useAfterReleaseSampling(0).leakSampling(0));
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        ByteBuf buf = alloc.directBuffer(1024, 1024);
        OffheapDirectByteBuf raw = raw(buf);
        ByteBuffer keptNio = buf.internalNioBuffer(0, 8);
        long address = buf.memoryAddress();
        buf.release();

        try (BufferLease other = pool.acquire(1024)) {
            MemorySegment slot = other.segment();
            assertThat(slot.address()).as("the same slot, lent again").isEqualTo(address);
            slot.fill((byte) 0x5A);

            byte[] bytes = new byte[16];
            List<Runnable> staleUses = List.of(
                    () -> buf.getByte(0), () -> buf.setByte(0, 1), () -> buf.getInt(0), () -> buf.setLong(0, 1),
                    () -> buf.getBytes(0, bytes), () -> buf.setBytes(0, bytes), () -> buf.writeInt(1),
                    () -> buf.readByte(), () -> buf.nioBuffer(), () -> buf.internalNioBuffer(0, 1),
                    () -> buf.memoryAddress(), () -> buf.capacity(2048), () -> buf.copy(), () -> buf.retain(),
                    () -> buf.release(), () -> buf.setZero(0, 16), () -> buf.ensureWritable(1));
            for (Runnable use : staleUses) {
                assertThatThrownBy(use::run).isInstanceOfAny(IllegalReferenceCountException.class,
                        IndexOutOfBoundsException.class);
            }
            // With Netty's own checks off (io.netty.buffer.checkAccessible/checkBounds=false) these are what
            // AbstractByteBuf calls: the empty segment still refuses them.
            assertThatThrownBy(() -> raw._setByte(0, 1)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> raw._getLong(0)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThat(keptNio.capacity()).as("a view handed out before release is the caller's risk").isEqualTo(1024);

            for (long i = 0; i < slot.byteSize(); i++) {
                assertThat(slot.get(ValueLayout.JAVA_BYTE, i)).as("byte %d of the slot lent again", i)
                        .isEqualTo((byte) 0x5A);
            }
        }
    }

    @Test
    void budgetRefusalThrowsAndLeavesNothingLeased() {
        MemoryBudget budget = MemoryBudget.root("netty-test", 256 * 1024);
        toClose.add(budget); // closed after the pool, which throws if anything is still charged
        BufferPool pool = pool(BufferPool.builder().name("netty-budget").budget(budget));
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);

        assertThatThrownBy(() -> alloc.directBuffer(512 * 1024)).isInstanceOf(BudgetExceededException.class)
                .hasMessageContaining("netty-budget");
        assertThat(pool.stats().leases()).isZero();
        assertThat(pool.stats().bytesInUse()).isZero();

        ByteBuf buf = alloc.directBuffer(1024);
        fill(buf, 3);
        assertThatThrownBy(() -> buf.capacity(1 << 20)).isInstanceOf(BudgetExceededException.class);
        assertThat(buf.capacity()).as("a refused growth leaves the buffer as it was").isEqualTo(1024);
        assertFilled(buf, 1024, 3);
        assertThat(pool.stats().leases()).isEqualTo(1);
        buf.release();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aSizeAboveThePoolsLargestLeaseIsRefusedClearly() {
        BufferPool pool = pool(BufferPool.builder().name("netty-small").maxLeaseSize(4096));
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        assertThatThrownBy(() -> alloc.directBuffer(8192)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxLeaseSize");
        ByteBuf buf = alloc.directBuffer(4096);
        buf.writerIndex(4096);
        assertThatThrownBy(() -> buf.writeByte(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxLeaseSize");
        assertThat(buf.capacity()).isEqualTo(4096);
        buf.release();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aBufferDroppedWithoutReleaseIsReportedByNettyAndByThePool() throws Exception {
        BufferPool pool = pool(BufferPool.builder().name("netty-leak").leakSampling(1));
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        ResourceLeakDetector.Level levelBefore = ResourceLeakDetector.getLevel();
        ConcurrentLinkedQueue<String> nettyLeaks = new ConcurrentLinkedQueue<>();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ByteBufUtil.setLeakListener((type, records) -> nettyLeaks.add(type));
        try (CapturedLog nettyLog = new CapturedLog(ResourceLeakDetector.class.getName());
             CapturedLog offheapLog = new CapturedLog("dev.offheap.buffer.leak")) {
            leakOne(alloc);
            for (int i = 0; i < 100 && (nettyLeaks.isEmpty() || pool.stats().leaks() == 0); i++) {
                System.gc();
                Thread.sleep(10);
                alloc.directBuffer(8).release(); // Netty looks for leaks when it tracks a new buffer
            }
            assertThat(nettyLeaks).as("Netty's ResourceLeakDetector").containsExactly("ByteBuf");
            assertThat(nettyLog.messages()).singleElement().asString().startsWith("LEAK: ByteBuf.release()");
            assertThat(pool.stats().leaks()).as("the pool's leak detector").isEqualTo(1);
            assertThat(offheapLog.messages()).singleElement().asString().startsWith("LEAK:");
            assertThat(pool.stats().leases()).as("the leaked lease went back to the pool").isZero();
        } finally {
            ByteBufUtil.setLeakListener(null);
            ResourceLeakDetector.setLevel(levelBefore);
        }
    }

    private static void leakOne(OffheapByteBufAllocator alloc) {
        ByteBuf leaked = alloc.directBuffer(4096);
        leaked.writeLong(42);
    }

    @Test
    @SuppressWarnings("deprecation") // ByteBuf.order(): the byte order is what this test is about
    void byteOrderIsNettys() {
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool());
        ByteBuf buf = alloc.directBuffer(16);
        assertThat(buf.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
        buf.setInt(0, 0x01020304);
        assertThat(buf.getByte(0)).isEqualTo((byte) 1);
        assertThat(buf.getInt(0)).isEqualTo(0x01020304);
        assertThat(buf.getIntLE(0)).isEqualTo(0x04030201);
        buf.setLongLE(8, 0x0102030405060708L);
        assertThat(buf.getByte(8)).isEqualTo((byte) 8);
        assertThat(buf.getLong(8)).isEqualTo(0x0807060504030201L);
        assertThat(buf.nioBuffer().order()).isEqualTo(ByteOrder.BIG_ENDIAN);
        assertThat(buf.nioBuffer(0, 4).getInt()).isEqualTo(0x01020304);
        assertThat(buf.internalNioBuffer(0, 4).order()).isEqualTo(ByteOrder.BIG_ENDIAN);
        assertThat(buf.order(ByteOrder.LITTLE_ENDIAN).getInt(0)).isEqualTo(0x04030201);
        buf.release();
    }

    @Test
    void copyIsANewBufferOfThisAllocator() {
        BufferPool pool = pool();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        ByteBuf buf = alloc.directBuffer(256);
        fill(buf, 11);
        ByteBuf copy = buf.copy(0, 256);
        assertThat(raw(copy)).isInstanceOf(OffheapDirectByteBuf.class);
        assertThat(copy.alloc()).isSameAs(alloc);
        assertFilled(copy, 256, 11);
        copy.setByte(0, 99);
        assertThat(buf.getByte(0)).isEqualTo((byte) 11);
        assertThat(pool.stats().leases()).isEqualTo(2);
        buf.release();
        copy.release();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void manyLiveBuffersKeepApart() {
        BufferPool pool = pool();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        Random random = new Random(42);
        List<ByteBuf> live = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            int size = i % 500 == 0 ? (1 << 20) + random.nextInt(1 << 20) : 1 + random.nextInt(70_000);
            ByteBuf buf = alloc.directBuffer(size);
            fill(buf, i);
            live.add(buf);
        }
        assertThat(pool.stats().leases()).isEqualTo(2000);
        for (int i = 0; i < live.size(); i++) {
            assertFilled(live.get(i), live.get(i).capacity(), i);
            live.get(i).release();
        }
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void fourThreadsAllocateHandOverAndReleaseWithoutMixingBytes() throws Exception {
        BufferPool pool = pool();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        BlockingQueue<ByteBuf> handOver = new ArrayBlockingQueue<>(64);
        ByteBuf poison = alloc.heapBuffer(0);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int perProducer = 5000;
        try (ExecutorService threads = Executors.newFixedThreadPool(4)) {
            List<Future<?>> work = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                int producer = p;
                work.add(threads.submit(() -> {
                    Random random = new Random(producer);
                    for (int i = 0; i < perProducer; i++) {
                        int seed = producer * 1_000_000 + i;
                        ByteBuf mine = alloc.directBuffer(1 + random.nextInt(9000)); // allocated, checked, released here
                        fill(mine, seed);
                        ByteBuf passed = alloc.directBuffer(8 + random.nextInt(9000)); // released by a consumer
                        passed.writeInt(seed);
                        passed.writerIndex(passed.capacity());
                        for (int j = 4; j < passed.capacity(); j++) {
                            passed.setByte(j, seed + j);
                        }
                        assertFilled(mine, mine.capacity(), seed);
                        mine.release();
                        handOver.put(passed);
                    }
                    handOver.put(poison);
                    return null;
                }));
                work.add(threads.submit(() -> {
                    for (ByteBuf buf; (buf = Waits.take(handOver, "handOver")) != poison; ) {
                        int seed = buf.readInt();
                        for (int j = 4; j < buf.capacity(); j++) {
                            if (buf.getByte(j) != (byte) (seed + j)) {
                                throw new AssertionError("byte " + j + " of buffer " + seed + " changed");
                            }
                        }
                        buf.release();
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                try {
                    f.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    failure.compareAndSet(null, e.getCause());
                }
            }
        }
        poison.release();
        assertThat(failure.get()).isNull();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void heapBuffersAreCountedUntilReleased() {
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool());
        ByteBuf heap = alloc.heapBuffer(1000);
        assertThat(heap.hasArray()).isTrue();
        assertThat(heap.alloc()).isSameAs(alloc);
        assertThat(alloc.metric().usedHeapMemory()).isEqualTo(1000);
        heap.capacity(5000);
        assertThat(alloc.metric().usedHeapMemory()).isEqualTo(5000);
        heap.release();
        assertThat(alloc.metric().usedHeapMemory()).isZero();
        assertThat(alloc.metric().usedDirectMemory()).isZero();
    }

    @Test
    void trimGivesIdleMemoryBackToTheOs() {
        BufferPool pool = pool();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        List<ByteBuf> bufs = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            bufs.add(alloc.directBuffer(16 * 1024));
        }
        bufs.forEach(ByteBuf::release);
        assertThat(pool.stats().bytesFromOs()).isPositive();
        alloc.trim();
        assertThat(pool.stats().bytesFromOs()).isZero();
    }

    /** A hundred 16 KiB buffers taken and released on each loop of {@code loops}, which keep them in their caches. */
    private static void burstOnEachLoop(OffheapByteBufAllocator alloc, DefaultEventLoopGroup loops) throws Exception {
        for (EventExecutor loop : loops) {
            loop.submit(() -> {
                List<ByteBuf> bufs = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    bufs.add(alloc.directBuffer(16 * 1024));
                }
                bufs.forEach(ByteBuf::release);
            }).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void trimOnAnEventLoopGroupEmptiesTheCachesOfItsIdleLoops() throws Exception {
        BufferPool pool = pool();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        DefaultEventLoopGroup loops = new DefaultEventLoopGroup(2);
        try {
            burstOnEachLoop(alloc, loops);
            alloc.trim();
            assertThat(pool.stats().threadCacheBytes())
                    .as("an idle loop keeps its cache through trim() from another thread").isPositive();

            alloc.trim(loops);

            assertThat(pool.stats().threadCacheBytes()).isZero();
            assertThat(pool.stats().bytesFromOs()).isZero();
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void idleLoopsGiveTheirCachesAndThePoolItsSlabsBackWithNoTrimCall() throws Exception {
        BufferPool pool = BufferPool.builder().name("netty-idle").jmx(false).idleReturn(Duration.ofMillis(20), 0)
                .build();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        DefaultEventLoopGroup loops = new DefaultEventLoopGroup(2);
        try {
            burstOnEachLoop(alloc, loops);
            assertThat(pool.stats().threadCacheBytes()).as("the loops' caches after the burst").isPositive();

            Waits.Stopwatch waited = new Waits.Stopwatch();
            while (pool.stats().bytesFromOs() > 0 && !waited.expired()) {
                Thread.sleep(10);
            }

            assertThat(pool.stats().threadCacheBytes()).isZero();
            assertThat(pool.stats().bytesFromOs()).as("bytes from the OS %s after the burst", Waits.LIMIT).isZero();
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            pool.close();
        }
    }

    @Test
    void trimOnTheGroupFromOneOfItsOwnLoopsDoesNotWaitForItself() throws Exception {
        BufferPool pool = pool();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        DefaultEventLoopGroup loops = new DefaultEventLoopGroup(2);
        try {
            loops.next().submit(() -> {
                alloc.directBuffer(1024).release();
                alloc.trim(loops);
            }).get(10, TimeUnit.SECONDS);
            assertThat(pool.stats().bytesFromOs()).isZero();
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void createOwnsItsPoolAndCloseClosesIt() {
        OffheapByteBufAllocator alloc = OffheapByteBufAllocator.create();
        BufferPool pool = alloc.pool();
        ByteBuf buf = alloc.directBuffer(100);
        buf.release();
        assertThat(alloc.toString()).contains("OffheapByteBufAllocator").contains(pool.name());
        alloc.close();
        assertThat(pool.isClosed()).isTrue();
        assertThatThrownBy(() -> alloc.directBuffer(100)).isInstanceOf(IllegalStateException.class);

        BufferPool mine = pool();
        new OffheapByteBufAllocator(mine).close();
        assertThat(mine.isClosed()).as("a pool passed in belongs to its caller").isFalse();
    }
}
