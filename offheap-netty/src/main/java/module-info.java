/**
 * offheap's buffer pool as Netty's {@code ByteBufAllocator}: direct {@code ByteBuf}s leased from a
 * {@code BufferPool}, with its budgets, JMX and {@code inspect} view. Optional: nothing in offheap needs it.
 */
module dev.offheap.netty {
    requires transitive dev.offheap.core;
    requires transitive io.netty.buffer;
    requires transitive io.netty.common; // trim(EventExecutorGroup) takes one of its types

    exports dev.offheap.netty;
}
