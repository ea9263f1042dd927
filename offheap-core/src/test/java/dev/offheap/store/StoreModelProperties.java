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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Random operations on store arrays against a sparse reference model (a map from index to value, absent
 * meaning zero): single gets and sets, fills, bulk copies to, from and between arrays (overlapping ones
 * included), at lengths around chunk boundaries and around 2^31 elements. The long lengths are cheap: only
 * touched pages get memory. Runs on the Linux contiguous path, the portable chunk-by-chunk
 * path, and arrays whose chunks are part memory, part spill file.
 */
class StoreModelProperties {
    /** The smallest chunk, so that short arrays already cross many chunk boundaries. */
    private static final long CHUNK = 64 << 10;
    /**
     * The default chunk, for arrays around 2^31 elements: with 64 KiB chunks they would need more mappings
     * than a pool may hold (each memory chunk is a mapping of its own).
     */
    private static final long BIG_CHUNK = ChunkPool.DEFAULT_CHUNK_SIZE;
    private static final long BIG = 1L << 31;

    private static Path spillDirectory;

    @BeforeContainer
    static void createSpillDirectory() throws Exception {
        spillDirectory = Files.createTempDirectory("store-model");
    }

    @AfterContainer
    static void deleteSpillDirectory() throws Exception {
        Files.deleteIfExists(spillDirectory);
    }

    record Case(ElementType type, long length, List<Op> ops) {}

    sealed interface Op permits Set, Get, Fill, CopyOut, CopyIn, CopyWithin, CopyNearby {}

    record Set(long index, long value) implements Op {}

    record Get(long index) implements Op {}

    record Fill(long index, int count, long value) implements Op {}

    record CopyOut(long index, int count) implements Op {}

    record CopyIn(long index, int count, long seed) implements Op {}

    record CopyWithin(long from, long to, int count) implements Op {}

    /** A copy within the array to a nearby place: overlapping, in either direction. */
    record CopyNearby(long from, int delta, int count) implements Op {}

    @Property(tries = 30, shrinking = ShrinkingMode.BOUNDED)
    void contiguousMemory(@ForAll("shortCases") Case c) {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).build()) {
            run(pool, c);
        }
    }

    @Property(tries = 25, shrinking = ShrinkingMode.BOUNDED)
    void contiguousMemoryWithLongArrays(@ForAll("longCases") Case c) {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(BIG_CHUNK).build()) {
            run(pool, c);
        }
    }

    @Property(tries = 25, shrinking = ShrinkingMode.BOUNDED)
    void memoryAndSpillFile(@ForAll("shortCases") Case c) {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(3 * CHUNK)
                .spillDirectory(spillDirectory).build()) {
            run(pool, c);
        }
    }

    @Property(tries = 25, shrinking = ShrinkingMode.BOUNDED)
    void portableChunks(@ForAll("shortCases") Case c) {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).portable(true).build()) {
            run(pool, c);
        }
    }

    @Property(tries = 15, shrinking = ShrinkingMode.BOUNDED)
    void portableMemoryAndSpillFile(@ForAll("shortCases") Case c) {
        try (ChunkPool pool = ChunkPool.builder().chunkSize(CHUNK).memoryLimit(2 * CHUNK)
                .spillDirectory(spillDirectory).portable(true).build()) {
            run(pool, c);
        }
    }

    /** Lengths up to a few 64 KiB chunks, around chunk boundaries: every path, memory and disk stay small. */
    @Provide
    Arbitrary<Case> shortCases() {
        return cases(CHUNK, false);
    }

    /**
     * Also lengths around 2^31 elements, with 4 MiB chunks: for the Linux memory path, where untouched
     * pages cost nothing.
     */
    @Provide
    Arbitrary<Case> longCases() {
        return cases(BIG_CHUNK, true);
    }

    private Arbitrary<Case> cases(long chunk, boolean big) {
        return Arbitraries.of(ElementType.class).flatMap(type -> {
            long perChunk = chunk / type.byteSize();
            List<Long> lengths = new ArrayList<>(List.of(0L, 1L, perChunk - 1, perChunk, perChunk + 1,
                    2 * perChunk - 1, 2 * perChunk + 1, 3 * perChunk, 5 * perChunk + 3));
            if (big) {
                lengths.addAll(List.of(BIG - 1, BIG, BIG + 1, BIG + perChunk + 7));
            }
            return Arbitraries.of(lengths).flatMap(length -> ops(length, perChunk).list().ofMinSize(1).ofMaxSize(50)
                    .map(ops -> new Case(type, length, ops)));
        });
    }

    /** Operations on valid indices, half of them within a few elements of a chunk boundary. */
    private Arbitrary<Op> ops(long length, long perChunk) {
        long last = Math.max(0, length - 1);
        Arbitrary<Long> index = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.longs().between(0, last)),
                Tuple.of(1, Arbitraries.longs().between(0, length / perChunk).flatMap(k ->
                        Arbitraries.longs().between(-40, 40).map(d -> Math.clamp(k * perChunk + d, 0, last)))));
        Arbitrary<Integer> count = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.integers().between(0, 64)),
                Tuple.of(2, Arbitraries.integers().between(65, 3 * (int) Math.min(perChunk, 20_000))));
        Arbitrary<Long> value = Arbitraries.longs();
        return Arbitraries.frequencyOf(
                Tuple.of(2, Combinators.combine(index, value).as(Set::new)),
                Tuple.of(2, index.map(Get::new)),
                Tuple.of(1, Combinators.combine(index, count, value).as(Fill::new)),
                Tuple.of(1, Combinators.combine(index, count).as(CopyOut::new)),
                Tuple.of(1, Combinators.combine(index, count, value).as(CopyIn::new)),
                Tuple.of(1, Combinators.combine(index, index, count).as(CopyWithin::new)),
                Tuple.of(2, Combinators.combine(index, Arbitraries.integers().between(-3000, 3000), count)
                        .as(CopyNearby::new)));
    }

    private static void run(ChunkPool pool, Case c) {
        Map<Long, Long> model = new HashMap<>();
        try (TypedArray array = allocate(pool, c.type(), c.length())) {
            Access access = Access.of(array);
            assertThat(array.length()).isEqualTo(c.length());
            for (Op op : c.ops()) {
                apply(op, array, access, model, c.length());
            }
            assertOutOfBounds(access, c.length());
            for (Map.Entry<Long, Long> e : model.entrySet()) {
                assertThat(access.get(e.getKey())).as("element %d", e.getKey()).isEqualTo(e.getValue());
            }
        }
        assertThat(pool.stats().liveArrays()).isZero();
        assertThat(pool.stats().memory().inUse()).isZero();
    }

    private static TypedArray allocate(ChunkPool pool, ElementType type, long length) {
        return switch (type) {
            case BYTE -> pool.bytes(length);
            case SHORT -> pool.shorts(length);
            case INT -> pool.ints(length);
            case LONG -> pool.longs(length);
            case FLOAT -> pool.floats(length);
            case DOUBLE -> pool.doubles(length);
        };
    }

    private static void apply(Op op, TypedArray array, Access access, Map<Long, Long> model, long length) {
        if (length == 0) {
            assertOutOfBounds(access, 0);
            return;
        }
        switch (op) {
            case Set(long index, long value) -> {
                access.set(index, value);
                model.put(index, access.normalize(value));
            }
            case Get(long index) -> {
                assertThat(access.get(index)).isEqualTo(model.getOrDefault(index, 0L));
            }
            case Fill(long from, int count, long value) -> {
                long to = Math.min(length, from + count);
                access.fill(from, to, value);
                for (long i = from; i < to; i++) {
                    model.put(i, access.normalize(value));
                }
            }
            case CopyOut(long from, int count) -> {
                int n = (int) Math.min(count, length - from);
                long[] out = access.copyOut(from, n);
                for (int i = 0; i < n; i++) {
                    assertThat(out[i]).as("copied element %d", from + i).isEqualTo(model.getOrDefault(from + i, 0L));
                }
            }
            case CopyIn(long to, int count, long seed) -> {
                int n = (int) Math.min(count, length - to);
                long[] values = new long[n];
                for (int i = 0; i < n; i++) {
                    values[i] = access.normalize(seed * 31 + i * 0x9E3779B97F4A7C15L);
                    model.put(to + i, values[i]);
                }
                access.copyIn(values, to);
            }
            case CopyWithin(long from, long to, int count) -> copyWithin(access, model, length, from, to, count);
            case CopyNearby(long from, int delta, int count) ->
                    copyWithin(access, model, length, from, Math.clamp(from + delta, 0, length - 1), count);
        }
    }

    private static void copyWithin(Access access, Map<Long, Long> model, long length, long src, long dst, int count) {
        long n = Math.min(count, length - Math.max(src, dst));
        access.copyWithin(src, dst, n);
        Map<Long, Long> moved = new HashMap<>();
        for (long i = 0; i < n; i++) {
            moved.put(dst + i, model.getOrDefault(src + i, 0L));
        }
        model.putAll(moved);
    }

    private static void assertOutOfBounds(Access access, long length) {
        for (long bad : new long[] {-1, length, length + 1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE / 2}) {
            assertThatThrownBy(() -> access.get(bad)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> access.set(bad, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    /** One array type seen through long bit patterns, so that the model is the same for every type. */
    interface Access {
        long get(long index);

        void set(long index, long value);

        void fill(long from, long to, long value);

        long[] copyOut(long from, int count);

        void copyIn(long[] values, long to);

        void copyWithin(long from, long to, long count);

        /** What the element type keeps of a long. */
        long normalize(long value);

        static Access of(TypedArray array) {
            return switch (array) {
                case DoubleArray a -> new Access() {
                    public long get(long i) { return Double.doubleToRawLongBits(a.get(i)); }
                    public void set(long i, long v) { a.set(i, Double.longBitsToDouble(v)); }
                    public void fill(long f, long t, long v) { a.fill(f, t, Double.longBitsToDouble(v)); }
                    public long[] copyOut(long f, int n) {
                        double[] out = new double[n + 2];
                        a.copyTo(f, out, 1, n);
                        long[] r = new long[n];
                        for (int i = 0; i < n; i++) r[i] = Double.doubleToRawLongBits(out[i + 1]);
                        return r;
                    }
                    public void copyIn(long[] v, long t) {
                        double[] in = new double[v.length + 1];
                        for (int i = 0; i < v.length; i++) in[i + 1] = Double.longBitsToDouble(v[i]);
                        a.copyFrom(in, 1, t, v.length);
                    }
                    public void copyWithin(long f, long t, long n) { a.copyTo(f, a, t, n); }
                    public long normalize(long v) { return Double.doubleToRawLongBits(Double.longBitsToDouble(v)); }
                };
                case LongArray a -> new Access() {
                    public long get(long i) { return a.get(i); }
                    public void set(long i, long v) { a.set(i, v); }
                    public void fill(long f, long t, long v) { a.fill(f, t, v); }
                    public long[] copyOut(long f, int n) {
                        long[] out = new long[n];
                        a.copyTo(f, out, 0, n);
                        return out;
                    }
                    public void copyIn(long[] v, long t) { a.copyFrom(v, 0, t, v.length); }
                    public void copyWithin(long f, long t, long n) { a.copyTo(f, a, t, n); }
                    public long normalize(long v) { return v; }
                };
                case IntArray a -> new Access() {
                    public long get(long i) { return a.get(i); }
                    public void set(long i, long v) { a.set(i, (int) v); }
                    public void fill(long f, long t, long v) { a.fill(f, t, (int) v); }
                    public long[] copyOut(long f, int n) {
                        int[] out = new int[n];
                        a.copyTo(f, out, 0, n);
                        long[] r = new long[n];
                        for (int i = 0; i < n; i++) r[i] = out[i];
                        return r;
                    }
                    public void copyIn(long[] v, long t) {
                        int[] in = new int[v.length];
                        for (int i = 0; i < v.length; i++) in[i] = (int) v[i];
                        a.copyFrom(in, 0, t, in.length);
                    }
                    public void copyWithin(long f, long t, long n) { a.copyTo(f, a, t, n); }
                    public long normalize(long v) { return (int) v; }
                };
                case FloatArray a -> new Access() {
                    public long get(long i) { return Float.floatToRawIntBits(a.get(i)); }
                    public void set(long i, long v) { a.set(i, Float.intBitsToFloat((int) v)); }
                    public void fill(long f, long t, long v) { a.fill(f, t, Float.intBitsToFloat((int) v)); }
                    public long[] copyOut(long f, int n) {
                        float[] out = new float[n];
                        a.copyTo(f, out, 0, n);
                        long[] r = new long[n];
                        for (int i = 0; i < n; i++) r[i] = Float.floatToRawIntBits(out[i]);
                        return r;
                    }
                    public void copyIn(long[] v, long t) {
                        float[] in = new float[v.length];
                        for (int i = 0; i < v.length; i++) in[i] = Float.intBitsToFloat((int) v[i]);
                        a.copyFrom(in, 0, t, in.length);
                    }
                    public void copyWithin(long f, long t, long n) { a.copyTo(f, a, t, n); }
                    public long normalize(long v) { return Float.floatToRawIntBits(Float.intBitsToFloat((int) v)); }
                };
                case ShortArray a -> new Access() {
                    public long get(long i) { return a.get(i); }
                    public void set(long i, long v) { a.set(i, (short) v); }
                    public void fill(long f, long t, long v) { a.fill(f, t, (short) v); }
                    public long[] copyOut(long f, int n) {
                        short[] out = new short[n];
                        a.copyTo(f, out, 0, n);
                        long[] r = new long[n];
                        for (int i = 0; i < n; i++) r[i] = out[i];
                        return r;
                    }
                    public void copyIn(long[] v, long t) {
                        short[] in = new short[v.length];
                        for (int i = 0; i < v.length; i++) in[i] = (short) v[i];
                        a.copyFrom(in, 0, t, in.length);
                    }
                    public void copyWithin(long f, long t, long n) { a.copyTo(f, a, t, n); }
                    public long normalize(long v) { return (short) v; }
                };
                case ByteArray a -> new Access() {
                    public long get(long i) { return a.get(i); }
                    public void set(long i, long v) { a.set(i, (byte) v); }
                    public void fill(long f, long t, long v) { a.fill(f, t, (byte) v); }
                    public long[] copyOut(long f, int n) {
                        byte[] out = new byte[n];
                        a.copyTo(f, out, 0, n);
                        long[] r = new long[n];
                        for (int i = 0; i < n; i++) r[i] = out[i];
                        return r;
                    }
                    public void copyIn(long[] v, long t) {
                        byte[] in = new byte[v.length];
                        for (int i = 0; i < v.length; i++) in[i] = (byte) v[i];
                        a.copyFrom(in, 0, t, in.length);
                    }
                    public void copyWithin(long f, long t, long n) { a.copyTo(f, a, t, n); }
                    public long normalize(long v) { return (byte) v; }
                };
            };
        }
    }
}
