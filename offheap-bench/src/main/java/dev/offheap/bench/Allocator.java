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

package dev.offheap.bench;

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.internal.PlatformDependent;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One way of getting and giving back a buffer: one small subclass per allocator, chosen in
 * {@code @Setup}. Each JMH fork runs one {@code @Param} combination, so only one subclass is ever loaded in a
 * fork and the benchmark's calls to {@link #acquire()} and {@link #release(Object)} are monomorphic and
 * inlined: no allocator pays for a switch the others skip.
 *
 * <p>{@link #acquire()} gets a buffer of the allocator's {@link #size}, {@link #acquire(int)} one of any size
 * from 8 bytes up to that size (the random-size mode of {@link CrossThreadBenchmark}). Both also use the
 * buffer the way I/O code would start to: they write one long at offset 0 and one byte at the last index, in
 * native byte order wherever the API lets one choose. They return a handle
 * that {@link #release(Object)} takes back; for the GC-managed allocators ({@code heap}, {@code direct})
 * release does nothing and the handle is simply dropped. No allocator keeps a reference to a buffer it
 * handed out.
 */
abstract class Allocator {
    /** What each acquire writes at offset 0. */
    static final long MARK = 0x0123_4567_89AB_CDEFL;

    /** The allocators of {@link AcquireReleaseBenchmark}; {@link CrossThreadBenchmark} takes all but arena-confined. */
    static final String NAMES = "offheap, offheap-noleak, offheap-nouaf, offheap-uaf-every, offheap-bytebuffer,"
            + " offheap-checked, offheap-nocache, heap, direct, arena-confined, netty-pooled, netty-adaptive, handoff";

    /** The size {@link #acquire()} asks for, and the largest {@link #acquire(int)} may ask for. */
    final int size;

    Allocator(int size) {
        this.size = size;
    }

    /** Gets a buffer of {@link #size} bytes, writes its first long and last byte, and returns its handle. */
    final Object acquire() {
        return acquire(size);
    }

    /**
     * Gets a buffer of {@code bytes} bytes (8 to {@link #size}), writes its first long and last byte, and
     * returns its handle.
     */
    abstract Object acquire(int bytes);

    /** Gives back a buffer {@link #acquire()} returned; any thread may call it unless the allocator says otherwise. */
    abstract void release(Object handle);

    /** Frees what the allocator holds at the end of a trial. */
    void close() {}

    static Allocator create(String name, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1: " + size);
        }
        return switch (name) {
            case "offheap" -> new Offheap(BufferPool.builder().build(), size);
            case "offheap-noleak" -> new Offheap(BufferPool.builder().leakSampling(0).build(), size);
            case "offheap-checked" -> new Offheap(BufferPool.builder().checked(true).build(), size);
            // Use-after-release sampling off, and on for every lease: the cost of one sampled lease, which
            // the default interval amortizes (BENCHMARKS.md).
            case "offheap-nouaf" -> new Offheap(BufferPool.builder().useAfterReleaseSampling(0).build(), size);
            case "offheap-uaf-every" -> new Offheap(BufferPool.builder().useAfterReleaseSampling(1).leakSampling(0)
                    .build(), size);
            // The default pool used through byteBuffer(): a new ByteBuffer per lease.
            case "offheap-bytebuffer" -> new OffheapByteBuffer(BufferPool.builder().build(), size);
            // No thread caches: every acquire and release goes to the shared free lists, the path virtual
            // threads always take.
            case "offheap-nocache" -> new Offheap(BufferPool.builder().threadCaches(0).build(), size);
            case "heap" -> new Heap(size);
            case "direct" -> new Direct(size);
            case "arena-confined" -> new ArenaConfined(size);
            case "netty-pooled" -> new Netty(nettyPooled(), size);
            // useCacheForNonEventLoopThreads = true: JMH's threads get thread-local magazines, as event-loop
            // threads would (the default for other threads is the shared magazines).
            case "netty-adaptive" -> new Netty(new AdaptiveByteBufAllocator(true, true), size);
            case "handoff" -> new Handoff(size);
            default -> throw new IllegalArgumentException("unknown allocator '" + name + "'; known: " + NAMES);
        };
    }

    /**
     * Netty's pooled allocator with its default arenas, page size and cache sizes, preferring direct buffers,
     * and with a thread cache for every thread (not only Netty's FastThreadLocalThreads): its best case.
     */
    static PooledByteBufAllocator nettyPooled() {
        return new PooledByteBufAllocator(true,
                PooledByteBufAllocator.defaultNumHeapArena(),
                PooledByteBufAllocator.defaultNumDirectArena(),
                PooledByteBufAllocator.defaultPageSize(),
                PooledByteBufAllocator.defaultMaxOrder(),
                PooledByteBufAllocator.defaultSmallCacheSize(),
                PooledByteBufAllocator.defaultNormalCacheSize(),
                true);
    }

    /**
     * Prints to stderr, once per fork, which path Netty takes in this JVM, so that the recorded console
     * output shows it: whether it uses Unsafe, whether it allocates direct memory without a Cleaner, and what
     * buffer class the allocator hands out.
     */
    static void printNettyPath(String name, Allocator allocator) {
        // On a line of its own: JMH has already printed the start of the first warmup iteration's line.
        StringBuilder s = new StringBuilder("\n# netty path [").append(name).append("]:")
                .append(" hasUnsafe=").append(PlatformDependent.hasUnsafe())
                .append(" useDirectBufferNoCleaner=").append(PlatformDependent.useDirectBufferNoCleaner())
                .append(" hasDirectBufferNoCleanerConstructor=")
                .append(PlatformDependent.hasDirectBufferNoCleanerConstructor())
                .append(" leakDetection=").append(ResourceLeakDetector.getLevel());
        if (!PlatformDependent.hasUnsafe()) {
            s.append(" unsafeUnavailableBecause=").append(PlatformDependent.getUnsafeUnavailabilityCause());
        }
        if (allocator instanceof Netty netty) {
            ByteBuf b = netty.alloc.directBuffer(netty.size);
            try {
                s.append(" bufferClass=").append(b.getClass().getName())
                        .append(" hasMemoryAddress=").append(b.hasMemoryAddress());
                if (netty.alloc instanceof PooledByteBufAllocator pooled) {
                    // Counted after this thread's first allocation: 0 means JMH's threads get no cache.
                    s.append(" threadLocalCaches=").append(pooled.metric().numThreadLocalCaches());
                }
            } finally {
                b.release();
            }
        }
        System.err.println(s);
    }

    /** A lease from an offheap {@link BufferPool}, used through its {@code MemorySegment}. */
    static class Offheap extends Allocator {
        final BufferPool pool;

        Offheap(BufferPool pool, int size) {
            super(size);
            this.pool = pool;
        }

        @Override
        Object acquire(int bytes) {
            BufferLease b = pool.acquire(bytes);
            MemorySegment s = b.segment();
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, MARK);
            s.set(ValueLayout.JAVA_BYTE, bytes - 1, (byte) 1);
            return b;
        }

        @Override
        void release(Object handle) {
            ((BufferLease) handle).release();
        }

        @Override
        void close() {
            pool.close();
        }
    }
    /**
     * The same, used through its {@code ByteBuffer} (a new one per lease). Only one of the two classes is
     * instantiated in a fork, so the call sites stay monomorphic.
     */
    static final class OffheapByteBuffer extends Offheap {
        OffheapByteBuffer(BufferPool pool, int size) {
            super(pool, size);
        }

        @Override
        Object acquire(int bytes) {
            BufferLease b = pool.acquire(bytes);
            java.nio.ByteBuffer bb = b.byteBuffer();
            if (bytes >= 8) {
                bb.putLong(0, MARK);
            }
            bb.put(bytes - 1, (byte) 1);
            return b;
        }
    }


    /** {@code ByteBuffer.allocate}: zeroed heap memory, freed by the GC. */
    static final class Heap extends Allocator {
        Heap(int size) {
            super(size);
        }

        @Override
        Object acquire(int bytes) {
            ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.nativeOrder());
            b.putLong(0, MARK);
            b.put(bytes - 1, (byte) 1);
            return b;
        }

        @Override
        void release(Object handle) {
            // Nothing to do: the buffer becomes garbage once the caller drops the handle.
        }
    }

    /**
     * {@code ByteBuffer.allocateDirect}: zeroed native memory, given back only when the GC finds the buffer
     * dead and its Cleaner runs. Nothing here keeps a reference, so every buffer dies as soon as the benchmark
     * drops it.
     *
     * <p>Steady state: the direct memory limit defaults to the heap size (1 GiB, see {@link ForkFlags}), and
     * reserving past it makes {@code allocateDirect} call {@code System.gc()} and wait for Cleaners. At 16 KiB
     * that limit is a few seconds of allocation at most (64 Ki buffers), and long before that young
     * collections (each buffer leaves ~150 bytes of heap objects) free the dead ones. The warmup iterations
     * are there so measurement starts in that steady state; {@code -prof gc} shows it: {@code gc.count} of
     * every {@code direct} measurement must be above zero, or the iterations were too short to include the
     * cost of freeing.
     */
    static final class Direct extends Allocator {
        Direct(int size) {
            super(size);
        }

        @Override
        Object acquire(int bytes) {
            ByteBuffer b = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
            b.putLong(0, MARK);
            b.put(bytes - 1, (byte) 1);
            return b;
        }

        @Override
        void release(Object handle) {
            // Nothing to do: the GC finds the buffer dead and its Cleaner frees the memory.
        }
    }

    /**
     * A confined arena per buffer: {@code Arena.ofConfined()}, {@code allocate(size)} (malloc and zeroing),
     * {@code close()} (free). Confined to the thread that created it, so only for single-thread benchmarks.
     */
    static final class ArenaConfined extends Allocator {
        ArenaConfined(int size) {
            super(size);
        }

        @Override
        Object acquire(int bytes) {
            Arena arena = Arena.ofConfined();
            MemorySegment s = arena.allocate(bytes);
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, MARK);
            s.set(ValueLayout.JAVA_BYTE, bytes - 1, (byte) 1);
            return arena;
        }

        @Override
        void release(Object handle) {
            ((Arena) handle).close();
        }
    }

    /** A direct {@code ByteBuf} from a Netty allocator. */
    static final class Netty extends Allocator {
        final ByteBufAllocator alloc;

        Netty(ByteBufAllocator alloc, int size) {
            super(size);
            this.alloc = alloc;
        }

        @Override
        Object acquire(int bytes) {
            ByteBuf b = alloc.directBuffer(bytes);
            b.setLongLE(0, MARK);
            b.setByte(bytes - 1, 1);
            return b;
        }

        @Override
        void release(Object handle) {
            ((ByteBuf) handle).release();
        }
    }

    /**
     * No allocator at all, the floor no allocator can beat: {@value #BUFFERS} buffers of {@link #size} bytes,
     * carved from one native allocation made up front, handed out in turn; release does nothing. More buffers
     * than {@link CrossThreadBenchmark}'s ring holds, so a buffer comes round again only after its previous
     * round has left the ring. What remains is the hand-off and the cache-line traffic of the memory written.
     * {@link #acquire} must be called by one thread at a time (the producer).
     */
    static final class Handoff extends Allocator {
        static final int BUFFERS = 4096;

        private final Arena arena = Arena.ofShared();
        private final MemorySegment[] buffers = new MemorySegment[BUFFERS];
        private int next;

        Handoff(int size) {
            super(size);
            // Each buffer starts on a line of its own, as a pool's slots do.
            long stride = (size + 63L) & -64L;
            MemorySegment all = arena.allocate(stride * BUFFERS, 4096);
            for (int i = 0; i < BUFFERS; i++) {
                buffers[i] = all.asSlice(i * stride, size);
            }
        }

        @Override
        Object acquire(int bytes) {
            MemorySegment s = buffers[next++ & (BUFFERS - 1)];
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, MARK);
            s.set(ValueLayout.JAVA_BYTE, bytes - 1, (byte) 1);
            return s;
        }

        @Override
        void release(Object handle) {
            // Nothing to do: the buffer simply comes round again.
        }

        @Override
        void close() {
            arena.close();
        }
    }
}
