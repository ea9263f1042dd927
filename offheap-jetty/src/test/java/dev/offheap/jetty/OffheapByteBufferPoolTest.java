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

package dev.offheap.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.buffer.BufferPool;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The contract of Jetty's {@code ByteBufferPool} and {@code RetainableByteBuffer}, as their Javadoc states it. */
class OffheapByteBufferPoolTest {
    private final BufferPool pool = BufferPool.builder().name("jetty-contract").jmx(false).build();
    private final OffheapByteBufferPool jetty = new OffheapByteBufferPool(pool);

    @AfterEach
    void close() {
        pool.close();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aFreshBufferIsEmptyInFlushModeBigEndianWithAtLeastTheSize(boolean direct) {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(1000, direct);

        ByteBuffer bytes = buffer.getByteBuffer();
        assertThat(bytes.position()).isZero();
        assertThat(bytes.limit()).isZero();
        assertThat(bytes.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
        assertThat(bytes.isDirect()).isEqualTo(direct);
        assertThat(buffer.isDirect()).isEqualTo(direct);
        assertThat(buffer.capacity()).isGreaterThanOrEqualTo(1000);
        assertThat(buffer.remaining()).isZero();
        assertThat(buffer.hasRemaining()).isFalse();
        assertThat(buffer.space()).isEqualTo(buffer.capacity());
        assertThat(buffer.release()).isTrue();
    }

    @Test
    void directBuffersHaveExactlyTheRequestedCapacityAndAreLeasesOfThePool() {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(1000, true);

        assertThat(buffer.capacity()).isEqualTo(1000);
        assertThat(buffer).isInstanceOf(RetainableByteBuffer.Pooled.class);
        assertThat(pool.stats().leases()).isEqualTo(1);
        buffer.release();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void buffersAreBigEndianEvenFromAPoolBuiltWithNativeOrder() {
        try (BufferPool little = BufferPool.builder().byteOrder(ByteOrder.LITTLE_ENDIAN).jmx(false).build()) {
            RetainableByteBuffer.Mutable buffer = new OffheapByteBufferPool(little).acquire(8, true);
            buffer.putInt(0x01020304);

            assertThat(buffer.getByteBuffer().order()).isEqualTo(ByteOrder.BIG_ENDIAN);
            assertThat(buffer.get(0)).isEqualTo((byte) 1);
            buffer.release();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void releaseReturnsTrueOnlyWhenTheLastReferenceGoes(boolean direct) {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(64, direct);
        assertThat(buffer.canRetain()).isTrue();
        assertThat(buffer.isRetained()).isFalse();

        buffer.retain();
        assertThat(buffer.isRetained()).isTrue();
        assertThat(buffer.getRetained()).isEqualTo(2);
        assertThat(buffer.release()).isFalse();
        assertThat(buffer.isRetained()).isFalse();
        if (direct) {
            assertThat(pool.stats().leases()).isEqualTo(1);
        }
        assertThat(buffer.release()).isTrue();
        assertThat(pool.stats().leases()).isZero();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aDoubleReleaseThrowsAsJettysBuffersDo(boolean direct) {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(64, direct);
        buffer.release();

        assertThatThrownBy(buffer::release).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDoubleReleaseNeverReleasesTheLeaseTwice() {
        RetainableByteBuffer.Mutable first = jetty.acquire(64, true);
        first.release();
        RetainableByteBuffer.Mutable second = jetty.acquire(64, true); // may well get first's slot

        assertThatThrownBy(first::release).isInstanceOf(IllegalStateException.class);
        assertThat(pool.stats().leases()).isEqualTo(1);
        second.append(ByteBuffer.wrap(new byte[] {42}));
        assertThat(second.get(0)).isEqualTo((byte) 42);
        assertThat(second.release()).isTrue();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aReleasedDirectBufferThrowsOnUse() {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(64, true);
        buffer.release();

        assertThatThrownBy(buffer::getByteBuffer).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("after its last release");
        assertThatThrownBy(() -> buffer.append(ByteBuffer.allocate(1))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> buffer.put((byte) 1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> buffer.get(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(buffer::slice).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void inACheckedPoolAViewKeptPastReleaseThrowsInsteadOfReachingTheNextLease() {
        try (BufferPool checked = BufferPool.builder().checked(true).jmx(false).build()) {
            OffheapByteBufferPool strict = new OffheapByteBufferPool(checked);
            RetainableByteBuffer.Mutable buffer = strict.acquire(64, true);
            buffer.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            ByteBuffer kept = buffer.getByteBuffer();
            buffer.release();
            RetainableByteBuffer.Mutable next = strict.acquire(64, true);

            assertThatThrownBy(() -> kept.get(0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> kept.put(0, (byte) 9)).isInstanceOf(IllegalStateException.class);
            next.release();
        }
    }

    @Test
    void aBufferAboveTheLargestPooledSizeIsUnmappedAtReleaseNotByTheGc() {
        RetainableByteBuffer.Mutable big = jetty.acquire(8 << 20, true);
        assertThat(pool.stats().dedicatedLeases()).isEqualTo(1);
        long mapped = pool.stats().bytesFromOs();

        assertThat(big.release()).isTrue();

        assertThat(pool.stats().bytesFromOs()).isLessThanOrEqualTo(mapped - (8 << 20));
        assertThat(pool.stats().dedicatedLeases()).isZero();
    }

    @Test
    void aReleasedDirectBufferCannotBeRetained() {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(64, true);
        buffer.release();

        assertThatThrownBy(buffer::retain).isInstanceOf(IllegalStateException.class);
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void buffersCanBeReleasedOnAnotherThread() throws Exception {
        List<RetainableByteBuffer.Mutable> buffers = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            buffers.add(jetty.acquire(100 + i * 100, true));
        }

        boolean allLast = CompletableFuture.supplyAsync(() -> buffers.stream().allMatch(RetainableByteBuffer::release))
                .get();

        assertThat(allLast).isTrue();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void referencesReleasedOnManyThreadsAtOnceGiveTheLeaseBackExactlyOnce() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 200; round++) {
                RetainableByteBuffer.Mutable buffer = jetty.acquire(512, true);
                for (int i = 1; i < 8; i++) {
                    buffer.retain();
                }
                List<Future<Boolean>> releases = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    releases.add(threads.submit(buffer::release));
                }
                int last = 0;
                for (Future<Boolean> release : releases) {
                    last += release.get() ? 1 : 0;
                }
                assertThat(last).isEqualTo(1);
                assertThat(pool.stats().leases()).isZero();
            }
        } finally {
            threads.shutdown();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void sizesFromZeroTo16MiBHoldWhatIsWrittenAndKeepApart(boolean direct) {
        int[] sizes = {0, 1, 7, 100, 4096, 65535, 65536, 65537, 1 << 20, (1 << 20) + 1, 4 << 20, 16 << 20};
        List<RetainableByteBuffer.Mutable> buffers = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            RetainableByteBuffer.Mutable buffer = jetty.acquire(sizes[i], direct);
            assertThat(buffer.capacity()).isGreaterThanOrEqualTo(sizes[i]);
            assertThat(buffer.append(ByteBuffer.wrap(pattern(sizes[i], i)))).isTrue();
            buffers.add(buffer);
        }

        for (int i = 0; i < sizes.length; i++) {
            RetainableByteBuffer buffer = buffers.get(i);
            assertThat(buffer.remaining()).isEqualTo(sizes[i]);
            byte[] read = new byte[sizes[i]];
            buffer.getByteBuffer().duplicate().get(read);
            assertThat(read).as("size %d", sizes[i]).isEqualTo(pattern(sizes[i], i));
            assertThat(buffer.release()).isTrue();
        }
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aNegativeSizeIsRefused() {
        assertThatThrownBy(() -> jetty.acquire(-1, true)).isInstanceOf(IllegalArgumentException.class);
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aClosedPoolRefusesWithAClearError() {
        pool.close();

        assertThatThrownBy(() -> jetty.acquire(64, true)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theMutableOperationsJettyUsesWriteBigEndianAndFlushForReading() {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(64, true);

        buffer.put((byte) 1).putShort((short) 0x0203).putInt(0x04050607).putLong(0x08090A0B0C0D0E0FL);
        buffer.put(new byte[] {0, 16, 17, 0}, 1, 2);
        buffer.add(ByteBuffer.wrap(new byte[] {18}));
        assertThat(buffer.append(ByteBuffer.wrap(new byte[] {19, 20}))).isTrue();
        buffer.put(0, (byte) 0);

        ByteBuffer flushed = buffer.getByteBuffer();
        assertThat(flushed.position()).isZero();
        assertThat(flushed.remaining()).isEqualTo(20);
        byte[] expected = new byte[20];
        for (int i = 1; i < 20; i++) {
            expected[i] = (byte) (i + 1);
        }
        assertThat(readAll(buffer)).isEqualTo(expected);
        assertThat(buffer.release()).isTrue();
    }

    @Test
    void appendStopsAtCapacityAndReportsWhatDidNotFit() {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(4, true);
        ByteBuffer source = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6});

        assertThat(buffer.append(source)).isFalse();
        assertThat(buffer.remaining()).isEqualTo(4);
        assertThat(buffer.isFull()).isTrue();
        assertThat(source.remaining()).isEqualTo(2);
        assertThatThrownBy(() -> buffer.put((byte) 7)).isInstanceOf(java.nio.BufferOverflowException.class);
        buffer.release();
    }

    @Test
    void appendingAnotherRetainableBufferCopiesItsBytes() {
        RetainableByteBuffer.Mutable source = jetty.acquire(3, true);
        source.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        RetainableByteBuffer.Mutable target = jetty.acquire(8, true);

        assertThat(target.append(source)).isTrue();

        assertThat(readAll(target)).containsExactly(1, 2, 3);
        assertThat(source.release()).isTrue();
        assertThat(target.release()).isTrue();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aSliceHoldsAReferenceUntilItIsReleased() {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(16, true);
        buffer.append(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));

        RetainableByteBuffer slice = buffer.slice(2);
        assertThat(slice.remaining()).isEqualTo(2);
        assertThat(slice.get(1)).isEqualTo((byte) 2);
        assertThat(buffer.isRetained()).isTrue();

        assertThat(buffer.release()).isFalse();
        assertThat(pool.stats().leases()).isEqualTo(1);
        assertThat(slice.release()).isTrue();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aCopyIsAnIndependentBufferFromTheSamePool() {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(16, true);
        buffer.append(ByteBuffer.wrap(new byte[] {5, 6, 7}));

        RetainableByteBuffer copy = buffer.copy();
        assertThat(buffer.release()).isTrue();

        assertThat(copy.isDirect()).isTrue();
        assertThat(readAll(copy)).containsExactly(5, 6, 7);
        assertThat(pool.stats().leases()).isEqualTo(1);
        assertThat(copy.release()).isTrue();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void clearGivesFreeDirectMemoryBackToTheOs() {
        List<RetainableByteBuffer.Mutable> buffers = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            buffers.add(jetty.acquire(32 * 1024, true));
        }
        buffers.add(jetty.acquire(512 * 1024, true));
        buffers.forEach(RetainableByteBuffer::release);
        long before = pool.stats().bytesFromOs();

        jetty.clear();

        assertThat(before).isPositive();
        assertThat(pool.stats().bytesFromOs()).isLessThan(before);
        assertThat(jetty.getAvailableDirectMemory()).isZero();
    }

    @Test
    void clearEmptiesTheHeapPool() {
        jetty.acquire(4096, false).release();
        assertThat(jetty.getHeapMemory()).isPositive();

        jetty.clear();

        assertThat(jetty.getHeapMemory()).isZero();
    }

    @Test
    void heapRequestsCanGoToAPoolOfTheCallersChoice() {
        ArrayByteBufferPool heap = new ArrayByteBufferPool();
        OffheapByteBufferPool custom = new OffheapByteBufferPool(pool, heap);

        custom.acquire(100, false).release();

        assertThat(custom.heapPool()).isSameAs(heap);
        assertThat(heap.getHeapByteBufferCount()).isEqualTo(1);
        assertThat(pool.stats().acquires()).isZero();
        assertThatThrownBy(() -> new OffheapByteBufferPool(pool, custom)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenTheBudgetRefusesAcquireThrowsAndThePoolStaysUsable() {
        try (MemoryBudget budget = MemoryBudget.root("jetty", 1 << 20);
                BufferPool limited = BufferPool.builder().name("limited").budget(budget).jmx(false).build()) {
            OffheapByteBufferPool small = new OffheapByteBufferPool(limited);

            assertThatThrownBy(() -> small.acquire(4 << 20, true)).isInstanceOf(BudgetExceededException.class)
                    .hasMessageContaining("limited");

            RetainableByteBuffer.Mutable buffer = small.acquire(4096, true);
            assertThat(limited.stats().leases()).isEqualTo(1);
            buffer.release();
            assertThat(small.acquire(4 << 20, false).release()).isTrue();
        }
    }

    @Test
    void releaseAndRemoveKeepsTheMemoryFromBeingLentAgainWhileAViewRemains() throws Exception {
        RetainableByteBuffer.Mutable removed = jetty.acquire(256, true);
        removed.append(ByteBuffer.wrap(pattern(256, 1)));
        ByteBuffer lateWriterView = removed.getByteBuffer().slice();

        assertThat(jetty.releaseAndRemove(removed)).isTrue();
        List<RetainableByteBuffer.Mutable> others = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            RetainableByteBuffer.Mutable other = jetty.acquire(256, true);
            other.append(ByteBuffer.wrap(pattern(256, 2)));
            others.add(other);
        }

        byte[] seen = new byte[256];
        lateWriterView.duplicate().get(seen);
        assertThat(seen).isEqualTo(pattern(256, 1));
        assertThat(pool.stats().leases()).isEqualTo(201);
        others.forEach(RetainableByteBuffer::release);

        removed = null;
        lateWriterView = null;
        awaitGc(() -> pool.stats().leases() == 0);
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void releaseAndRemoveCountsLikeReleaseAndWorksThroughWrappersAndSlices() throws Exception {
        releaseAndRemoveThroughASliceAndAWrapper();

        awaitGc(() -> pool.stats().leases() == 0);
        assertThat(pool.stats().leases()).isZero();
    }

    private void releaseAndRemoveThroughASliceAndAWrapper() {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(64, true);
        buffer.append(ByteBuffer.wrap(new byte[] {1, 2}));
        RetainableByteBuffer slice = buffer.slice();
        RetainableByteBuffer.Wrapper wrapper = new RetainableByteBuffer.Wrapper(buffer);

        assertThat(jetty.releaseAndRemove(slice)).isFalse();
        assertThat(jetty.releaseAndRemove(wrapper)).isTrue();
        assertThat(pool.stats().leases()).isEqualTo(1);
        assertThatThrownBy(() -> jetty.releaseAndRemove(buffer)).isInstanceOf(IllegalStateException.class);
        assertThat(jetty.releaseAndRemove(null)).isFalse();
        assertThat(jetty.releaseAndRemove(jetty.acquire(64, false))).isTrue();
    }

    @Test
    void aBufferDroppedWithoutReleaseIsReportedAsALeak() throws Exception {
        try (BufferPool sampled = BufferPool.builder().name("jetty-leaks").leakSampling(1).jmx(false).build()) {
            OffheapByteBufferPool leaky = new OffheapByteBufferPool(sampled);
            leaky.acquire(1024, true).put((byte) 1);

            awaitGc(() -> sampled.stats().leaks() > 0);

            assertThat(leaky.getLeaksReported()).isEqualTo(1);
            assertThat(sampled.stats().leases()).isZero();
        }
    }

    @Test
    void fourThreadsAcquireWriteCheckAndReleaseWithoutSeeingEachOther() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                results.add(threads.submit(() -> {
                    for (int i = 0; i < 2000; i++) {
                        int size = 1 + (i * 37 + id * 101) % 70_000;
                        RetainableByteBuffer.Mutable buffer = jetty.acquire(size, true);
                        byte[] bytes = pattern(size, id * 10_000 + i);
                        buffer.append(ByteBuffer.wrap(bytes));
                        assertThat(readAll(buffer)).isEqualTo(bytes);
                        assertThat(buffer.release()).isTrue();
                    }
                    return null;
                }));
            }
            for (Future<?> result : results) {
                result.get();
            }
        } finally {
            threads.shutdown();
        }
        assertThat(pool.stats().leases()).isZero();
        assertThat(pool.stats().acquires()).isEqualTo(8000);
    }

    @Test
    void aSizedPoolServesItsConfiguredSizeFromThisPool() {
        ByteBufferPool.Sized sized = new ByteBufferPool.Sized(jetty, true, 8192);

        RetainableByteBuffer.Mutable buffer = sized.acquire();

        assertThat(buffer.capacity()).isEqualTo(8192);
        assertThat(buffer.isDirect()).isTrue();
        assertThat(pool.stats().leases()).isEqualTo(1);
        buffer.release();
    }

    @Test
    void dumpAndToStringShowThePoolsFigures() throws Exception {
        RetainableByteBuffer.Mutable buffer = jetty.acquire(4096, true);

        String dump = jetty.dump();

        assertThat(dump).contains("OffheapByteBufferPool").contains("pool jetty-contract").contains("1 leases")
                .contains("ArrayByteBufferPool");
        assertThat(jetty.toString()).contains("pool=jetty-contract").contains("leases=1");
        assertThat(jetty.getDirectLeases()).isEqualTo(1);
        assertThat(jetty.getLeasedDirectMemory()).isGreaterThanOrEqualTo(4096);
        assertThat(jetty.getDirectMemory()).isGreaterThanOrEqualTo(jetty.getLeasedDirectMemory());
        assertThat(jetty.getPoolName()).isEqualTo("jetty-contract");
        buffer.release();
    }

    static byte[] pattern(int size, int seed) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + seed * 7 + (i >>> 8));
        }
        return bytes;
    }

    private static byte[] readAll(RetainableByteBuffer buffer) {
        ByteBuffer view = buffer.getByteBuffer().duplicate();
        byte[] bytes = new byte[view.remaining()];
        view.get(bytes);
        return bytes;
    }

    private static void awaitGc(java.util.function.BooleanSupplier done) throws InterruptedException {
        for (int i = 0; i < 200 && !done.getAsBoolean(); i++) {
            System.gc();
            Thread.sleep(20);
        }
    }

    @Test
    void liveIdleWorkerThreadsKeepNothingThatClearCannotGiveBack() throws Exception {
        BufferPool workers = BufferPool.builder().name("jetty-workers").jmx(false).build();
        OffheapByteBufferPool jetty = new OffheapByteBufferPool(workers);
        CountDownLatch burstDone = new CountDownLatch(3);
        CountDownLatch end = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            for (int t = 0; t < 3; t++) {
                threads.submit(() -> {
                    List<RetainableByteBuffer> held = new ArrayList<>();
                    for (int round = 0; round < 20; round++) {
                        for (int i = 0; i < 32; i++) {
                            held.add(jetty.acquire(4096 * (1 + i % 4), true));
                        }
                        held.forEach(RetainableByteBuffer::release);
                        held.clear();
                    }
                    burstDone.countDown();
                    end.await(); // alive and idle, as Jetty's workers are between requests
                    return null;
                });
            }
            burstDone.await();
            assertThat(workers.stats().threadCaches()).as("threads holding a cache").isZero();
            jetty.clear();
            assertThat(workers.stats().bytesFromOs()).as("all given back while the workers live").isZero();
        } finally {
            end.countDown();
            threads.shutdown();
            workers.close();
        }
    }
}
