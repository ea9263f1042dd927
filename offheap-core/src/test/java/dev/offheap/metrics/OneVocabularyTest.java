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

import dev.offheap.account.MemoryBudget;
import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.DoubleArray;
import java.lang.management.ManagementFactory;
import javax.management.JMX;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** Both pools answer the common figures through the same interfaces, with the same meaning. */
class OneVocabularyTest {

    @Test
    void aBufferPoolAndAChunkPoolAreReadThroughTheSameInterfaces() throws Exception {
        MemoryBudget root = MemoryBudget.root("vocabulary", 1L << 30);
        // jmx(true): registered at build, as this test reads them through the platform MBean server at once
        try (BufferPool buffers = BufferPool.builder().name("vocabulary-buffers").budget(root.child("io", 64L << 20))
                        .jmx(true).build();
             ChunkPool store = ChunkPool.builder().name("vocabulary-store").jmx(true).build();
             BufferLease lease = buffers.acquire(1000);
             DoubleArray array = store.doubles(1000)) {
            check(buffers.stats(), buffers.metrics(), "BufferPool", 64L << 20);
            check(store.stats(), store.metrics(), "ChunkPool", MemoryBudget.UNLIMITED);
            assertThat(buffers.stats().budgetPath()).isEqualTo("vocabulary/io");
        } finally {
            root.closeQuietly();
        }
    }

    private static void check(PoolStats stats, PoolMXBean bean, String type, long limit) throws Exception {
        assertThat(stats.bytesFromOs()).isPositive().isEqualTo(stats.bytesInUse() + stats.bytesCached());
        assertThat(stats.bytesInUse()).isPositive();
        assertThat(stats.peakBytes()).isGreaterThanOrEqualTo(stats.bytesFromOs());
        assertThat(stats.limitBytes()).isEqualTo(limit);
        assertThat(bean.getName()).isEqualTo(stats.name());
        assertThat(bean.getBudgetPath()).isEqualTo(stats.budgetPath());
        assertThat(bean.getBytesFromOs()).isEqualTo(stats.bytesFromOs());
        assertThat(bean.getBytesInUse()).isEqualTo(stats.bytesInUse());
        assertThat(bean.getBytesCached()).isEqualTo(stats.bytesCached());
        assertThat(bean.getLimitBytes()).isEqualTo(limit);
        assertThat(stats.format()).contains(stats.name());
        PoolMXBean remote = JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                new ObjectName("dev.offheap:type=" + type + ",name=" + stats.name()), PoolMXBean.class);
        assertThat(remote.getBytesFromOs()).isEqualTo(stats.bytesFromOs());
        assertThat(remote.getLimitBytes()).isEqualTo(limit);
    }
}
