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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Several live arrays of every element type in pools of every layout (Linux memory, memory and spill file,
 * portable, portable with a spill file), used by several threads at once, each thread owning its arrays: each
 * array is filled with a pattern of its own, written, copied into and out of other arrays (of other pools
 * too, so contiguous and scattered arrays meet in one copy) and released, and new arrays take the chunks
 * others released, on whichever thread. After every step every live array of the thread holds exactly its
 * model (every element), and every released handle throws, naming its pool, even as the source or target of a
 * copy with a live array, which stays as it was.
 */
class LiveArraysKeepApartProperties {
    private static final long CHUNK = 64 << 10;
    private static final int THREADS = 3;
    /** The element types each thread uses: every type is used, and copies need two arrays of one type. */
    private static final ElementType[][] TYPES = {
            {ElementType.DOUBLE, ElementType.BYTE, ElementType.SHORT},
            {ElementType.LONG, ElementType.FLOAT, ElementType.SHORT},
            {ElementType.INT, ElementType.DOUBLE, ElementType.SHORT}};
    private static final int MAX_LIVE = 5;

    private static Path spillDirectory;

    @BeforeContainer
    static void createSpillDirectory() throws Exception {
        spillDirectory = Files.createTempDirectory("store-apart");
    }

    @AfterContainer
    static void deleteSpillDirectory() throws Exception {
        Files.deleteIfExists(spillDirectory);
    }

    sealed interface Op permits Make, Write, Copy, Release {}

    /** A new array: a pool (by layout), one of the thread's two types, a length around chunk boundaries. */
    record Make(int layout, int type, int size, boolean uninitialized) implements Op {}

    /** Writes part of an array: {@code how} 0 sets single elements, 1 fills, 2 copies in from a Java array. */
    record Write(int slot, int how, long at, int count, long value) implements Op {}

    /** Copies between two different live arrays of one type (the first of that type from {@code dst} on). */
    record Copy(int src, int dst, long from, long to, int count) implements Op {}

    record Release(int slot) implements Op {}

    record Plan(List<List<Op>> threads) {}

    @Property(tries = 12, shrinking = ShrinkingMode.OFF)
    void liveArraysKeepApartWhileOthersWriteCopyReleaseAndReuse(@ForAll("plans") Plan plan) throws Exception {
        MemoryBudget process = MemoryBudget.unlimited("apart");
        List<ChunkPool> pools = new ArrayList<>();
        try {
            for (Layout layout : Layout.values()) {
                pools.add(layout.builder(name(layout), CHUNK, 2, spillDirectory).budget(process).build());
            }
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Worker worker = new Worker(t, pools, plan.threads().get(t));
                threads.add(Thread.ofPlatform().name("apart-" + t).start(() -> {
                    try {
                        Waits.await(start, "start");
                        worker.run();
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            start.countDown();
            for (Thread thread : threads) {
                assertThat(thread.join(Duration.ofSeconds(60)))
                        .as("%s finished within 60 s", thread.getName()).isTrue();
            }
            if (failure.get() != null) {
                throw new AssertionError("a thread failed", failure.get());
            }
            for (ChunkPool pool : pools) {
                ChunkPoolStats stats = pool.stats();
                assertThat(stats.liveArrays()).as("%s: every array released", pool.name()).isZero();
                assertThat(stats.memory().inUse()).as(pool.name()).isZero();
                if (stats.spill().isPresent()) {
                    assertThat(stats.spill().orElseThrow().inUse()).as(pool.name()).isZero();
                }
            }
        } finally {
            pools.forEach(ChunkPool::close);
        }
        assertThat(process.used()).as("closing the pools gave every charge back").isZero();
    }

    private static String name(Layout layout) {
        return "apart-" + layout.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Provide
    Arbitrary<Plan> plans() {
        Arbitrary<Integer> slot = Arbitraries.integers().between(0, MAX_LIVE - 1);
        Arbitrary<Long> at = Arbitraries.longs().between(0, Long.MAX_VALUE);
        Arbitrary<Integer> count = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.integers().between(1, 40)),
                Tuple.of(2, Arbitraries.integers().between(41, 200_000)));
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                Tuple.of(3, Combinators.combine(Arbitraries.integers().between(0, Layout.values().length - 1),
                        Arbitraries.integers().between(0, TYPES[0].length - 1), Arbitraries.integers().between(0, 5),
                        Arbitraries.of(false, false, true)).as(Make::new)),
                Tuple.of(3, Combinators.combine(slot, Arbitraries.integers().between(0, 2), at, count,
                        Arbitraries.longs()).as(Write::new)),
                Tuple.of(4, Combinators.combine(slot, slot, at, at, count).as(Copy::new)),
                Tuple.of(2, slot.map(Release::new)));
        return op.list().ofMinSize(8).ofMaxSize(30).list().ofSize(THREADS).map(Plan::new);
    }

    /** One thread's arrays and steps. */
    private static final class Worker {
        private final int thread;
        private final List<ChunkPool> pools;
        private final List<Op> ops;
        private final List<ModelArray> live = new ArrayList<>();
        private final List<ModelArray> released = new ArrayList<>();
        private int made;

        Worker(int thread, List<ChunkPool> pools, List<Op> ops) {
            this.thread = thread;
            this.pools = pools;
            this.ops = ops;
        }

        void run() {
            int step = 0;
            try {
                for (Op op : ops) {
                    apply(op);
                    for (ModelArray array : live) {
                        array.check();
                    }
                    for (ModelArray array : released) {
                        assertReleased(array, () -> array.array.length());
                    }
                    step++;
                }
                for (ModelArray array : live) {
                    array.checkByGet();
                    assertThat(array.array.release()).as("the only owner's release ends %s", array).isTrue();
                }
                live.clear();
            } catch (Throwable e) {
                throw new AssertionError("thread " + thread + ", step " + step + " of " + ops, e);
            } finally {
                for (ModelArray array : live) {
                    array.array.release();
                }
            }
        }

        private void apply(Op op) {
            switch (op) {
                case Make(int layout, int type, int size, boolean uninitialized) -> make(layout, type, size, uninitialized);
                case Write(int slot, int how, long at, int count, long value) -> {
                    if (live.isEmpty()) {
                        return;
                    }
                    ModelArray array = live.get(slot % live.size());
                    if (array.length() == 0) {
                        return;
                    }
                    int from = (int) (at % array.length());
                    int to = (int) Math.min(array.length(), (long) from + count);
                    switch (how) {
                        case 0 -> {
                            for (int i = from; i < to; i += 1 + (to - from) / 16) {
                                array.set(i, value + i);
                            }
                        }
                        case 1 -> array.fill(from, to, value);
                        default -> array.writePattern(value, from, to);
                    }
                }
                case Copy(int src, int dst, long from, long to, int count) -> copy(src, dst, from, to, count);
                case Release(int slot) -> {
                    if (live.isEmpty()) {
                        return;
                    }
                    ModelArray array = live.remove(slot % live.size());
                    array.checkByGet();
                    assertThat(array.array.release()).as("the only owner's release ends %s", array).isTrue();
                    released.add(array);
                    assertReleased(array, () -> array.array.retain());
                    assertReleased(array, () -> array.array.release());
                    ModelArray other = sameType(array, 0);
                    if (other != null && other.length() > 0 && array.length() > 0) {
                        assertReleased(array, () -> ModelArray.copy(array.array, 0, other.array, 0, 1));
                        assertReleased(array, () -> ModelArray.copy(other.array, 0, array.array, 0, 1));
                    }
                }
            }
        }

        private void make(int layout, int type, int size, boolean uninitialized) {
            if (live.size() == MAX_LIVE) {
                ModelArray oldest = live.removeFirst();
                assertThat(oldest.array.release()).isTrue();
                released.add(oldest);
            }
            ElementType elementType = TYPES[thread][type];
            long perChunk = CHUNK / elementType.byteSize();
            long length = switch (size) {
                case 0 -> 1;
                case 1 -> perChunk - 1;
                case 2 -> perChunk;
                case 3 -> perChunk + 1;
                case 4 -> 2 * perChunk + 3;
                default -> 3 * perChunk;
            };
            ChunkPool pool = pools.get(layout);
            Contents contents = uninitialized ? Contents.UNINITIALIZED : Contents.ZEROS;
            ModelArray array = new ModelArray(ModelArray.allocate(pool, elementType, length, contents),
                    "chunk pool '" + pool.name() + "'");
            if (!uninitialized) {
                array.check(); // zeros, even where the chunks held another array's pattern
            }
            array.writePattern(((long) thread << 32) | made++, 0, array.length());
            live.add(array);
        }

        private void copy(int src, int dst, long from, long to, int count) {
            if (live.isEmpty()) {
                return;
            }
            ModelArray source = live.get(src % live.size());
            ModelArray target = sameType(source, dst);
            if (target == null || source.length() == 0 || target.length() == 0) {
                return;
            }
            int s = (int) (from % source.length());
            int d = (int) (to % target.length());
            int n = (int) Math.min(count, Math.min(source.length() - s, target.length() - d));
            source.copyTo(s, target, d, n);
        }

        /** The first live array of {@code array}'s type other than it, from slot {@code start} on, or null. */
        private ModelArray sameType(ModelArray array, int start) {
            for (int k = 0; k < live.size(); k++) {
                ModelArray candidate = live.get((start + k) % live.size());
                if (candidate != array && candidate.type() == array.type()) {
                    return candidate;
                }
            }
            return null;
        }

        private static void assertReleased(ModelArray array, org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
            assertThatThrownBy(call).as("a released handle of %s", array.owner)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(array.owner)
                    .hasMessageContaining("released");
        }
    }
}
