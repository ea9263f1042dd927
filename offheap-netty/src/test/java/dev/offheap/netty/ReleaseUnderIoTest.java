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

import dev.offheap.buffer.BufferPool;
import dev.offheap.suite.HeldByIo;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * A ByteBuf released while an I/O operation on another thread still holds its NIO view (a use after release
 * Netty itself would not see): Netty's count cannot go back up, so the release succeeds, the race is logged,
 * and the pool keeps the memory (never lent or unmapped under the operation) until the operation has ended,
 * then gives it back by itself. Before: the release threw the JDK's "Session is acquired" out of Netty's
 * release, and the lease stayed leased for ever.
 */
class ReleaseUnderIoTest {

    @Test
    void aBufferReleasedWhileAWriteHoldsItsNioViewGoesBackOnceTheWriteEnded() throws Exception {
        BufferPool pool = BufferPool.builder().name("netty-held").jmx(false).build();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        int size = 2 << 20; // above the largest size class: its views die at release in every mode
        ByteBuf buf = alloc.directBuffer(size, size);
        ByteBuffer nio = buf.internalNioBuffer(0, size);
        try (CapturedLog log = new CapturedLog(OffheapDirectByteBuf.class.getName());
                HeldByIo write = HeldByIo.writing(nio)) {
            assertThat(buf.release()).isTrue();
            assertThat(buf.refCnt()).isZero();
            assertThat(log.messages()).singleElement().asString().contains("was released while an I/O operation");
            assertThat(pool.stats().bytesQuarantined()).isEqualTo(size);
            assertThat(pool.stats().bytesInUse()).isEqualTo(size);
            write.end();
        }
        pool.trim();
        assertThat(pool.stats().bytesQuarantined()).isZero();
        assertThat(pool.stats().bytesFromOs()).isZero();
        pool.close();
    }

    @Test
    void aCheckedBufferGrownWhileAReadHoldsItsOldViewKeepsTheOldMemoryUntilTheReadEnded() throws Exception {
        BufferPool pool = BufferPool.builder().name("netty-held-checked").checked(true).jmx(false).build();
        OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
        ByteBuf buf = alloc.directBuffer(4096, 1 << 20);
        ByteBuffer old = buf.nioBuffer(0, 4096);
        try (CapturedLog log = new CapturedLog(OffheapDirectByteBuf.class.getName());
                HeldByIo read = HeldByIo.reading(old)) {
            buf.capacity(65536); // a new lease; the old one goes back once the read has ended
            assertThat(log.messages()).hasSize(1);
            assertThat(pool.stats().bytesQuarantined()).isEqualTo(4096);
            read.end(new byte[] {5});
        }
        assertThat(old.get(0)).isEqualTo((byte) 5);
        buf.release();
        pool.trim();
        assertThat(pool.stats().bytesInUse()).isZero();
        assertThat(pool.stats().bytesQuarantined()).isZero();
        pool.close();
    }
}
