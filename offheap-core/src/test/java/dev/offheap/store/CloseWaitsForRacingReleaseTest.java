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
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A close that races the owners' last releases of its arrays or views returns only once those have ended too:
 * then nothing is mapped, in use or charged, and the budget can be closed at once without complaint. (A release
 * that won the race used to be still closing its arena, a handshake of tens of microseconds, when close
 * returned: the view stayed mapped and charged, the budget closed right after reported it, and kept its owner.)
 */
class CloseWaitsForRacingReleaseTest {
    private static final long CHUNK = 64 << 10;
    private static final int RELEASERS = 3;
    private static final int ROUNDS = 150;

    @TempDir
    Path dir;

    @Test
    void aMappedArraysCloseReturnsOnceEveryViewReleasedMeanwhileIsUnmappedAndUncharged() throws Exception {
        Path path = dir.resolve("racing.npy");
        MappedArray.create(path, ElementType.LONG, 4096).close();
        for (int round = 0; round < ROUNDS; round++) {
            MemoryBudget budget = MemoryBudget.unlimited("views");
            MappedArray file = MappedArray.open(path, MappedArray.Mode.READ_WRITE, ElementType.LONG,
                    MappedArray.Options.defaults().budget(budget).jmx(false));
            List<LongArray> views = new ArrayList<>();
            for (int v = 0; v < RELEASERS; v++) {
                views.add(file.longs());
            }
            int r = round;
            race(views, file::close, () -> {
                assertThat(file.openViews()).as("round %d: views left when close returned", r).isZero();
                assertThat(file.mappedBytes()).as("round %d", r).isZero();
                assertThat(budget.used()).as("round %d: still charged when close returned", r).isZero();
                budget.close(); // throws if anything is still charged
            });
            assertThat(budget.report().owners()).as("round %d: the budget forgot the file", round).isEmpty();
        }
    }

    /**
     * The race above made deterministic: the view's release is stopped half way through giving its memory back
     * (in the mapping count's give), and the close starts then. It must wait for the release to finish. Before:
     * the view left the array's set of views before its charge went back, so the close saw no view and returned
     * with the charge still held (the round-51 failure of the test above, under load).
     */
    @Test
    void aCloseStartedWhileAViewsReleaseGivesItsMemoryBackWaitsForIt() throws Exception {
        Path path = dir.resolve("gated.npy");
        MappedArray.create(path, ElementType.LONG, 4096).close();
        MemoryBudget budget = MemoryBudget.unlimited("gated-views");
        GatedMappings mappings = new GatedMappings();
        MappedArray file = MappedArray.open(path, MappedArray.Mode.READ_WRITE, ElementType.LONG,
                MappedArray.Options.defaults().budget(budget).jmx(false).mappings(mappings));
        LongArray view = file.longs();
        mappings.shut = true;
        Thread releaser = Thread.ofPlatform().name("releaser").start(view::release);
        Waits.await(mappings.entered, "the release giving its mapping back");
        AtomicLong chargedWhenClosed = new AtomicLong(-1);
        Thread closer = Thread.ofPlatform().name("closer").start(() -> {
            file.close();
            chargedWhenClosed.set(budget.used());
        });
        Waits.Stopwatch waited = new Waits.Stopwatch();
        while (closer.isAlive() && !blockedBy(closer, releaser)) { // returned already, or waits for the release
            assertThat(waited.expired()).as("the closer neither returned nor waited").isFalse();
            Thread.sleep(1);
        }
        mappings.open.countDown();
        Waits.join(closer, releaser);
        assertThat(chargedWhenClosed.get()).as("bytes still charged when close returned").isZero();
        assertThat(file.openViews()).isZero();
        budget.close();
    }

    /** Whether {@code thread} is blocked on a monitor {@code owner} holds. */
    private static boolean blockedBy(Thread thread, Thread owner) {
        ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(thread.threadId());
        return info != null && info.getThreadState() == Thread.State.BLOCKED && info.getLockOwnerId() == owner.threadId();
    }

    /** Mappings whose {@code give}, once shut, stops until the test opens it: a view's end held half way. */
    private static final class GatedMappings extends MappingBudget {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch open = new CountDownLatch(1);
        volatile boolean shut;

        GatedMappings() {
            super("gated views", "none", 100);
        }

        @Override
        void give(long mappings) {
            if (shut) {
                entered.countDown();
                try {
                    Waits.await(open, "the test opening the gate");
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            super.give(mappings);
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aPoolsCloseReturnsOnceEveryArrayReleasedMeanwhileIsFreed(Layout layout) throws Exception {
        for (int round = 0; round < ROUNDS / 3; round++) {
            MemoryBudget process = MemoryBudget.unlimited("racing");
            ChunkPool pool = layout.builder("racing", CHUNK, 2, dir).budget(process).build();
            List<LongArray> arrays = new ArrayList<>();
            for (int a = 0; a < RELEASERS; a++) {
                arrays.add(pool.longs(2 * CHUNK / Long.BYTES));
            }
            int r = round;
            race(arrays, pool::close, () -> {
                ChunkPoolStats stats = pool.stats();
                assertThat(stats.liveArrays()).as("round %d", r).isZero();
                assertThat(stats.memory().inUse()).as("round %d: chunks in use when close returned", r).isZero();
                assertThat(stats.mappings()).as("round %d: mappings left when close returned", r).isZero();
                assertThat(process.used()).isZero();
                process.close();
            });
        }
    }

    /**
     * Releases each array on a thread of its own while this thread runs {@code close}, all starting at once;
     * runs {@code check} as soon as close returns, then waits for the releasers (a failed check too).
     */
    private static void race(List<? extends TypedArray> arrays, Runnable close, Runnable check) throws Exception {
        CyclicBarrier start = new CyclicBarrier(arrays.size() + 1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> releasers = new ArrayList<>();
        for (TypedArray array : arrays) {
            releasers.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await(30, TimeUnit.SECONDS);
                    array.release(); // true if it won the race, false if the close ended the array first
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        start.await(30, TimeUnit.SECONDS);
        close.run();
        try {
            check.run();
        } finally {
            for (Thread releaser : releasers) {
                assertThat(releaser.join(Duration.ofSeconds(30))).as("a releaser ended").isTrue();
            }
        }
        assertThat(failure.get()).isNull();
    }
}
