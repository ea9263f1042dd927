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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.offheap.account.MemoryBudget;
import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.DoubleArray;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The binders' gauges show the same figures as JMX, tagged with type and name. */
class MetersTest {
    private static final double SLAB = 64 * 1024;

    private final MeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void bufferPoolGauges() {
        try (BufferPool pool = BufferPool.builder().name("meters-io").leakSampling(0).jmx(false)
                .budget(MemoryBudget.root("meters-io-budget", 1L << 20)).build()) {
            List<BufferLease> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                held.add(pool.acquire(1000));
            }
            new BufferPoolMeters(pool, Tags.of("app", "test")).bindTo(registry);

            Tags tags = Tags.of("type", "BufferPool", "name", "meters-io", "app", "test");
            assertThat(gauge("offheap.pool.from.os", tags).value()).isEqualTo(SLAB);
            assertThat(gauge("offheap.pool.in.use", tags).value()).isEqualTo(3 * 1024);
            assertThat(gauge("offheap.pool.cached", tags).value()).isEqualTo(SLAB - 3 * 1024);
            assertThat(gauge("offheap.pool.peak", tags).value()).isEqualTo(SLAB);
            assertThat(gauge("offheap.pool.limit", tags).value()).isEqualTo(1 << 20);
            assertThat(gauge("offheap.pool.leases", tags).value()).isEqualTo(3);
            // the first acquire refilled this thread's cache (a miss), the other two were hits
            assertThat(gauge("offheap.pool.thread.cache.hit.rate", tags).value()).isCloseTo(2.0 / 3, within(1e-9));
            assertThat(gauge("offheap.pool.thread.cache", tags).value()).isEqualTo(61 * 1024);
            assertThat(registry.get("offheap.pool.leaks").tags(tags).functionCounter().count()).isZero();
            assertThat(gauge("offheap.pool.from.os", tags).getId().getBaseUnit()).isEqualTo("bytes");
            held.forEach(BufferLease::release);
        }
    }

    @Test
    void chunkPoolGauges() {
        long chunk = 64 * 1024;
        try (ChunkPool pool = ChunkPool.builder().name("meters-store").chunkSize(chunk).jmx(false).build()) {
            new ChunkPoolMeters(pool).bindTo(registry);
            Tags tags = Tags.of("type", "ChunkPool", "name", "meters-store");
            try (DoubleArray array = pool.doubles(2 * chunk / Double.BYTES)) {
                array.set(1, 3.0);
                assertThat(gauge("offheap.pool.from.os", tags).value()).isEqualTo(2 * chunk);
                assertThat(gauge("offheap.pool.in.use", tags).value()).isEqualTo(2 * chunk);
                assertThat(gauge("offheap.pool.arrays", tags).value()).isEqualTo(1);
            }
            assertThat(gauge("offheap.pool.in.use", tags).value()).isZero();
            assertThat(gauge("offheap.pool.cached", tags).value()).isEqualTo(2 * chunk);
            pool.trim();
            assertThat(gauge("offheap.pool.from.os", tags).value()).isZero();
            assertThat(gauge("offheap.pool.peak", tags).value()).isEqualTo(2 * chunk);
            assertThat(gauge("offheap.pool.spill", tags).value()).isZero();
            assertThat(registry.find("offheap.pool.limit").tags(tags).gauge()).as("no limit, no gauge").isNull();
        }
    }

    @Test
    void budgetGauges() {
        MemoryBudget root = MemoryBudget.root("meters-process", 1000);
        MemoryBudget child = root.child("io", MemoryBudget.UNLIMITED);
        new MemoryBudgetMeters(root).bindTo(registry);
        new MemoryBudgetMeters(child).bindTo(registry);
        child.charge(600);
        child.release(200);

        Tags rootTags = Tags.of("type", "MemoryBudget", "name", "meters-process");
        Tags childTags = Tags.of("type", "MemoryBudget", "name", "meters-process/io");
        assertThat(gauge("offheap.budget.used", rootTags).value()).isEqualTo(400);
        assertThat(gauge("offheap.budget.peak", rootTags).value()).isEqualTo(600);
        assertThat(gauge("offheap.budget.limit", rootTags).value()).isEqualTo(1000);
        assertThat(gauge("offheap.budget.used", childTags).value()).isEqualTo(400);
        assertThat(registry.find("offheap.budget.limit").tags(childTags).gauge()).isNull();
        child.release(400);
    }

    private Gauge gauge(String name, Tags tags) {
        return registry.get(name).tags(tags).gauge();
    }
}
