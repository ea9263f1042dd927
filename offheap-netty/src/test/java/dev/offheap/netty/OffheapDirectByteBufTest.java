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

/** Netty's {@link AbstractByteBufTest} (about 400 tests of one buffer) on offheap's big-endian direct buffers. */
@SuppressWarnings("deprecation") // ByteBuf.order(): the byte order is what these tests are about
class OffheapDirectByteBufTest extends AbstractByteBufTest {
    static final BufferPool POOL = BufferPool.builder().name("netty-bytebuf-test").jmx(false).build();
    static final OffheapByteBufAllocator ALLOC = new OffheapByteBufAllocator(POOL);

    @AfterAll
    static void closePool() {
        POOL.close();
    }

    @Override
    protected ByteBuf newBuffer(int capacity, int maxCapacity) {
        ByteBuf buffer = OffheapDirectByteBuf.lease(ALLOC, capacity, maxCapacity);
        if (buffer.order() != ByteOrder.BIG_ENDIAN) {
            throw new AssertionError("not big-endian: " + buffer);
        }
        return buffer;
    }
}
