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

package dev.offheap.micrometer;

import dev.offheap.buffer.BufferPool;
import dev.offheap.metrics.BufferPoolMXBean;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * A {@link BufferPool}'s meters: {@code offheap.pool.from.os}, {@code .in.use}, {@code .cached},
 * {@code .peak} and {@code .limit} (bytes), {@code offheap.pool.leases}, {@code offheap.pool.leaks}
 * (a counter) and {@code offheap.pool.thread.cache.hit.rate}, tagged {@code type=BufferPool} and
 * {@code name=<pool name>}.
 */
public final class BufferPoolMeters implements MeterBinder {
    private final BufferPool pool;
    private final Iterable<Tag> tags;

    /**
     * Meters for {@code pool}, with only the {@code type} and {@code name} tags.
     *
     * @param pool the pool to read
     * @throws NullPointerException if {@code pool} is null
     */
    public BufferPoolMeters(BufferPool pool) {
        this(pool, Tags.empty());
    }

    /**
     * Meters for {@code pool}, with {@code tags} added to the {@code type} and {@code name} tags.
     *
     * @param pool the pool to read
     * @param tags more tags for every meter, e.g. the application's
     * @throws NullPointerException if an argument is null
     */
    public BufferPoolMeters(BufferPool pool, Iterable<Tag> tags) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    /**
     * Registers the meters in {@code registry}; each reads the pool's figures when the registry asks for it.
     *
     * @param registry where the meters go
     * @throws NullPointerException if {@code registry} is null
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        BufferPoolMXBean figures = pool.metrics();
        TaggedMeters<BufferPoolMXBean> meters =
                new TaggedMeters<>(registry, figures, "BufferPool", pool.name(), tags);
        PoolMeters.bindCommon(meters, figures, "Memory the pool holds from the OS", "Slots of buffers leased now",
                "Memory held but not leased");
        meters.gauge("offheap.pool.leases", "Buffers leased now", BufferPoolMXBean::getLeases);
        meters.counter("offheap.pool.leaks", "Leases found unreachable without release",
                BufferPoolMXBean::getLeaks);
        meters.gauge("offheap.pool.thread.cache.hit.rate", "Share of acquires served by a thread cache",
                BufferPoolMXBean::getThreadCacheHitRate);
        meters.bytes("offheap.pool.thread.cache", "Free buffers held in thread caches",
                BufferPoolMXBean::getThreadCacheBytes);
    }
}
