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

import dev.offheap.account.MemoryBudget;
import dev.offheap.os.NativeMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.logging.Filter;
import java.util.logging.Logger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * {@link BufferPool#close()} races other threads' acquires, releases, retains, hand-overs, trims and stats,
 * in every mode, on both memory sources, with and without thread caches, under its own budget or a given
 * one. Every acquire either returns a live lease (refCount 1, its size) or, once the pool is closed, throws
 * an {@link IllegalStateException} naming the pool; a release never throws, before or after the close; a
 * trim works or, once closed, throws naming the pool. Afterwards nothing is charged, every figure of the
 * pool's stats is 0, and a budget given to the pool closes clean. Latecomers, threads started just before
 * the close, make their first acquire (and get their thread cache) while it runs.
 *
 * <p>The same workers also race the close of the budget a pool was given (or of its parent): an acquire
 * that needs a new charge then throws naming the closed budget, and the pool, still open, gives everything
 * back at trim and close.
 *
 * <p>No thread touches a lease's memory: closing while views are in use is {@link CloseUnderUseTest}'s job,
 * in child JVMs (a JDK 25 bug, JDK-8364167, can crash a JVM whose arena is closed during such an access).
 */
class PoolCloseRaceProperties {
    private static final long JOIN_MILLIS = 30_000;
    /** Operations each worker makes once it saw the pool closed, before it releases what it holds. */
    private static final int OPS_AFTER_CLOSE = 100;
    private static final int MAX_OPS = 20_000;
    private static final int MAX_HELD = 8;
    private static final int[] SIZES = {0, 1, 100, 1000, 4096, 20_000, 65_536, 300_000, 1 << 20, (1 << 20) + 1,
            3 << 20};

    /** Whose budget the pool charges. */
    enum Budget {
        /** The pool's own, closed with it. */
        OWN,
        /** A root the test gives it. */
        GIVEN_ROOT,
        /** A child with a reservation, under a root; a second owner charges the root meanwhile. */
        GIVEN_CHILD
    }

    /** Closing a pool with leases out logs a warning, and closing its own budget may log its report. */
    private static final List<Logger> QUIETED = List.of(Logger.getLogger(BufferPool.class.getName()),
            Logger.getLogger("dev.offheap.account"));
    private static final List<Filter> PREVIOUS = new ArrayList<>();

    @BeforeContainer
    static void quiet() {
        for (Logger logger : QUIETED) {
            PREVIOUS.add(logger.getFilter());
            logger.setFilter(record -> false);
        }
    }

    @AfterContainer
    static void restore() {
        for (int i = 0; i < QUIETED.size(); i++) {
            QUIETED.get(i).setFilter(PREVIOUS.get(i));
        }
        PREVIOUS.clear();
    }

    @Property(tries = 150, shrinking = ShrinkingMode.BOUNDED)
    void closeRacingAcquiresReleasesAndTrimsLeavesNothingBehind(@ForAll PoolMode mode, @ForAll boolean portable,
            @ForAll boolean threadCaches, @ForAll Budget budgetKind, @ForAll @IntRange(min = 2, max = 4) int workers,
            @ForAll @IntRange(min = 0, max = 3000) int closeAfter, @ForAll boolean oneVirtualWorker,
            @ForAll boolean aWorkerClosesToo, @ForAll @IntRange(min = 0, max = 3) int latecomers, @ForAll long seed)
            throws Exception {
        MemoryBudget root = budgetKind == Budget.OWN ? null : MemoryBudget.root("close-race-root", 1L << 40);
        MemoryBudget given = switch (budgetKind) {
            case OWN -> null;
            case GIVEN_ROOT -> root;
            case GIVEN_CHILD -> root.child("pool", 1L << 39, 1 << 20);
        };
        BufferPool.Builder builder = mode.builder("close-race")
                .nativeMemory(portable ? NativeMemory.portable() : NativeMemory.system());
        if (!threadCaches) {
            builder.threadCaches(0);
        }
        if (given != null) {
            builder.budget(given);
        }
        BufferPool pool = builder.build();
        var neighbour = root == null ? null : root.owner("neighbour");

        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        Queue<BufferLease> handedOver = new ConcurrentLinkedQueue<>();
        AtomicLong ops = new AtomicLong();
        AtomicInteger finished = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            Random random = new Random(seed + w);
            boolean closer = aWorkerClosesToo && w == 0;
            Runnable body = () -> {
                try {
                    start.await();
                    work(pool, random, closer, handedOver, ops, poolClose(pool));
                    if (neighbour != null && random.nextBoolean()) {
                        neighbour.charge(4096); // the root stays usable for others, then and after
                        neighbour.release(4096);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    finished.incrementAndGet();
                }
            };
            String name = "close-racer-" + w;
            threads.add(oneVirtualWorker && w == workers - 1 ? Thread.ofVirtual().name(name).start(body)
                    : Thread.ofPlatform().name(name).start(body));
        }
        start.countDown();
        // Close after the workers made `closeAfter` operations between them: counted, not timed.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MILLIS);
        while (ops.get() < closeAfter && finished.get() < workers && System.nanoTime() < deadline) {
            Thread.yield(); // two cores here: leave them to the workers
        }
        for (int l = 0; l < latecomers; l++) {
            // new threads whose first acquire (and thread cache) comes as the pool closes
            Random random = new Random(seed - l - 1);
            threads.add(Thread.ofPlatform().name("latecomer-" + l).start(() -> {
                try {
                    work(pool, random, false, handedOver, ops, poolClose(pool));
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        pool.close();
        for (Thread thread : threads) {
            thread.join(JOIN_MILLIS);
            assertThat(thread.isAlive()).as("%s finished within %d ms (a deadlock?)", thread.getName(), JOIN_MILLIS)
                    .isFalse();
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError("a worker failed: " + failures.peek(), failures.peek());
            failures.forEach(error::addSuppressed);
            throw error;
        }
        for (BufferLease left; (left = handedOver.poll()) != null; ) {
            assertThat(left.release()).as("a lease nobody took over, released after close").isTrue();
        }

        assertThat(pool.isClosed()).isTrue();
        checkEmpty(pool);
        assertThatThrownBy(() -> pool.acquire(100)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'close-race'");
        assertThatThrownBy(pool::trim).isInstanceOf(IllegalStateException.class).hasMessageContaining("'close-race'");
        pool.close(); // twice: nothing
        switch (budgetKind) {
            case OWN -> {
                assertThat(pool.budget().isClosed()).as("the pool's own budget closes with it").isTrue();
                assertThat(pool.budget().used()).as("its own budget after close").isZero();
            }
            case GIVEN_ROOT, GIVEN_CHILD -> {
                assertThat(given.used()).as("the given budget after close").isZero();
                assertThat(given.isClosed()).as("a budget the pool was given stays open").isFalse();
                assertThat(given.report().owners()).as("owners still charging %s", given.path()).isEmpty();
                neighbour.close();
                if (given != root) {
                    given.close(); // throws if anything is still charged below
                }
                root.close();
                assertThat(root.used()).isZero();
            }
        }
    }

    @Property(tries = 50, shrinking = ShrinkingMode.BOUNDED)
    void closingTheBudgetUnderAPoolWhileItsThreadsAcquireRefusesNamingTheBudgetAndThePoolClosesClean(
            @ForAll PoolMode mode, @ForAll boolean threadCaches, @ForAll boolean closeTheRoot,
            @ForAll @IntRange(min = 2, max = 4) int workers, @ForAll @IntRange(min = 0, max = 3000) int closeAfter,
            @ForAll long seed) throws Exception {
        MemoryBudget root = MemoryBudget.root("budget-close", 1L << 40);
        MemoryBudget given = root.child("pool", 1L << 39, 1 << 20);
        MemoryBudget closing = closeTheRoot ? root : given;
        BufferPool.Builder builder = mode.builder("under-budget-close").budget(given);
        BufferPool pool = (threadCaches ? builder : builder.threadCaches(0)).build();
        List<String> refusals = closeTheRoot
                ? List.of("memory budget 'budget-close/pool' is closed because its ancestor 'budget-close' is closed",
                        "memory budget 'budget-close' is closed")
                : List.of("memory budget 'budget-close/pool' is closed");
        Race race = new Race(closing::isClosed, e -> {
            if (!closing.isClosed() || !refusals.contains(e.getMessage())) {
                throw new AssertionError("a refusal should name the closed budget " + closing.path(), e);
            }
        });

        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        Queue<BufferLease> handedOver = new ConcurrentLinkedQueue<>();
        AtomicLong ops = new AtomicLong();
        AtomicInteger finished = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            Random random = new Random(seed + w);
            threads.add(Thread.ofPlatform().name("budget-close-racer-" + w).start(() -> {
                try {
                    work(pool, random, false, handedOver, ops, race);
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    finished.incrementAndGet();
                }
            }));
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MILLIS);
        while (ops.get() < closeAfter && finished.get() < workers && System.nanoTime() < deadline) {
            Thread.yield(); // two cores here: leave them to the workers
        }
        closing.closeQuietly();
        for (Thread thread : threads) {
            thread.join(JOIN_MILLIS);
            assertThat(thread.isAlive()).as("%s finished within %d ms (a deadlock?)", thread.getName(), JOIN_MILLIS)
                    .isFalse();
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError("a worker failed: " + failures.peek(), failures.peek());
            failures.forEach(error::addSuppressed);
            throw error;
        }
        for (BufferLease left; (left = handedOver.poll()) != null; ) {
            assertThat(left.release()).isTrue();
        }

        BufferPoolStats stats = pool.stats();
        assertThat(stats.leases()).as("leases once every one was released:%n%s", stats.format()).isZero();
        pool.trim(); // the pool is open: it still gives its idle memory back, and its budget takes it
        assertThat(pool.stats().bytesFromOs()).as("after trim:%n%s", pool.stats().format()).isZero();
        assertThat(given.used()).as("the closed budget once the pool trimmed").isZero();
        pool.close();
        checkEmpty(pool);
        assertThat(root.used()).as("the root once the pool closed").isZero();
        assertThat(root.children()).as("the closed child left the root").isEmpty();
        root.close(); // throws if anything is still charged
    }

    /** How a worker sees the close it races: whether it happened, and what a refused call must say. */
    private record Race(BooleanSupplier closed, Consumer<IllegalStateException> refusal) {}

    private static Race poolClose(BufferPool pool) {
        return new Race(pool::isClosed, e -> checkClosedError(pool, e));
    }

    /** One worker's random operations, until it made {@link #OPS_AFTER_CLOSE} more after seeing the close. */
    private static void work(BufferPool pool, Random random, boolean closer, Queue<BufferLease> handedOver,
            AtomicLong ops, Race race) {
        List<BufferLease> held = new ArrayList<>();
        int afterClose = 0;
        for (int op = 0; op < MAX_OPS && afterClose < OPS_AFTER_CLOSE; op++) {
            if (race.closed().getAsBoolean()) {
                afterClose++;
            }
            ops.incrementAndGet();
            int dice = random.nextInt(100);
            if (dice < 45) {
                int size = SIZES[random.nextInt(SIZES.length)];
                BufferLease lease = acquire(pool, size, race);
                if (lease != null) {
                    assertThat(lease.refCount()).as("a new lease").isEqualTo(1);
                    assertThat(lease.size()).isEqualTo(size);
                    if (held.size() < MAX_HELD) {
                        held.add(lease);
                    } else {
                        assertThat(lease.release()).isTrue();
                    }
                }
            } else if (dice < 70) {
                if (!held.isEmpty()) {
                    BufferLease lease = held.remove(random.nextInt(held.size()));
                    assertThat(lease.release()).as("the only reference, released (closed: %s)", pool.isClosed())
                            .isTrue();
                    assertThat(lease.refCount()).isZero();
                }
            } else if (dice < 78) {
                if (!held.isEmpty()) {
                    BufferLease lease = held.get(random.nextInt(held.size()));
                    assertThat(lease.retain()).isSameAs(lease);
                    assertThat(lease.release()).as("a retained lease's release").isFalse();
                    assertThat(lease.refCount()).isEqualTo(1);
                }
            } else if (dice < 83) {
                if (!held.isEmpty()) {
                    handedOver.add(held.remove(random.nextInt(held.size())));
                }
            } else if (dice < 90) {
                BufferLease taken = handedOver.poll();
                if (taken != null) {
                    assertThat(taken.refCount()).as("a lease handed over").isEqualTo(1);
                    held.add(taken);
                }
            } else if (dice < 95) {
                try {
                    pool.trim();
                } catch (IllegalStateException closed) {
                    race.refusal().accept(closed);
                }
            } else if (dice < 99 || !closer) {
                BufferPoolStats stats = pool.stats();
                assertThat(stats.bytesFromOs()).isNotNegative();
                assertThat(stats.leases()).isNotNegative();
                assertThat(stats.bytesInUse()).isNotNegative();
            } else {
                pool.close();
                assertThat(pool.isClosed()).isTrue();
            }
        }
        for (BufferLease lease : held) {
            assertThat(lease.release()).as("a lease released at the end").isTrue();
        }
    }

    /** A new lease, or null if the race's close refused it: any other outcome fails. */
    private static BufferLease acquire(BufferPool pool, int size, Race race) {
        try {
            return pool.acquire(size);
        } catch (IllegalStateException closed) {
            race.refusal().accept(closed);
            return null;
        }
    }

    private static void checkClosedError(BufferPool pool, IllegalStateException e) {
        if (!pool.isClosed()) {
            throw new AssertionError("IllegalStateException from an open pool", e);
        }
        if (e.getMessage() == null || !e.getMessage().contains("buffer pool '" + pool.name() + "' is closed")) {
            throw new AssertionError("a closed pool's refusal should name the pool: " + e.getMessage(), e);
        }
    }

    /** A closed pool holds nothing: every figure is 0. */
    private static void checkEmpty(BufferPool pool) {
        BufferPoolStats stats = pool.stats();
        String table = stats.format();
        assertThat(stats.bytesFromOs()).as("bytes from the OS:%n%s", table).isZero();
        assertThat(stats.slabBytes()).as("slab bytes:%n%s", table).isZero();
        assertThat(stats.bytesInUse()).as("leased bytes:%n%s", table).isZero();
        assertThat(stats.freeSlotBytes()).as("cached bytes:%n%s", table).isZero();
        assertThat(stats.uncutBytes()).as("uncut bytes:%n%s", table).isZero();
        assertThat(stats.leases()).as("leases:%n%s", table).isZero();
        assertThat(stats.dedicatedLeases()).as("dedicated leases:%n%s", table).isZero();
        assertThat(stats.dedicatedBytes()).as("dedicated bytes:%n%s", table).isZero();
        assertThat(stats.threadCacheBytes()).as("thread cache bytes:%n%s", table).isZero();
        assertThat(stats.threadCaches()).as("thread caches:%n%s", table).isZero();
        assertThat(stats.leaksWatched()).as("leases watched for leaks:%n%s", table).isZero();
        assertThat(stats.leaks()).as("leaks reported:%n%s", table).isZero();
        for (SizeClassStats c : stats.sizeClasses()) {
            assertThat(c.slabs()).as("slabs of the %d-byte class", c.slotSize()).isZero();
            assertThat(c.slots()).as("slots of the %d-byte class", c.slotSize()).isZero();
            assertThat(c.leased()).as("leased slots of the %d-byte class", c.slotSize()).isZero();
            assertThat(c.cached()).as("free slots of the %d-byte class", c.slotSize()).isZero();
            assertThat(c.slabsCreated()).as("slabs created and freed, %d-byte class", c.slotSize())
                    .isEqualTo(c.slabsFreed());
        }
    }
}
