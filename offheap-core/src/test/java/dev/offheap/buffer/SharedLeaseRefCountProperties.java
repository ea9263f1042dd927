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

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;

/**
 * Several threads call {@code retain()} and {@code release()} on one lease, in every mode and for every
 * kind of lease. The count decides, whatever the interleaving: a lease whose owner still holds a reference
 * never ends; exactly one release ends it, and it ends once (a retain that comes too late throws, a release
 * beyond the count throws); after that every method but {@code refCount()} throws, and the slot went back
 * exactly once: no two later leases share its memory, and trim gives every slab back.
 *
 * <p>The threads read the lease's memory only while they hold a reference, and the pool stays open.
 */
class SharedLeaseRefCountProperties {
    private static final long JOIN_MILLIS = 20_000;
    private static final long PATTERN = 0x5EED;

    /** Where the lease comes from. */
    enum Source {
        /** A size class, with thread caches. */
        SIZE_CLASS(4000, true),
        /** A size class, every thread on the shared free lists. */
        NO_THREAD_CACHES(700, false),
        /** Above the largest class: a region of its own. */
        DEDICATED((1 << 20) + 100, true);

        final int size;
        final boolean threadCaches;

        Source(int size, boolean threadCaches) {
            this.size = size;
            this.threadCaches = threadCaches;
        }
    }

    @Property(tries = 200, shrinking = ShrinkingMode.BOUNDED)
    void aLeaseTheOwnerStillHoldsNeverEndsWhateverOtherThreadsRetainAndRelease(@ForAll PoolMode mode,
            @ForAll Source source, @ForAll @IntRange(min = 2, max = 4) int threads,
            @ForAll @IntRange(min = 1, max = 300) int rounds, @ForAll @IntRange(min = 1, max = 3) int depth,
            @ForAll boolean virtualThreads) throws Exception {
        try (BufferPool pool = pool(mode, source)) {
            BufferLease lease = pool.acquire(source.size);
            Patterns.fill(lease.segment(), PATTERN);
            Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(start(virtualThreads, "sharer-" + t, failures, () -> {
                    start.await();
                    for (int round = 0; round < rounds; round++) {
                        for (int d = 0; d < depth; d++) {
                            assertThat(lease.retain()).isSameAs(lease);
                        }
                        assertThat(lease.refCount()).as("while this thread holds %d references", depth)
                                .isGreaterThan(depth);
                        assertThat(lease.size()).isEqualTo(source.size);
                        checkEnds(lease.segment(), source.size);
                        for (int d = 0; d < depth; d++) {
                            assertThat(lease.release()).as("a release while the owner holds its reference")
                                    .isFalse();
                        }
                    }
                }));
            }
            start.countDown();
            joinAll(workers, failures);

            assertThat(lease.refCount()).as("every retain was matched by a release").isEqualTo(1);
            Patterns.verify(lease.segment(), PATTERN);
            assertThat(pool.stats().leases()).isEqualTo(1);
            assertThat(lease.release()).as("the owner's release is the last").isTrue();
            checkEnded(pool, lease);
            checkWentBackOnce(pool, source);
        }
    }

    @Property(tries = 200, shrinking = ShrinkingMode.BOUNDED)
    void aRetainRacingTheLastReleaseEitherKeepsTheLeaseAliveOrThrowsAndTheLeaseEndsOnce(@ForAll PoolMode mode,
            @ForAll Source source, @ForAll @IntRange(min = 1, max = 4) int threads,
            @ForAll @IntRange(min = 1, max = 400) int rounds, @ForAll @IntRange(min = 0, max = 400) int releaseAfter,
            @ForAll boolean virtualThreads) throws Exception {
        try (BufferPool pool = pool(mode, source)) {
            BufferLease lease = pool.acquire(source.size);
            Patterns.fill(lease.segment(), PATTERN);
            Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicInteger retained = new AtomicInteger();
            AtomicInteger lastReleases = new AtomicInteger();
            AtomicInteger finished = new AtomicInteger();
            AtomicInteger tooLate = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(start(virtualThreads, "retainer-" + t, failures, () -> {
                    try {
                        start.await();
                        for (int round = 0; round < rounds; round++) {
                            try {
                                lease.retain();
                            } catch (IllegalStateException released) {
                                assertThat(released).hasMessageContaining("'" + pool.name() + "'")
                                        .hasMessageContaining("already released");
                                assertThat(lease.refCount()).isZero();
                                tooLate.incrementAndGet();
                                return;
                            }
                            retained.incrementAndGet();
                            checkEnds(lease.segment(), source.size); // a reference held: the memory is ours
                            if (lease.release()) {
                                lastReleases.incrementAndGet();
                            }
                        }
                    } finally {
                        finished.incrementAndGet();
                    }
                }));
            }
            start.countDown();
            // The owner lets go after the others retained `releaseAfter` times (or finished): counted, not timed.
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MILLIS);
            while (retained.get() < releaseAfter && finished.get() < threads && System.nanoTime() < deadline) {
                Thread.yield(); // two cores here: leave them to the workers
            }
            if (lease.release()) {
                lastReleases.incrementAndGet();
            }
            joinAll(workers, failures);

            assertThat(lastReleases.get()).as("releases that ended the lease (%d retains, %d too late)",
                    retained.get(), tooLate.get()).isEqualTo(1);
            checkEnded(pool, lease);
            checkWentBackOnce(pool, source);
        }
    }

    @Property(tries = 200, shrinking = ShrinkingMode.BOUNDED)
    void releasesBeyondTheCountThrowAndTheLeaseEndsExactlyOnce(@ForAll PoolMode mode, @ForAll Source source,
            @ForAll @IntRange(min = 1, max = 40) int references, @ForAll @IntRange(min = 1, max = 6) int extra,
            @ForAll @IntRange(min = 2, max = 4) int threads, @ForAll boolean virtualThreads) throws Exception {
        try (BufferPool pool = pool(mode, source)) {
            BufferLease lease = pool.acquire(source.size);
            for (int i = 1; i < references; i++) {
                lease.retain();
            }
            assertThat(lease.refCount()).isEqualTo(references);
            int calls = references + extra;
            Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicInteger accepted = new AtomicInteger();
            AtomicInteger lastReleases = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int mine = calls / threads + (t < calls % threads ? 1 : 0);
                workers.add(start(virtualThreads, "releaser-" + t, failures, () -> {
                    start.await();
                    for (int i = 0; i < mine; i++) {
                        try {
                            if (lease.release()) {
                                lastReleases.incrementAndGet();
                            }
                            accepted.incrementAndGet();
                        } catch (IllegalStateException doubleRelease) {
                            assertThat(doubleRelease).hasMessageContaining("'" + pool.name() + "'")
                                    .hasMessageContaining("already released");
                            refused.incrementAndGet();
                        }
                    }
                }));
            }
            start.countDown();
            joinAll(workers, failures);

            assertThat(accepted.get()).as("releases accepted").isEqualTo(references);
            assertThat(refused.get()).as("releases beyond the count, refused").isEqualTo(extra);
            assertThat(lastReleases.get()).as("releases that ended the lease").isEqualTo(1);
            checkEnded(pool, lease);
            checkWentBackOnce(pool, source);
        }
    }

    private static BufferPool pool(PoolMode mode, Source source) {
        BufferPool.Builder builder = mode.builder("shared-lease");
        return (source.threadCaches ? builder : builder.threadCaches(0)).build();
    }

    /** The first and last words of the pattern (the whole of it would make the big leases slow to check). */
    private static void checkEnds(MemorySegment segment, int size) {
        long last = size - 8 & ~7L;
        assertThat(segment.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).isEqualTo(Patterns.word(PATTERN, 0));
        assertThat(segment.get(ValueLayout.JAVA_LONG_UNALIGNED, last)).isEqualTo(Patterns.word(PATTERN, last));
    }

    /** The handle of an ended lease: every method but refCount() throws, naming the pool. */
    private static void checkEnded(BufferPool pool, BufferLease lease) {
        assertThat(lease.refCount()).isZero();
        for (Runnable use : List.<Runnable>of(lease::retain, lease::release, lease::segment, lease::byteBuffer,
                lease::size, lease::close)) {
            assertThatThrownBy(use::run).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'" + pool.name() + "'");
        }
        assertThat(lease.refCount()).as("a refused use changes nothing").isZero();
        BufferPoolStats stats = pool.stats();
        assertThat(stats.leases()).as("leases once the shared one ended:%n%s", stats.format()).isZero();
        assertThat(stats.bytesInUse()).isZero();
        assertThat(stats.leaksWatched()).isZero();
        assertThat(stats.leaks()).isZero();
    }

    /**
     * A slot given back twice would sit twice on the free lists: two later leases would share it, and its
     * slab would never be all free for trim. A region given back twice would be unmapped and uncharged twice.
     */
    private static void checkWentBackOnce(BufferPool pool, Source source) {
        pool.trim(); // the dead threads' caches go to the shared free lists
        long slots = pool.stats().sizeClasses().stream().mapToLong(SizeClassStats::slots).sum();
        List<BufferLease> all = new ArrayList<>();
        Map<Long, Integer> owners = new HashMap<>();
        try {
            for (int i = 0; i <= slots; i++) {
                BufferLease b = pool.acquire(source.size);
                all.add(b);
                Integer before = owners.put(b.segment().address(), i);
                assertThat(before).as("leases %s and %d share memory: a slot went back twice", before, i).isNull();
            }
        } finally {
            all.forEach(BufferLease::release);
        }
        pool.trim();
        BufferPoolStats trimmed = pool.stats();
        assertThat(trimmed.bytesFromOs()).as("bytes from the OS after trim (a slot freed twice keeps its slab):%n%s",
                trimmed.format()).isZero();
        assertThat(trimmed.leases()).isZero();
        assertThat(pool.budget().used()).as("budget after trim").isZero();
    }

    interface Work {
        void run() throws Exception;
    }

    private static Thread start(boolean virtual, String name, Queue<Throwable> failures, Work work) {
        Runnable body = () -> {
            try {
                work.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        };
        return virtual ? Thread.ofVirtual().name(name).start(body) : Thread.ofPlatform().name(name).start(body);
    }

    private static void joinAll(List<Thread> workers, Queue<Throwable> failures) throws InterruptedException {
        for (Thread worker : workers) {
            worker.join(JOIN_MILLIS);
            assertThat(worker.isAlive()).as("%s finished within %d ms (a deadlock?)", worker.getName(), JOIN_MILLIS)
                    .isFalse();
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError("a worker failed: " + failures.peek(), failures.peek());
            failures.forEach(error::addSuppressed);
            throw error;
        }
    }
}
