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

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.DoubleArray;
import dev.offheap.store.ElementType;
import dev.offheap.store.LongArray;
import dev.offheap.store.MappedArray;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Filter;
import java.util.logging.Logger;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every offheap JFR event arrives in a recording with its fields, triggered by the operation it reports. */
class OffheapEventsTest {
    private static final long SLAB = 64 * 1024;
    private static final long TIMEOUT_NANOS = 10_000_000_000L;

    @TempDir
    Path directory;

    @Test
    void bufferPoolEvents() throws IOException {
        List<RecordedEvent> events;
        try (Recording recording = startRecording()) {
            // 2 MiB allowed: a 2 MiB request within the limit runs the reclaimers (a larger one is refused at once)
            MemoryBudget budget = MemoryBudget.root("jfr-io-budget", 2 << 20);
            try (BufferPool pool = BufferPool.builder().name("jfr-io").budget(budget).leakSampling(0).jmx(false)
                    .build()) {
                BufferLease held = pool.acquire(1000);
                assertThatThrownBy(() -> pool.acquire(2 << 20)).isInstanceOf(BudgetExceededException.class);
                held.release();
                pool.trim();
            }
            try (BufferPool pool = BufferPool.builder().name("jfr-large").jmx(false).build()) {
                pool.acquire(2 << 20).release();
            }
            events = stop(recording);
        }
        RecordedEvent slab = only(events, OffheapEvents.SLAB_ALLOCATED, "jfr-io");
        assertThat(slab.getLong("bytes")).isEqualTo(SLAB);
        assertThat(slab.getInt("slotSize")).isEqualTo(1024);
        assertThat(slab.getEventType().getCategoryNames()).containsExactly(OffheapEvents.CATEGORY);

        RecordedEvent refused = only(events, OffheapEvents.BUDGET_EXCEEDED, "jfr-io");
        assertThat(refused.getString("budgetPath")).isEqualTo("jfr-io-budget");
        assertThat(refused.getLong("requested")).isEqualTo(2 << 20);
        assertThat(refused.getString("request")).isEqualTo("acquire(" + (2 << 20) + ")");
        assertThat(refused.getLong("requestBytes")).isEqualTo(2 << 20);
        assertThat(refused.getLong("used")).isEqualTo(SLAB);
        assertThat(refused.getLong("limit")).isEqualTo(2 << 20);

        List<RecordedEvent> trims = all(events, OffheapEvents.POOL_TRIMMED, "jfr-io");
        assertThat(trims).as("one before the refusal (nothing idle), one asked for").hasSize(2);
        assertThat(trims.get(0).getLong("bytes")).isZero();
        assertThat(trims.get(1).getLong("bytes")).isEqualTo(SLAB);
        assertThat(trims.get(1).getString("poolType")).isEqualTo("BufferPool");

        RecordedEvent released = only(events, OffheapEvents.SLAB_RELEASED, "jfr-io");
        assertThat(released.getLong("bytes")).isEqualTo(SLAB);
        assertThat(released.getInt("slotSize")).isEqualTo(1024);

        assertThat(only(events, OffheapEvents.SLAB_ALLOCATED, "jfr-large").getInt("slotSize"))
                .as("a large lease's region").isZero();
        assertThat(only(events, OffheapEvents.SLAB_RELEASED, "jfr-large").getLong("bytes")).isEqualTo(2 << 20);
    }

    @Test
    void leakEvents() throws IOException {
        Logger leakLogger = Logger.getLogger("dev.offheap.buffer.leak");
        Filter previous = leakLogger.getFilter();
        leakLogger.setFilter(expectedReport -> false);
        List<RecordedEvent> events;
        try (Recording recording = startRecording();
             BufferPool pool = BufferPool.builder().name("jfr-leaky").leakSampling(1).jmx(false).build()) {
            acquireAndDrop(pool);
            long deadline = System.nanoTime() + TIMEOUT_NANOS;
            while (pool.stats().leaks() == 0 && System.nanoTime() < deadline) {
                System.gc();
                Thread.onSpinWait();
            }
            events = stop(recording);
        } finally {
            leakLogger.setFilter(previous);
        }
        RecordedEvent leak = only(events, OffheapEvents.LEAK_REPORTED, "jfr-leaky");
        assertThat(leak.getLong("bytes")).isEqualTo(777);
        assertThat(leak.getString("acquiredAt")).contains(Thread.currentThread().getName())
                .contains(OffheapEventsTest.class.getName() + ".acquireAndDrop");
    }

    @Test
    void mappedArrayEvents() throws IOException {
        MemoryBudget budget = MemoryBudget.root("jfr-mapped-budget", 3 * 4096);
        Path file = directory.resolve("jfr-mapped.npy");
        List<RecordedEvent> events;
        try (Recording recording = startRecording()) {
            try (MappedArray array = MappedArray.create(file, ElementType.LONG, 1024,
                    MappedArray.Options.defaults().budget(budget).jmx(false));
                 LongArray kept = array.longs()) {
                assertThatThrownBy(array::longs).isInstanceOf(BudgetExceededException.class);
                kept.set(0, 1);
            }
            events = stop(recording);
        }
        RecordedEvent refused = only(events, OffheapEvents.BUDGET_EXCEEDED, "mapped array " + file);
        assertThat(refused.getString("budgetPath")).isEqualTo("jfr-mapped-budget");
        assertThat(refused.getLong("requested")).isEqualTo(8192);
        assertThat(refused.getLong("used")).isEqualTo(8192);
        assertThat(refused.getLong("limit")).isEqualTo(3 * 4096);
        budget.close();
    }

    @Test
    void chunkPoolEvents() throws IOException {
        long chunk = 64 * 1024;
        List<RecordedEvent> events;
        try (Recording recording = startRecording()) {
            try (ChunkPool pool = ChunkPool.builder().name("jfr-store").chunkSize(chunk).memoryLimit(chunk)
                    .jmx(false).build()) {
                try (DoubleArray array = pool.doubles(chunk / Double.BYTES)) {
                    array.set(0, 2.5);
                    assertThatThrownBy(() -> pool.doubles(1)).isInstanceOf(BudgetExceededException.class);
                }
                pool.trim();
            }
            events = stop(recording);
        }
        RecordedEvent allocated = only(events, OffheapEvents.CHUNK_ALLOCATED, "jfr-store");
        assertThat(allocated.getString("source")).isEqualTo("memory");
        assertThat(allocated.getLong("bytes")).isEqualTo(chunk);

        RecordedEvent refused = only(events, OffheapEvents.BUDGET_EXCEEDED, "jfr-store");
        assertThat(refused.getString("budgetPath")).isEqualTo("jfr-store");
        assertThat(refused.getLong("requested")).isEqualTo(chunk);
        assertThat(refused.getString("request")).isEqualTo("doubles(1)");
        assertThat(refused.getLong("requestBytes")).isEqualTo(Double.BYTES);
        assertThat(refused.getLong("used")).isEqualTo(chunk);
        assertThat(refused.getLong("limit")).isEqualTo(chunk);

        RecordedEvent released = only(events, OffheapEvents.CHUNK_RELEASED, "jfr-store");
        assertThat(released.getString("source")).isEqualTo("memory");
        assertThat(released.getLong("bytes")).isEqualTo(chunk);

        RecordedEvent trimmed = only(events, OffheapEvents.POOL_TRIMMED, "jfr-store");
        assertThat(trimmed.getString("poolType")).isEqualTo("ChunkPool");
        assertThat(trimmed.getLong("bytes")).isEqualTo(chunk);
    }

    private static Recording startRecording() {
        Recording recording = new Recording();
        OffheapEvents.ALL.forEach(recording::enable);
        recording.start();
        return recording;
    }

    private List<RecordedEvent> stop(Recording recording) throws IOException {
        recording.stop();
        Path file = directory.resolve("events.jfr");
        recording.dump(file);
        return RecordingFile.readAllEvents(file);
    }

    private static List<RecordedEvent> all(List<RecordedEvent> events, String type, String pool) {
        return events.stream()
                .filter(e -> e.getEventType().getName().equals(type) && pool.equals(e.getString("pool")))
                .toList();
    }

    private static RecordedEvent only(List<RecordedEvent> events, String type, String pool) {
        List<RecordedEvent> found = all(events, type, pool);
        assertThat(found).as("%s events of pool %s", type, pool).hasSize(1);
        return found.getFirst();
    }

    private static void acquireAndDrop(BufferPool pool) {
        BufferLease buffer = pool.acquire(777);
        buffer.segment().fill((byte) 7);
    }
}
