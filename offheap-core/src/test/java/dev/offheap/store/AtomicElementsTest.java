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

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The atomic element operations of {@link IntArray} and {@link LongArray} ({@code getAcquire},
 * {@code setRelease}, {@code getVolatile}, {@code setVolatile}, {@code compareAndSet}, {@code getAndAdd}): they
 * reach exactly the element asked, at the edges of chunks on the portable layout (chunks as separate segments)
 * and on the contiguous one, fail like {@code get} and {@code set} (bad index, dead handle, read-only view) with
 * the same exceptions and messages but for the operation's name, and are atomic across threads.
 */
class AtomicElementsTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path dir;

    /** One array type's operations, values carried as longs (small, exact in both types). */
    private interface Atomics {
        TypedArray make(ChunkPool pool, long length);

        TypedArray view(MappedArray file);

        ElementType type();

        long get(TypedArray a, long i);

        void set(TypedArray a, long i, long v);

        long getAcquire(TypedArray a, long i);

        void setRelease(TypedArray a, long i, long v);

        long getVolatile(TypedArray a, long i);

        void setVolatile(TypedArray a, long i, long v);

        boolean compareAndSet(TypedArray a, long i, long expected, long v);

        long getAndAdd(TypedArray a, long i, long delta);

        /** The largest value, for overflow. */
        long max();
    }

    private static final Atomics INTS = new Atomics() {
        public TypedArray make(ChunkPool pool, long length) { return pool.ints(length); }
        public TypedArray view(MappedArray file) { return file.ints(); }
        public ElementType type() { return ElementType.INT; }
        public long get(TypedArray a, long i) { return ((IntArray) a).get(i); }
        public void set(TypedArray a, long i, long v) { ((IntArray) a).set(i, (int) v); }
        public long getAcquire(TypedArray a, long i) { return ((IntArray) a).getAcquire(i); }
        public void setRelease(TypedArray a, long i, long v) { ((IntArray) a).setRelease(i, (int) v); }
        public long getVolatile(TypedArray a, long i) { return ((IntArray) a).getVolatile(i); }
        public void setVolatile(TypedArray a, long i, long v) { ((IntArray) a).setVolatile(i, (int) v); }
        public boolean compareAndSet(TypedArray a, long i, long e, long v) {
            return ((IntArray) a).compareAndSet(i, (int) e, (int) v);
        }
        public long getAndAdd(TypedArray a, long i, long d) { return ((IntArray) a).getAndAdd(i, (int) d); }
        public long max() { return Integer.MAX_VALUE; }
        public String toString() { return "ints"; }
    };

    private static final Atomics LONGS = new Atomics() {
        public TypedArray make(ChunkPool pool, long length) { return pool.longs(length); }
        public TypedArray view(MappedArray file) { return file.longs(); }
        public ElementType type() { return ElementType.LONG; }
        public long get(TypedArray a, long i) { return ((LongArray) a).get(i); }
        public void set(TypedArray a, long i, long v) { ((LongArray) a).set(i, v); }
        public long getAcquire(TypedArray a, long i) { return ((LongArray) a).getAcquire(i); }
        public void setRelease(TypedArray a, long i, long v) { ((LongArray) a).setRelease(i, v); }
        public long getVolatile(TypedArray a, long i) { return ((LongArray) a).getVolatile(i); }
        public void setVolatile(TypedArray a, long i, long v) { ((LongArray) a).setVolatile(i, v); }
        public boolean compareAndSet(TypedArray a, long i, long e, long v) {
            return ((LongArray) a).compareAndSet(i, e, v);
        }
        public long getAndAdd(TypedArray a, long i, long d) { return ((LongArray) a).getAndAdd(i, d); }
        public long max() { return Long.MAX_VALUE; }
        public String toString() { return "longs"; }
    };

    static Stream<Arguments> typesAndLayouts() {
        List<Arguments> all = new ArrayList<>();
        for (Atomics atomics : List.of(INTS, LONGS)) {
            for (boolean portable : new boolean[] {false, true}) {
                all.add(Arguments.of(atomics, portable));
            }
        }
        return all.stream();
    }

    static Stream<Atomics> types() {
        return Stream.of(INTS, LONGS);
    }

    private static ChunkPool pool(boolean portable) {
        return ChunkPool.builder().name("atomics").chunkSize(CHUNK).portable(portable).jmx(false).build();
    }

    /** Every operation, named, on element {@code i}, for the failure tests: each reads or writes. */
    private static List<Named> operations(Atomics t, TypedArray a, long i) {
        return List.of(
                new Named("getAcquire", false, () -> t.getAcquire(a, i)),
                new Named("setRelease", true, () -> t.setRelease(a, i, 1)),
                new Named("getVolatile", false, () -> t.getVolatile(a, i)),
                new Named("setVolatile", true, () -> t.setVolatile(a, i, 1)),
                new Named("compareAndSet", true, () -> t.compareAndSet(a, i, 0, 1)),
                new Named("getAndAdd", true, () -> t.getAndAdd(a, i, 1)));
    }

    private record Named(String name, boolean writes, ThrowingCallable call) {}

    @ParameterizedTest(name = "{0}, portable {1}")
    @MethodSource("typesAndLayouts")
    void eachOperationReachesExactlyItsElementAtTheEdgesOfChunks(Atomics t, boolean portable) {
        try (ChunkPool pool = pool(portable)) {
            TypedArray probe = t.make(pool, 1);
            long perChunk = CHUNK / probe.elementType().byteSize();
            probe.close();
            long n = 3 * perChunk + 5;
            try (TypedArray a = t.make(pool, n)) {
                assertThat(a.isContiguous()).isEqualTo(!portable);
                long[] edges = {0, 1, perChunk - 1, perChunk, perChunk + 1, 2 * perChunk - 1, 2 * perChunk,
                        3 * perChunk - 1, 3 * perChunk, n - 1};
                for (long i : edges) {
                    long mark = 1000 + i % 1000;
                    t.setRelease(a, i, mark);
                    assertThat(t.get(a, i)).isEqualTo(mark);
                    assertThat(t.getAcquire(a, i)).isEqualTo(mark);
                    t.setVolatile(a, i, mark + 1);
                    assertThat(t.getVolatile(a, i)).isEqualTo(mark + 1);
                    assertThat(t.compareAndSet(a, i, mark, 7)).as("a stale expected value").isFalse();
                    assertThat(t.get(a, i)).isEqualTo(mark + 1);
                    assertThat(t.compareAndSet(a, i, mark + 1, mark + 2)).isTrue();
                    assertThat(t.getAndAdd(a, i, 10)).isEqualTo(mark + 2);
                    assertThat(t.getAndAdd(a, i, -3)).isEqualTo(mark + 12);
                    assertThat(t.get(a, i)).isEqualTo(mark + 9);
                    t.set(a, i, mark);
                    assertThat(t.getAcquire(a, i)).isEqualTo(mark);
                }
                for (long i = 0; i < n; i++) {
                    long expected = contains(edges, i) ? 1000 + i % 1000 : 0;
                    if (t.get(a, i) != expected) {
                        throw new AssertionError("element " + i + " holds " + t.get(a, i) + ", not " + expected);
                    }
                }
            }
        }
    }

    private static boolean contains(long[] values, long value) {
        for (long v : values) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }

    @ParameterizedTest
    @MethodSource("types")
    void getAndAddWrapsAroundAsPlusDoes(Atomics t) {
        try (ChunkPool pool = pool(false); TypedArray a = t.make(pool, 4)) {
            t.set(a, 2, t.max());
            assertThat(t.getAndAdd(a, 2, 1)).isEqualTo(t.max());
            assertThat(t.get(a, 2)).isEqualTo(t == INTS ? Integer.MIN_VALUE : Long.MIN_VALUE);
        }
    }

    @ParameterizedTest(name = "{0}, portable {1}")
    @MethodSource("typesAndLayouts")
    void aBadIndexThrowsAsGetDoes(Atomics t, boolean portable) {
        try (ChunkPool pool = pool(portable); TypedArray a = t.make(pool, 2 * CHUNK / t.type().byteSize() + 3)) {
            long length = a.length();
            for (long bad : new long[] {-1, length, length + 1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 61, 1L << 62}) {
                Throwable get = catchIt(() -> t.get(a, bad));
                assertThat(get).isInstanceOf(IndexOutOfBoundsException.class);
                for (Named op : operations(t, a, bad)) {
                    assertThatThrownBy(op.call()).as("%s(%d)", op.name(), bad)
                            .isInstanceOf(IndexOutOfBoundsException.class).hasMessage(get.getMessage());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}, portable {1}")
    @MethodSource("typesAndLayouts")
    void aReleasedArrayOrAClosedPoolThrowsAsGetAndSetDo(Atomics t, boolean portable) {
        ChunkPool pool = pool(portable);
        TypedArray released = t.make(pool, 100);
        TypedArray ofTheClosedPool = t.make(pool, 100);
        released.close();
        pool.close();
        for (TypedArray a : List.of(released, ofTheClosedPool)) {
            Throwable get = catchIt(() -> t.get(a, 5));
            Throwable set = catchIt(() -> t.set(a, 5, 1));
            assertThat(get).isInstanceOf(IllegalStateException.class);
            for (Named op : operations(t, a, 5)) {
                Throwable plain = op.writes() ? set : get;
                String plainName = op.writes() ? "set" : "get";
                assertThatThrownBy(op.call()).as("%s on %s", op.name(), a).isInstanceOf(IllegalStateException.class)
                        .hasMessage(plain.getMessage().replace("cannot " + plainName + " ", "cannot " + op.name() + " "));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("types")
    void aReadOnlyViewReadsButRefusesEveryAtomicWriteNamingTheFile(Atomics t) throws Throwable {
        Path file = dir.resolve(t + ".npy");
        try (MappedArray writable = MappedArray.create(file, t.type(), 10); TypedArray view = t.view(writable)) {
            t.set(view, 3, 42);
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY); TypedArray view = t.view(array)) {
            Throwable set = catchIt(() -> t.set(view, 3, 1));
            assertThat(set).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("opened READ_ONLY");
            for (Named op : operations(t, view, 3)) {
                if (op.writes()) {
                    assertThatThrownBy(op.call()).as(op.name()).isInstanceOf(IllegalArgumentException.class)
                            .hasMessage(set.getMessage().replace("cannot set ", "cannot " + op.name() + " "))
                            .hasCauseInstanceOf(IllegalArgumentException.class);
                } else {
                    op.call().call();
                }
            }
            assertThat(t.getAcquire(view, 3)).isEqualTo(42);
            assertThat(t.getVolatile(view, 3)).isEqualTo(42);
        }
    }

    @ParameterizedTest
    @MethodSource("types")
    void aViewOfAClosedFileThrowsNamingTheFile(Atomics t) throws IOException {
        Path file = dir.resolve(t + "-closed.npy");
        MappedArray array = MappedArray.create(file, t.type(), 10);
        TypedArray view = t.view(array);
        array.close();
        for (Named op : operations(t, view, 3)) {
            assertThatThrownBy(op.call()).as(op.name()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the view of " + file + " is closed");
        }
    }

    @ParameterizedTest(name = "{0}, portable {1}")
    @MethodSource("typesAndLayouts")
    void twoThreadsAddingAndSwappingLoseNoUpdate(Atomics t, boolean portable) throws Exception {
        int perThread = 200_000;
        try (ChunkPool pool = pool(portable); TypedArray a = t.make(pool, CHUNK / t.type().byteSize() + 1)) {
            long edge = CHUNK / t.type().byteSize(); // the first element of the second chunk
            CountDownLatch start = new CountDownLatch(1);
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            Consumer<Integer> work = id -> {
                try {
                    start.await();
                    for (int k = 0; k < perThread; k++) {
                        t.getAndAdd(a, 0, 1);
                        long seen;
                        do {
                            seen = t.getVolatile(a, edge);
                        } while (!t.compareAndSet(a, edge, seen, seen + 2));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            };
            Thread one = Thread.ofPlatform().start(() -> work.accept(1));
            Thread two = Thread.ofPlatform().start(() -> work.accept(2));
            start.countDown();
            one.join(TimeUnit.MINUTES.toMillis(5));
            two.join(TimeUnit.MINUTES.toMillis(5));
            assertThat(one.isAlive() || two.isAlive()).as("the threads ended").isFalse();
            assertThat(failures).isEmpty();
            assertThat(t.getAcquire(a, 0)).isEqualTo(2L * perThread);
            assertThat(t.getAcquire(a, edge)).isEqualTo(4L * perThread);
        }
    }

    @Test
    void aValuePublishedWithSetReleaseCarriesThePlainWritesBeforeIt() throws Exception {
        int rounds = 5_000;
        try (ChunkPool pool = pool(true); LongArray a = pool.longs(CHUNK / 8 + 16)) {
            long flag = CHUNK / 8; // in another chunk than the data
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread reader = Thread.ofPlatform().start(() -> {
                try {
                    for (long r = 1; r <= rounds; r++) {
                        for (int spins = 1; a.getAcquire(flag) != r; spins++) {
                            pause(spins);
                        }
                        for (int i = 0; i < 8; i++) {
                            if (a.get(i) != r * 100 + i) {
                                throw new AssertionError("round " + r + ": element " + i + " holds " + a.get(i));
                            }
                        }
                        a.setRelease(flag + 1, r); // hand the data back
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            for (long r = 1; r <= rounds && failures.isEmpty(); r++) {
                for (int i = 0; i < 8; i++) {
                    a.set(i, r * 100 + i);
                }
                a.setRelease(flag, r);
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
                for (int spins = 1; a.getAcquire(flag + 1) != r && failures.isEmpty(); spins++) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("the reader is stuck at round " + r);
                    }
                    pause(spins);
                }
            }
            reader.join(TimeUnit.MINUTES.toMillis(5));
            assertThat(failures).isEmpty();
        }
    }

    /** Spins, yielding now and then: on two busy cores the other thread may need this one's. */
    private static void pause(int spins) {
        if (spins % 64 == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }

    private static Throwable catchIt(ThrowingCallable call) {
        try {
            call.call();
        } catch (Throwable e) {
            return e;
        }
        throw new AssertionError("did not throw");
    }
}
