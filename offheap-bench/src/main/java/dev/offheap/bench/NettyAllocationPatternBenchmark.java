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

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Netty's own allocation pattern ({@code ByteBufAllocatorBenchmark} in Netty's microbenchmarks): 8192 buffers
 * live at once, and each step releases one picked at random and allocates a new one of {@code size} in its
 * place, so buffers are released out of order and the pool's free lists, not a LIFO cache hit, decide. Every
 * thread has its own buffers and its own fixed sequence of random indices (the same for every allocator). On
 * plain threads; {@link NettyAllocationPatternOnEventLoopBenchmark} runs it on Netty's event-loop thread type.
 * Allocators and fork flags as in {@link NettyAllocatorBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS,
        ForkFlags.NETTY_CACHE_ALL})
public class NettyAllocationPatternBenchmark {
    private static final int LIVE_BUFFERS = 8192;
    private static final int INDICES = 128 * 1024;

    @Param({"0", "256", "1024", "4096", "16384", "65536"})
    int size;

    private final ByteBuf[] live = new ByteBuf[LIVE_BUFFERS];
    private final short[] indices = new short[INDICES];
    private int next;

    @Setup(Level.Trial)
    public void setup() {
        Thread thread = Thread.currentThread();
        if (thread instanceof FastThreadLocalThread != onEventLoopThreads()) {
            throw new IllegalStateException("benchmark thread " + thread + " is a " + thread.getClass().getName()
                    + ", expected " + (onEventLoopThreads() ? "" : "no ") + "FastThreadLocalThread");
        }
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < INDICES; i++) {
            indices[i] = (short) random.nextInt(LIVE_BUFFERS);
        }
    }

    /** Whether this benchmark's threads are Netty's event-loop thread type. */
    boolean onEventLoopThreads() {
        return false;
    }

    /** Releases what is still live before the allocator's trial ends. */
    @TearDown(Level.Trial)
    public void releaseAll() {
        for (int i = 0; i < LIVE_BUFFERS; i++) {
            if (live[i] != null) {
                live[i].release();
                live[i] = null;
            }
        }
    }

    /** Release the buffer at a random index (if any) and allocate a new one there. */
    @Benchmark
    public void allocAndFree(NettyAllocatorBenchmark.Shared shared) {
        int index = indices[next++ & (INDICES - 1)];
        ByteBuf old = live[index];
        if (old != null) {
            old.release();
        }
        live[index] = shared.alloc.directBuffer(size);
    }
}
