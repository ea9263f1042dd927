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

import dev.offheap.metrics.PoolMXBean;

/**
 * The meters every pool has, from {@link PoolMXBean}: {@code offheap.pool.from.os}, {@code .in.use},
 * {@code .cached}, {@code .peak} and, when the pool's budget has a limit, {@code .limit} (bytes).
 * {@link BufferPoolMeters} and {@link ChunkPoolMeters} add their own to these.
 */
final class PoolMeters {
    private PoolMeters() {}

    static <T extends PoolMXBean> void bindCommon(TaggedMeters<T> meters, T figures, String heldFromOs,
            String inUse, String cached) {
        meters.bytes("offheap.pool.from.os", heldFromOs, PoolMXBean::getBytesFromOs);
        meters.bytes("offheap.pool.in.use", inUse, PoolMXBean::getBytesInUse);
        meters.bytes("offheap.pool.cached", cached, PoolMXBean::getBytesCached);
        meters.bytes("offheap.pool.peak", "The most bytes ever held from the OS at once", PoolMXBean::getPeakBytes);
        if (figures.getLimitBytes() != Long.MAX_VALUE) {
            meters.bytes("offheap.pool.limit", "The limit of the pool's budget", PoolMXBean::getLimitBytes);
        }
    }
}
