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

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * JMH's executor for benchmarks that must run on the thread type of Netty's event loops: every benchmark
 * thread is a {@code FastThreadLocalThread} made by Netty's {@code DefaultThreadFactory}, as the threads of an
 * {@code EventLoopGroup} are, so Netty's allocators take their event-loop paths (the pooled allocator's
 * thread cache and its {@code Recycler}, which recycles {@code ByteBuf} objects on such threads only; the
 * adaptive allocator's thread-local magazines). The benchmark body runs on the thread itself, with no hand-off
 * per operation: the way Netty's own microbenchmarks run ({@code AbstractMicrobenchmark.HarnessExecutor}).
 *
 * <p>A fork uses it with {@code -Djmh.executor=CUSTOM -Djmh.executor.class=dev.offheap.bench.EventLoopThreads}
 * ({@link ForkFlags#EVENT_LOOP_EXECUTOR}, {@link ForkFlags#EVENT_LOOP_EXECUTOR_CLASS}); JMH calls the
 * {@code (int, String)} constructor.
 */
public final class EventLoopThreads extends ThreadPoolExecutor {

    /**
     * A fixed pool of {@code maxThreads} FastThreadLocalThreads named after {@code prefix}.
     *
     * @param maxThreads the number of benchmark threads JMH runs
     * @param prefix     JMH's thread name prefix
     */
    public EventLoopThreads(int maxThreads, String prefix) {
        super(maxThreads, maxThreads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                new DefaultThreadFactory(prefix));
    }
}
