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

package dev.offheap.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.os.NativeMemory;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Filter;
import java.util.logging.Logger;
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
 * Random acquire / write / hand-over / release scripts on several platform threads. Every lease fills its
 * whole segment with a pattern of its own and checks it before release, and a registry of the address
 * ranges of live leases checks that a new lease never overlaps a live one. Some leases are released by a
 * thread other than the one that acquired them. At the end everything is released and, once the workers
 * are dead, trim() gives every byte back to the OS and the budget.
 *
 * <p>The mix also uses stale handles (a lease this thread released, every method of which must throw while
 * other leases stay intact) and stale views (a segment or ByteBuffer kept past release: it must throw where
 * the mode promises it, checked mode and sampled leases), and one property closes the pool at a random
 * point while the workers go on: from then on everything throws {@link IllegalStateException}, nothing
 * crashes.
 *
 * <p>Each mode also runs with every lease tracked for leak detection ({@code leakSampling(1)}; the default,
 * 1 in 4096, almost never tracks one of these scripts' leases): then every acquire polls the detector, and
 * scripts also drop leases without releasing them. Each dropped lease must be reported exactly once and its
 * memory go back, while the other threads go on; no lease handed over or still held is ever reported.
 */
class PoolConcurrencyProperties {
    private static final int DEDICATED = (1 << 20) + 1;
    /** Held strongly so that its filter is not lost if the logger were collected. */
    private static final Logger LEAK_LOGGER = Logger.getLogger("dev.offheap.buffer.leak");
    private static Filter previousFilter;

    /** Dropped leases are reported with their stack: expected here, and hundreds would only hide real output. */
    @BeforeContainer
    static void silenceLeakReports() {
        previousFilter = LEAK_LOGGER.getFilter();
        LEAK_LOGGER.setFilter(logRecord -> false);
    }

    @AfterContainer
    static void restoreLeakLogger() {
        LEAK_LOGGER.setFilter(previousFilter);
    }

    sealed interface Op permits Acquire, Release, HandOver, TakeOver, RetainRelease, Trim, ReturnIdle, StaleHandle,
            StaleView, Drop, Close {}

    enum Mode { DEFAULT, CHECKED, SAMPLED }

    /**
     * Acquire a lease of {@code size} bytes, check it overlaps no live lease, fill it: kind 0 a handle, 1 a
     * {@link LeaseTokens token} through the thread's cache, 2 a token without it; a token is watched for leaks
     * through its {@link Held} record, and released the way it was acquired.
     */
    record Acquire(int size, int kind) implements Op {}

    /** Check and release one of the leases this thread holds. */
    record Release(int pick) implements Op {}

    /** Check one of the leases this thread holds and hand it to whichever thread takes it over. */
    record HandOver(int pick) implements Op {}

    /** Take over a lease some thread handed over (released later by this thread). */
    record TakeOver() implements Op {}

    /** retain() then release() on a held lease: the lease must stay live. */
    record RetainRelease(int pick) implements Op {}

    /** trim() and stats() while other threads acquire and release: may free only idle slabs. */
    record Trim() implements Op {}

    /**
     * Idle return's look, as its clock makes it, while other threads acquire and release: may free only slabs
     * with no lease at two looks and all their slots free.
     */
    record ReturnIdle() implements Op {}

    /** Use a handle this thread released earlier: every method throws, refCount() reads 0. */
    record StaleHandle(int pick) implements Op {}

    /** Use a view kept from a lease this thread released: throws in checked mode and for sampled leases. */
    record StaleView(int pick) implements Op {}

    /**
     * Check one of the leases this thread holds and lose it without release (only where every lease is
     * leak-tracked): the detector must find it, report it once and give its memory back.
     */
    record Drop(int pick) implements Op {}

    /** Close the pool (only in the closing property): every later use throws, nothing crashes. */
    record Close() implements Op {}

    @Property(tries = 60, shrinking = ShrinkingMode.BOUNDED)
    void systemMemoryDefaultMode(@ForAll("scripts") List<List<Op>> scripts) throws Exception {
        run(NativeMemory.system(), Mode.DEFAULT, false, scripts);
    }

    @Property(tries = 60, shrinking = ShrinkingMode.BOUNDED)
    void systemMemoryCheckedMode(@ForAll("scripts") List<List<Op>> scripts) throws Exception {
        run(NativeMemory.system(), Mode.CHECKED, false, scripts);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.BOUNDED)
    void systemMemoryEveryLeaseSampledForUseAfterRelease(@ForAll("scripts") List<List<Op>> scripts)
            throws Exception {
        run(NativeMemory.system(), Mode.SAMPLED, false, scripts);
    }

    @Property(tries = 60, shrinking = ShrinkingMode.BOUNDED)
    void portableMemoryDefaultMode(@ForAll("scripts") List<List<Op>> scripts) throws Exception {
        run(NativeMemory.portable(), Mode.DEFAULT, false, scripts);
    }

    @Property(tries = 60, shrinking = ShrinkingMode.BOUNDED)
    void portableMemoryCheckedMode(@ForAll("scripts") List<List<Op>> scripts) throws Exception {
        run(NativeMemory.portable(), Mode.CHECKED, false, scripts);
    }

    @Property(tries = 30, shrinking = ShrinkingMode.BOUNDED)
    void systemMemoryEveryLeaseLeakTracked(@ForAll("scriptsThatDrop") List<List<Op>> scripts) throws Exception {
        run(NativeMemory.system(), Mode.DEFAULT, true, scripts);
    }

    @Property(tries = 20, shrinking = ShrinkingMode.BOUNDED)
    void systemMemoryEveryLeaseLeakTrackedAndSampledForUseAfterRelease(
            @ForAll("scriptsThatDrop") List<List<Op>> scripts) throws Exception {
        run(NativeMemory.system(), Mode.SAMPLED, true, scripts);
    }

    @Property(tries = 20, shrinking = ShrinkingMode.BOUNDED)
    void portableMemoryCheckedModeEveryLeaseLeakTracked(@ForAll("scriptsThatDrop") List<List<Op>> scripts)
            throws Exception {
        run(NativeMemory.portable(), Mode.CHECKED, true, scripts);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.BOUNDED)
    void closingThePoolAtARandomPointWhileWorkersGoOn(@ForAll("scripts") List<List<Op>> scripts,
            @ForAll Mode mode, @ForAll boolean portable) throws Exception {
        List<List<Op>> withClose = new ArrayList<>();
        for (List<Op> script : scripts) {
            withClose.add(new ArrayList<>(script));
        }
        List<Op> first = withClose.get(0);
        first.add(first.size() / 2, new Close());
        runClosing(portable ? NativeMemory.portable() : NativeMemory.system(), mode, withClose);
    }

    @Provide
    Arbitrary<List<List<Op>>> scripts() {
        return scripts(false);
    }

    @Provide
    Arbitrary<List<List<Op>>> scriptsThatDrop() {
        return scripts(true);
    }

    private static Arbitrary<List<List<Op>>> scripts(boolean drops) {
        Arbitrary<Integer> sizes = Arbitraries.frequencyOf(
                Tuple.of(25, Arbitraries.of(0, 1, 15, 16, 17, 63, 64, 65, 79, 80, 81, 127, 128, 129, 1023, 1024,
                        1025)),
                Tuple.of(35, Arbitraries.integers().between(0, 4096)),
                Tuple.of(25, Arbitraries.integers().between(4097, 64 * 1024)),
                Tuple.of(8, Arbitraries.of(64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 100_000, 256 * 1024, 300_000)),
                Tuple.of(2, Arbitraries.of((1 << 20) - 1, 1 << 20)),
                Tuple.of(2, Arbitraries.of(DEDICATED, (1 << 20) + 4097)));
        Arbitrary<Integer> picks = Arbitraries.integers().between(0, 1000);
        Arbitrary<Op> ops = Arbitraries.frequencyOf(
                Tuple.of(40, Combinators.combine(sizes, Arbitraries.of(0, 1, 2)).as(Acquire::new)),
                Tuple.of(25, picks.map(Release::new)),
                Tuple.of(12, picks.map(HandOver::new)),
                Tuple.of(15, Arbitraries.just(new TakeOver())),
                Tuple.of(5, picks.map(RetainRelease::new)),
                Tuple.of(2, Arbitraries.just(new Trim())),
                Tuple.of(3, Arbitraries.just(new ReturnIdle())),
                Tuple.of(4, picks.map(StaleHandle::new)),
                Tuple.of(4, picks.map(StaleView::new)));
        if (drops) {
            ops = Arbitraries.frequencyOf(Tuple.of(97, ops), Tuple.of(3, picks.map(Drop::new)));
        }
        return ops.list().ofMinSize(10).ofMaxSize(300).list().ofMinSize(3).ofMaxSize(4);
    }

    /** A live lease: a handle, or a token of {@code tokens} (then {@code buffer} is null). */
    private record Held(BufferLease buffer, LeaseTokens tokens, long token, long id, long address, int size) {
        MemorySegment segment() {
            return buffer != null ? buffer.segment() : tokens.segment(token);
        }

        ByteBuffer byteBuffer() {
            return buffer != null ? buffer.byteBuffer() : tokens.byteBuffer(token);
        }

        /** Releases the last reference: true, as a handle's last release says. */
        boolean release() {
            if (buffer != null) {
                return buffer.release();
            }
            tokens.release(token);
            return true;
        }
    }

    /** A released lease and the views taken from it before release. */
    private record Stale(Held lease, MemorySegment segment, ByteBuffer byteBuffer, boolean viewsDie) {}

    /** Address ranges of live leases. A lease is added after acquire and removed before release. */
    private static final class LiveRanges {
        private final TreeMap<Long, Long> ranges = new TreeMap<>();

        synchronized void add(long start, int size) {
            long end = start + Math.max(size, 1); // a 0-byte lease still owns its slot's first byte
            Map.Entry<Long, Long> below = ranges.floorEntry(start);
            if (below != null && below.getValue() > start) {
                throw new AssertionError("new lease [0x" + Long.toHexString(start) + ", 0x" + Long.toHexString(end)
                        + ") overlaps live lease [0x" + Long.toHexString(below.getKey()) + ", 0x"
                        + Long.toHexString(below.getValue()) + ")");
            }
            Map.Entry<Long, Long> above = ranges.ceilingEntry(start);
            if (above != null && above.getKey() < end) {
                throw new AssertionError("new lease [0x" + Long.toHexString(start) + ", 0x" + Long.toHexString(end)
                        + ") overlaps live lease [0x" + Long.toHexString(above.getKey()) + ", 0x"
                        + Long.toHexString(above.getValue()) + ")");
            }
            ranges.put(start, end);
        }

        synchronized void remove(long start) {
            assertThat(ranges.remove(start)).as("registered range at 0x%s", Long.toHexString(start)).isNotNull();
        }

        synchronized int size() {
            return ranges.size();
        }
    }

    /** A pool in {@code mode}; with {@code everyLeaseTracked}, leak sampling 1, else the default. */
    private static BufferPool pool(NativeMemory memory, Mode mode, boolean everyLeaseTracked) {
        BufferPool.Builder builder = BufferPool.builder().nativeMemory(memory).checked(mode == Mode.CHECKED)
                .useAfterReleaseSampling(mode == Mode.SAMPLED ? 1 : 0).name("concurrency");
        return (everyLeaseTracked ? builder.leakSampling(1) : builder).build();
    }

    /** The pool closes in the middle of the first script: every use from then on must throw, never crash. */
    private static void runClosing(NativeMemory memory, Mode mode, List<List<Op>> scripts) throws Exception {
        BufferPool pool = pool(memory, mode, false);
        try {
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Held> handedOver = new ConcurrentLinkedQueue<>();
            AtomicLong ids = new AtomicLong();
            LiveRanges live = new LiveRanges();
            List<Thread> workers = new ArrayList<>();
            for (List<Op> script : scripts) {
                workers.add(Thread.ofPlatform().start(() -> {
                    try {
                        runScript(pool, mode, script, live, handedOver, ids, new AtomicLong());
                    } catch (IllegalStateException e) {
                        if (!pool.isClosed()) {
                            failures.add(e);
                        }
                    } catch (AssertionError e) {
                        // a pattern check that raced the close reads through a view: must have thrown instead
                        failures.add(e);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread worker : workers) {
                worker.join(120_000);
                assertThat(worker.isAlive()).isFalse();
            }
            if (!failures.isEmpty()) {
                AssertionError error = new AssertionError("a worker failed: " + failures.peek());
                failures.forEach(error::addSuppressed);
                throw error;
            }
            assertThat(pool.isClosed()).isTrue();
            assertThat(pool.budget().used()).as("budget after close").isZero();
        } finally {
            pool.close();
        }
    }

    private static void run(NativeMemory memory, Mode mode, boolean everyLeaseTracked, List<List<Op>> scripts)
            throws Exception {
        BufferPool pool = pool(memory, mode, everyLeaseTracked);
        try {
            LiveRanges live = new LiveRanges();
            ConcurrentLinkedQueue<Held> handedOver = new ConcurrentLinkedQueue<>();
            AtomicLong ids = new AtomicLong();
            AtomicLong dropped = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < scripts.size(); t++) {
                List<Op> script = scripts.get(t);
                Thread worker = Thread.ofPlatform().name("worker-" + t).unstarted(() -> {
                    try {
                        start.await();
                        runScript(pool, mode, script, live, handedOver, ids, dropped);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                workers.add(worker);
                worker.start();
            }
            start.countDown();
            for (Thread worker : workers) {
                worker.join(120_000);
                assertThat(worker.isAlive()).as("%s finished its script (a deadlock?)", worker.getName()).isFalse();
            }
            if (!failures.isEmpty()) {
                AssertionError error = new AssertionError("a worker failed: " + failures.peek());
                failures.forEach(error::addSuppressed);
                throw error;
            }
            // Leases handed over that nobody took: released by this thread, which acquired none of them.
            Held h;
            while ((h = handedOver.poll()) != null) {
                checkAndRelease(h, live, mode);
            }
            assertThat(live.size()).isZero();
            if (dropped.get() > 0) {
                assertThat(awaitLeaks(pool, dropped.get()).leaks()).as("dropped leases reported as leaks")
                        .isEqualTo(dropped.get());
            }

            BufferPoolStats stats = pool.stats();
            assertThat(stats.leases()).as("leases after all were released").isZero();
            assertThat(stats.bytesInUse()).as("leased bytes after all were released").isZero();
            assertThat(stats.dedicatedLeases()).isZero();
            assertThat(stats.leaks()).as("leaks reported: only the dropped leases").isEqualTo(dropped.get());
            assertThat(stats.leaksWatched()).as("tracked leases still watched after all ended").isZero();

            pool.trim();
            BufferPoolStats trimmed = pool.stats();
            assertThat(trimmed.bytesFromOs()).as("bytes from the OS after trim:%n%s", trimmed.format()).isZero();
            assertThat(pool.budget().used()).as("budget after trim").isZero();
        } finally {
            pool.close();
        }
    }

    /**
     * Collects garbage until the pool reported {@code leaks} leases (stats() polls the detector), for at most
     * 20 s; returns the last stats.
     */
    private static BufferPoolStats awaitLeaks(BufferPool pool, long leaks) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        BufferPoolStats stats = pool.stats();
        while (stats.leaks() < leaks && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(5);
            stats = pool.stats();
        }
        return stats;
    }

    private static void runScript(BufferPool pool, Mode mode, List<Op> script, LiveRanges live,
            ConcurrentLinkedQueue<Held> handedOver, AtomicLong ids, AtomicLong dropped) {
        List<Held> held = new ArrayList<>();
        List<Stale> stale = new ArrayList<>();
        for (Op op : script) {
            switch (op) {
                case Acquire(int size, int kind) -> {
                    long id = ids.incrementAndGet();
                    Held h;
                    if (kind > 0) {
                        LeaseTokens tokens = kind == 1 ? pool.tokens() : pool.tokens().withoutThreadCaches();
                        long t = tokens.acquire(size);
                        h = new Held(null, tokens, t, id, tokens.segment(t).address(), size);
                        tokens.watch(t, h);
                    } else {
                        BufferLease buffer = pool.acquire(size);
                        assertThat(buffer.size()).isEqualTo(size);
                        assertThat(buffer.refCount()).isEqualTo(1);
                        h = new Held(buffer, null, 0, id, buffer.segment().address(), size);
                    }
                    assertThat(h.segment().byteSize()).isEqualTo(size);
                    live.add(h.address(), size);
                    Patterns.fill(h.segment(), id);
                    held.add(h);
                }
                case Release(int pick) -> {
                    if (!held.isEmpty()) {
                        Held h = held.remove(pick % held.size());
                        MemorySegment segment = h.segment();
                        ByteBuffer bb = h.byteBuffer();
                        checkAndRelease(h, live, mode);
                        // dedicated leases (above the largest class) unmap at release in every mode
                        stale.add(new Stale(h, segment, bb, mode != Mode.DEFAULT || h.size() > (1 << 20)));
                    }
                }
                case StaleHandle(int pick) -> {
                    if (!stale.isEmpty() && stale.get(pick % stale.size()).lease().buffer() == null) {
                        Held h = stale.get(pick % stale.size()).lease();
                        try {
                            h.release();
                            assertThat(pool.isClosed()).as("a stale token's release does nothing only after close")
                                    .isTrue();
                        } catch (IllegalStateException refused) {
                            // a stale token is refused while the pool is open
                        }
                        assertThatThrownBy(h::segment).isInstanceOf(IllegalStateException.class);
                        assertThatThrownBy(h::byteBuffer).isInstanceOf(IllegalStateException.class);
                        assertThatThrownBy(() -> h.tokens().attachment(h.token()))
                                .isInstanceOf(IllegalStateException.class);
                    } else if (!stale.isEmpty()) {
                        BufferLease b = stale.get(pick % stale.size()).lease().buffer();
                        assertThatThrownBy(b::release).isInstanceOf(IllegalStateException.class);
                        assertThatThrownBy(b::retain).isInstanceOf(IllegalStateException.class);
                        assertThatThrownBy(b::segment).isInstanceOf(IllegalStateException.class);
                        assertThatThrownBy(b::byteBuffer).isInstanceOf(IllegalStateException.class);
                        assertThatThrownBy(b::size).isInstanceOf(IllegalStateException.class);
                        assertThat(b.refCount()).isZero();
                    }
                }
                case StaleView(int pick) -> {
                    if (!stale.isEmpty()) {
                        Stale v = stale.get(pick % stale.size());
                        if (v.viewsDie() && v.segment().byteSize() > 0) {
                            assertThatThrownBy(() -> v.segment().fill((byte) 0x66))
                                    .isInstanceOf(IllegalStateException.class);
                            assertThatThrownBy(() -> v.byteBuffer().put(0, (byte) 0x66))
                                    .isInstanceOf(IllegalStateException.class);
                        }
                        // default mode: a stale view may reach a slot lent again; this test never writes it
                    }
                }
                case Drop(int pick) -> {
                    if (!held.isEmpty()) {
                        Held h = held.remove(pick % held.size());
                        check(h);
                        live.remove(h.address()); // its slot may be lent again once the detector found it
                        dropped.incrementAndGet();
                    }
                }
                case Close() -> pool.close();
                case HandOver(int pick) -> {
                    if (!held.isEmpty()) {
                        Held h = held.remove(pick % held.size());
                        check(h);
                        handedOver.add(h);
                    }
                }
                case TakeOver() -> {
                    Held h = handedOver.poll();
                    if (h != null) {
                        check(h);
                        held.add(h);
                    }
                }
                case RetainRelease(int pick) -> {
                    // a token has no count of its own (its holder counts): only handles are retained
                    if (!held.isEmpty() && held.get(pick % held.size()).buffer() != null) {
                        Held h = held.get(pick % held.size());
                        assertThat(h.buffer().retain()).isSameAs(h.buffer());
                        assertThat(h.buffer().refCount()).isEqualTo(2);
                        assertThat(h.buffer().release()).as("release of a retained lease").isFalse();
                        assertThat(h.buffer().refCount()).isEqualTo(1);
                        check(h);
                    }
                }
                case ReturnIdle() -> pool.returnIdle();
                case Trim() -> {
                    pool.trim();
                    BufferPoolStats stats = pool.stats();
                    if (!pool.isClosed()) { // a closed pool reports nothing leased
                        assertThat(stats.leases()).isGreaterThanOrEqualTo(held.size());
                    }
                }
            }
        }
        for (Held h : held) {
            checkAndRelease(h, live, mode);
        }
    }

    private static void check(Held h) {
        assertThat(h.segment().address()).isEqualTo(h.address());
        Patterns.verify(h.segment(), h.id());
        if (h.size() >= 8) {
            ByteBuffer bb = h.byteBuffer();
            assertThat(bb.order(java.nio.ByteOrder.nativeOrder()).getLong(0)).as("byteBuffer sees the segment's bytes")
                    .isEqualTo(Patterns.word(h.id(), 0));
            assertThat(bb.getLong(h.size() - 8 & ~7)).isEqualTo(Patterns.word(h.id(), h.size() - 8 & ~7));
        }
    }

    private static void checkAndRelease(Held h, LiveRanges live, Mode mode) {
        check(h);
        live.remove(h.address());
        assertThat(h.release()).as("release of the last reference").isTrue();
        if (h.buffer() != null) {
            assertThat(h.buffer().refCount()).as("a released handle, in every mode").isZero();
        }
    }
}
