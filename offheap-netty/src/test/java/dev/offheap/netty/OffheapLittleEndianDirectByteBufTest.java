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

import dev.offheap.buffer.BufferPool;
import io.netty.buffer.AbstractByteBufTest;
import io.netty.buffer.ByteBuf;
import java.nio.ByteOrder;
import org.junit.jupiter.api.AfterAll;

/**
 * Netty's {@link AbstractByteBufTest} on offheap's direct buffers seen little-endian ({@code order(LITTLE_ENDIAN)},
 * Netty's swapped view), as Netty's {@code LittleEndianDirectByteBufTest} does.
 */
@SuppressWarnings("deprecation") // ByteBuf.order(): the byte order is what these tests are about
class OffheapLittleEndianDirectByteBufTest extends AbstractByteBufTest {
    private static final BufferPool POOL = BufferPool.builder().name("netty-le-bytebuf-test").jmx(false).build();
    private static final OffheapByteBufAllocator ALLOC = new OffheapByteBufAllocator(POOL);

    @AfterAll
    static void closePool() {
        POOL.close();
    }

    @Override
    protected ByteBuf newBuffer(int capacity, int maxCapacity) {
        ByteBuf buffer = OffheapDirectByteBuf.lease(ALLOC, capacity, maxCapacity).order(ByteOrder.LITTLE_ENDIAN);
        if (buffer.order() != ByteOrder.LITTLE_ENDIAN || buffer.writerIndex() != 0) {
            throw new AssertionError("not a new little-endian buffer: " + buffer);
        }
        return buffer;
    }
}
