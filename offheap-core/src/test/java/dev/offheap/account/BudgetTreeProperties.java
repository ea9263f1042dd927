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

package dev.offheap.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * Several threads charge and release random amounts on random budgets of a random tree (limits, some
 * reservations, some reclaimable caches) while a watcher samples every level. No level is ever seen past
 * its limit or below zero; once the threads stop, each level holds exactly what succeeded below it (so a
 * refused charge left nothing anywhere); after everything is released and the children are closed, the
 * root is back to zero.
 */
class BudgetTreeProperties {

    /**
     * One budget of the tree: its parent (an index before its own, -1 for the root), limit, reservation
     * and the bytes of a cache that gives its memory back when a refusal asks it to.
     */
    record Node(int parent, long limit, long reservation, long cache) {}

    record Tree(List<Node> nodes, long seed) {}

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void concurrentChargesKeepEveryLevelWithinItsLimitAndTheBooksExact(@ForAll("trees") Tree tree)
            throws Exception {
        List<MemoryBudget> budgets = build(tree.nodes());
        int n = budgets.size();
        List<Cache> caches = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long bytes = tree.nodes().get(i).cache();
            caches.add(bytes > 0 && budgets.get(i).tryCharge(bytes) ? new Cache(budgets.get(i), bytes) : null);
        }
        LongAdder[] direct = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            direct[i] = new LongAdder();
        }
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong samples = new AtomicLong();
        Thread watcher = Thread.ofPlatform().start(() -> {
            while (running.get()) {
                for (MemoryBudget budget : budgets) {
                    long used = budget.used();
                    long credit = budget.credit();
                    if (used > budget.limit() || used < 0) {
                        violations.add(budget + " seen outside [0, limit]");
                    }
                    if (credit < 0 || credit > budget.reservation()) {
                        violations.add(budget + " unused reservation seen at " + credit);
                    }
                }
                samples.incrementAndGet();
            }
        });

        int threads = 3;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<List<long[]>> held = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<long[]> mine = new ArrayList<>();
            held.add(mine);
            Random random = new Random(tree.seed() + t);
            workers.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    for (int op = 0; op < 20_000; op++) {
                        if (mine.isEmpty() || random.nextInt(5) < 3) {
                            int at = random.nextInt(n);
                            long bytes = random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(400);
                            if (charge(budgets.get(at), bytes, random.nextBoolean())) {
                                direct[at].add(bytes);
                                mine.add(new long[] {at, bytes});
                            }
                        } else {
                            long[] charge = mine.remove(random.nextInt(mine.size()));
                            budgets.get((int) charge[0]).release(charge[1]);
                            direct[(int) charge[0]].add(-charge[1]);
                        }
                    }
                } catch (Throwable e) {
                    violations.add(e.toString());
                }
            }));
        }
        // On a busy machine the workers could finish before the watcher is ever scheduled: start them only
        // once it is sampling.
        while (samples.get() == 0) {
            Thread.onSpinWait();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        running.set(false);
        watcher.join();
        assertThat(violations).isEmpty();
        assertThat(samples.get()).isPositive();

        // Quiet now: each level holds its own charges plus, for each child, its used bytes and unused reservation.
        for (int i = 0; i < n; i++) {
            MemoryBudget budget = budgets.get(i);
            long expected = direct[i].sum() + (caches.get(i) == null ? 0 : caches.get(i).held.get());
            for (MemoryBudget child : budget.children()) {
                long held1 = child.used() + child.credit();
                assertThat(held1).as("%s holds at least its reservation", child.path())
                        .isGreaterThanOrEqualTo(child.reservation());
                expected += held1;
            }
            assertThat(budget.used()).as("%s after the threads stopped", budget.path()).isEqualTo(expected);
            assertThat(budget.peak()).as("%s peak", budget.path()).isLessThanOrEqualTo(budget.limit());
        }

        for (List<long[]> mine : held) {
            for (long[] charge : mine) {
                budgets.get((int) charge[0]).release(charge[1]);
            }
        }
        for (Cache cache : caches) {
            if (cache != null) {
                cache.reclaim(Long.MAX_VALUE);
            }
        }
        for (MemoryBudget budget : budgets) {
            assertThat(budget.used()).as("%s holds only what its children reserved", budget.path())
                    .isEqualTo(budget.children().stream().mapToLong(c -> c.used() + c.credit()).sum());
            if (budget.children().isEmpty()) {
                assertThat(budget.used()).as("%s", budget.path()).isZero();
                assertThat(budget.credit()).as("%s unused reservation", budget.path())
                        .isEqualTo(budget.reservation());
            }
        }
        for (int i = n - 1; i >= 0; i--) {
            budgets.get(i).close(); // throws if anything is still charged
        }
        assertThat(budgets.getFirst().used()).isZero();
    }

    private static boolean charge(MemoryBudget budget, long bytes, boolean orThrow) {
        if (!orThrow) {
            return budget.tryCharge(bytes);
        }
        try {
            budget.charge(bytes);
            return true;
        } catch (BudgetExceededException e) {
            return false;
        }
    }

    /** Children are created in index order; a reservation the parent cannot give is left out. */
    static List<MemoryBudget> build(List<Node> nodes) {
        List<MemoryBudget> budgets = new ArrayList<>();
        budgets.add(MemoryBudget.root("n0", nodes.getFirst().limit()));
        for (int i = 1; i < nodes.size(); i++) {
            Node node = nodes.get(i);
            MemoryBudget parent = budgets.get(node.parent());
            long reservation = Math.min(node.reservation(), Math.min(node.limit(), parent.available()));
            budgets.add(parent.child("n" + i, node.limit(), reservation));
        }
        return budgets;
    }

    /** Memory held in a budget until a refusal asks for it back. */
    static final class Cache implements Reclaimer {
        final MemoryBudget budget;
        final AtomicLong held;

        Cache(MemoryBudget budget, long bytes) {
            this.budget = budget;
            this.held = new AtomicLong(bytes);
            budget.addReclaimer(this);
        }

        @Override
        public long reclaim(long bytesWanted) {
            long freed = held.getAndSet(0);
            budget.release(freed);
            return freed;
        }
    }

    @Provide
    Arbitrary<Tree> trees() {
        Arbitrary<Node> node = Combinators.combine(
                Arbitraries.integers().between(0, 100),
                Arbitraries.longs().between(200, 3000),
                Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(2, Arbitraries.just(0L)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(1, 1500))),
                Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(3, Arbitraries.just(0L)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(1, 800))))
                .as((parentPick, limit, reservation, cache) -> new Node(parentPick, limit, reservation, cache));
        return Combinators.combine(node.list().ofMinSize(1).ofMaxSize(8), Arbitraries.longs())
                .as((raw, seed) -> {
                    List<Node> nodes = new ArrayList<>();
                    for (int i = 0; i < raw.size(); i++) {
                        Node r = raw.get(i);
                        int parent = i == 0 ? -1 : r.parent() % i; // an earlier node: a tree by construction
                        nodes.add(new Node(parent, r.limit(), i == 0 ? 0 : r.reservation(), r.cache()));
                    }
                    return new Tree(nodes, seed);
                });
    }
}
