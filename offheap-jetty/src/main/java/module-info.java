/**
 * offheap's buffer pool as Jetty 12's {@code ByteBufferPool}: direct {@code RetainableByteBuffer}s leased from
 * a {@code BufferPool}, with its budgets, JMX and {@code inspect} view. Optional: nothing in offheap needs it.
 */
module dev.offheap.jetty {
    requires transitive dev.offheap.core;
    requires transitive org.eclipse.jetty.io;

    exports dev.offheap.jetty;
}
