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

import dev.offheap.buffer.BufferPool;
import dev.offheap.netty.OffheapByteBufAllocator;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
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
 * Netty's own style of allocator benchmark: {@code alloc.directBuffer(size)} then {@code release()}, through
 * the {@code ByteBufAllocator} interface, so the {@code ByteBuf} object and Netty's leak-detector wrapper are
 * part of the cost. Run with {@code -t 1} and {@code -t 2} (each thread has its own stream of sizes).
 *
 * <ul>
 *   <li>{@code offheap}: {@link OffheapByteBufAllocator} on a {@code BufferPool} with its defaults.</li>
 *   <li>{@code offheap-recycling}: the same with {@code recycleBuffers(true)}, the frameworks' level of
 *   safety (a released buffer is handed out again with its memory's next lease).</li>
 *   <li>{@code netty-pooled}: {@code PooledByteBufAllocator} with a thread cache for every thread
 *   ({@link Allocator#nettyPooled()}, its best case).</li>
 *   <li>{@code netty-adaptive}: {@code AdaptiveByteBufAllocator}, Netty 4.2's default, with thread-local
 *   magazines for JMH's threads.</li>
 *   <li>{@code netty-unpooled}: {@code UnpooledByteBufAllocator.DEFAULT}, for scale.</li>
 * </ul>
 *
 * The forks run Netty as shipped on JDK 25: no {@code --sun-misc-unsafe-memory-access=allow} (so Netty takes
 * its no-Unsafe path) and Netty's default leak detection ({@code SIMPLE}, one allocation in 128 tracked);
 * offheap's pool samples its own leaks one in 4096, as by default. Size {@code random} draws from
 * {@link RandomSizes}, the same sequence for every allocator.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS,
        ForkFlags.NETTY_CACHE_ALL})
public class NettyAllocatorBenchmark {

    /** One allocator per trial, shared by the benchmark's threads, as a server shares its allocator. */
    @State(Scope.Benchmark)
    public static class Shared {
        @Param({"offheap", "offheap-recycling", "netty-pooled", "netty-adaptive", "netty-unpooled"})
        String allocator;

        BufferPool pool;
        ByteBufAllocator alloc;

        @Setup(Level.Trial)
        public void setup() {
            alloc = switch (allocator) {
                case "offheap" -> new OffheapByteBufAllocator(pool = BufferPool.create());
                case "offheap-recycling" ->
                        OffheapByteBufAllocator.builder(pool = BufferPool.create()).recycleBuffers(true).build();
                case "netty-pooled" -> Allocator.nettyPooled();
                case "netty-adaptive" -> new AdaptiveByteBufAllocator(true, true);
                case "netty-unpooled" -> UnpooledByteBufAllocator.DEFAULT;
                default -> throw new IllegalArgumentException("unknown allocator " + allocator);
            };
            ByteBuf probe = alloc.directBuffer(128);
            System.err.println("\n# " + allocator + ": " + probe.getClass().getName() + " hasMemoryAddress="
                    + probe.hasMemoryAddress());
            probe.release();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            if (pool != null) {
                pool.close();
            }
        }
    }

    @Param({"128", "1024", "8192", "16384", "65536", "random"})
    String size;

    private int[] sizes;
    private int next;

    @Setup(Level.Trial)
    public void sizes() {
        sizes = size.equals("random") ? RandomSizes.table() : new int[] {Integer.parseInt(size)};
    }

    /** Allocate and release; the released buffer goes to JMH's Blackhole, as it would escape into a pipeline. */
    @Benchmark
    public ByteBuf directBufferRelease(Shared shared) {
        int[] s = sizes;
        ByteBuf buf = shared.alloc.directBuffer(s[next++ & (s.length - 1)]);
        buf.release();
        return buf;
    }
}
