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

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The contract of {@link BufferLease}, for every kind of lease a pool hands out. */
class BufferLeaseTest {

    /** Pool settings and the sizes asked for (dedicated leases add 1 MiB to every size). */
    enum Kind {
        POOLED(() -> BufferPool.builder().leakSampling(0).build(), size -> size),
        CHECKED(() -> BufferPool.builder().leakSampling(0).checked(true).build(), size -> size),
        TRACKED(() -> BufferPool.builder().leakSampling(1).build(), size -> size),
        UNCACHED(() -> BufferPool.builder().leakSampling(0).threadCaches(0).build(), size -> size),
        DEDICATED(() -> BufferPool.builder().leakSampling(0).build(), size -> (1 << 20) + 1 + size),
        CHECKED_DEDICATED(() -> BufferPool.builder().leakSampling(0).checked(true).build(),
                size -> (1 << 20) + 1 + size);

        final Supplier<BufferPool> pools;
        final IntUnaryOperator sizes;

        Kind(Supplier<BufferPool> pools, IntUnaryOperator sizes) {
            this.pools = pools;
            this.sizes = sizes;
        }
    }

    private static final int[] SIZES = {0, 1, 7, 8, 63, 64, 65, 1000, 4096, 65_536, 100_000, 1 << 20};

    private BufferPool pool;

    private BufferPool pool(Kind kind) {
        pool = kind.pools.get();
        return pool;
    }

    @AfterEach
    void closePool() {
        if (pool != null) {
            assertThat(pool.stats().leases()).as("every lease of the test was released").isZero();
            pool.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void segmentHasExactlyTheSizeAskedFor(Kind kind) {
        BufferPool pool = pool(kind);
        for (int base : SIZES) {
            int size = kind.sizes.applyAsInt(base);
            try (BufferLease buffer = pool.acquire(size)) {
                assertThat(buffer.size()).isEqualTo(size);
                assertThat(buffer.segment().byteSize()).isEqualTo(size);
                assertThat(buffer.segment().address() % 16).as("16-byte aligned").isZero();
                assertThat(buffer.segment().isReadOnly()).isFalse();
                assertThat(buffer.segment().isNative()).isTrue();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void byteBufferStartsAtZeroWithLimitAndCapacitySizeBigEndianLikeAllocateDirect(Kind kind) {
        BufferPool pool = pool(kind);
        for (int base : SIZES) {
            int size = kind.sizes.applyAsInt(base);
            try (BufferLease buffer = pool.acquire(size)) {
                ByteBuffer bb = buffer.byteBuffer();
                assertThat(bb.position()).isZero();
                assertThat(bb.limit()).isEqualTo(size);
                assertThat(bb.capacity()).isEqualTo(size);
                assertThat(bb.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
                assertThat(bb.isDirect()).isTrue();
                assertThat(bb.isReadOnly()).isFalse();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void segmentAndByteBufferAreTheSameMemory(Kind kind) {
        BufferPool pool = pool(kind);
        for (int base : SIZES) {
            int size = kind.sizes.applyAsInt(base);
            try (BufferLease buffer = pool.acquire(size)) {
                MemorySegment segment = buffer.segment();
                ByteBuffer bb = buffer.byteBuffer();
                assertThat(MemorySegment.ofBuffer(bb).address()).isEqualTo(segment.address());
                for (int i = 0; i < size; i += Math.max(1, size / 97)) {
                    segment.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
                    assertThat(bb.get(i)).isEqualTo((byte) (i * 7 + 1));
                    bb.put(i, (byte) (i * 13 + 5));
                    assertThat(segment.get(ValueLayout.JAVA_BYTE, i)).isEqualTo((byte) (i * 13 + 5));
                }
                if (size >= 8) {
                    bb.putLong(size - 8, 0x0102_0304_0506_0708L);
                    assertThat(segment.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), size - 8))
                            .as("same value, big-endian").isEqualTo(0x0102_0304_0506_0708L);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void wholeLeaseIsWritableAndKeepsWhatWasWritten(Kind kind) {
        BufferPool pool = pool(kind);
        for (int base : SIZES) {
            int size = kind.sizes.applyAsInt(base);
            try (BufferLease buffer = pool.acquire(size)) {
                Patterns.fill(buffer.segment(), size);
                Patterns.verify(buffer.segment(), size);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void byteBufferIsTheSameObjectWithinALeaseAsTheCallerLeftIt(Kind kind) {
        BufferPool pool = pool(kind);
        try (BufferLease buffer = pool.acquire(kind.sizes.applyAsInt(1000))) {
            ByteBuffer first = buffer.byteBuffer();
            first.position(10).limit(100);
            ByteBuffer second = buffer.byteBuffer();
            assertThat(second).isSameAs(first);
            assertThat(second.position()).isEqualTo(10);
            assertThat(second.limit()).isEqualTo(100);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void aNewLeaseRewindsTheByteBuffer(Kind kind) {
        BufferPool pool = pool(kind);
        int size = kind.sizes.applyAsInt(1000);
        for (int round = 0; round < 3; round++) {
            try (BufferLease buffer = pool.acquire(size)) {
                ByteBuffer bb = buffer.byteBuffer();
                assertThat(bb.position()).as("round %d position", round).isZero();
                assertThat(bb.limit()).as("round %d limit", round).isEqualTo(size);
                assertThat(bb.capacity()).isEqualTo(size);
                bb.position(17).mark().position(40).limit(333);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void aNewLeaseIsBigEndianEvenIfThePreviousLeaseChangedItsOrder(Kind kind) {
        BufferPool pool = pool(kind);
        int size = kind.sizes.applyAsInt(1000);
        ByteOrder foreign = ByteOrder.LITTLE_ENDIAN;
        try (BufferLease first = pool.acquire(size)) {
            first.byteBuffer().order(foreign);
        }
        try (BufferLease second = pool.acquire(size)) {
            assertThat(second.byteBuffer().order())
                    .as("byteBuffer() of a new lease is big-endian (BufferLease#byteBuffer)")
                    .isEqualTo(ByteOrder.BIG_ENDIAN);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void leasesOfDifferentSizesOnTheSameSlotGetViewsOfTheirOwnSize(Kind kind) {
        BufferPool pool = pool(kind);
        // 100, 112 and 97 bytes share the 112-byte class, so they may reuse one slot one after the other
        for (int base : new int[] {100, 112, 97, 112, 100}) {
            int size = kind.sizes.applyAsInt(base);
            try (BufferLease buffer = pool.acquire(size)) {
                assertThat(buffer.segment().byteSize()).isEqualTo(size);
                assertThat(buffer.byteBuffer().capacity()).isEqualTo(size);
                assertThat(buffer.byteBuffer().limit()).isEqualTo(size);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void retainAndReleaseCountReferences(Kind kind) {
        BufferPool pool = pool(kind);
        BufferLease buffer = pool.acquire(kind.sizes.applyAsInt(256));
        assertThat(buffer.refCount()).isEqualTo(1);
        assertThat(buffer.retain()).isSameAs(buffer);
        assertThat(buffer.refCount()).isEqualTo(2);
        buffer.retain();
        assertThat(buffer.refCount()).isEqualTo(3);

        assertThat(buffer.release()).isFalse();
        assertThat(buffer.refCount()).isEqualTo(2);
        assertThat(buffer.release()).isFalse();
        assertThat(buffer.refCount()).isEqualTo(1);
        assertThat(pool.stats().leases()).as("still leased while a reference is held").isEqualTo(1);
        buffer.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) 1);

        assertThat(buffer.release()).as("the last release").isTrue();
        assertThat(buffer.refCount()).isZero();
        assertThat(pool.stats().leases()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void closeIsOneRelease(Kind kind) {
        BufferPool pool = pool(kind);
        BufferLease buffer = pool.acquire(kind.sizes.applyAsInt(256));
        buffer.retain();
        buffer.close();
        assertThat(buffer.refCount()).isEqualTo(1);
        assertThat(pool.stats().leases()).isEqualTo(1);
        buffer.close();
        assertThat(buffer.refCount()).isZero();
        assertThat(pool.stats().leases()).isZero();
        assertThatThrownBy(buffer::close).as("close after the last release is a double release")
                .isInstanceOf(IllegalStateException.class);

        try (BufferLease scoped = pool.acquire(kind.sizes.applyAsInt(256))) {
            assertThat(scoped.refCount()).isEqualTo(1);
            assertThat(pool.stats().leases()).isEqualTo(1);
        }
        assertThat(pool.stats().leases()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void sizeZeroWorks(Kind kind) {
        BufferPool pool = pool(kind);
        int size = kind.sizes.applyAsInt(0);
        BufferLease buffer = pool.acquire(size);
        assertThat(buffer.size()).isEqualTo(size);
        assertThat(buffer.segment().byteSize()).isEqualTo(size);
        assertThat(buffer.byteBuffer().capacity()).isEqualTo(size);
        assertThat(buffer.byteBuffer().remaining()).isEqualTo(size);
        assertThat(buffer.retain().release()).isFalse();
        assertThat(buffer.release()).isTrue();
        assertThat(buffer.refCount()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void sizeThrowsAfterReleaseNamingThePoolAndTheSize(Kind kind) {
        BufferPool pool = pool(kind);
        int size = kind.sizes.applyAsInt(300);
        BufferLease buffer = pool.acquire(size);
        buffer.release();
        assertThatThrownBy(buffer::size).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(size + " bytes").hasMessageContaining("'" + pool.name() + "'");
        assertThat(buffer.refCount()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void liveLeasesNeverShareMemory(Kind kind) {
        BufferPool pool = pool(kind);
        BufferLease[] buffers = IntStream.range(0, 40)
                .mapToObj(i -> pool.acquire(kind.sizes.applyAsInt(i % 2 == 0 ? 100 : 4000)))
                .toArray(BufferLease[]::new);
        for (int i = 0; i < buffers.length; i++) {
            Patterns.fill(buffers[i].segment(), i);
        }
        for (int i = 0; i < buffers.length; i++) {
            Patterns.verify(buffers[i].segment(), i);
            for (int j = i + 1; j < buffers.length; j++) {
                assertThat(buffers[i].segment().asOverlappingSlice(buffers[j].segment())).isEmpty();
            }
        }
        for (BufferLease b : buffers) {
            assertThat(b.release()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void aLeaseCanBeUsedAndReleasedByAnotherThread(Kind kind) throws Exception {
        BufferPool pool = pool(kind);
        int size = kind.sizes.applyAsInt(2048);
        BufferLease buffer = pool.acquire(size);
        Patterns.fill(buffer.segment(), 99);
        Throwable[] failure = new Throwable[1];
        Thread other = Thread.ofPlatform().start(() -> {
            try {
                Patterns.verify(buffer.segment(), 99);
                assertThat(buffer.release()).isTrue();
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        other.join();
        assertThat(failure[0]).isNull();
        assertThat(buffer.refCount()).isZero();
        assertThat(pool.stats().leases()).isZero();
    }
}
