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

import dev.offheap.metrics.ChunkPoolMXBean;
import dev.offheap.store.ChunkPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * A {@link ChunkPool}'s meters: {@code offheap.pool.from.os}, {@code .in.use}, {@code .cached},
 * {@code .peak} and {@code .limit} (bytes of memory chunks), {@code offheap.pool.spill} and
 * {@code offheap.pool.spill.in.use} (bytes of spill file chunks), {@code offheap.pool.arrays} (live arrays),
 * tagged {@code type=ChunkPool} and {@code name=<pool name>}.
 */
public final class ChunkPoolMeters implements MeterBinder {
    private final ChunkPool pool;
    private final Iterable<Tag> tags;

    /**
     * Meters for {@code pool}, with only the {@code type} and {@code name} tags.
     *
     * @param pool the pool to read
     * @throws NullPointerException if {@code pool} is null
     */
    public ChunkPoolMeters(ChunkPool pool) {
        this(pool, Tags.empty());
    }

    /**
     * Meters for {@code pool}, with {@code tags} added to the {@code type} and {@code name} tags.
     *
     * @param pool the pool to read
     * @param tags more tags for every meter, e.g. the application's
     * @throws NullPointerException if an argument is null
     */
    public ChunkPoolMeters(ChunkPool pool, Iterable<Tag> tags) {
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
        ChunkPoolMXBean figures = pool.metrics();
        TaggedMeters<ChunkPoolMXBean> meters =
                new TaggedMeters<>(registry, figures, "ChunkPool", pool.name(), tags);
        PoolMeters.bindCommon(meters, figures, "Memory chunks with memory behind them",
                "Memory chunks held by arrays", "Memory chunks free until trim");
        meters.bytes("offheap.pool.spill", "Spill file chunks with space behind them",
                ChunkPoolMXBean::getSpillBytes);
        meters.bytes("offheap.pool.spill.in.use", "Spill file chunks held by arrays",
                ChunkPoolMXBean::getSpillBytesInUse);
        meters.gauge("offheap.pool.arrays", "Arrays not yet released", ChunkPoolMXBean::getLiveArrays);
    }
}
