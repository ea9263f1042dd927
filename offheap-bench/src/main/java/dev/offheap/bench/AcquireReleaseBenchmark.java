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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One thread acquires a buffer, writes its first long and its last byte, and releases it: the cost of a
 * buffer's whole life when it never leaves its thread.
 *
 * <ul>
 *   <li>{@code offheap}: {@code BufferPool} with its defaults (thread caches, leak sampling 1 in 4096).</li>
 *   <li>{@code offheap-noleak}: leak sampling off ({@code leakSampling(0)}).</li>
 *   <li>{@code offheap-checked}: checked mode, a shared arena per lease.</li>
 *   <li>{@code offheap-nouaf}: use-after-release sampling off; {@code offheap-uaf-every}: every lease sampled
 *   (views in an arena of their own, acquire and release sites recorded), the cost the default interval
 *   amortizes.</li>
 *   <li>{@code offheap-bytebuffer}: the default pool used through {@code byteBuffer()} (a new ByteBuffer per
 *   lease) instead of {@code segment()}.</li>
 *   <li>{@code offheap-nocache}: no thread caches ({@code threadCaches(0)}), the path of virtual threads.</li>
 *   <li>{@code heap}: {@code ByteBuffer.allocate}; {@code direct}: {@code ByteBuffer.allocateDirect}.</li>
 *   <li>{@code arena-confined}: {@code Arena.ofConfined()}, {@code allocate(size)}, {@code close()}.</li>
 *   <li>{@code netty-pooled}: {@code PooledByteBufAllocator}, direct, thread cache for all threads.</li>
 *   <li>{@code netty-adaptive}: {@code AdaptiveByteBufAllocator}, direct, thread-local magazines.</li>
 * </ul>
 *
 * Each {@code @Param} combination runs in forks of its own (JMH's default), so the allocator's call site is
 * monomorphic; the JVM flags are in {@link ForkFlags} (fixed 1 GiB heap, native access, Netty's Unsafe path).
 * For {@code direct}, see {@link Allocator.Direct} on why iterations must be long enough for the GC to free
 * buffers in each of them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS,
        ForkFlags.UNSAFE_ALLOW, ForkFlags.NETTY_CACHE_ALL, ForkFlags.NETTY_NO_LEAK_DETECTION})
public class AcquireReleaseBenchmark {

    @Param({"128", "1024", "16384", "65536"})
    int size;

    @Param({"offheap", "offheap-noleak", "offheap-nouaf", "offheap-uaf-every", "offheap-bytebuffer", "offheap-checked",
            "offheap-nocache", "heap", "direct", "arena-confined",
            "netty-pooled", "netty-adaptive"})
    String allocator;

    private Allocator alloc;

    @Setup(Level.Trial)
    public void setup() {
        alloc = Allocator.create(allocator, size);
        if (allocator.startsWith("netty")) {
            Allocator.printNettyPath(allocator, alloc);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        alloc.close();
    }

    /**
     * Acquire, use, release. The handle goes back to JMH (into its Blackhole) so that the JIT cannot drop a
     * heap buffer by escape analysis; it is dropped right after, so nothing is retained.
     */
    @Benchmark
    public Object acquireRelease() {
        Allocator a = alloc;
        Object handle = a.acquire();
        a.release(handle);
        return handle;
    }
}
