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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.account.MemoryBudget;
import dev.offheap.suite.Waits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several threads retaining and releasing one array at once: the memory ends exactly once, by whichever
 * release drops the last reference (exactly one release answers true), never early (every read made while
 * holding a reference succeeds with the array's values, also for borrowers that retain without holding a
 * reference and stop at their first refusal), and once it has ended every retain and release throws, naming
 * the pool, and never touches the array that reuses the chunks.
 */
class ConcurrentRetainReleaseTest {
    private static final long CHUNK = 64 << 10;
    private static final long LENGTH = 2 * CHUNK / Long.BYTES + 3;
    private static final int HOLDERS = 3;
    private static final int BORROWERS = 2;
    private static final int CYCLES = 150;
    private static final int ROUNDS = 10;
    /** Borrowers stop after this many, so that two of them cannot keep the array alive between them forever. */
    private static final int MAX_BORROWS = 20_000;

    @TempDir
    Path spillDirectory;

    @ParameterizedTest
    @EnumSource(Layout.class)
    void theMemoryEndsExactlyOnceAndNeverEarly(Layout layout) throws Exception {
        MemoryBudget process = MemoryBudget.unlimited("refs");
        try (ChunkPool pool = layout.builder("refs", CHUNK, 2, spillDirectory).budget(process).build()) {
            for (int round = 0; round < ROUNDS; round++) {
                race(pool, round);
            }
        }
        assertThat(process.used()).isZero();
    }

    private static void race(ChunkPool pool, int round) throws Exception {
        LongArray array = pool.longs(LENGTH);
        ModelArray model = new ModelArray(array, "chunk pool 'refs'");
        model.writePattern(round, 0, (int) LENGTH);
        AtomicInteger ended = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < HOLDERS; t++) {
            array.retain(); // the holder's own reference, taken for it before it starts
            int holder = t;
            threads.add(Thread.ofPlatform().name("holder-" + t).start(() -> {
                try {
                    Waits.await(start, "start");
                    for (int k = 0; k < CYCLES; k++) {
                        assertThat(array.retain()).isSameAs(array);
                        readWhileHolding(model, holder, k);
                        assertThat(array.release()).as("a release while others hold the array").isFalse();
                    }
                    readWhileHolding(model, holder, CYCLES);
                    if (array.release()) {
                        ended.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (int b = 0; b < BORROWERS; b++) {
            int borrower = HOLDERS + b;
            threads.add(Thread.ofPlatform().name("borrower-" + b).start(() -> {
                try {
                    Waits.await(start, "start");
                    boolean sawTheEnd = false;
                    for (int k = 0; k < MAX_BORROWS && !sawTheEnd; k++) {
                        try {
                            array.retain();
                        } catch (IllegalStateException refused) {
                            assertThat(refused).hasMessageContaining("chunk pool 'refs'").hasMessageContaining("released");
                            sawTheEnd = true; // ended: every retain from now on is refused
                            continue;
                        }
                        readWhileHolding(model, borrower, k);
                        if (array.release()) {
                            ended.incrementAndGet();
                            sawTheEnd = true;
                        }
                    }
                    if (sawTheEnd) {
                        assertThatThrownBy(array::retain).isInstanceOf(IllegalStateException.class);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        start.countDown();
        if (array.release()) { // the owner lets go while the others race
            ended.incrementAndGet();
        }
        for (Thread thread : threads) {
            assertThat(thread.join(Duration.ofSeconds(60))).as("%s finished within 60 s", thread.getName()).isTrue();
        }
        if (failure.get() != null) {
            throw new AssertionError("round " + round, failure.get());
        }
        assertThat(ended.get()).as("releases that ended the memory, round %d", round).isEqualTo(1);
        assertThat(array.refCount()).isZero();
        ChunkPoolStats stats = pool.stats();
        assertThat(stats.liveArrays()).isZero();
        assertThat(stats.memory().inUse() + (stats.spill().isEmpty() ? 0 : stats.spill().orElseThrow().inUse())).isZero();

        // Ended: every use, retain and release throws, naming the pool; the chunks' next array is untouched.
        try (LongArray next = pool.longs(LENGTH)) {
            next.fill(7);
            for (Runnable use : List.<Runnable>of(() -> array.get(0), () -> array.set(0, 1), array::retain,
                    array::release, () -> array.fill(1), () -> array.copyTo(0, next, 0, 1),
                    () -> next.copyTo(0, array, 0, 1))) {
                assertThatThrownBy(use::run).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("chunk pool 'refs'").hasMessageContaining("released");
            }
            assertThat(array.refCount()).as("a refused release changes nothing").isZero();
            for (long i = 0; i < LENGTH; i++) {
                if (next.get(i) != 7) {
                    throw new AssertionError("element " + i + " of the array that reused the chunks holds " + next.get(i));
                }
            }
            assertThat(pool.stats().liveArrays()).isOne();
        }
    }

    /** Reads and checks while holding a reference: nothing may have ended the memory yet. */
    private static void readWhileHolding(ModelArray model, int thread, int k) {
        int n = model.length();
        int at = (int) Math.floorMod(ModelArray.pattern(thread, k), (long) n);
        for (int i : new int[] {at, n - 1 - at}) {
            if (model.get(i) != model.model[i]) {
                throw new AssertionError("element " + i + " holds " + model.get(i) + " while " + thread + " holds the array");
            }
        }
        if (k % 64 == 0) {
            model.check();
        }
    }
}
