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
        ByteBuf buffer = new OffheapDirectByteBuf(ALLOC, capacity, maxCapacity).order(ByteOrder.LITTLE_ENDIAN);
        if (buffer.order() != ByteOrder.LITTLE_ENDIAN || buffer.writerIndex() != 0) {
            throw new AssertionError("not a new little-endian buffer: " + buffer);
        }
        return buffer;
    }
}
