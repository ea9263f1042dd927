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
import io.netty.buffer.AbstractByteBufAllocatorTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/** Netty's allocator tests on a recycling allocator. */
class RecycledByteBufAllocatorTest extends AbstractByteBufAllocatorTest<OffheapByteBufAllocator> {
    private final List<BufferPool> pools = new ArrayList<>();

    @AfterEach
    void closePools() {
        pools.forEach(BufferPool::close);
    }

    @Override
    protected OffheapByteBufAllocator newAllocator(boolean preferDirect) {
        BufferPool pool = BufferPool.builder().name("netty-recycling-allocator-test").jmx(false).build();
        pools.add(pool);
        return OffheapByteBufAllocator.builder(pool).preferDirect(preferDirect).recycleBuffers(true).build();
    }

    @Override
    protected OffheapByteBufAllocator newUnpooledAllocator() {
        return newAllocator(false);
    }

    @Override
    protected boolean isDirectExpected(boolean preferDirect) {
        return preferDirect;
    }

    @Override
    @Test
    @Disabled("asserts Netty's own classes (UnpooledUnsafeDirectByteBuf, UnpooledUnsafeHeapByteBuf)")
    public void testUnsafeHeapBufferAndUnsafeDirectBuffer() {
    }

    @Override
    @Test
    @Disabled("needs pooled heap buffers: offheap pools native memory only, heap buffers are GC-managed byte[]")
    public void shouldReuseChunks() {
    }
}
