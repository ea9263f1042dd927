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
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Netty's {@link AbstractByteBufTest} on offheap's direct buffers as the allocator hands them out at Netty's
 * {@code PARANOID} leak detection level: each one wrapped by Netty's leak-aware buffer.
 */
class OffheapLeakAwareDirectByteBufTest extends AbstractByteBufTest {
    private static final BufferPool POOL = BufferPool.builder().name("netty-leak-aware-test").jmx(false).build();
    private static final OffheapByteBufAllocator ALLOC = new OffheapByteBufAllocator(POOL);
    private static ResourceLeakDetector.Level levelBefore;

    @BeforeAll
    static void paranoid() {
        levelBefore = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @AfterAll
    static void restore() {
        ResourceLeakDetector.setLevel(levelBefore);
        POOL.close();
    }

    @Override
    protected ByteBuf newBuffer(int capacity, int maxCapacity) {
        ByteBuf buffer = ALLOC.directBuffer(capacity, maxCapacity);
        if (!(buffer.unwrap() instanceof OffheapDirectByteBuf)) {
            throw new AssertionError("not a leak-aware wrapper of an offheap buffer: " + buffer);
        }
        return buffer;
    }
}
