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
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.nio.ByteBuffer;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One buffer's life as Netty's socket paths see it, on plain threads: {@code alloc.directBuffer(size)}, a
 * byte written, {@code internalNioBuffer(0, size)} taken once (what a channel read or write hands the JDK),
 * {@code release()}. {@link NettyBufferCycleOnEventLoopBenchmark} runs the same on Netty's event-loop thread
 * type; run both with {@code -prof gc} for the heap bytes each buffer costs ({@code gc.alloc.rate.norm}).
 *
 * <p>Allocators ({@link NettyAllocatorBenchmark.Shared}, the same state) and fork flags as in
 * {@link NettyAllocatorBenchmark}: Netty as shipped on JDK 25 (no Unsafe,
 * leak detection {@code SIMPLE}), Netty pooled with a thread cache for every thread, adaptive with
 * thread-local magazines for every thread, offheap's pool with its defaults.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS,
        ForkFlags.NETTY_CACHE_ALL})
public class NettyBufferCycleBenchmark {

    @Param({"128", "1024", "16384", "65536"})
    int size;

    /** Fails the trial if the benchmark thread is not of the type this benchmark claims to measure. */
    @Setup(Level.Trial)
    public void checkThread(NettyAllocatorBenchmark.Shared shared) {
        Thread thread = Thread.currentThread();
        if (thread instanceof FastThreadLocalThread != onEventLoopThreads()) {
            throw new IllegalStateException("benchmark thread " + thread + " is a " + thread.getClass().getName()
                    + ", expected " + (onEventLoopThreads() ? "" : "no ") + "FastThreadLocalThread");
        }
        ByteBuf probe = shared.alloc.directBuffer(size);
        System.err.println("\n# " + shared.allocator + " on " + thread.getClass().getSimpleName() + ": "
                + probe.getClass().getName());
        probe.release();
    }

    /** Whether this benchmark's threads are Netty's event-loop thread type. */
    boolean onEventLoopThreads() {
        return false;
    }

    /** Acquire, write a byte, take the socket path's NIO view once, release. */
    @Benchmark
    public ByteBuf cycle(NettyAllocatorBenchmark.Shared shared, Blackhole bh) {
        ByteBuf buf = shared.alloc.directBuffer(size);
        buf.writeByte(1);
        ByteBuffer nio = buf.internalNioBuffer(0, size);
        bh.consume(nio);
        buf.release();
        return buf;
    }
}
