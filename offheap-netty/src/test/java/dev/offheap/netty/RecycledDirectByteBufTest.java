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
import org.junit.jupiter.api.AfterAll;

/**
 * Netty's own buffer tests (netty-buffer's {@code AbstractByteBufTest}) on a recycling allocator's buffers: a
 * buffer handed out again must behave as new in every one of them.
 */
class RecycledDirectByteBufTest extends AbstractByteBufTest {
    private static final BufferPool POOL = BufferPool.builder().name("netty-recycled-test").jmx(false).build();
    private static final OffheapByteBufAllocator ALLOC =
            OffheapByteBufAllocator.builder(POOL).recycleBuffers(true).build();

    @AfterAll
    static void closePool() {
        POOL.close();
    }

    @Override
    protected ByteBuf newBuffer(int capacity, int maxCapacity) {
        return OffheapDirectByteBuf.lease(ALLOC, capacity, maxCapacity);
    }
}
