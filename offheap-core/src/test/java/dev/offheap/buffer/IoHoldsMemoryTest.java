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
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.account.MemoryBudget;
import dev.offheap.account.MemoryInUseException;
import dev.offheap.suite.HeldByIo;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * A release, trim or close while an I/O operation holds a view of the memory (a thread blocked in a pipe's
 * read into a lease's {@code ByteBuffer}, or in a write from it): the memory is never freed or lent under the
 * operation, the caller gets a {@link MemoryInUseException} naming the pool and what to do, and once the
 * operation has ended a repeated release or close gives everything back. Before: a checked lease's release
 * threw the JDK's "Session is acquired", the slot stayed counted in use for ever, and the pool's close then
 * unmapped the slab under the read (the read's bytes landed in another pool's memory, or the JVM crashed);
 * a close or trim racing any I/O left the memory mapped and charged for ever.
 */
class IoHoldsMemoryTest {
    private static final int SIZE = 256 * 1024;

    private static BufferPool pool(PoolMode mode, MemoryBudget budget) {
        return mode.builder("io-held-" + mode).budget(budget).leakSampling(0).build();
    }

    @ParameterizedTest
    @EnumSource(value = PoolMode.class, names = {"CHECKED", "USE_AFTER_RELEASE_SAMPLED"})
    void aLastReleaseWhileAReadHoldsAViewChangesNothingAndCanBeRepeatedOnceTheReadEnded(PoolMode mode)
            throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("release-under-read");
        BufferPool pool = pool(mode, budget);
        BufferLease lease = pool.acquire(SIZE);
        long inUse = pool.stats().bytesInUse();
        ByteBuffer view = lease.byteBuffer();
        try (HeldByIo read = HeldByIo.reading(view)) {
            assertThatThrownBy(lease::release).isInstanceOf(MemoryInUseException.class)
                    .hasMessageContaining("cannot release buffer of " + SIZE + " bytes from pool 'io-held-" + mode)
                    .hasMessageContaining("an I/O operation or native call still uses")
                    .hasMessageContaining("nothing changed")
                    .hasMessageContaining("release it again once that operation has ended");
            assertThat(lease.refCount()).isEqualTo(1);
            assertThat(pool.stats().bytesInUse()).isEqualTo(inUse);
            read.end(new byte[] {42, 43});
        }
        assertThat(view.get(0)).isEqualTo((byte) 42);
        assertThat(lease.segment().get(ValueLayout.JAVA_BYTE, 1)).as("the read landed in the lease").isEqualTo((byte) 43);
        assertThat(lease.release()).isTrue();
        assertThat(lease.refCount()).isZero();
        pool.close();
        assertThat(budget.used()).isZero();
        budget.close();
    }

    @ParameterizedTest
    @EnumSource(PoolMode.class)
    void closingWhileAReadHoldsALeasesViewKeepsItsMemoryUntilCloseIsRepeated(PoolMode mode) throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("close-under-read");
        BufferPool pool = pool(mode, budget);
        BufferLease lease = pool.acquire(SIZE);
        BufferLease other = pool.acquire(64); // another class: its slab goes back at once
        ByteBuffer view = lease.byteBuffer();
        HeldByIo read = HeldByIo.reading(view);
        assertThatThrownBy(pool::close).isInstanceOf(MemoryInUseException.class)
                .hasMessageContaining("cannot close buffer pool 'io-held-" + mode + "' completely")
                .hasMessageContaining("close() is called again");
        assertThat(pool.isClosed()).isTrue();
        assertThatThrownBy(() -> pool.acquire(64)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");
        assertThat(pool.stats().bytesQuarantined()).as("the held slab").isPositive()
                .isEqualTo(pool.stats().bytesFromOs()).isEqualTo(budget.used());
        assertThatThrownBy(() -> other.segment().get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
        // Memory mapped by someone else now cannot sit where the held lease's memory is.
        BufferPool neighbour = BufferPool.builder().name("neighbour-" + mode).jmx(false).build();
        BufferLease stamped = neighbour.acquire(SIZE);
        stamped.segment().fill((byte) 7);
        read.end(new byte[] {42});
        read.close();
        assertThat(view.get(0)).isEqualTo((byte) 42);
        assertThat(allBytes(stamped.segment(), (byte) 7)).as("the neighbour's memory untouched").isTrue();
        pool.close();
        assertThat(budget.used()).isZero();
        assertThat(pool.stats().bytesFromOs()).isZero();
        assertThat(pool.stats().bytesQuarantined()).isZero();
        assertThatThrownBy(() -> view.get(0)).isInstanceOf(IllegalStateException.class);
        assertThatCode(pool::close).as("done: a third close does nothing").doesNotThrowAnyException();
        assertThatCode(lease::release).doesNotThrowAnyException();
        stamped.release();
        neighbour.close();
        budget.close();
    }

    @Test
    void closingWhileAWriteHoldsADedicatedLeaseKeepsItUntilCloseIsRepeated() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("close-under-write");
        BufferPool pool = pool(PoolMode.DEFAULT, budget);
        BufferLease big = pool.acquire(4 << 20); // above the largest class: a region of its own
        try (HeldByIo write = HeldByIo.writing(big.byteBuffer())) {
            assertThatThrownBy(big::release).isInstanceOf(MemoryInUseException.class)
                    .hasMessageContaining("nothing changed");
            assertThat(big.refCount()).isEqualTo(1);
            assertThatThrownBy(pool::close).isInstanceOf(MemoryInUseException.class);
            assertThat(budget.used()).isEqualTo(4 << 20);
            write.end();
        }
        pool.close();
        assertThat(budget.used()).isZero();
        assertThatCode(big::release).as("close gave it back already: harmless").doesNotThrowAnyException();
        budget.close();
    }

    @Test
    void aDedicatedLeaseReleasedWhileAWriteHoldsItsViewCanBeReleasedOnceTheWriteEnded() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("dedicated-under-write");
        BufferPool pool = pool(PoolMode.DEFAULT, budget);
        BufferLease big = pool.acquire(2 << 20);
        try (HeldByIo write = HeldByIo.writing(big.byteBuffer())) {
            assertThatThrownBy(big::close).isInstanceOf(MemoryInUseException.class)
                    .hasMessageContaining("cannot release buffer of " + (2 << 20) + " bytes");
            write.end();
        }
        assertThat(big.release()).isTrue();
        assertThat(budget.used()).isZero();
        pool.close();
        budget.close();
    }

    @Test
    void trimWhileAStaleViewIsInAnIoSetsItsSlabAsideAndNeverLendsItUntilTheIoEnded() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("trim-under-read");
        BufferPool pool = pool(PoolMode.DEFAULT, budget);
        BufferLease lease = pool.acquire(SIZE);
        ByteBuffer stale = lease.byteBuffer();
        long address = lease.segment().address();
        HeldByIo read = HeldByIo.reading(stale);
        lease.release(); // a use after release: the default mode cannot see it
        long slab = pool.stats().bytesFromOs();
        assertThat(pool.trim()).as("nothing given back").isZero();
        assertThat(pool.stats().bytesQuarantined()).isEqualTo(slab);
        for (int i = 0; i < 20; i++) {
            BufferLease next = pool.acquire(SIZE);
            long at = next.segment().address(); // the stale lease was its slab's first slot: the slab starts there
            assertThat(at < address || at >= address + slab).as("never the held slab's memory").isTrue();
            next.release();
        }
        read.end(new byte[] {9});
        read.close();
        assertThat(pool.trim()).as("the held slab and the new one").isEqualTo(2 * slab);
        assertThat(pool.stats().bytesQuarantined()).isZero();
        assertThat(budget.used()).isZero();
        pool.close();
        budget.close();
    }

    @Test
    void theSlotOfACheckedLeaseIsLentAgainOnlyAfterAnotherHandshake() {
        try (BufferPool pool = PoolMode.CHECKED.builder("grace").build()) {
            BufferLease first = pool.acquire(1024);
            long address = first.segment().address();
            first.release();
            BufferLease second = pool.acquire(1024);
            assertThat(second.segment().address()).as("a straggling access to the first lease's views must not"
                    + " reach the second").isNotEqualTo(address);
            second.release();
        }
    }

    @Test
    void releaseWhenFreeLetsThePoolReleaseAHeldLeaseOnceItsIoEnded() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("release-when-free");
        BufferPool pool = pool(PoolMode.CHECKED, budget);
        BufferLease lease = pool.acquire(SIZE);
        try (HeldByIo write = HeldByIo.writing(lease.byteBuffer())) {
            assertThat(pool.releaseWhenFree(lease)).isFalse();
            assertThat(lease.refCount()).as("still the pool's to release").isEqualTo(1);
            assertThat(pool.stats().bytesQuarantined()).isEqualTo(SIZE);
            assertThat(pool.trim()).as("the operation still holds it").isZero();
            write.end();
        }
        pool.trim();
        assertThat(lease.refCount()).isZero();
        assertThat(pool.stats().bytesQuarantined()).isZero();
        assertThat(pool.stats().bytesInUse()).isZero();
        BufferLease plain = pool.acquire(64);
        assertThat(pool.releaseWhenFree(plain)).as("nothing holds it: released at once").isTrue();
        BufferPool other = BufferPool.builder().name("other").jmx(false).build();
        BufferLease foreign = other.acquire(64);
        assertThatThrownBy(() -> pool.releaseWhenFree(foreign)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not a lease of buffer pool");
        foreign.release();
        other.close();
        pool.close();
        assertThat(budget.used()).isZero();
        budget.close();
    }

    @Test
    void aLeakedCheckedLeaseWhoseViewAReadHoldsIsCuredOnceTheReadEnded() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("leak-under-read");
        BufferPool pool = PoolMode.CHECKED.builder("leaked-under-read").budget(budget).leakSampling(1).build();
        HeldByIo read = leakALeaseUnderARead(pool);
        for (int i = 0; i < 500 && pool.stats().leaks() == 0; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(pool.stats().leaks()).as("found leaked").isOne();
        assertThat(pool.stats().bytesQuarantined()).as("kept while the read holds it").isEqualTo(SIZE);
        assertThat(pool.stats().bytesInUse()).isEqualTo(SIZE);
        read.end(new byte[] {1});
        read.close();
        assertThat(pool.stats().bytesQuarantined()).as("cured at the next poll").isZero();
        assertThat(pool.stats().bytesInUse()).isZero();
        pool.close();
        assertThat(budget.used()).isZero();
        budget.close();
    }

    /** A lease whose handle is dropped while a read into its view goes on. */
    private static HeldByIo leakALeaseUnderARead(BufferPool pool) throws Exception {
        return HeldByIo.reading(pool.acquire(SIZE).byteBuffer());
    }

    private static boolean allBytes(MemorySegment segment, byte value) {
        for (long i = 0; i < segment.byteSize(); i++) {
            if (segment.get(ValueLayout.JAVA_BYTE, i) != value) {
                return false;
            }
        }
        return true;
    }
}
