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

/**
 * JVM flags every benchmark fork gets (used in the {@code @Fork(jvmArgsAppend = ...)} of each benchmark, so
 * that every allocator runs in the same JVM setup). Passing {@code -jvmArgsAppend} on the JMH command line
 * replaces these, so add to them there rather than override them.
 */
final class ForkFlags {
    /**
     * A fixed 1 GiB heap. {@code ByteBuffer.allocateDirect}'s cost swings with the heap size: direct memory is
     * only given back when the GC finds the dead buffers, and the direct memory limit
     * ({@code -XX:MaxDirectMemorySize}) defaults to the maximum heap size. With {@code -Xms} = {@code -Xmx}
     * the heap does not resize during a run, so GC frequency, and with it the cost of {@code direct}, is
     * reproducible.
     */
    static final String HEAP_MIN = "-Xms1g";
    static final String HEAP_MAX = "-Xmx1g";
    /**
     * {@link StoreBenchmark}'s fixed 6 GiB heap: its {@code double-array} layout holds a 4 GiB {@code double[]}
     * (one G1 humongous object) next to 16 MiB of gather indices. Every layout of that benchmark gets the same
     * heap, so that only the storage differs; the direct memory limit follows it (6 GiB, enough for the 4 GiB
     * of direct {@code ByteBuffer} chunks of the Sonic Field peers).
     */
    static final String STORE_HEAP_MIN = "-Xms6g";
    static final String STORE_HEAP_MAX = "-Xmx6g";
    /** The collector is picked explicitly: ergonomics choose Serial GC on small machines, G1 on others. */
    static final String GC = "-XX:+UseG1GC";
    /** offheap-core calls restricted FFM methods; it runs from the class path here. */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /**
     * Netty's fastest path reads and writes direct memory through Unsafe, which JDK 24+ denies by default
     * (JEP 498). This plain JVM flag allows it; whether Netty took that path is printed by each Netty fork
     * (see {@link Allocator#printNettyPath}).
     */
    static final String UNSAFE_ALLOW = "--sun-misc-unsafe-memory-access=allow";
    /**
     * JMH's threads are not Netty event-loop threads: without this, PooledByteBufAllocator gives them no
     * thread cache. The netty-pooled allocator also asks for it in its constructor; the property covers
     * anything created with defaults.
     */
    static final String NETTY_CACHE_ALL = "-Dio.netty.allocator.useCacheForAllThreads=true";

    /**
     * Netty samples 1 buffer in 128 for leak tracking by default (SIMPLE), which allocates. Its fastest path
     * has leak detection off; offheap is measured both with its default sampling ({@code offheap}) and
     * without ({@code offheap-noleak}).
     */
    static final String NETTY_NO_LEAK_DETECTION = "-Dio.netty.leakDetection.level=disabled";

    /**
     * Runs the fork's benchmark threads as Netty's event-loop thread type ({@link EventLoopThreads}): JMH's
     * custom executor, with {@link #EVENT_LOOP_EXECUTOR_CLASS}.
     */
    static final String EVENT_LOOP_EXECUTOR = "-Djmh.executor=CUSTOM";
    /** The executor class {@link #EVENT_LOOP_EXECUTOR} names. */
    static final String EVENT_LOOP_EXECUTOR_CLASS = "-Djmh.executor.class=dev.offheap.bench.EventLoopThreads";

    private ForkFlags() {}
}
