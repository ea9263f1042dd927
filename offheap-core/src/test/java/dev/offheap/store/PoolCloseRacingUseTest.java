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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Closing a pool while threads allocate arrays from it, fill, check, retain and release them, and copy between
 * them and arrays of a second pool that stays open: every operation either works, with exactly the contents it
 * should, or throws an {@link IllegalStateException} naming the closing pool. Never other data, never another
 * exception. The surviving pool's arrays keep their contents (a copy out of a closing array that was cut short
 * leaves each element of its range either as it was or as copied), arrays of the closed pool are dead handles
 * whose owner's release answers false, and every chunk and charge of the closed pool goes back.
 * ({@link CloseDuringAllocationTest} races close with bare allocations.)
 */
class PoolCloseRacingUseTest {
    private static final long CHUNK = 64 << 10;
    private static final int PER_CHUNK = (int) (CHUNK / Long.BYTES);
    private static final int THREADS = 3;
    private static final int ROUNDS = 8;
    private static final String CLOSING = "chunk pool 'closing'";

    @TempDir
    Path spillDirectory;

    @ParameterizedTest
    @EnumSource(Layout.class)
    void everyOperationWorksOrThrowsNamingThePoolAndNothingStaysBehind(Layout layout) throws Exception {
        MemoryBudget process = MemoryBudget.unlimited("racing");
        try (ChunkPool survivor = layout.builder("survivor", CHUNK, 2, spillDirectory).budget(process).build()) {
            for (int round = 0; round < ROUNDS; round++) {
                ChunkPool closing = layout.builder("closing", CHUNK, 3, spillDirectory).budget(process).build();
                AtomicReference<Throwable> failure = new AtomicReference<>();
                CountDownLatch warmedUp = new CountDownLatch(THREADS);
                CountDownLatch closed = new CountDownLatch(1);
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    User user = new User(closing, survivor, new Random(round * 31L + t), warmedUp, closed);
                    threads.add(Thread.ofPlatform().name("user-" + t).start(() -> {
                        try {
                            user.run();
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    }));
                }
                assertThat(warmedUp.await(60, TimeUnit.SECONDS))
                        .as("every user did a few rounds of work").isTrue();
                closing.close();
                ChunkPoolStats atClose = closing.stats(); // before the users are joined: close waited for them
                closed.countDown();
                for (Thread thread : threads) {
                    assertThat(thread.join(Duration.ofSeconds(60))).as("%s ended within 60 s", thread.getName()).isTrue();
                }
                if (failure.get() != null) {
                    throw new AssertionError(layout + ", round " + round, failure.get());
                }
                assertThat(atClose.liveArrays()).as("live arrays when close returned").isZero();
                assertThat(atClose.mappings()).as("mappings when close returned").isZero();
                assertThat(atClose.memory().inUse()).as("chunks in use when close returned").isZero();
                ChunkPoolStats stats = closing.stats();
                assertThat(stats.liveArrays()).isZero();
                assertThat(stats.mappings()).as("no block or spill piece left mapped").isZero();
                assertThat(stats.memory().inUse()).isZero();
                ChunkPoolStats left = survivor.stats();
                assertThat(left.liveArrays()).as("the users released the survivor's arrays").isZero();
                assertThat(process.used()).as("only the surviving pool's free chunks stay charged")
                        .isEqualTo(left.memory().bytesBacked());
            }
        }
        assertThat(process.used()).isZero();
    }

    /**
     * One thread's work, until the pool's close cuts it short: after that, checks that its arrays of the closed
     * pool are dead handles and that its survivor array holds what it should.
     */
    private static final class User {
        private final ChunkPool closing;
        private final ChunkPool survivor;
        private final Random random;
        private final CountDownLatch warmedUp;
        private final CountDownLatch closed;
        private final List<ModelArray> held = new ArrayList<>();
        /** References this thread holds on each array of {@link #held}. */
        private final List<Integer> owners = new ArrayList<>();
        private ModelArray kept;
        private boolean counted;
        private IllegalStateException cutShort;
        /** A copy into {@link #kept} that was cut short: its range may hold the old or the copied values. */
        private long[] copiedValues;
        private int copiedAt;

        User(ChunkPool closing, ChunkPool survivor, Random random, CountDownLatch warmedUp, CountDownLatch closed) {
            this.closing = closing;
            this.survivor = survivor;
            this.random = random;
            this.warmedUp = warmedUp;
            this.closed = closed;
        }

        void run() throws InterruptedException {
            kept = new ModelArray(survivor.longs(2 * PER_CHUNK + 5), "chunk pool 'survivor'");
            kept.writePattern(random.nextLong(), 0, kept.length());
            try {
                for (int round = 0; ; round++) {
                    try {
                        step(round);
                    } catch (IllegalStateException e) {
                        assertThat(e).as("an operation cut short by the close").hasMessageContaining(CLOSING + " is closed");
                        cutShort = e;
                        break;
                    }
                    if (round == 3) {
                        countWarmedUp();
                    }
                }
                Thread.interrupted(); // HotSpot may interrupt a thread whose access an arena close cut short
                // The first refusal may come while close is still ending the arrays: check them once it returned.
                assertThat(closed.await(60, TimeUnit.SECONDS)).as("the pool's close returned").isTrue();
                afterTheClose();
            } finally {
                countWarmedUp(); // never hold the closer up, even if this thread failed early
                kept.array.release();
            }
        }

        private void countWarmedUp() {
            if (!counted) {
                counted = true;
                warmedUp.countDown();
            }
        }

        /** One round of work with the closing pool; any step may throw the close's IllegalStateException. */
        private void step(int round) {
            long length = 1 + random.nextInt(3 * PER_CHUNK);
            ModelArray a = allocate(length);
            a.check(); // zeros
            a.writePattern(random.nextLong(), 0, a.length());
            a.checkByGet();
            ModelArray b = allocate(1 + random.nextInt(2 * PER_CHUNK));
            int n = Math.min(a.length(), b.length()) / 2;
            a.copyTo(random.nextInt(a.length() - n + 1), b, random.nextInt(b.length() - n + 1), n);
            b.check();
            a.check();

            // Copies with the surviving pool's array, in both directions.
            int m = Math.min(a.length(), kept.length()) / 3;
            int from = random.nextInt(a.length() - m + 1);
            int to = random.nextInt(kept.length() - m + 1);
            copiedValues = Arrays.copyOfRange(a.model, from, from + m);
            copiedAt = to;
            a.copyTo(from, kept, to, m);
            copiedValues = null;
            kept.check();
            kept.copyTo(random.nextInt(kept.length() - m + 1), a, random.nextInt(a.length() - m + 1), m);
            a.check();

            // A second owner, then the release of some arrays: held ones survive into the next rounds.
            retain(a);
            if (random.nextBoolean()) {
                release(b);
            }
            while (held.size() > 4) {
                release(held.getFirst());
            }
            for (ModelArray array : held) {
                array.check();
            }
        }

        private ModelArray allocate(long length) {
            ModelArray array = new ModelArray(closing.longs(length), CLOSING);
            held.add(array);
            owners.add(1);
            return array;
        }

        private void retain(ModelArray array) {
            array.array.retain();
            int i = held.indexOf(array);
            owners.set(i, owners.get(i) + 1);
        }

        /** Drops one reference; the last one must end the memory. */
        private void release(ModelArray array) {
            int i = held.indexOf(array);
            boolean last = owners.get(i) == 1;
            if (last) {
                held.remove(i);
                owners.remove(i);
            } else {
                owners.set(i, owners.get(i) - 1);
            }
            boolean ended = array.array.release();
            if (last && !ended) { // the pool's close ended it first: then the array says so
                try {
                    array.array.length();
                } catch (IllegalStateException closed) {
                    assertThat(closed).hasMessageContaining(CLOSING + " is closed");
                    throw closed;
                }
            }
            if (ended != last) {
                throw new AssertionError((last ? "the last release did not end " : "a release ended ")
                        + array + " with " + owners + " owners left");
            }
        }

        private void afterTheClose() {
            for (int i = 0; i < held.size(); i++) {
                ModelArray array = held.get(i);
                for (Runnable use : List.<Runnable>of(() -> array.array.length(), () -> array.get(0),
                        () -> array.read(0, array.length()), () -> array.copyTo(0, kept, 0, 1),
                        () -> kept.copyTo(0, array, 0, 1), () -> array.array.retain())) {
                    try {
                        use.run();
                        throw new AssertionError("an array of the closed pool still works: " + array, cutShort);
                    } catch (IllegalStateException expected) {
                        assertThat(expected).hasMessageContaining(CLOSING + " is closed");
                    }
                }
                for (int owner = 0; owner < owners.get(i); owner++) {
                    assertThat(array.array.release()).as("an owner's release after the pool closed").isFalse();
                }
                try {
                    array.array.release();
                    throw new AssertionError("a release beyond the owners of " + array + " did not throw");
                } catch (IllegalStateException expected) {
                    // every owner let go already
                }
            }
            held.clear();
            owners.clear();
            checkKept();
        }

        /** The survivor array holds its model, but where a copy was cut short: old or copied values there. */
        private void checkKept() {
            long[] found = kept.read(0, kept.length());
            for (int i = 0; i < found.length; i++) {
                boolean inCut = copiedValues != null && i >= copiedAt && i < copiedAt + copiedValues.length;
                if (found[i] == kept.model[i] || inCut && found[i] == copiedValues[i - copiedAt]) {
                    kept.model[i] = found[i];
                    continue;
                }
                throw new AssertionError("element " + i + " of the surviving pool's array holds " + found[i]
                        + ", expected " + kept.model[i] + (inCut ? " or " + copiedValues[i - copiedAt] : ""));
            }
            kept.checkByGet();
        }
    }
}
