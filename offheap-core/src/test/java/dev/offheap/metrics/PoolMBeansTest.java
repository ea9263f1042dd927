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

package dev.offheap.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.account.MemoryBudget;
import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.DoubleArray;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.JMException;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pools and budgets in JMX: the names the inspect command relies on, and the figures after known operations. */
class PoolMBeansTest {
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
    private static final AtomicInteger UNIQUE = new AtomicInteger();
    /** The 1 KiB class takes 64 KiB slabs. */
    private static final long SLAB = 64 * 1024;

    @Test
    void aBufferPoolShowsWhatItHoldsUntilItCloses() throws JMException {
        String name = unique("io");
        ObjectName bean = name("BufferPool", name);
        ObjectName budgetBean = name("MemoryBudget", name);
        List<BufferLease> held = new ArrayList<>();
        try (BufferPool pool = BufferPool.builder().name(name).leakSampling(0).build()) {
            for (int i = 0; i < 10; i++) {
                held.add(pool.acquire(1000));
            }
            assertThat(SERVER.isRegistered(bean)).isTrue();
            assertThat(SERVER.getAttribute(bean, "Name")).isEqualTo(name);
            assertThat(SERVER.getAttribute(bean, "BytesFromOs")).isEqualTo(SLAB);
            assertThat(SERVER.getAttribute(bean, "BytesInUse")).isEqualTo(10 * 1024L);
            assertThat(SERVER.getAttribute(bean, "BytesCached")).isEqualTo(SLAB - 10 * 1024L);
            assertThat(SERVER.getAttribute(bean, "PeakBytes")).isEqualTo(SLAB);
            assertThat(SERVER.getAttribute(bean, "LimitBytes")).as("no limit").isEqualTo(Long.MAX_VALUE);
            assertThat(SERVER.getAttribute(bean, "Leaks")).isEqualTo(0L);
            assertThat(SERVER.getAttribute(bean, "Leases")).isEqualTo(10L);
            assertThat(SERVER.getAttribute(bean, "Acquires")).isEqualTo(10L);
            assertThat(SERVER.getAttribute(bean, "BudgetPath")).isEqualTo(name);
            // the first acquire refilled this thread's cache with one batch: the slab's 64 slots, 10 leased
            assertThat(SERVER.getAttribute(bean, "ThreadCacheBytes")).isEqualTo(54 * 1024L);
            assertThat(SERVER.getAttribute(bean, "ThreadCacheLimitBytes")).isEqualTo(
                    pool.stats().threadCacheLimitBytes()).isNotEqualTo(0L);

            assertThat(SERVER.isRegistered(budgetBean)).as("the pool's own budget").isTrue();
            assertThat(SERVER.getAttribute(budgetBean, "Path")).isEqualTo(name);
            assertThat(SERVER.getAttribute(budgetBean, "UsedBytes")).isEqualTo(SLAB);
            assertThat(SERVER.getAttribute(budgetBean, "PeakBytes")).isEqualTo(SLAB);
            assertThat(SERVER.getAttribute(budgetBean, "LimitBytes")).as("no limit").isEqualTo(Long.MAX_VALUE);

            held.forEach(BufferLease::release);
            pool.trim();
            assertThat(SERVER.getAttribute(bean, "BytesFromOs")).as("read live").isEqualTo(0L);
            assertThat(SERVER.getAttribute(bean, "PeakBytes")).isEqualTo(SLAB);
            assertThat(SERVER.getAttribute(budgetBean, "UsedBytes")).isEqualTo(0L);
        }
        assertThat(SERVER.isRegistered(bean)).isFalse();
        assertThat(SERVER.isRegistered(budgetBean)).isFalse();
    }

    @Test
    void theMXBeanInterfaceWorksAsAProxy() {
        String name = unique("proxy");
        try (BufferPool pool = BufferPool.builder().name(name).build()) {
            pool.acquire(100).release();
            BufferPoolMXBean proxy = JMX.newMXBeanProxy(SERVER, name("BufferPool", name), BufferPoolMXBean.class);
            assertThat(proxy.getName()).isEqualTo(name);
            assertThat(proxy.getBytesFromOs()).isEqualTo(pool.metrics().getBytesFromOs()).isPositive();
            assertThat(proxy.getBytesInUse()).isZero();
        }
    }

    @Test
    void aSecondPoolOfTheSameNameGetsASuffixAndTheFirstFreeOneIsReused() throws JMException {
        String name = unique("twin");
        List<BufferPool> pools = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                pools.add(BufferPool.builder().name(name).build());
            }
            assertThat(SERVER.isRegistered(name("BufferPool", name))).isTrue();
            assertThat(SERVER.getAttribute(name("BufferPool", name + "-2"), "Name")).isEqualTo(name);
            assertThat(SERVER.isRegistered(name("BufferPool", name + "-3"))).isTrue();
            // each has an unlimited budget of its own, named after it: the budgets' names get suffixes too
            assertThat(SERVER.getAttribute(name("MemoryBudget", name + "-3"), "Path")).isEqualTo(name);

            pools.get(1).close();
            assertThat(SERVER.isRegistered(name("BufferPool", name + "-2"))).isFalse();
            assertThat(SERVER.isRegistered(name("BufferPool", name + "-3"))).isTrue();
            pools.add(BufferPool.builder().name(name).build());
            assertThat(SERVER.isRegistered(name("BufferPool", name + "-2"))).isTrue();
        } finally {
            pools.forEach(BufferPool::close);
        }
        assertThat(SERVER.queryNames(pattern("BufferPool", name + "*"), null)).isEmpty();
    }

    @Test
    void aSharedBudgetAndItsAncestorsShowWhileAnyPoolUsesThem() throws JMException {
        String root = unique("process");
        MemoryBudget process = MemoryBudget.root(root, 1L << 30);
        MemoryBudget io = process.child("io", 1L << 20);
        ObjectName ioBean = name("MemoryBudget", root + "/io");
        ObjectName rootBean = name("MemoryBudget", root);
        assertThat(SERVER.isRegistered(ioBean)).as("no pool uses it yet").isFalse();

        BufferPool a = BufferPool.builder().name(unique("a")).budget(io).build();
        BufferPool b = BufferPool.builder().name(unique("b")).budget(io).build();
        a.acquire(1000).release();
        assertThat(SERVER.getAttribute(ioBean, "Path")).isEqualTo(root + "/io");
        assertThat(SERVER.getAttribute(ioBean, "LimitBytes")).isEqualTo(1L << 20);
        assertThat(SERVER.getAttribute(ioBean, "UsedBytes")).isEqualTo(SLAB);
        assertThat(SERVER.getAttribute(ioBean, "AvailableBytes")).isEqualTo((1L << 20) - SLAB);
        assertThat(SERVER.getAttribute(rootBean, "LimitBytes")).isEqualTo(1L << 30);
        assertThat(SERVER.getAttribute(rootBean, "UsedBytes")).isEqualTo(SLAB);
        assertThat(SERVER.getAttribute(name("BufferPool", a.name()), "LimitBytes")).isEqualTo(1L << 20);
        assertThat(SERVER.queryNames(pattern("MemoryBudget", root + "*"), null)).as("registered once each")
                .containsExactlyInAnyOrder(ioBean, rootBean);

        a.close();
        assertThat(SERVER.isRegistered(ioBean)).as("b still uses it").isTrue();
        assertThat(SERVER.isRegistered(rootBean)).isTrue();
        b.close();
        assertThat(SERVER.isRegistered(ioBean)).isFalse();
        assertThat(SERVER.isRegistered(rootBean)).isFalse();
    }

    @Test
    void namesObjectNameCannotHoldAreQuoted() throws JMException {
        String name = unique("a,b=c:d");
        try (BufferPool pool = BufferPool.builder().name(name).build()) {
            ObjectName bean = new ObjectName("dev.offheap:type=BufferPool,name=" + ObjectName.quote(name));
            assertThat(SERVER.getAttribute(bean, "Name")).isEqualTo(pool.name());
        }
    }

    @Test
    void jmxFalseRegistersNothing() {
        String name = unique("quiet");
        try (BufferPool pool = BufferPool.builder().name(name).jmx(false).build();
             ChunkPool store = ChunkPool.builder().name(name).jmx(false).build()) {
            pool.acquire(100).release();
            assertThat(SERVER.queryNames(pattern("*", name + "*"), null)).isEmpty();
            assertThat(pool.metrics().getBytesFromOs()).as("the figures are there all the same").isPositive();
            assertThat(store.metrics().getName()).isEqualTo(name);
        }
    }

    @Test
    void aChunkPoolShowsItsMemoryAndSpillChunks(@TempDir Path spillDirectory) throws JMException {
        String name = unique("store");
        long chunk = 64 * 1024;
        ObjectName bean = name("ChunkPool", name);
        try (ChunkPool pool = ChunkPool.builder().name(name).chunkSize(chunk).memoryLimit(2 * chunk)
                .spillDirectory(spillDirectory).build()) {
            try (DoubleArray array = pool.doubles(3 * chunk / Double.BYTES)) {
                array.set(0, 1.5);
                assertThat(SERVER.getAttribute(bean, "Name")).isEqualTo(name);
                assertThat(SERVER.getAttribute(bean, "BytesFromOs")).isEqualTo(2 * chunk);
                assertThat(SERVER.getAttribute(bean, "BytesInUse")).isEqualTo(2 * chunk);
                assertThat(SERVER.getAttribute(bean, "BytesCached")).isEqualTo(0L);
                assertThat(SERVER.getAttribute(bean, "SpillBytes")).isEqualTo(chunk);
                assertThat(SERVER.getAttribute(bean, "SpillBytesInUse")).isEqualTo(chunk);
                assertThat(SERVER.getAttribute(bean, "LimitBytes")).isEqualTo(2 * chunk);
                assertThat(SERVER.getAttribute(bean, "SpillLimitBytes")).as("no limit").isEqualTo(Long.MAX_VALUE);
                assertThatThrownBy(() -> SERVER.getAttribute(bean, "Leaks")).as("arrays are not watched for leaks")
                        .isInstanceOf(javax.management.AttributeNotFoundException.class);
                assertThat(SERVER.getAttribute(bean, "LiveArrays")).isEqualTo(1L);
                assertThat(SERVER.getAttribute(bean, "ChunkSize")).isEqualTo(chunk);
                assertThat(SERVER.getAttribute(name("MemoryBudget", name), "UsedBytes")).isEqualTo(2 * chunk);
                assertThat(SERVER.getAttribute(name("MemoryBudget", name + "-spill"), "UsedBytes")).isEqualTo(chunk);
            }
            assertThat(SERVER.getAttribute(bean, "BytesInUse")).isEqualTo(0L);
            assertThat(SERVER.getAttribute(bean, "BytesCached")).isEqualTo(2 * chunk);
            pool.trim();
            assertThat(SERVER.getAttribute(bean, "BytesFromOs")).isEqualTo(0L);
            assertThat(SERVER.getAttribute(bean, "SpillBytes")).isEqualTo(0L);
            assertThat(SERVER.getAttribute(bean, "PeakBytes")).isEqualTo(2 * chunk);
        }
        assertThat(SERVER.queryNames(pattern("*", name + "*"), null)).isEmpty();
    }

    @Test
    void chunkPoolsOfTheSameNameGetSuffixes() {
        String name = unique("store-twin");
        try (ChunkPool first = ChunkPool.builder().name(name).build();
             ChunkPool second = ChunkPool.builder().name(name).build()) {
            assertThat(SERVER.isRegistered(name("ChunkPool", name))).isTrue();
            assertThat(SERVER.isRegistered(name("ChunkPool", name + "-2"))).isTrue();
            assertThat(first.metrics().getName()).isEqualTo(name);
            assertThat(second.metrics().getName()).isEqualTo(name);
        }
    }

    private static String unique(String prefix) {
        return prefix + "-" + ProcessHandle.current().pid() + "-" + UNIQUE.incrementAndGet();
    }

    private static ObjectName name(String type, String name) {
        return object("dev.offheap:type=" + type + ",name=" + name);
    }

    private static ObjectName pattern(String type, String namePattern) {
        return object("dev.offheap:type=" + type + ",name=" + namePattern);
    }

    private static ObjectName object(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new AssertionError(e);
        }
    }
}
