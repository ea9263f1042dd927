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

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.suite.Waits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two pools and a mapped file's views charging one small budget from three threads at once, each taking
 * arrays (or views) until the budget refuses, then releasing them all, round after round: so every round
 * of every thread ends in a refusal, while the others' reclaimers trim its free chunks and its releases make
 * room for them. Refusals are always {@link BudgetExceededException}, the budget never goes above its limit,
 * every array and view still held keeps every element of its contents through the others' allocations,
 * refusals and trims, and at the end the budget holds exactly the pools' free chunks, then nothing.
 */
class SharedBudgetUnderLoadTest {
    private static final long CHUNK = 64 << 10;
    private static final long LIMIT = 8 * CHUNK;
    private static final int ROUNDS = 25;
    private static final int FILE_LENGTH = (int) (2 * CHUNK / Long.BYTES);

    @TempDir
    Path dir;

    @Test
    void whatFitsKeepsItsContentsWhileTheRestIsRefusedAndNothingRefusedStaysCharged() throws Exception {
        MemoryBudget budget = MemoryBudget.root("shared", LIMIT);
        ChunkPool memory = ChunkPool.builder().name("shared-memory").chunkSize(CHUNK).budget(budget).jmx(false).build();
        ChunkPool portable = ChunkPool.builder().name("shared-portable").chunkSize(CHUNK).portable(true).budget(budget)
                .jmx(false).build();
        MappedArray file = MappedArray.create(dir.resolve("shared.npy"), ElementType.LONG, FILE_LENGTH,
                MappedArray.Options.defaults().budget(budget).jmx(false));
        try {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Runnable> work = List.of(() -> arrays(memory, budget, new Random(1)),
                    () -> arrays(portable, budget, new Random(2)), () -> views(file, budget));
            List<Thread> threads = new ArrayList<>();
            for (Runnable w : work) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        Waits.await(start, "start");
                        w.run();
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            start.countDown();
            for (Thread thread : threads) {
                assertThat(thread.join(Duration.ofSeconds(60))).as("a thread ended within 60 s").isTrue();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertThat(file.openViews()).isZero();
            assertThat(memory.stats().liveArrays() + portable.stats().liveArrays()).isZero();
            assertThat(budget.used()).as("only the pools' free chunks stay charged")
                    .isEqualTo(memory.stats().memory().bytesBacked() + portable.stats().memory().bytesBacked());
        } finally {
            file.close();
            memory.close();
            portable.close();
        }
        assertThat(budget.used()).isZero();
        budget.close();
    }

    /** Rounds of: arrays of 1 to 3 chunks, each filled with its own pattern, until the budget refuses one. */
    private static void arrays(ChunkPool pool, MemoryBudget budget, Random random) {
        String owner = "chunk pool '" + pool.name() + "'";
        for (int round = 0; round < ROUNDS; round++) {
            List<ModelArray> held = new ArrayList<>();
            try {
                while (true) { // ends: each array holds at least one chunk of the limit's eight
                    ElementType type = random.nextBoolean() ? ElementType.LONG : ElementType.BYTE;
                    long length = (1 + random.nextInt(3)) * CHUNK / type.byteSize() - random.nextInt(3);
                    ModelArray array;
                    try {
                        array = new ModelArray(ModelArray.allocate(pool, type, length, Contents.ZEROS), owner);
                    } catch (BudgetExceededException refused) {
                        assertThat(refused.getMessage()).contains(pool.name());
                        break;
                    }
                    held.add(array);
                    array.check();
                    array.writePattern(random.nextLong(), 0, array.length());
                    assertThat(budget.used()).isLessThanOrEqualTo(LIMIT);
                    for (ModelArray h : held) {
                        h.check();
                    }
                }
                for (ModelArray h : held) {
                    h.check(); // intact after the refusal and whatever the others did meanwhile
                }
            } finally {
                for (ModelArray h : held) {
                    assertThat(h.array.release()).isTrue();
                }
            }
        }
    }

    /** Rounds of: views of the file (two chunks of the limit each), the first writing the round's values, until refused. */
    private static void views(MappedArray file, MemoryBudget budget) {
        for (int round = 0; round < ROUNDS; round++) {
            List<LongArray> held = new ArrayList<>();
            long[] values = new long[FILE_LENGTH];
            for (int i = 0; i < FILE_LENGTH; i++) {
                values[i] = ModelArray.pattern(1_000 + round, i);
            }
            try {
                while (true) { // ends: each view holds two chunks of the limit's eight
                    LongArray view;
                    try {
                        view = file.longs();
                    } catch (BudgetExceededException refused) {
                        break;
                    }
                    held.add(view);
                    if (held.size() == 1) {
                        view.copyFrom(values, 0, 0, FILE_LENGTH);
                    }
                    assertThat(budget.used()).isLessThanOrEqualTo(LIMIT);
                    for (LongArray h : held) {
                        assertThat(h.toArray(0, FILE_LENGTH)).isEqualTo(values);
                    }
                }
                for (LongArray h : held) {
                    assertThat(h.toArray(0, FILE_LENGTH)).isEqualTo(values);
                }
            } finally {
                for (LongArray h : held) {
                    assertThat(h.release()).isTrue();
                }
            }
        }
    }
}
