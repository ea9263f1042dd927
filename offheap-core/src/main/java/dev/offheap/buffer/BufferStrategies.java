package dev.offheap.buffer;

import java.nio.ByteBuffer;

/** The implementations of {@link BufferStrategy}. */
final class BufferStrategies {
    /** Grizzly's view slab: 4 MiB, from which slices are cut until it is used up. */
    static final int VIEW_SLAB = 4 << 20;

    private BufferStrategies() {}

    /** A lease over {@code buffer}, in the byte order a new {@code ByteBuffer} has: big-endian. */
    static Buffer lease(ByteBuffer buffer, String strategy) {
        return new UnpooledBuffer(buffer, strategy);
    }

    record Heap() implements BufferStrategy {
        @Override
        public String name() {
            return "heap";
        }

        @Override
        public Buffer acquire(int size) {
            return lease(ByteBuffer.allocate(size), name());
        }

        @Override
        public void close() {}
    }

    record Direct() implements BufferStrategy {
        @Override
        public String name() {
            return "direct";
        }

        @Override
        public Buffer acquire(int size) {
            return lease(ByteBuffer.allocateDirect(size), name());
        }

        @Override
        public void close() {}
    }

    /**
     * Slices of one large buffer, a new one when the current is used up (seed 001, allocateView). A slice
     * never comes back: the slab is garbage once all its slices are. Requests larger than a slab get a
     * buffer of their own.
     */
    static final class View implements BufferStrategy {
        private final boolean direct;
        private ByteBuffer slab;

        View(boolean direct) {
            this.direct = direct;
        }

        @Override
        public String name() {
            return direct ? "direct-view" : "heap-view";
        }

        @Override
        public synchronized Buffer acquire(int size) {
            if (size < 0) {
                throw new IllegalArgumentException("buffer size must be >= 0: " + size);
            }
            if (size > VIEW_SLAB) {
                return lease(allocate(size), name());
            }
            if (slab == null || slab.remaining() < size) {
                slab = allocate(VIEW_SLAB);
            }
            ByteBuffer view = slab.slice(slab.position(), size);
            slab.position(slab.position() + size);
            return lease(view, name());
        }

        private ByteBuffer allocate(int size) {
            return direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        }

        @Override
        public synchronized void close() {
            slab = null;
        }
    }

    record Pooled(BufferPool pool) implements BufferStrategy {
        @Override
        public String name() {
            return "pool";
        }

        @Override
        public Buffer acquire(int size) {
            return pool.acquire(size);
        }

        @Override
        public void close() {
            pool.close();
        }
    }
}
