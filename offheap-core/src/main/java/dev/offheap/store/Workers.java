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

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * The threads that run the store's whole-array operations ({@link DoubleArray#sum()}, {@link LongArray#sort()},
 * {@link DoubleArray#mix}, ...). By default they run on every core: the calling thread and
 * {@code availableProcessors() - 1} tasks of the {@link ForkJoinPool#commonPool() common pool}.
 * {@link #call} and {@link #run} run code with other workers, for every operation it starts on that thread:
 *
 * {@snippet :
 * double total = Workers.on(executor, 4).call(() -> prices.sum()); // the caller and 3 tasks of executor
 * Workers.callerOnly().run(() -> prices.sort());                   // one thread, nothing submitted
 * }
 *
 * <p>The calling thread always works too, and takes whatever pieces no task has taken: an operation finishes
 * even when the executor is saturated, shut down, or is the pool the caller runs in. A task that starts after
 * the operation ended touches nothing. Whatever the workers, an operation returns only once no task works on
 * its arrays any more, and its result is the same: each operation splits its arrays into pieces that depend on
 * the length alone, and combines the pieces' results in index order.
 */
public final class Workers {
    private static final ScopedValue<Workers> CURRENT = ScopedValue.newInstance();
    private static final Workers CALLER_ONLY = new Workers(Runnable::run, 1);

    private final Executor executor;
    private final int parallelism;

    private Workers(Executor executor, int parallelism) {
        this.executor = executor;
        this.parallelism = parallelism;
    }

    /**
     * Every core: the calling thread and {@code availableProcessors() - 1} tasks of the common pool (the
     * default).
     *
     * @return the workers
     */
    public static Workers allCores() {
        return new Workers(ForkJoinPool.commonPool(), Runtime.getRuntime().availableProcessors());
    }

    /**
     * The calling thread alone.
     *
     * @return the workers
     */
    public static Workers callerOnly() {
        return CALLER_ONLY;
    }

    /**
     * The calling thread and up to {@code parallelism - 1} tasks of {@code executor}.
     *
     * @param executor    where the tasks run; one that refuses a task ({@code RejectedExecutionException})
     *                    leaves its share to the caller
     * @param parallelism the number of threads an operation may use, the caller included
     * @return the workers
     * @throws NullPointerException     if {@code executor} is null
     * @throws IllegalArgumentException if {@code parallelism} is below 1
     */
    public static Workers on(Executor executor, int parallelism) {
        Objects.requireNonNull(executor, "executor");
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, not " + parallelism);
        }
        return new Workers(executor, parallelism);
    }

    /**
     * Runs {@code operations} on this thread, with these workers for every whole-array operation it starts here
     * (not on other threads it starts).
     *
     * @param operations the code to run
     * @param <T>        its result's type
     * @param <X>        what it may throw
     * @return what {@code operations} returns
     * @throws X whatever {@code operations} throws
     */
    public <T, X extends Throwable> T call(ScopedValue.CallableOp<? extends T, X> operations) throws X {
        return ScopedValue.where(CURRENT, this).call(operations);
    }

    /**
     * Runs {@code operations} on this thread, with these workers for every whole-array operation it starts here.
     *
     * @param operations the code to run
     */
    public void run(Runnable operations) {
        ScopedValue.where(CURRENT, this).run(operations);
    }

    /**
     * The number of threads an operation may use, the caller included.
     *
     * @return at least 1
     */
    public int parallelism() {
        return parallelism;
    }

    /** The workers of this thread now: those {@link #call} set, else every core. */
    static Workers current() {
        return CURRENT.isBound() ? CURRENT.get() : allCores();
    }

    Executor executor() {
        return executor;
    }

    @Override
    public String toString() {
        return this == CALLER_ONLY ? "Workers[caller only]" : "Workers[" + parallelism + " threads, " + executor + "]";
    }
}
