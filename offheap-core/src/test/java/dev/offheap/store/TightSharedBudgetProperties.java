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

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.os.NativeMemory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

/**
 * Two pools (Linux memory and portable) and the views of a mapped file charging one small budget, against a
 * model: an allocation or a view is refused with {@link BudgetExceededException} exactly when it cannot fit,
 * even after the budget's reclaimers trimmed the other pool's free chunks (a request beyond the whole limit is
 * refused before anything is trimmed); a refusal leaves nothing charged, in use or mapped; the budget always
 * holds exactly the chunks the pools have space behind plus the views' pages; and every live array and view
 * keeps every element of its contents while others are made, refused, copied into, released and trimmed.
 */
class TightSharedBudgetProperties {
    private static final long CHUNK = 64 << 10;
    private static final long LIMIT = 8 * CHUNK;
    private static final int FILE_START = (int) (2 * CHUNK / Long.BYTES);
    private static final int FILE_MAX = (int) (6 * CHUNK / Long.BYTES);
    private static final int FILE_GROW = (int) (CHUNK / Long.BYTES) + 7;

    private static Path directory;

    @BeforeContainer
    static void createDirectory() throws Exception {
        directory = Files.createTempDirectory("store-budget");
    }

    @AfterContainer
    static void deleteDirectory() throws Exception {
        try (var files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }

    sealed interface Op permits Make, Release, Write, Copy, View, ReleaseView, WriteView, Grow, Trim {}

    /** An array of {@code chunks} chunks (more than the limit holds from 9 on) in pool 0 or 1. */
    record Make(int pool, ElementType type, int chunks, boolean fullChunks) implements Op {}

    record Release(int slot) implements Op {}

    record Write(int slot, long at, int count, long seed) implements Op {}

    /** A copy between two live arrays of one type, of the same pool or the other. */
    record Copy(int src, int dst, long from, long to, int count) implements Op {}

    record View() implements Op {}

    record ReleaseView(int slot) implements Op {}

    record WriteView(int slot, long at, int count, long seed) implements Op {}

    record Grow() implements Op {}

    record Trim(int pool) implements Op {}

    @Property(tries = 40, shrinking = ShrinkingMode.BOUNDED)
    @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
    void refusalsAreExactAndChargeNothingWhileTheRestKeepItsContents(@ForAll("ops") List<Op> ops) throws Exception {
        MemoryBudget budget = MemoryBudget.root("tight", LIMIT);
        Path path = Files.createTempFile(directory, "tight", ".npy");
        Files.delete(path);
        ChunkPool[] pools = {
                ChunkPool.builder().name("tight-memory").chunkSize(CHUNK).budget(budget).jmx(false).build(),
                ChunkPool.builder().name("tight-portable").chunkSize(CHUNK).portable(true).budget(budget).jmx(false)
                        .build()};
        try (MappedArray file = MappedArray.create(path, ElementType.LONG, FILE_START,
                MappedArray.Options.defaults().budget(budget).jmx(false))) {
            new Model(budget, pools, file).run(ops);
        } finally {
            for (ChunkPool pool : pools) {
                pool.close();
            }
            Files.deleteIfExists(path);
        }
        assertThat(budget.used()).isZero();
        budget.close();
        Statistics.label("allocations").coverage(coverage -> {
            coverage.check("fits").count(n -> n > 0);
            coverage.check("fits after reclaiming").count(n -> n > 0);
            coverage.check("refused").count(n -> n > 0);
            coverage.check("impossible").count(n -> n > 0);
        });
        Statistics.label("views").coverage(coverage -> coverage.check("refused").count(n -> n > 0));
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Integer> slot = Arbitraries.integers().between(0, 7);
        Arbitrary<Long> at = Arbitraries.longs().between(0, Long.MAX_VALUE);
        Arbitrary<Integer> count = Arbitraries.integers().between(1, 30_000);
        Arbitrary<Integer> chunks = Arbitraries.frequencyOf(
                Tuple.of(12, Arbitraries.integers().between(1, 4)),
                Tuple.of(2, Arbitraries.integers().between(5, 8)),
                Tuple.of(1, Arbitraries.integers().between(9, 12)));
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                Tuple.of(6, Combinators.combine(Arbitraries.integers().between(0, 1),
                        Arbitraries.of(ElementType.LONG, ElementType.BYTE, ElementType.DOUBLE), chunks,
                        Arbitraries.of(true, false)).as(Make::new)),
                Tuple.of(4, slot.map(Release::new)),
                Tuple.of(3, Combinators.combine(slot, at, count, Arbitraries.longs()).as(Write::new)),
                Tuple.of(3, Combinators.combine(slot, slot, at, at, count).as(Copy::new)),
                Tuple.of(2, Arbitraries.just(new View())),
                Tuple.of(2, slot.map(ReleaseView::new)),
                Tuple.of(2, Combinators.combine(slot, at, count, Arbitraries.longs()).as(WriteView::new)),
                Tuple.of(1, Arbitraries.just(new Grow())),
                Tuple.of(1, Arbitraries.integers().between(0, 1).map(Trim::new)));
        return op.list().ofMinSize(10).ofMaxSize(50);
    }

    /** The pools, the file and what each live array and view must hold. */
    private static final class Model {
        private final MemoryBudget budget;
        private final ChunkPool[] pools;
        private final MappedArray file;
        private final List<ModelArray> arrays = new ArrayList<>();
        private final List<LongArray> views = new ArrayList<>();
        private long[] fileModel = new long[FILE_START];

        Model(MemoryBudget budget, ChunkPool[] pools, MappedArray file) {
            this.budget = budget;
            this.pools = pools;
            this.file = file;
        }

        void run(List<Op> ops) {
            int step = 0;
            try {
                for (Op op : ops) {
                    apply(op);
                    checkEverything();
                    step++;
                }
            } catch (Throwable e) {
                throw new AssertionError("step " + step + " of " + ops, e);
            } finally {
                arrays.forEach(array -> array.array.release());
                views.forEach(LongArray::release);
            }
            assertThat(file.openViews()).isZero();
            assertThat(budget.used()).as("free chunks stay charged until trimmed or closed")
                    .isEqualTo(pools[0].stats().memory().bytesBacked() + pools[1].stats().memory().bytesBacked());
        }

        private void apply(Op op) throws Exception {
            switch (op) {
                case Make(int pool, ElementType type, int chunks, boolean fullChunks) -> make(pool, type, chunks, fullChunks);
                case Release(int slot) -> {
                    if (!arrays.isEmpty()) {
                        assertThat(arrays.remove(slot % arrays.size()).array.release()).isTrue();
                    }
                }
                case Write(int slot, long at, int count, long seed) -> {
                    if (!arrays.isEmpty()) {
                        ModelArray array = arrays.get(slot % arrays.size());
                        int from = (int) (at % array.length());
                        array.writePattern(seed, from, (int) Math.min(array.length(), (long) from + count));
                    }
                }
                case Copy(int src, int dst, long from, long to, int count) -> copy(src, dst, from, to, count);
                case View() -> view();
                case ReleaseView(int slot) -> {
                    if (!views.isEmpty()) {
                        assertThat(views.remove(slot % views.size()).release()).isTrue();
                    }
                }
                case WriteView(int slot, long at, int count, long seed) -> {
                    if (!views.isEmpty()) {
                        LongArray view = views.get(slot % views.size());
                        int from = (int) (at % view.length());
                        int n = (int) Math.min(view.length() - from, count);
                        long[] values = new long[n];
                        for (int i = 0; i < n; i++) {
                            values[i] = ModelArray.pattern(seed, from + i);
                        }
                        view.copyFrom(values, 0, from, n);
                        System.arraycopy(values, 0, fileModel, from, n);
                    }
                }
                case Grow() -> {
                    int length = fileModel.length + FILE_GROW;
                    if (length <= FILE_MAX) {
                        long before = budget.used();
                        file.grow(length);
                        fileModel = Arrays.copyOf(fileModel, length);
                        assertThat(budget.used()).as("growing maps and charges nothing").isEqualTo(before);
                    }
                }
                case Trim(int pool) -> {
                    long free = pools[pool].stats().memory().free();
                    assertThat(pools[pool].trim()).isEqualTo(free * CHUNK);
                }
            }
        }

        private void make(int pool, ElementType type, int chunks, boolean fullChunks) {
            ChunkPool target = pools[pool];
            long perChunk = CHUNK / type.byteSize();
            long length = chunks * perChunk - (fullChunks ? 0 : 5);
            long used = budget.used();
            long ownFree = target.stats().memory().free();
            long otherFree = pools[1 - pool].stats().memory().free();
            long newChunks = Math.max(0, chunks - ownFree);
            String expected;
            if (chunks > LIMIT / CHUNK) {
                expected = "impossible";
            } else if (used + newChunks * CHUNK <= LIMIT) {
                expected = "fits";
            } else if (used + newChunks * CHUNK - otherFree * CHUNK <= LIMIT) {
                expected = "fits after reclaiming";
            } else {
                expected = "refused";
            }
            Statistics.label("allocations").collect(expected);
            ChunkPoolStats before = target.stats();
            if (expected.startsWith("fits")) {
                ModelArray array = new ModelArray(ModelArray.allocate(target, type, length, Contents.ZEROS),
                        "chunk pool '" + target.name() + "'");
                array.check();
                array.writePattern(arrays.size() * 7919L + chunks, 0, array.length());
                arrays.add(array);
                return;
            }
            assertThatThrownBy(() -> ModelArray.allocate(target, type, length, Contents.ZEROS))
                    .as("%s: %d chunks with %d of %d bytes used, %d free here, %d free in the other pool", expected,
                            chunks, used, LIMIT, ownFree, otherFree)
                    .isInstanceOf(BudgetExceededException.class);
            ChunkPoolStats after = target.stats();
            assertThat(after.liveArrays()).isEqualTo(before.liveArrays());
            assertThat(after.memory().inUse()).isEqualTo(before.memory().inUse());
            assertThat(after.mappings()).isLessThanOrEqualTo(before.mappings());
            assertThat(budget.used()).as("a refusal charges nothing").isLessThanOrEqualTo(used);
            if (expected.equals("impossible")) {
                assertThat(budget.used()).as("refused before reclaiming anything").isEqualTo(used);
            }
        }

        private void copy(int src, int dst, long from, long to, int count) {
            if (arrays.isEmpty()) {
                return;
            }
            ModelArray source = arrays.get(src % arrays.size());
            for (int k = 0; k < arrays.size(); k++) {
                ModelArray target = arrays.get((dst + k) % arrays.size());
                if (target != source && target.type() == source.type()) {
                    int s = (int) (from % source.length());
                    int d = (int) (to % target.length());
                    source.copyTo(s, target, d, (int) Math.min(count, Math.min(source.length() - s, target.length() - d)));
                    return;
                }
            }
        }

        private void view() {
            long charge = NativeMemory.roundToPage((long) fileModel.length * Long.BYTES);
            long used = budget.used();
            long free = pools[0].stats().memory().free() + pools[1].stats().memory().free();
            boolean fits = used + charge - free * CHUNK <= LIMIT;
            Statistics.label("views").collect(fits ? "fits" : "refused");
            int open = file.openViews();
            long mapped = file.mappedBytes();
            if (fits) {
                LongArray view = file.longs();
                assertThat(view.length()).isEqualTo(fileModel.length);
                views.add(view);
                return;
            }
            assertThatThrownBy(file::longs).isInstanceOf(BudgetExceededException.class);
            assertThat(file.openViews()).isEqualTo(open);
            assertThat(file.mappedBytes()).isEqualTo(mapped);
            assertThat(budget.used()).as("a refusal charges nothing").isLessThanOrEqualTo(used);
        }

        /** Every live array and view holds its contents, and the budget exactly what the pools and views hold. */
        private void checkEverything() {
            for (ModelArray array : arrays) {
                array.check();
            }
            for (LongArray view : views) {
                long[] found = view.toArray(0, view.length());
                for (int i = 0; i < found.length; i++) {
                    if (found[i] != fileModel[i]) {
                        throw new AssertionError("element " + i + " of a view of the file holds " + found[i]
                                + ", expected " + fileModel[i]);
                    }
                }
            }
            long backed = pools[0].stats().memory().bytesBacked() + pools[1].stats().memory().bytesBacked();
            assertThat(budget.used()).as("the budget holds the pools' backed chunks and the views' pages")
                    .isEqualTo(backed + file.mappedBytes());
            assertThat(budget.used()).isLessThanOrEqualTo(LIMIT);
        }
    }
}
