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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The workers of whole-array operations: the caller always works and finishes alone when the executor does not
 * help, no task touches an array after its operation returned, and failures and interrupts reach the caller.
 */
class WorkersTest {
    private static final int N = 1 << 20; // 32 pieces of doubles

    @Test
    void anExecutorThatRefusesEveryTaskLeavesTheWholeOperationToTheCaller() {
        Workers refusing = Workers.on(task -> {
            throw new RejectedExecutionException("full");
        }, 8);
        try (ChunkPool pool = ChunkPool.builder().name("workers").jmx(false).build(); DoubleArray a = pool.doubles(N)) {
            a.fill(2);
            assertThat(refusing.call(a::sum)).isEqualTo(2.0 * N);
        }
    }

    @Test
    void tasksThatStartAfterTheOperationTouchNothing() throws Exception {
        List<Runnable> parked = new ArrayList<>();
        Workers late = Workers.on(parked::add, 4); // runs nothing until the test does
        try (ChunkPool pool = ChunkPool.builder().name("workers").jmx(false).build()) {
            DoubleArray a = pool.doubles(N);
            a.fill(1);
            late.run(() -> a.scale(3));
            assertThat(a.sum()).isEqualTo(3.0 * N);
            a.close();
            assertThat(parked).hasSize(3);
            parked.forEach(Runnable::run); // the array is gone: a task that touched it would throw
        }
    }

    @Test
    void anOperationStartedOnTheExecutorsOnlyThreadFinishes() throws Exception {
        ExecutorService single = Executors.newSingleThreadExecutor();
        try (ChunkPool pool = ChunkPool.builder().name("workers").jmx(false).build(); DoubleArray a = pool.doubles(N)) {
            a.fill(1);
            Future<Double> sum = single.submit(() -> Workers.on(single, 2).call(a::sum));
            assertThat(sum.get(5, TimeUnit.MINUTES)).isEqualTo((double) N);
        } finally {
            single.shutdownNow();
        }
    }

    @Test
    void noFunctionCallOutlivesItsOperation() {
        ExecutorService executor = Executors.newFixedThreadPool(3);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        ConcurrentHashMap<Thread, Boolean> threads = new ConcurrentHashMap<>();
        try (ChunkPool pool = ChunkPool.builder().name("workers").jmx(false).build(); DoubleArray a = pool.doubles(N)) {
            Workers.on(executor, 4).run(() -> a.apply(a, v -> {
                inside.incrementAndGet();
                calls.incrementAndGet();
                threads.put(Thread.currentThread(), true);
                Thread.onSpinWait();
                inside.decrementAndGet();
                return v + 1;
            }));
            assertThat(inside).hasValue(0);
            assertThat(calls).hasValue(N);
            assertThat(a.sum()).isEqualTo((double) N);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void theFirstFailureStopsThePiecesAndReachesTheCaller() {
        AtomicInteger calls = new AtomicInteger();
        try (ChunkPool pool = ChunkPool.builder().name("workers").jmx(false).build(); DoubleArray a = pool.doubles(N)) {
            assertThatThrownBy(() -> a.apply(a, v -> {
                if (calls.incrementAndGet() == 10) {
                    throw new IllegalStateException("tenth");
                }
                return v;
            })).isInstanceOf(IllegalStateException.class).hasMessage("tenth");
            assertThat(calls.get()).as("no piece starts after the failure, only those running finish")
                    .isLessThan(N);
        }
    }

    @Test
    void anInterruptedCallerStillWaitsForItsHelpersAndKeepsTheInterrupt() {
        ExecutorService executor = Executors.newFixedThreadPool(1);
        Thread caller = Thread.currentThread();
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger interrupts = new AtomicInteger();
        try (ChunkPool pool = ChunkPool.builder().name("workers").jmx(false).build(); DoubleArray a = pool.doubles(N)) {
            Workers.on(executor, 2).run(() -> a.apply(a, v -> {
                inside.incrementAndGet();
                calls.incrementAndGet();
                if (Thread.currentThread() != caller) {
                    if (interrupts.getAndIncrement() == 0) {
                        caller.interrupt(); // the caller may be parked waiting for this very piece
                        for (int i = 0; i < 1_000_000; i++) {
                            Thread.onSpinWait();
                        }
                    }
                } else {
                    while (interrupts.get() == 0) { // the caller's first element waits until the helper has a piece
                        Thread.onSpinWait();
                    }
                }
                inside.decrementAndGet();
                return v;
            }));
            assertThat(inside).as("nothing runs after the operation returned").hasValue(0);
            assertThat(calls).hasValue(N);
            assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void operationsInsideParallelStreamsAndVirtualThreadsFinishWithTheRightResults() throws Exception {
        try (ChunkPool pool = ChunkPool.builder().name("workers").jmx(false).build()) {
            DoubleArray[] arrays = new DoubleArray[6];
            for (int i = 0; i < arrays.length; i++) {
                arrays[i] = pool.doubles(N);
                arrays[i].fill(i);
            }
            double[] sums = java.util.stream.IntStream.range(0, arrays.length).parallel() // callers in the common pool
                    .mapToDouble(i -> arrays[i].sum()).toArray();
            for (int i = 0; i < arrays.length; i++) {
                assertThat(sums[i]).isEqualTo((double) i * N);
            }
            try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<Double>> results = new ArrayList<>();
                for (DoubleArray array : arrays) {
                    results.add(virtual.submit(() -> {
                        array.scale(2);
                        return array.sum();
                    }));
                }
                for (int i = 0; i < arrays.length; i++) {
                    assertThat(results.get(i).get(5, TimeUnit.MINUTES)).isEqualTo(2.0 * i * N);
                }
            }
            for (DoubleArray array : arrays) {
                array.close();
            }
        }
    }

    @Test
    void piecesStayFewOnHugeArrays() {
        long length = 1L << 50;
        long per = Pieces.elementsPerPiece(length, 3);
        assertThat(Pieces.count(length, per)).isLessThanOrEqualTo(1 << 22).isPositive();
        assertThat(Pieces.elementsPerPiece(1000, 3)).isEqualTo(Pieces.PIECE_BYTES / 8);
        assertThat(Pieces.count(0, 1)).isZero();
        assertThatThrownBy(() -> Workers.on(Runnable::run, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Workers.on(Runnable::run, 1).parallelism()).isEqualTo(1);
        assertThat(Workers.callerOnly()).hasToString("Workers[caller only]");
        assertThat(Workers.on(Runnable::run, 3).toString()).startsWith("Workers[3 threads, ");
        assertThat(Workers.callerOnly().parallelism()).isEqualTo(1);
        assertThat(Workers.allCores().parallelism()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }
}
