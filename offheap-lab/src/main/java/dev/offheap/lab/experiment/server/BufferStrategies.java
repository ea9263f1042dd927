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

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/** The implementations of {@link BufferStrategy}. */
final class BufferStrategies {
    /** Grizzly's view slab: 4 MiB, from which slices are cut until it is used up. */
    static final int VIEW_SLAB = 4 << 20;

    private BufferStrategies() {}

    record Heap() implements BufferStrategy {
        @Override
        public String name() {
            return "heap";
        }

        @Override
        public StrategyBuffer acquire(int size) {
            return new Unpooled(ByteBuffer.allocate(size), name());
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
        public StrategyBuffer acquire(int size) {
            return new Unpooled(ByteBuffer.allocateDirect(size), name());
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
        public synchronized StrategyBuffer acquire(int size) {
            if (size < 0) {
                throw new IllegalArgumentException("buffer size must be >= 0: " + size);
            }
            if (size > VIEW_SLAB) {
                return new Unpooled(allocate(size), name());
            }
            if (slab == null || slab.remaining() < size) {
                slab = allocate(VIEW_SLAB);
            }
            ByteBuffer view = slab.slice(slab.position(), size);
            slab.position(slab.position() + size);
            return new Unpooled(view, name());
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
        public StrategyBuffer acquire(int size) {
            return new FromPool(pool.acquire(size));
        }

        @Override
        public void close() {
            pool.close();
        }
    }

    /** A lease of the pool: closing it is the lease's release. */
    record FromPool(BufferLease lease) implements StrategyBuffer {
        @Override
        public ByteBuffer byteBuffer() {
            return lease.byteBuffer();
        }

        @Override
        public MemorySegment segment() {
            return lease.segment();
        }

        @Override
        public int size() {
            return lease.size();
        }

        @Override
        public void close() {
            lease.close();
        }
    }

    /** A plain {@code ByteBuffer}: closing only ends the handle; the garbage collector frees the memory. */
    static final class Unpooled implements StrategyBuffer {
        private final ByteBuffer buffer;
        private final MemorySegment segment;
        private final String strategy;
        private volatile boolean closed;

        Unpooled(ByteBuffer buffer, String strategy) {
            this.buffer = buffer;
            this.segment = MemorySegment.ofBuffer(buffer);
            this.strategy = strategy;
        }

        @Override
        public ByteBuffer byteBuffer() {
            checkOpen("use");
            return buffer;
        }

        @Override
        public MemorySegment segment() {
            checkOpen("use");
            return segment;
        }

        @Override
        public int size() {
            checkOpen("ask the size of");
            return buffer.capacity();
        }

        @Override
        public synchronized void close() {
            checkOpen("close");
            closed = true;
        }

        private void checkOpen(String what) {
            if (closed) {
                throw new IllegalStateException("cannot " + what + " buffer of " + buffer.capacity()
                        + " bytes from strategy " + strategy + ": it was already closed");
            }
        }

        @Override
        public String toString() {
            return "StrategyBuffer[strategy=" + strategy + ", size=" + buffer.capacity() + (closed ? ", closed]" : "]");
        }
    }
}
