package dev.offheap.lab.experiment.server;

import dev.offheap.buffer.BufferPool;
import dev.offheap.netty.OffheapByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.List;

/** The Netty allocators of the shootout, by name, each with its trim (if it has one) and what it owns. */
final class NettyAllocators {
    /** The names, in the order of the tables. */
    static final List<String> NAMES = List.of("offheap", "adaptive", "pooled", "unpooled");

    /** An allocator, the trim {@code idle} calls, and what to close when the server stops. */
    record Allocator(String name, ByteBufAllocator allocator, Runnable trim, AutoCloseable owned) {}

    private NettyAllocators() {}

    /**
     * {@code offheap}: {@link OffheapByteBufAllocator} on a pool of this server (trim: {@code pool.trim()});
     * {@code adaptive}: {@link ByteBufAllocator#DEFAULT} as shipped (Netty 4.2's adaptive allocator);
     * {@code pooled}: {@link PooledByteBufAllocator#DEFAULT}; {@code unpooled}:
     * {@link UnpooledByteBufAllocator#DEFAULT}. Netty's pooled and adaptive allocators have no public call
     * that gives their arenas back ({@code trimCurrentThreadCache()} empties the calling thread's cache only),
     * so their trim does nothing.
     */
    static Allocator named(String name) {
        return switch (name) {
            case "offheap" -> {
                BufferPool pool = BufferPool.builder().name("netty").build();
                yield new Allocator(name, new OffheapByteBufAllocator(pool), pool::trim, pool::close);
            }
            case "adaptive" -> new Allocator(name, ByteBufAllocator.DEFAULT, () -> {}, () -> {});
            case "pooled" -> new Allocator(name, PooledByteBufAllocator.DEFAULT, () -> {}, () -> {});
            case "unpooled" -> new Allocator(name, UnpooledByteBufAllocator.DEFAULT, () -> {}, () -> {});
            default -> throw new IllegalArgumentException("unknown allocator " + name + ": expected one of " + NAMES);
        };
    }
}
