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

package dev.offheap.lab.experiment.server;

import dev.offheap.buffer.BufferPool;
import dev.offheap.netty.OffheapByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/** The Netty allocators of the shootout, by name, each with its trim (if it has one) and what it owns. */
final class NettyAllocators {
    /** The names, in the order of the tables. */
    static final List<String> NAMES = List.of("offheap", "offheap-recycling", "adaptive", "pooled", "unpooled");

    /**
     * An allocator, the trim {@code idle} calls with the server's event loops, what to close when the server
     * stops, and the direct memory it holds (see {@link AdminConsole.Reading#allocatorBytes()}).
     */
    record Allocator(String name, ByteBufAllocator allocator, Consumer<EventExecutorGroup> trim,
            AutoCloseable owned, LongSupplier directBytes) {}

    private NettyAllocators() {}

    /**
     * {@code offheap}: {@link OffheapByteBufAllocator} on a pool of this server ({@code offheap-recycling}: the
     * same with {@code recycleBuffers(true)}, the frameworks' level of safety; trim:
     * {@link OffheapByteBufAllocator#trim(EventExecutorGroup)}, the pool's trim on every event loop, since only
     * a loop may empty its own thread cache); {@code adaptive}: {@link ByteBufAllocator#DEFAULT} as shipped
     * (Netty 4.2's adaptive allocator); {@code pooled}: {@link PooledByteBufAllocator#DEFAULT} (trim:
     * {@code trimCurrentThreadCache()} on every event loop, the same courtesy); {@code unpooled}:
     * {@link UnpooledByteBufAllocator#DEFAULT}. Netty's pooled and adaptive allocators have no public call
     * that gives their arenas back, so that is all their trim can do. The direct memory held is the pool's
     * {@code bytesFromOs} for offheap, {@code metric().usedDirectMemory()} for Netty's (for pooled and adaptive
     * the chunks they reserved, used or not; for unpooled the live buffers).
     */
    static Allocator named(String name) {
        return switch (name) {
            case "offheap", "offheap-recycling" -> {
                BufferPool pool = BufferPool.builder().name("netty").build();
                OffheapByteBufAllocator alloc = OffheapByteBufAllocator.builder(pool)
                        .recycleBuffers(name.equals("offheap-recycling")).build();
                yield new Allocator(name, alloc, alloc::trim, pool::close, pool.metrics()::getBytesFromOs);
            }
            case "adaptive" -> new Allocator(name, ByteBufAllocator.DEFAULT, loops -> {}, () -> {},
                    direct(ByteBufAllocator.DEFAULT));
            case "pooled" -> new Allocator(name, PooledByteBufAllocator.DEFAULT,
                    loops -> onEveryLoop(loops, PooledByteBufAllocator.DEFAULT::trimCurrentThreadCache), () -> {},
                    direct(PooledByteBufAllocator.DEFAULT));
            case "unpooled" -> new Allocator(name, UnpooledByteBufAllocator.DEFAULT, loops -> {}, () -> {},
                    direct(UnpooledByteBufAllocator.DEFAULT));
            default -> throw new IllegalArgumentException("unknown allocator " + name + ": expected one of " + NAMES);
        };
    }

    /** What {@code allocator}'s metric says it holds in direct memory, -1 if it has no metric. */
    private static LongSupplier direct(ByteBufAllocator allocator) {
        return allocator instanceof ByteBufAllocatorMetricProvider p ? () -> p.metric().usedDirectMemory() : () -> -1;
    }

    /** Runs {@code task} on every loop of {@code loops} (in place on the caller's own) and waits for each. */
    private static void onEveryLoop(EventExecutorGroup loops, Runnable task) {
        for (EventExecutor loop : loops) {
            if (loop.inEventLoop()) {
                task.run();
            } else {
                loop.submit(task).syncUninterruptibly();
            }
        }
    }
}
