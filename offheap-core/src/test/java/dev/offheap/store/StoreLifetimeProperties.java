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

import dev.offheap.suite.Waits;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * Random lifetimes against a model, while a neighbour thread keeps making, filling, checking and releasing
 * arrays of the same pool (so freed chunks are reused at once, by another thread): arrays are made,
 * written, read, retained and released; segments are kept from kernels and used later; released arrays
 * (stale handles) and kept segments (stale views) are used again; the pool is closed and a new one made.
 * Every use of something that ended throws {@link IllegalStateException}, and no live array, the
 * neighbour's included, ever holds anything but what was written to it.
 */
class StoreLifetimeProperties {
    private static final long CHUNK = 64 << 10;
    private static final long PER_CHUNK = CHUNK / Long.BYTES;

    private static Path spillDirectory;

    @BeforeContainer
    static void createSpillDirectory() throws Exception {
        spillDirectory = Files.createTempDirectory("store-lifetime");
    }

    @AfterContainer
    static void deleteSpillDirectory() throws Exception {
        Files.deleteIfExists(spillDirectory);
    }

    sealed interface Op permits Make, Write, Read, Fill, Retain, Release, KeepView, UseView, ClosePool {}

    record Make(long length) implements Op {}

    record Write(int slot, long index, long value) implements Op {}

    record Read(int slot, long index) implements Op {}

    record Fill(int slot, long index, int count, long value) implements Op {}

    record Retain(int slot) implements Op {}

    /** Releases once; on an array already released, a stale handle's release. */
    record Release(int slot) implements Op {}

    record KeepView(int slot, int chunk) implements Op {}

    record UseView(int view, long value) implements Op {}

    record ClosePool() implements Op {}

    @Property(tries = 20, shrinking = ShrinkingMode.BOUNDED)
    void contiguous(@ForAll("lifetimes") List<Op> ops) throws Exception {
        run(Layout.CONTIGUOUS, ops);
    }

    @Property(tries = 15, shrinking = ShrinkingMode.BOUNDED)
    void contiguousWithSpill(@ForAll("lifetimes") List<Op> ops) throws Exception {
        run(Layout.CONTIGUOUS_WITH_SPILL, ops);
    }

    @Property(tries = 15, shrinking = ShrinkingMode.BOUNDED)
    void portable(@ForAll("lifetimes") List<Op> ops) throws Exception {
        run(Layout.PORTABLE, ops);
    }

    @Property(tries = 10, shrinking = ShrinkingMode.BOUNDED)
    void portableWithSpill(@ForAll("lifetimes") List<Op> ops) throws Exception {
        run(Layout.PORTABLE_WITH_SPILL, ops);
    }

    @Provide
    Arbitrary<List<Op>> lifetimes() {
        Arbitrary<Integer> slot = Arbitraries.integers().between(0, 7);
        Arbitrary<Long> index = Arbitraries.longs().between(0, 3 * PER_CHUNK + 2);
        Arbitrary<Long> value = Arbitraries.longs();
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(1L, PER_CHUNK - 1, PER_CHUNK + 1, 2 * PER_CHUNK + 3, 3 * PER_CHUNK + 3)
                        .map(Make::new)),
                Tuple.of(4, Combinators.combine(slot, index, value).as(Write::new)),
                Tuple.of(3, Combinators.combine(slot, index).as(Read::new)),
                Tuple.of(2, Combinators.combine(slot, index, Arbitraries.integers().between(1, 2000), value).as(Fill::new)),
                Tuple.of(1, slot.map(Retain::new)),
                Tuple.of(3, slot.map(Release::new)),
                Tuple.of(2, Combinators.combine(slot, Arbitraries.integers().between(0, 3)).as(KeepView::new)),
                Tuple.of(2, Combinators.combine(Arbitraries.integers().between(0, 7), value).as(UseView::new)),
                Tuple.of(1, Arbitraries.just(new ClosePool())));
        return op.list().ofMinSize(5).ofMaxSize(60);
    }

    /** An array made by the test: its model (absent means zero) and its owners. */
    private static final class Entry {
        final LongArray array;
        final Map<Long, Long> model = new HashMap<>();
        int owners = 1;
        boolean poolClosed;

        Entry(LongArray array) {
            this.array = array;
        }

        boolean alive() {
            return owners > 0 && !poolClosed;
        }
    }

    /** A segment kept from a kernel: where it starts in its array. */
    private record View(Entry entry, MemorySegment segment, long firstIndex) {}

    private static void run(Layout layout, List<Op> ops) throws Exception {
        List<Entry> entries = new ArrayList<>();
        List<View> views = new ArrayList<>();
        ChunkPool pool = layout.builder("lifetime", CHUNK, 4, spillDirectory).build();
        Neighbour neighbour = new Neighbour(pool);
        try {
            for (Op op : ops) {
                if (op instanceof ClosePool) {
                    pool.close();
                    neighbour.stop();
                    entries.forEach(e -> e.poolClosed = true);
                    pool = layout.builder("lifetime", CHUNK, 4, spillDirectory).build();
                    neighbour = new Neighbour(pool);
                } else if (op instanceof Make(long length)) {
                    entries.add(new Entry(pool.longs(length)));
                } else if (!entries.isEmpty()) {
                    apply(op, entries, views);
                }
            }
            for (Entry entry : entries) {
                if (entry.alive()) {
                    check(entry);
                }
            }
        } finally {
            pool.close();
            neighbour.stop();
        }
    }

    private static void apply(Op op, List<Entry> entries, List<View> views) {
        switch (op) {
            case Write(int slot, long index, long value) -> {
                Entry e = entries.get(slot % entries.size());
                long i = index % e.array.length;
                if (e.alive()) {
                    e.array.set(i, value);
                    e.model.put(i, value);
                } else {
                    assertEnded(() -> e.array.set(i, value));
                }
            }
            case Read(int slot, long index) -> {
                Entry e = entries.get(slot % entries.size());
                long i = index % e.array.length;
                if (e.alive()) {
                    assertThat(e.array.get(i)).isEqualTo(e.model.getOrDefault(i, 0L));
                } else {
                    assertEnded(() -> e.array.get(i));
                }
            }
            case Fill(int slot, long index, int count, long value) -> {
                Entry e = entries.get(slot % entries.size());
                long from = index % e.array.length;
                long to = Math.min(e.array.length, from + count);
                if (e.alive()) {
                    e.array.fill(from, to, value);
                    for (long i = from; i < to; i++) {
                        e.model.put(i, value);
                    }
                } else {
                    assertEnded(() -> e.array.fill(from, to, value));
                    assertEnded(() -> e.array.copyFrom(new long[(int) (to - from)], 0, from, (int) (to - from)));
                }
            }
            case Retain(int slot) -> {
                Entry e = entries.get(slot % entries.size());
                if (e.alive()) {
                    e.array.retain();
                    e.owners++;
                } else {
                    assertEnded(e.array::retain);
                }
            }
            case Release(int slot) -> {
                Entry e = entries.get(slot % entries.size());
                if (e.owners > 0) {
                    if (e.alive()) {
                        check(e);
                    }
                    e.array.release();
                    e.owners--;
                } else {
                    assertEnded(e.array::release);
                }
            }
            case KeepView(int slot, int chunk) -> {
                Entry e = entries.get(slot % entries.size());
                if (e.alive()) {
                    List<View> pieces = new ArrayList<>();
                    e.array.forEachChunk((segment, first) -> pieces.add(new View(e, segment, first)));
                    views.add(pieces.get(chunk % pieces.size()));
                } else {
                    assertEnded(() -> e.array.forEachChunk((segment, first) -> { }));
                }
            }
            case UseView(int view, long value) -> {
                if (views.isEmpty()) {
                    return;
                }
                View v = views.get(view % views.size());
                if (v.entry().alive()) {
                    assertThat(v.segment().getAtIndex(ValueLayout.JAVA_LONG, 0))
                            .isEqualTo(v.entry().model.getOrDefault(v.firstIndex(), 0L));
                    v.segment().setAtIndex(ValueLayout.JAVA_LONG, 0, value);
                    v.entry().model.put(v.firstIndex(), value);
                } else {
                    assertThatThrownBy(() -> v.segment().setAtIndex(ValueLayout.JAVA_LONG, 0, value))
                            .isInstanceOf(IllegalStateException.class);
                    assertThatThrownBy(() -> v.segment().getAtIndex(ValueLayout.JAVA_LONG, 0))
                            .isInstanceOf(IllegalStateException.class);
                }
            }
            default -> throw new AssertionError(op);
        }
    }

    private static void assertEnded(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(IllegalStateException.class).hasMessageContaining("pool 'lifetime'");
    }

    private static void check(Entry e) {
        for (long i = 0; i < e.array.length; i++) {
            long expected = e.model.getOrDefault(i, 0L);
            if (e.array.get(i) != expected) {
                throw new AssertionError("element " + i + " of a live array holds " + e.array.get(i) + ", not " + expected);
            }
        }
    }

    /** Another thread using the same pool all the time: its arrays must always hold what it wrote. */
    private static final class Neighbour {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread thread;

        Neighbour(ChunkPool pool) {
            thread = Thread.ofPlatform().start(() -> {
                long round = 0;
                while (!stop.get()) {
                    round++;
                    LongArray array;
                    try {
                        array = pool.longs(1 + round % (2 * PER_CHUNK));
                    } catch (IllegalStateException closed) {
                        return;
                    }
                    try {
                        array.fill(round);
                        for (long i = 0; i < array.length; i += 97) {
                            if (array.get(i) != round) {
                                failure.compareAndSet(null, new AssertionError("the neighbour's array was changed at " + i));
                            }
                        }
                        array.release();
                    } catch (IllegalStateException closed) {
                        if (!stop.get() && !closed.getMessage().contains("is closed")) {
                            failure.compareAndSet(null, closed);
                        }
                        return;
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                        return;
                    }
                }
            });
        }

        void stop() throws InterruptedException {
            stop.set(true);
            Waits.join(thread);
            if (failure.get() != null) {
                throw new AssertionError("the neighbour thread failed", failure.get());
            }
        }
    }
}
