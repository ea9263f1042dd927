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

import dev.offheap.buffer.BufferPool;
import dev.offheap.suite.HeldByIo;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * A Jetty buffer released while an I/O operation on another thread still holds its view: Jetty's count cannot go
 * back up, so the release succeeds and the lease goes back once no view of it is left, as after a
 * {@code releaseAndRemove}. Before: the release threw the JDK's "Session is acquired" and the lease stayed
 * leased for ever.
 */
class ReleaseUnderIoTest {

    @Test
    void aBufferReleasedWhileAWriteHoldsItsViewGoesBackOnceNoViewIsLeft() throws Exception {
        BufferPool pool = BufferPool.builder().name("jetty-held").jmx(false).build();
        OffheapByteBufferPool jetty = new OffheapByteBufferPool(pool);
        int size = 2 << 20; // above the largest size class: its views die at release in every mode
        RetainableByteBuffer buffer = jetty.acquire(size, true);
        releaseWhileAWriteHoldsIt(buffer, size);
        buffer = null;
        awaitGc(() -> pool.stats().leases() == 0);
        assertThat(pool.stats().leases()).isZero();
        assertThat(pool.stats().bytesFromOs()).isZero();
        pool.close();
    }

    private static void releaseWhileAWriteHoldsIt(RetainableByteBuffer buffer, int size) throws Exception {
        ByteBuffer whole = buffer.getByteBuffer().duplicate().clear(); // flush mode: limit 0 until written
        try (HeldByIo write = HeldByIo.writing(whole)) {
            assertThat(buffer.release()).isTrue();
            write.end();
        }
    }

    private static void awaitGc(BooleanSupplier done) throws InterruptedException {
        for (int i = 0; i < 500 && !done.getAsBoolean(); i++) {
            System.gc();
            Thread.sleep(20);
        }
    }
}
