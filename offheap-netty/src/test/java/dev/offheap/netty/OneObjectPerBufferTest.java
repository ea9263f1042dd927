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
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ResourceLeakDetector;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
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
    void aBufferOnNettysSocketPathCostsOneObjectBesideThePoolsLease() {
        OffheapByteBufAllocator alloc = allocator(BufferPool.builder().name("one-object"));
        ResourceLeakDetector.Level levelBefore = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED); // its samples allocate records
        try {
            double lease = HeapBytes.perRound(() -> alloc.pool().acquire(1024).release());
            double buffer = HeapBytes.perRound(() -> {
                ByteBuf buf = alloc.directBuffer(1024);
                buf.writeByte(1);
                ByteBuffer nio = buf.internalNioBuffer(0, 1024); // a socket read or write takes it once
                if (nio.remaining() != 1024) {
                    throw new AssertionError(nio);
                }
                buf.release();
            });
            // The ByteBuf itself is 56 B with compressed oops; before: 56 + Netty's RefCnt 16 + a DirectByteBuffer
            // for internalNioBuffer.
            assertThat(buffer - lease).as("bytes per buffer beside the pool's lease handle (%.1f B)", lease)
                    .isLessThan(64);
        } finally {
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
