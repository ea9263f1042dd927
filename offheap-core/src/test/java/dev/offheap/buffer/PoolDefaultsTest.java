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

package dev.offheap.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.store.ChunkPool;
import org.junit.jupiter.api.Test;

/** What a pool gets without settings. */
class PoolDefaultsTest {

    @Test
    void createBuildsAWorkingPoolWithADefaultName() {
        BufferPool closed;
        try (BufferPool pool = BufferPool.create()) {
            closed = pool;
            assertThat(pool.isClosed()).isFalse();
            assertThat(pool.name()).startsWith("buffer-pool-");
            try (BufferLease buffer = pool.acquire(100)) {
                assertThat(buffer.size()).isEqualTo(100);
            }
            assertThat(pool.stats().acquires()).isEqualTo(1);
        }
        assertThat(closed.isClosed()).isTrue();
    }

    /** Both pools' builders: a default name counting the pools, and one rule for a name given (budget paths use it). */
    @Test
    void bothPoolsNameThemselvesAlikeAndRefuseANameABudgetPathCannotHold() {
        try (BufferPool buffers = BufferPool.builder().jmx(false).build();
             ChunkPool store = ChunkPool.builder().jmx(false).build()) {
            assertThat(buffers.name()).matches("buffer-pool-\\d+");
            assertThat(store.name()).matches("chunk-pool-\\d+");
            assertThat(store.budget().path()).isEqualTo(store.name());
        }
        for (String bad : new String[] {"", "  ", "io/buffers"}) {
            assertThatThrownBy(() -> BufferPool.builder().name(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("pool name must be non-blank and contain no '/': '" + bad + "'");
            assertThatThrownBy(() -> ChunkPool.builder().name(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("pool name must be non-blank and contain no '/': '" + bad + "'");
        }
    }

    /** Twice the processors, rounded up to a power of two, at least 16 and at most 1024 stripes. */
    @Test
    void stripesPerClassAreTwiceTheProcessorsRoundedUpToAPowerOfTwo() {
        assertThat(BufferPool.Builder.defaultStripes(1)).isEqualTo(16);
        assertThat(BufferPool.Builder.defaultStripes(8)).isEqualTo(16);
        assertThat(BufferPool.Builder.defaultStripes(9)).isEqualTo(32);
        assertThat(BufferPool.Builder.defaultStripes(16)).isEqualTo(32);
        assertThat(BufferPool.Builder.defaultStripes(17)).isEqualTo(64);
        assertThat(BufferPool.Builder.defaultStripes(100)).isEqualTo(256);
        assertThat(BufferPool.Builder.defaultStripes(512)).isEqualTo(1024);
        assertThat(BufferPool.Builder.defaultStripes(5000)).isEqualTo(1024);
    }

    /** Without the setting, max(4, 2 x processors) threads may keep a cache: the bound of their memory says so. */
    @Test
    void theDefaultNumberOfThreadCachesIsTwiceTheProcessorsAndAtLeastFour() {
        int expected = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        try (BufferPool byDefault = BufferPool.builder().jmx(false).build();
             BufferPool explicit = BufferPool.builder().jmx(false).threadCaches(expected).build();
             BufferPool one = BufferPool.builder().jmx(false).threadCaches(1).build()) {
            long oneFullCache = one.stats().threadCacheLimitBytes();
            assertThat(oneFullCache).isPositive();
            assertThat(byDefault.stats().threadCacheLimitBytes()).isEqualTo(expected * oneFullCache)
                    .isEqualTo(explicit.stats().threadCacheLimitBytes());
        }
    }
}
