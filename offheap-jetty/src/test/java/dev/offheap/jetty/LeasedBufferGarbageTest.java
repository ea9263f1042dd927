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

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.suite.HeapBytes;
import java.nio.ByteBuffer;
import java.util.List;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A direct Jetty buffer's garbage (issue 27): its reference count is kept in the buffer itself, with no Jetty
 * {@code ReferenceCounter} and {@code AtomicInteger} beside it; and a stale buffer still never reaches the
 * buffer that gets its memory next.
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
    void aDirectBufferCountsItsReferencesItself() {
        double lease = HeapBytes.perRound(() -> {
            BufferLease l = pool.acquire(1024);
            l.segment();
            l.release();
        });
        double buffer = HeapBytes.perRound(() -> {
            RetainableByteBuffer.Mutable b = jetty.acquire(1024, true);
            b.put((byte) 1);
            b.getByteBuffer();
            b.release();
        });
        // The buffer (40 B), the segment its views hold (40 B) and its ByteBuffer (64 B), with compressed oops;
        // before: also Jetty's ReferenceCounter and its AtomicInteger (16 B each), the buffer 8 B smaller.
        assertThat(buffer - lease).as("bytes per buffer beside the pool's lease handle (%.1f B)", lease)
                .isLessThanOrEqualTo(144.5);
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
                () -> jetty.releaseAndRemove(stale));
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
