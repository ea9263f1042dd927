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

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link NettyAllocationPatternBenchmark} with every benchmark thread a {@code FastThreadLocalThread}
 * ({@link EventLoopThreads}), as Netty's own microbenchmarks run it.
 */
@Fork(value = 2, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS,
        ForkFlags.NETTY_CACHE_ALL, ForkFlags.EVENT_LOOP_EXECUTOR, ForkFlags.EVENT_LOOP_EXECUTOR_CLASS})
public class NettyAllocationPatternOnEventLoopBenchmark extends NettyAllocationPatternBenchmark {

    @Override
    boolean onEventLoopThreads() {
        return true;
    }
}
