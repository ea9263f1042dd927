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

import dev.offheap.buffer.BufferPool;
import dev.offheap.suite.HeapBytes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ResourceLeakDetector;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One object per buffer (issue 27): the {@code ByteBuf} counts its references itself (no Netty {@code RefCnt}
 * beside it) and the NIO view Netty's socket paths take costs no object once its slot's view exists; and with
 * that, a stale {@code ByteBuf} still never reaches the buffer that gets its memory next.
 */
class OneObjectPerBufferTest {
    private final List<BufferPool> pools = new ArrayList<>();

    @AfterEach
    void closePools() {
        pools.forEach(BufferPool::close);
    }

    /** A pool that samples nothing, so that every lease is the plain kind whose size the tests know. */
    private OffheapByteBufAllocator allocator(BufferPool.Builder builder) {
        BufferPool pool = builder.jmx(false).leakSampling(0).useAfterReleaseSampling(0).build();
        pools.add(pool);
        return new OffheapByteBufAllocator(pool);
    }

    @Test
    void aBufferOnNettysSocketPathIsOneObject() {
        OffheapByteBufAllocator alloc = allocator(BufferPool.builder().name("one-object"));
        ResourceLeakDetector.Level levelBefore = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED); // its samples allocate records
        try {
            double buffer = HeapBytes.perRound(() -> socketPathCycle(alloc, 1024));
            // The ByteBuf is 56 B with compressed oops and the lease a token in it; before issue 27: the ByteBuf,
            // Netty's RefCnt (16 B), the pool's lease handle (40 B) and a DirectByteBuffer for internalNioBuffer.
            // The reading itself allocates a few KB once, spread over the rounds: under a byte each.
            assertThat(buffer).as("heap bytes per buffer").isLessThan(57);
        } finally {
            ResourceLeakDetector.setLevel(levelBefore);
        }
    }

    @Test
    void aRecyclingAllocatorMakesNoGarbagePerBuffer() {
        OffheapByteBufAllocator alloc = recyclingAllocator("recycling-garbage");
        ResourceLeakDetector.Level levelBefore = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try {
            socketPathCycle(alloc, 1024); // the slot's buffer object, made once
            assertThat(HeapBytes.perRound(() -> socketPathCycle(alloc, 1024))).as("heap bytes per buffer")
                    .isLessThan(1.0);
        } finally {
            ResourceLeakDetector.setLevel(levelBefore);
        }
    }

    /** One buffer as Netty's socket paths use it: allocate, write, take the NIO view once, release. */
    private static void socketPathCycle(OffheapByteBufAllocator alloc, int size) {
        ByteBuf buf = alloc.directBuffer(size);
        buf.writeByte(1);
        ByteBuffer nio = buf.internalNioBuffer(0, size); // a socket read or write takes it once
        if (nio.remaining() != size) {
            throw new AssertionError(nio);
        }
        buf.release();
    }

    private OffheapByteBufAllocator recyclingAllocator(String name) {
        BufferPool pool = BufferPool.builder().name(name).jmx(false).leakSampling(0).useAfterReleaseSampling(0)
                .build();
        pools.add(pool);
        return OffheapByteBufAllocator.builder(pool).recycleBuffers(true).build();
    }

    @Test
    void aRecycledBufferThrowsUntilItIsHandedOutAgainAsNew() {
        OffheapByteBufAllocator alloc = recyclingAllocator("recycling-stale");
        assertThat(alloc.recycles()).isTrue();
        ByteBuf first = alloc.directBuffer(1024, 4096);
        first.writeLong(7).markReaderIndex().readByte();
        first.release();
        assertThatThrownBy(() -> first.getByte(0)).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(first::release).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(first.refCnt()).isZero();

        ByteBuf again = alloc.directBuffer(1000, 2000);
        assertThat(again).as("the slot's next lease hands the parked buffer out again").isSameAs(first);
        assertThat(again.refCnt()).isEqualTo(1);
        assertThat(again.capacity()).isEqualTo(1000);
        assertThat(again.maxCapacity()).isEqualTo(2000);
        assertThat(again.readerIndex()).isZero();
        assertThat(again.writerIndex()).isZero();
        again.writerIndex(8).resetReaderIndex();
        assertThat(again.readerIndex()).as("no mark of the earlier lease").isZero();
        assertThat(alloc.pool().stats().leases()).isEqualTo(1);
        again.release();
        assertThat(alloc.pool().stats().leases()).isZero();
    }

    @Test
    void aRecycledBufferMovedByCapacityIsNeverHandedOutTwice() {
        OffheapByteBufAllocator alloc = recyclingAllocator("recycling-capacity");
        ByteBuf a = alloc.directBuffer(1024);
        a.release();
        ByteBuf b = alloc.directBuffer(1024); // a again, unparked from its slot
        assertThat(b).isSameAs(a);
        b.capacity(4096); // moves to a slot of another class; the old slot has no buffer parked
        ByteBuf c = alloc.directBuffer(1024);
        assertThat(c).as("b is in use: not handed out with its old slot").isNotSameAs(b);
        c.release();
        b.release();
        ByteBuf d = alloc.directBuffer(4096);
        assertThat(d).as("parked with the slot it was released from").isSameAs(b);
        assertThat(d.capacity()).isEqualTo(4096);
        d.release();
        assertThat(alloc.pool().stats().leases()).isZero();
    }

    @Test
    void twoAllocatorsOnOnePoolNeverHandOutEachOthersBuffers() {
        BufferPool pool = BufferPool.builder().name("recycling-shared").jmx(false).leakSampling(0)
                .useAfterReleaseSampling(0).build();
        pools.add(pool);
        OffheapByteBufAllocator recycling = OffheapByteBufAllocator.builder(pool).recycleBuffers(true).build();
        OffheapByteBufAllocator plain = new OffheapByteBufAllocator(pool);
        ByteBuf parked = recycling.directBuffer(512);
        parked.release();
        ByteBuf fresh = plain.directBuffer(512);
        assertThat(fresh).isNotSameAs(parked);
        assertThat(fresh.alloc()).isSameAs(plain);
        fresh.release();
        ByteBuf again = recycling.directBuffer(512);
        assertThat(again.alloc()).isSameAs(recycling);
        again.release();
    }

    @Test
    void aRecycledBufferLostUnreleasedIsStillFoundByNettysLeakDetector() throws Exception {
        OffheapByteBufAllocator alloc = recyclingAllocator("recycling-leak");
        ResourceLeakDetector.Level levelBefore = ResourceLeakDetector.getLevel();
        ConcurrentLinkedQueue<String> nettyLeaks = new ConcurrentLinkedQueue<>();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ByteBufUtil.setLeakListener((type, records) -> nettyLeaks.add(type));
        try (CapturedLog nettyLog = new CapturedLog(ResourceLeakDetector.class.getName())) {
            alloc.directBuffer(2048).release(); // parked with its slot
            alloc.directBuffer(2048).writeLong(42); // the parked buffer, handed out again and lost
            for (int i = 0; i < 100 && nettyLeaks.isEmpty(); i++) {
                System.gc();
                Thread.sleep(10);
                alloc.directBuffer(8).release(); // Netty looks for leaks when it tracks a new buffer
            }
            assertThat(nettyLeaks).as("Netty's ResourceLeakDetector (waited up to 100 GCs)").containsExactly("ByteBuf");
        } finally {
            ByteBufUtil.setLeakListener(null);
            ResourceLeakDetector.setLevel(levelBefore);
        }
    }

    @Test
    void aStaleByteBufNeverReachesTheBufferLentItsMemoryNext() {
        OffheapByteBufAllocator alloc = allocator(BufferPool.builder().name("stale-bytebuf"));
        ByteBuf stale = alloc.directBuffer(1024, 1024);
        long address = stale.memoryAddress();
        ByteBuffer staleNio = stale.internalNioBuffer(0, 1024);
        assertThat(stale.release()).isTrue();
        staleNio.order(ByteOrder.LITTLE_ENDIAN).position(100).limit(200); // kept past release by mistake

        ByteBuf next = alloc.directBuffer(1024, 1024);
        assertThat(next.memoryAddress()).as("the same slot, lent again").isEqualTo(address);
        next.setZero(0, 1024);
        next.writerIndex(1024);

        byte[] bytes = {1, 2, 3, 4, 5, 6, 7, 8};
        List<Runnable> staleUses = List.of(
                () -> stale.getByte(0), () -> stale.setByte(0, 9), () -> stale.setLong(8, -1),
                () -> stale.setBytes(0, bytes), () -> stale.writeBytes(bytes), () -> stale.getBytes(0, bytes),
                () -> stale.internalNioBuffer(0, 8), () -> stale.nioBuffer(0, 8), () -> stale.memoryAddress(),
                () -> stale.capacity(2048), () -> stale.setZero(0, 8), () -> stale.touch().retain(),
                () -> stale.retain(3), () -> stale.release(), () -> stale.release(2));
        for (Runnable use : staleUses) {
            assertThatThrownBy(use::run).isInstanceOfAny(IllegalReferenceCountException.class,
                    IndexOutOfBoundsException.class);
        }
        assertThat(stale.refCnt()).as("a stale buffer stays released").isZero();
        assertThat(next.refCnt()).isEqualTo(1);
        assertThat(alloc.pool().stats().leases()).as("the next buffer keeps its lease").isEqualTo(1);
        for (int i = 0; i < 1024; i++) {
            assertThat(next.getByte(i)).as("byte %d of the next buffer", i).isZero();
        }
        ByteBuffer nio = next.internalNioBuffer(0, 1024);
        assertThat(nio.position()).isZero();
        assertThat(nio.limit()).isEqualTo(1024);
        assertThat(nio.order()).as("the view of the next buffer is as new").isEqualTo(ByteOrder.BIG_ENDIAN);
        assertThat(next.release()).isTrue();
        assertThat(alloc.pool().stats().leases()).isZero();
    }

    @Test
    void inACheckedPoolTheSocketPathsViewDiesWithItsBuffer() {
        OffheapByteBufAllocator alloc = allocator(BufferPool.builder().name("checked-nio").checked(true));
        ByteBuf first = alloc.directBuffer(512, 512);
        ByteBuffer kept = first.internalNioBuffer(0, 512);
        first.release();
        assertThatThrownBy(() -> kept.put(0, (byte) 1)).isInstanceOf(IllegalStateException.class);

        ByteBuf second = alloc.directBuffer(512, 512);
        ByteBuffer nio = second.internalNioBuffer(0, 512);
        assertThat(nio).isNotSameAs(kept);
        nio.put(0, (byte) 7);
        assertThat(second.getByte(0)).isEqualTo((byte) 7);
        second.release();
    }

    @Test
    void racingRetainsAndReleasesGiveTheLeaseBackExactlyOnce() throws Exception {
        OffheapByteBufAllocator alloc = allocator(BufferPool.builder().name("racing-refcnt"));
        int threads = 4;
        int rounds = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int trial = 0; trial < 20; trial++) {
                ByteBuf buf = alloc.directBuffer(256);
                buf.retain(threads);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < rounds; i++) {
                            buf.retain();
                            buf.setByte(i & 255, i);
                            buf.release();
                        }
                        return buf.release(); // each thread drops the reference it was given
                    }));
                }
                start.countDown();
                for (Future<?> f : done) {
                    assertThat(f.get()).isEqualTo(false);
                }
                assertThat(buf.refCnt()).isEqualTo(1);
                assertThat(alloc.pool().stats().leases()).isEqualTo(1);
                assertThat(buf.release()).isTrue();
                assertThat(alloc.pool().stats().leases()).isZero();
                assertThatThrownBy(buf::release).isInstanceOf(IllegalReferenceCountException.class)
                        .hasMessage("refCnt: 0, decrement: 1");
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
