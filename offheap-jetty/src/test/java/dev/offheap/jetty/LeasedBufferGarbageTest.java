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

import dev.offheap.buffer.BufferPool;
import dev.offheap.suite.HeapBytes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A direct Jetty buffer's garbage (issue 27): one object, its reference count and its lease's token inside it,
 * none at all with a recycling pool; and a stale buffer still never reaches the buffer that gets its memory
 * next, whose ByteBuffer it shared.
 */
class LeasedBufferGarbageTest {
    private final BufferPool pool = BufferPool.builder().name("jetty-garbage").jmx(false).leakSampling(0)
            .useAfterReleaseSampling(0).build();
    private final OffheapByteBufferPool jetty = new OffheapByteBufferPool(pool);

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void aDirectBufferIsOneObject() {
        double buffer = HeapBytes.perRound(() -> cycle(jetty, 1024));
        // The buffer (40 B, the lease a token in it) and nothing else: its ByteBuffer is the pool's view of the
        // slot. Before issue 27: the pool's lease handle (40 B), the segment its views held (40 B), its own
        // ByteBuffer (64 B), Jetty's ReferenceCounter and AtomicInteger (16 B each). The reading itself
        // allocates a few KB once, spread over the rounds: under a byte each.
        assertThat(buffer).as("heap bytes per direct buffer").isLessThan(41);
    }

    @Test
    void aRecyclingPoolMakesNoGarbagePerBuffer() {
        OffheapByteBufferPool recycling = OffheapByteBufferPool.builder(pool).recycleBuffers(true).build();
        assertThat(recycling.recycles()).isTrue();
        cycle(recycling, 1024); // the slot's buffer object, made once
        assertThat(HeapBytes.perRound(() -> cycle(recycling, 1024))).as("heap bytes per direct buffer")
                .isLessThan(1.0);
    }

    /** One direct buffer as a connector uses it: acquire, fill a little, take the ByteBuffer, release. */
    private static void cycle(OffheapByteBufferPool jetty, int size) {
        RetainableByteBuffer.Mutable b = jetty.acquire(size, true);
        b.put((byte) 1);
        b.getByteBuffer();
        b.release();
    }

    @Test
    void aRecycledBufferThrowsUntilItIsHandedOutAgainAsNew() {
        OffheapByteBufferPool recycling = OffheapByteBufferPool.builder(pool).recycleBuffers(true).build();
        RetainableByteBuffer.Mutable first = recycling.acquire(2000, true);
        first.putLong(7);
        first.getByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        first.put((byte) 1); // left in fill mode
        assertThat(first.release()).isTrue();
        assertThatThrownBy(first::getByteBuffer).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(first::remaining).isInstanceOf(IllegalStateException.class);

        RetainableByteBuffer.Mutable again = recycling.acquire(2000, true);
        assertThat(again).as("the slot's next lease hands the parked buffer out again").isSameAs(first);
        assertThat(again.getRetained()).isEqualTo(1);
        ByteBuffer bytes = again.getByteBuffer();
        assertThat(bytes.position()).isZero();
        assertThat(bytes.limit()).as("empty in flush mode").isZero();
        assertThat(bytes.capacity()).isEqualTo(2000);
        assertThat(bytes.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
        again.putInt(0x01020304);
        assertThat(again.getByteBuffer().get(0)).isEqualTo((byte) 1);
        assertThat(again.release()).isTrue();

        RetainableByteBuffer.Mutable other = recycling.acquire(1900, true); // the same class, another size
        assertThat(other).as("parked buffers have their size").isNotSameAs(first);
        assertThat(other.capacity()).isEqualTo(1900);
        other.release();
        assertThat(pool.stats().leases()).isZero();
    }

    @Test
    void aBufferReleasedAndRemovedIsNeverRecycled() {
        OffheapByteBufferPool recycling = OffheapByteBufferPool.builder(pool).recycleBuffers(true).build();
        RetainableByteBuffer.Mutable removed = recycling.acquire(1024, true);
        ByteBuffer heldByALateWrite = removed.getByteBuffer();
        assertThat(recycling.releaseAndRemove(removed)).isTrue();
        RetainableByteBuffer.Mutable next = recycling.acquire(1024, true);
        assertThat(next).isNotSameAs(removed);
        assertThat(next.getByteBuffer()).as("a view of other memory").isNotSameAs(heldByALateWrite);
        next.release();
        assertThat(heldByALateWrite.capacity()).isEqualTo(1024);
    }

    @Test
    void aStaleBufferNeverReachesTheBufferLentItsMemoryNext() {
        RetainableByteBuffer.Mutable stale = jetty.acquire(1024, true);
        stale.put((byte) 1);
        assertThat(stale.release()).isTrue();
        RetainableByteBuffer.Mutable next = jetty.acquire(1024, true); // the same slot: this thread's cache
        next.append(ByteBuffer.wrap(new byte[1024]));

        List<Runnable> staleUses = List.of(stale::getByteBuffer, () -> stale.get(0), () -> stale.put((byte) 9),
                () -> stale.put(0, (byte) 9), () -> stale.putLong(-1), () -> stale.append(ByteBuffer.allocate(4)),
                stale::clear, () -> stale.limit(0), stale::slice, stale::copy, stale::retain, stale::release,
                () -> stale.get(new byte[4], 0, 4), () -> stale.putTo(ByteBuffer.allocate(4)),
                () -> jetty.releaseAndRemove(stale), stale::remaining, stale::hasRemaining, stale::space,
                stale::isEmpty, stale::size);
        for (Runnable use : staleUses) {
            assertThatThrownBy(use::run).isInstanceOf(IllegalStateException.class);
        }
        assertThat(stale.canRetain()).isFalse();
        assertThat(stale.getRetained()).isZero();
        assertThat(next.getRetained()).isEqualTo(1);
        assertThat(pool.stats().leases()).as("the next buffer keeps its lease").isEqualTo(1);
        ByteBuffer bytes = next.getByteBuffer();
        assertThat(bytes.remaining()).isEqualTo(1024);
        for (int i = 0; i < 1024; i++) {
            assertThat(bytes.get(i)).as("byte %d of the next buffer", i).isZero();
        }
        assertThat(next.release()).isTrue();
        assertThat(pool.stats().leases()).isZero();
    }
}
