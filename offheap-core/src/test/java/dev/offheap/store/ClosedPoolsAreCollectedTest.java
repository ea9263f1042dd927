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

package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.account.MemoryBudget;
import dev.offheap.suite.Waits;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A closed pool and its arrays leave nothing behind that keeps them: no thread-local, registry, MBean, JFR
 * hook, reclaimer list of a long-lived shared budget, or cleaner.
 */
class ClosedPoolsAreCollectedTest {
    private static final long CHUNK = 64 << 10;
    /** Lives as long as the test class: pools that charge it must not stay reachable through it. */
    private static final MemoryBudget PROCESS = MemoryBudget.root("process", 1L << 30);

    @TempDir
    Path spillDirectory;

    @Test
    void fiftyPoolsUsedFromPlatformAndVirtualThreadsAreCollectedAfterClose() throws Exception {
        List<WeakReference<Object>> refs = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ChunkPool pool = build(i);
            refs.add(new WeakReference<>(pool));
            Runnable use = () -> useOnce(pool, refs);
            Thread thread = i % 2 == 0 ? Thread.ofPlatform().start(use) : Thread.ofVirtual().start(use);
            Waits.join(thread);
            if (i % 3 == 0) {
                pool.trim();
            }
            pool.close();
        }
        assertThat(PROCESS.used()).isZero();
        assertThat(PROCESS.children()).as("every pool closed the child budget it made").isEmpty();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (refs.stream().anyMatch(r -> r.get() != null) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(refs.stream().filter(r -> r.get() != null).map(r -> String.valueOf(r.get())).toList())
                .as("pools and arrays still reachable after close").isEmpty();
    }

    /** Every kind of pool: own or shared budget (with a limit of its own or not), spill, JMX, portable. */
    private ChunkPool build(int i) {
        ChunkPool.Builder builder = ChunkPool.builder().name("gc-" + i).chunkSize(CHUNK).jmx(i % 4 != 3)
                .portable(i % 5 == 4);
        switch (i % 3) {
            case 0 -> builder.budget(PROCESS);
            case 1 -> builder.budget(PROCESS).memoryLimit(4 * CHUNK).spillDirectory(spillDirectory);
            default -> builder.memoryLimit(8 * CHUNK);
        }
        return builder.build();
    }

    private static void useOnce(ChunkPool pool, List<WeakReference<Object>> refs) {
        LongArray released = pool.longs(5 * CHUNK / 8);
        released.set(released.length() - 1, 7);
        released.forEachChunk((segment, first) -> { });
        released.release();
        DoubleArray leftOpen = pool.doubles(CHUNK / 8);
        leftOpen.set(0, 1.5);
        synchronized (refs) {
            refs.add(new WeakReference<>(released));
            refs.add(new WeakReference<>(leftOpen));
        }
        pool.stats();
        pool.metrics().getBytesInUse();
    }
}
