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

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.account.MemoryInUseException;
import dev.offheap.suite.HeapBytes;
import dev.offheap.suite.HeldByIo;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Leases without a handle: a long token per lease, refused once released, never taken for a later lease. */
class LeaseTokensTest {
    private static final long TIMEOUT_NANOS = 10_000_000_000L;
    private final List<BufferPool> pools = new ArrayList<>();

    @AfterEach
    void closePools() {
        pools.forEach(BufferPool::close);
    }

    private BufferPool pool(BufferPool.Builder builder) {
        BufferPool pool = builder.build();
        pools.add(pool);
        return pool;
    }

    private BufferPool plainPool(String name) {
        return pool(PoolMode.DEFAULT.builder(name).leakSampling(0).useAfterReleaseSampling(0));
    }

    @Test
    void aTokenLeasesExactlyTheSizeAskedForUntilItsRelease() {
        BufferPool pool = plainPool("tokens-basic");
        LeaseTokens tokens = pool.tokens();
        assertThat(tokens.pool()).isSameAs(pool);
        long token = tokens.acquire(1000);
        MemorySegment memory = tokens.segment(token);
        assertThat(memory.byteSize()).isEqualTo(1000);
        assertThat(tokens.segment(token)).as("one segment per lease").isSameAs(memory);
        memory.set(ValueLayout.JAVA_LONG_UNALIGNED, 992, 42L);
        assertThat(pool.stats().leases()).isEqualTo(1);
        assertThat(pool.stats().bytesInUse()).isPositive();

        ByteBuffer view = tokens.byteBuffer(token);
        assertThat(view.position()).isZero();
        assertThat(view.limit()).isEqualTo(1000);
        assertThat(view.capacity()).isEqualTo(1000);
        assertThat(view.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
        assertThat(view.getLong(992)).isEqualTo(Long.reverseBytes(42L));
        view.position(10).limit(20).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer again = tokens.byteBuffer(token);
        assertThat(again).as("the slot's buffer, set as new").isSameAs(view);
        assertThat(again.position()).isZero();
        assertThat(again.limit()).isEqualTo(1000);
        assertThat(again.order()).isEqualTo(ByteOrder.BIG_ENDIAN);

        tokens.release(token);
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aByteBufferOfATokenIsInThePoolsByteOrder() {
        BufferPool pool = pool(PoolMode.DEFAULT.builder("tokens-native").byteOrder(ByteOrder.nativeOrder()));
        long token = pool.tokens().acquire(64);
        assertThat(pool.tokens().byteBuffer(token).order()).isEqualTo(ByteOrder.nativeOrder());
        pool.tokens().release(token);
    }

    @Test
    void aReleasedTokenIsRefusedAndNeverEndsTheNextLeaseOfItsSlot() {
        BufferPool pool = plainPool("tokens-stale");
        LeaseTokens tokens = pool.tokens();
        long stale = tokens.acquire(512);
        long address = tokens.segment(stale).address();
        tokens.release(stale);

        long next = tokens.acquire(512);
        assertThat(tokens.segment(next).address()).as("the same slot, lent again").isEqualTo(address);
        assertThat(next).isNotEqualTo(stale);
        List<LongConsumer> staleUses = List.of(tokens::release, tokens::segment, tokens::byteBuffer,
                tokens::attachment, t -> tokens.attach(t, "x"), t -> tokens.releaseWhenFree(t),
                t -> tokens.releaseWhenUnreachable(t, new Object()));
        for (LongConsumer use : staleUses) {
            assertThatThrownBy(() -> use.accept(stale)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("of buffer pool 'tokens-stale': it was already released");
        }
        assertThat(pool.stats().leases()).as("the next lease keeps its slot").isEqualTo(1);
        long other = tokens.acquire(512);
        assertThat(tokens.segment(other).address()).as("no slot is lent twice").isNotEqualTo(address);
        tokens.release(other);
        tokens.release(next);
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aTokenOfAnotherPoolIsRefused() {
        BufferPool a = plainPool("tokens-a");
        BufferPool b = plainPool("tokens-b");
        long ofA = a.tokens().acquire(256);
        long ofB = b.tokens().acquire(256);
        assertThatThrownBy(() -> b.tokens().release(ofA)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("or it is not a token of this pool");
        assertThat(b.stats().leases()).isEqualTo(1);
        a.tokens().release(ofA);
        b.tokens().release(ofB);
    }

    @Test
    void aTokenAndAHandleShareTheSlotsOfAPoolWithoutEverCrossing() {
        BufferPool pool = plainPool("tokens-and-handles");
        long token = pool.tokens().acquire(100);
        long address = pool.tokens().segment(token).address();
        pool.tokens().release(token);
        BufferLease handle = pool.acquire(100);
        assertThat(handle.segment().address()).as("the handle took the token's slot").isEqualTo(address);
        ByteBuffer view = handle.byteBuffer();
        assertThat(view.position()).isZero();
        assertThat(view.limit()).isEqualTo(100);
        assertThatThrownBy(() -> pool.tokens().release(token)).isInstanceOf(IllegalStateException.class);
        assertThat(handle.refCount()).isEqualTo(1);
        handle.release();
        long again = pool.tokens().acquire(100);
        assertThat(pool.tokens().segment(again).address()).isEqualTo(address);
        assertThatThrownBy(() -> pool.tokens().release(token)).isInstanceOf(IllegalStateException.class);
        pool.tokens().release(again);
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aTokenOfASlabGivenBackIsRefusedByTheSlabThatTakesItsPlace() {
        BufferPool pool = plainPool("tokens-slab-reuse");
        LeaseTokens tokens = pool.tokens();
        long first = tokens.acquire(4096);
        tokens.release(first);
        assertThat(pool.trim()).as("the slab went back").isPositive();
        long second = tokens.acquire(4096);
        assertThat((int) second).as("a new slot of the same id, past the last generation").isNotEqualTo((int) first);
        assertThatThrownBy(() -> tokens.release(first)).isInstanceOf(IllegalStateException.class);
        assertThat(pool.stats().leases()).isEqualTo(1);
        tokens.release(second);
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void racingReleasesOfOneTokenGiveItsSlotBackExactlyOnce() throws Exception {
        BufferPool pool = plainPool("tokens-racing");
        LeaseTokens tokens = pool.tokens();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            for (int trial = 0; trial < 200; trial++) {
                long token = tokens.acquire(128);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Boolean>> done = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    done.add(threads.submit(() -> {
                        start.await();
                        try {
                            tokens.release(token);
                            return true;
                        } catch (IllegalStateException refused) {
                            return false;
                        }
                    }));
                }
                start.countDown();
                int released = 0;
                for (Future<Boolean> f : done) {
                    released += f.get() ? 1 : 0;
                }
                assertThat(released).as("trial %d: releases that took", trial).isEqualTo(1);
            }
            assertThat(pool.stats().leases()).isZero();
            Set<Long> addresses = new HashSet<>();
            List<Long> held = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                long token = tokens.acquire(128);
                held.add(token);
                assertThat(addresses.add(tokens.segment(token).address())).as("lease %d has a slot of its own", i)
                        .isTrue();
            }
            held.forEach(tokens::release);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aCommonTokenCostsNoObject() {
        BufferPool pool = plainPool("tokens-garbage");
        LeaseTokens tokens = pool.tokens();
        double bytes = HeapBytes.perRound(() -> {
            long token = tokens.acquire(1024);
            tokens.segment(token).set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
            tokens.byteBuffer(token).put(1, (byte) 2);
            tokens.release(token);
        });
        assertThat(bytes).as("heap bytes per token lease").isLessThan(1.0);
    }

    @Test
    void anAttachmentStaysWithTheSlotFromOneLeaseToTheNext() {
        BufferPool pool = plainPool("tokens-attach");
        LeaseTokens tokens = pool.tokens();
        long first = tokens.acquire(300);
        assertThat(tokens.attachment(first)).isNull();
        Object shell = new Object();
        tokens.attach(first, shell);
        tokens.release(first);
        long second = tokens.acquire(300);
        assertThat(tokens.attachment(second)).as("the same slot, the same attachment").isSameAs(shell);
        tokens.attach(second, null);
        tokens.release(second);
        long third = tokens.acquire(300);
        assertThat(tokens.attachment(third)).isNull();
        tokens.release(third);
    }

    @ParameterizedTest
    @EnumSource(value = PoolMode.class, names = {"CHECKED", "USE_AFTER_RELEASE_SAMPLED"})
    void aTokenWithViewsOfItsOwnHasThemDieAtItsRelease(PoolMode mode) {
        BufferPool pool = pool(mode.builder("tokens-own-views-" + mode));
        LeaseTokens tokens = pool.tokens();
        long token = tokens.acquire(2048);
        MemorySegment memory = tokens.segment(token);
        ByteBuffer view = tokens.byteBuffer(token);
        assertThat(memory.byteSize()).isEqualTo(2048);
        assertThat(view.limit()).isEqualTo(2048);
        tokens.attach(token, "ignored");
        assertThat(tokens.attachment(token)).as("a handle lease keeps nothing").isNull();
        memory.set(ValueLayout.JAVA_INT_UNALIGNED, 0, 7);
        tokens.release(token);
        assertThatThrownBy(() -> memory.get(ValueLayout.JAVA_INT_UNALIGNED, 0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> view.get(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> tokens.release(token)).isInstanceOf(IllegalStateException.class);
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aTokenAboveTheLargestClassHasMemoryOfItsOwn() {
        BufferPool pool = pool(PoolMode.DEFAULT.builder("tokens-dedicated").largestPooledSize(64 * 1024));
        LeaseTokens tokens = pool.tokens();
        long token = tokens.acquire(200_000);
        assertThat(tokens.segment(token).byteSize()).isEqualTo(200_000);
        assertThat(pool.stats().dedicatedLeases()).isEqualTo(1);
        tokens.release(token);
        assertThat(pool.stats().dedicatedLeases()).isZero();
        assertThatThrownBy(() -> tokens.segment(token)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> tokens.acquire(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWatchedHolderLostUnreleasedIsReportedAndItsMemoryGoesBack() throws InterruptedException {
        BufferPool pool = pool(PoolMode.DEFAULT.builder("tokens-leak").leakSampling(1));
        LeaseTokens tokens = pool.tokens();
        holdAndDrop(tokens);
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (pool.stats().leaks() < 1 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        BufferPoolStats stats = pool.stats();
        assertThat(stats.leaks()).as("leaks reported (waited up to 10 s of GCs)").isEqualTo(1);
        assertThat(stats.leases()).as("the lost lease went back").isZero();
        assertThat(stats.leaksWatched()).isZero();
    }

    private static void holdAndDrop(LeaseTokens tokens) {
        Object holder = new Object();
        long token = tokens.acquire(100);
        tokens.watch(token, holder);
        tokens.segment(token).fill((byte) 1);
    }

    @Test
    void aWatchedTokenReleasedInTimeIsNeverReported() throws InterruptedException {
        BufferPool pool = pool(PoolMode.DEFAULT.builder("tokens-tidy").leakSampling(1));
        LeaseTokens tokens = pool.tokens();
        for (int i = 0; i < 20; i++) {
            Object holder = new Object();
            long token = tokens.acquire(100 + i);
            tokens.watch(token, holder);
            tokens.release(token);
        }
        assertThat(pool.stats().leaksWatched()).isZero();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(pool.stats().leaks()).isZero();
    }

    @Test
    void aReleaseWhileAReadHoldsAViewChangesNothingAndReleaseWhenFreeFinishesIt() throws Exception {
        BufferPool pool = pool(PoolMode.CHECKED.builder("tokens-held").leakSampling(0));
        LeaseTokens tokens = pool.tokens();
        long token = tokens.acquire(4096);
        ByteBuffer view = tokens.byteBuffer(token);
        try (HeldByIo read = HeldByIo.reading(view)) {
            assertThatThrownBy(() -> tokens.release(token)).isInstanceOf(MemoryInUseException.class);
            assertThat(tokens.segment(token).byteSize()).as("still live").isEqualTo(4096);
            assertThat(tokens.releaseWhenFree(token)).as("waits for the read").isFalse();
            assertThat(pool.stats().bytesQuarantined()).isEqualTo(4096);
            assertThatThrownBy(() -> tokens.release(token)).isInstanceOf(IllegalStateException.class);
            read.end(new byte[] {1});
        }
        pool.stats(); // a slow path: the deferred release runs
        assertThat(pool.stats().leases()).isZero();
        assertThat(pool.stats().bytesQuarantined()).isZero();
    }

    @Test
    void aLeaseReleasedWhenUnreachableWaitsForItsReferent() throws InterruptedException {
        BufferPool pool = plainPool("tokens-unreachable");
        LeaseTokens tokens = pool.tokens();
        long token = tokens.acquire(1024);
        ByteBuffer[] kept = {tokens.byteBuffer(token)};
        long address = tokens.segment(token).address();
        tokens.releaseWhenUnreachable(token, kept[0]);
        assertThatThrownBy(() -> tokens.segment(token)).isInstanceOf(IllegalStateException.class);
        assertThat(pool.stats().bytesQuarantined()).isEqualTo(1024);

        long next = tokens.acquire(1024);
        assertThat(tokens.segment(next).address()).as("the slot is not lent while its view may be in use")
                .isNotEqualTo(address);
        assertThat(tokens.byteBuffer(next)).isNotSameAs(kept[0]);
        tokens.release(next);
        System.gc();
        assertThat(pool.stats().leases()).as("the referent is still reachable").isEqualTo(1);
        assertThat(kept[0].capacity()).isEqualTo(1024);

        kept[0] = null;
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (pool.stats().leases() > 0 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(pool.stats().leases()).as("given back once unreachable (waited up to 10 s of GCs)").isZero();
        assertThat(pool.stats().bytesQuarantined()).isZero();
        long later = tokens.acquire(1024);
        ByteBuffer fresh = tokens.byteBuffer(later);
        assertThat(fresh.limit()).isEqualTo(1024);
        tokens.release(later);
    }

    @Test
    void afterTheClosePoolATokensReleaseDoesNothingAndItsUseThrows() {
        BufferPool pool = plainPool("tokens-closed");
        LeaseTokens tokens = pool.tokens();
        long token = tokens.acquire(64);
        MemorySegment memory = tokens.segment(token);
        pool.close();
        tokens.release(token);
        assertThatThrownBy(() -> memory.get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> tokens.segment(token)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");
        assertThatThrownBy(() -> tokens.acquire(64)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void withoutThreadCachesAThreadThatGoesIdleKeepsNothingAndIdleReturnTakesEverythingBack() throws Exception {
        BufferPool pool = plainPool("tokens-no-caches");
        LeaseTokens tokens = pool.tokens().withoutThreadCaches();
        assertThat(pool.tokens().withoutThreadCaches()).as("one object").isSameAs(tokens);
        assertThat(tokens.withoutThreadCaches()).isSameAs(tokens);
        assertThat(tokens.pool()).isSameAs(pool);
        CountDownLatch burstDone = new CountDownLatch(4);
        CountDownLatch end = new CountDownLatch(1);
        ExecutorService workers = Executors.newFixedThreadPool(4); // live, idle threads once the burst ends
        try {
            for (int t = 0; t < 4; t++) {
                workers.submit(() -> {
                    long[] held = new long[64];
                    for (int round = 0; round < 50; round++) {
                        for (int i = 0; i < held.length; i++) {
                            held[i] = tokens.acquire(1000 + 500 * (i % 4));
                        }
                        for (long token : held) {
                            tokens.release(token);
                        }
                    }
                    burstDone.countDown();
                    end.await();
                    return null;
                });
            }
            burstDone.await();
            BufferPoolStats stats = pool.stats();
            assertThat(stats.threadCaches()).as("threads holding a cache").isZero();
            assertThat(stats.leases()).isZero();
            assertThat(stats.bytesFromOs()).isPositive();
            pool.returnIdle(); // idle return's first look, then its second: every slab was unleased at both
            pool.returnIdle();
            assertThat(pool.stats().bytesFromOs()).as("given back while the threads live, with no call of theirs")
                    .isZero();
        } finally {
            end.countDown();
            workers.shutdown();
        }
    }

    @Test
    void aTokenOfOneWayIsReleasedByTheOther() {
        BufferPool pool = plainPool("tokens-both-ways");
        long cached = pool.tokens().acquire(100);
        long shared = pool.tokens().withoutThreadCaches().acquire(100);
        pool.tokens().withoutThreadCaches().release(cached);
        pool.tokens().release(shared);
        assertThat(pool.stats().leases()).isZero();
        assertThatThrownBy(() -> pool.tokens().release(cached)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> pool.tokens().withoutThreadCaches().release(shared))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRefusalNamesThePoolAndTheTokenRequest() {
        MemoryBudget budget = MemoryBudget.root("tokens-budget", 64 * 1024);
        BufferPool pool = pool(PoolMode.DEFAULT.builder("tokens-refused").budget(budget));
        assertThatThrownBy(() -> pool.tokens().acquire(1 << 20)).isInstanceOf(BudgetExceededException.class)
                .hasMessageContaining("buffer pool 'tokens-refused'").hasMessageContaining("tokens().acquire(1048576)");
        assertThat(budget.used()).isZero();
    }
}
