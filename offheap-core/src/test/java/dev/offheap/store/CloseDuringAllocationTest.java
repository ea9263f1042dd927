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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Closing a pool while other threads make and release arrays: close waits for the allocations in flight,
 * later ones are refused naming the pool, and nothing stays behind (no chunk, mapping or charge), since no
 * allocation maps a chunk or uses the spill file after close freed them.
 */
class CloseDuringAllocationTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path spillDirectory;

    @ParameterizedTest
    @EnumSource(Layout.class)
    void closingWhileOtherThreadsAllocateLeavesNothingBehind(Layout layout) throws Exception {
        MemoryBudget process = MemoryBudget.unlimited("process");
        for (int round = 0; round < 30; round++) {
            ChunkPool pool = layout.builder("closing", CHUNK, 3, spillDirectory).budget(process).build();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    try {
                        while (true) {
                            LongArray array = pool.longs(1 + random.nextLong(5 * CHUNK / 8));
                            array.set(array.length() - 1, 1);
                            array.release();
                        }
                    } catch (IllegalStateException e) {
                        if (!e.getMessage().contains("chunk pool 'closing'")) {
                            failure.compareAndSet(null, e);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            Thread.sleep(ThreadLocalRandom.current().nextInt(1, 4));
            pool.close();
            for (Thread thread : threads) {
                Waits.join(thread);
            }
            assertThat(failure.get()).as("round %d", round).isNull();
            ChunkPoolStats stats = pool.stats();
            assertThat(stats.liveArrays()).isZero();
            assertThat(stats.mappings()).as("no block or spill piece left mapped").isZero();
            assertThat(stats.memory().inUse()).isZero();
            assertThat(process.used()).isZero();
        }
    }
}
