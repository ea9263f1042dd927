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

package dev.offheap.lab.bench;

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Get a buffer of {@code size} bytes, write its first long and its last byte, give it back. The buffer goes
 * to JMH's Blackhole, so escape analysis cannot remove a heap allocation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AllocBench {
    static final long MARK = 0x0123_4567_89AB_CDEFL;

    @Param({"128"})
    public int size;

    private BufferPool pool;
    private BufferPool tunedPool;
    private PooledByteBufAllocator netty;

    @Setup(Level.Trial)
    public void setup() {
        pool = BufferPool.builder().build();
        // Pools every size the lab asks for, 16 MiB included (the default pools up to 1 MiB).
        tunedPool = BufferPool.builder().largestPooledSize(16 << 20).maxSlabSize(64L << 20).build();
        netty = new PooledByteBufAllocator(true, PooledByteBufAllocator.defaultNumHeapArena(),
                PooledByteBufAllocator.defaultNumDirectArena(), PooledByteBufAllocator.defaultPageSize(),
                PooledByteBufAllocator.defaultMaxOrder(), PooledByteBufAllocator.defaultSmallCacheSize(),
                PooledByteBufAllocator.defaultNormalCacheSize(), true);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.close();
        tunedPool.close();
    }

    @Benchmark
    public Object allocate() {
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        b.putLong(0, MARK);
        b.put(size - 1, (byte) 1);
        return b;
    }

    /** The usual JMH benchmark of heap allocation, nothing else: the reference the allocate row is checked against. */
    @Benchmark
    public Object allocateAlone() {
        return ByteBuffer.allocate(size);
    }

    @Benchmark
    public Object allocateDirect() {
        ByteBuffer b = ByteBuffer.allocateDirect(size).order(ByteOrder.nativeOrder());
        b.putLong(0, MARK);
        b.put(size - 1, (byte) 1);
        return b;
    }

    @Benchmark
    public Object arenaConfined() {
        Arena arena = Arena.ofConfined();
        MemorySegment s = arena.allocate(size);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, MARK);
        s.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 1);
        arena.close();
        return arena;
    }

    @Benchmark
    public Object offheapPool() {
        BufferLease b = pool.acquire(size);
        MemorySegment s = b.segment();
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, MARK);
        s.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 1);
        b.release();
        return b;
    }

    @Benchmark
    public Object offheapPoolTuned() {
        BufferLease b = tunedPool.acquire(size);
        MemorySegment s = b.segment();
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, MARK);
        s.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 1);
        b.release();
        return b;
    }

    @Benchmark
    public Object nettyPooled() {
        ByteBuf b = netty.directBuffer(size);
        b.setLongLE(0, MARK);
        b.setByte(size - 1, 1);
        b.release();
        return b;
    }
}
