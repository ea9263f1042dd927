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

import dev.offheap.account.MemoryBudget;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MappedArray}'s methods used by several threads at once: writers each take views, write a range of
 * their own (a new generation of values each time, through set, a bulk copy or a second view), check it,
 * force and release the views, while a grower lengthens the file, writes the new elements and forces, and, in
 * the second test, the main thread closes the array under them all.
 *
 * <p>Expectation, exact for every element once the file is reopened: a writer's range holds the last
 * generation that writer finished writing (which includes every generation written before one of its
 * successful forces), or, for a write the close cut short, each element either that generation's value or the
 * next one's; the length is the last length {@code grow} returned; each grown part holds the grower's values
 * once it finished writing it (else zeros or its values). Every operation works or throws
 * {@link IllegalStateException} naming the file. Afterwards no view is open, nothing is mapped and the budget
 * is back to zero. (In the same process the page cache answers the reopened file, so this checks what the
 * writes and grows left in the file, not what reached the disk: only a crash of the machine could tell.)
 */
class MappedArrayConcurrencyTest {
    private static final int WRITERS = 3;
    private static final int RANGE = 4096;
    private static final int INITIAL = WRITERS * RANGE;
    private static final int GROW = 1024;
    private static final int GROWER = WRITERS;

    @TempDir
    Path dir;

    @Test
    void concurrentViewsWritesForcesAndGrowsLeaveEveryLastWrite() throws Exception {
        for (int round = 0; round < 2; round++) {
            Run run = new Run(dir.resolve("quiet-" + round + ".npy"), 25, 12);
            run.start();
            run.join();
            assertThat(run.file.openViews()).as("every view released").isZero();
            assertThat(run.file.mappedBytes()).isZero();
            assertThat(run.budget.used()).as("every view's charge given back").isZero();
            for (Writer writer : run.writers) {
                assertThat(writer.completed).as("writer %d finished every generation", writer.id).isEqualTo(25);
            }
            assertThat(run.grower.completed).isEqualTo(12);
            run.file.force();
            run.file.close();
            run.checkFile();
            run.budget.close();
        }
    }

    @Test
    void closeRacingViewsWritesForcesAndGrowsLosesNoFinishedWriteAndLeavesNoCharge() throws Exception {
        for (int round = 0; round < 5; round++) {
            Run run = new Run(dir.resolve("racing-" + round + ".npy"), Integer.MAX_VALUE, 400);
            run.start();
            assertThat(run.warmedUp.await(60, TimeUnit.SECONDS)).as("every thread did some work").isTrue();
            run.file.close();
            // As close returns, before the threads are joined: every view ended, a racing release's included.
            int openViews = run.file.openViews();
            long mappedBytes = run.file.mappedBytes();
            long charged = run.budget.used();
            run.join();
            for (Worker worker : run.workers()) {
                assertThat(worker.cutShort).as("%s ends with the close", worker.name()).isNotNull();
                assertThat(worker.cutShort).hasMessageContaining(run.path.toString());
            }
            assertThat(openViews).as("views open when close returned").isZero();
            assertThat(mappedBytes).isZero();
            assertThat(charged).as("charged when close returned").isZero();
            assertThat(run.file.openViews()).isZero();
            assertThat(run.budget.used()).isZero();
            run.checkFile();
            run.budget.close();
        }
    }

    /** The value writer (or grower) {@code id} writes at element {@code i} in generation {@code generation}. */
    private static long value(int id, int generation, long i) {
        return ModelArray.pattern(id * 1_000_003L + generation, i);
    }

    /** One file and its threads. */
    private static final class Run {
        final Path path;
        final MemoryBudget budget = MemoryBudget.unlimited("mapped");
        final MappedArray file;
        final List<Writer> writers = new ArrayList<>();
        final Grower grower;
        final CountDownLatch warmedUp = new CountDownLatch(WRITERS + 1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> threads = new ArrayList<>();

        Run(Path path, int generations, int grows) throws IOException {
            this.path = path;
            this.file = MappedArray.create(path, ElementType.LONG, INITIAL,
                    MappedArray.Options.defaults().budget(budget).jmx(false));
            for (int w = 0; w < WRITERS; w++) {
                writers.add(new Writer(this, w, generations));
            }
            grower = new Grower(this, grows);
        }

        List<Worker> workers() {
            List<Worker> all = new ArrayList<>(writers);
            all.add(grower);
            return all;
        }

        void start() {
            for (Worker worker : workers()) {
                threads.add(Thread.ofPlatform().name(worker.name()).start(() -> {
                    try {
                        worker.run();
                    } catch (Throwable e) {
                        failure.compareAndSet(null, new AssertionError(worker.name() + " failed", e));
                    } finally {
                        worker.countWarmedUp();
                    }
                }));
            }
        }

        void join() throws InterruptedException {
            for (Thread thread : threads) {
                assertThat(thread.join(Duration.ofSeconds(60))).as("%s ended within 60 s", thread.getName()).isTrue();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
        }

        /** Reopens the closed file and checks every element against what the threads finished writing. */
        void checkFile() throws IOException {
            try (MappedArray reopened = MappedArray.open(path, MappedArray.Mode.READ_ONLY, ElementType.LONG);
                 LongArray all = reopened.longs()) {
                assertThat(reopened.length()).as("the length the last grow returned")
                        .isEqualTo(INITIAL + (long) grower.grown * GROW);
                long[] found = all.toArray(0, all.length());
                for (Writer writer : writers) {
                    int from = writer.id * RANGE;
                    expect(found, from, from + RANGE, writer.id, writer.completed, writer.started);
                }
                for (int step = 1; step <= grower.grown; step++) {
                    int from = INITIAL + (step - 1) * GROW;
                    int done = step <= grower.completed ? step : 0;
                    expect(found, from, from + GROW, GROWER, done, step);
                }
            }
        }

        /**
         * Elements {@code [from, to)} hold generation {@code completed} of {@code id} (0: zeros), or, where a
         * later generation {@code started} was cut short, that generation's values.
         */
        private static void expect(long[] found, int from, int to, int id, int completed, int started) {
            for (int i = from; i < to; i++) {
                long done = completed == 0 ? 0 : value(id, completed, i);
                long partly = value(id, started, i);
                if (found[i] != done && (started == completed || found[i] != partly)) {
                    throw new AssertionError("element " + i + " of " + (id == GROWER ? "the grower" : "writer " + id)
                            + " holds " + found[i] + ", expected generation " + completed + " (" + done + ")"
                            + (started != completed ? " or " + started + " (" + partly + ")" : ""));
                }
            }
        }
    }

    /** A thread's work, until it is done or the close cuts it short. */
    private abstract static class Worker {
        final Run run;
        final int id;
        /** The close's IllegalStateException that ended the work, if it did. */
        IllegalStateException cutShort;
        private boolean counted;

        Worker(Run run, int id) {
            this.run = run;
            this.id = id;
        }

        abstract String name();

        abstract void work() throws IOException;

        final void run() throws IOException {
            try {
                work();
            } catch (IllegalStateException e) {
                if (!String.valueOf(e.getMessage()).contains(run.path.toString())) {
                    throw new AssertionError(name() + ": the exception does not name the file", e);
                }
                cutShort = e;
                Thread.interrupted(); // HotSpot may interrupt a thread whose access a view's end cut short
            }
        }

        final void countWarmedUp() {
            if (!counted) {
                counted = true;
                run.warmedUp.countDown();
            }
        }

        /**
         * Runs {@code use} on a new view, then releases it: the release ends the view unless the array's close
         * ended it first (then the view says so, naming the file). A failure of {@code use} goes first.
         */
        final void withView(ViewUse use) throws IOException {
            LongArray view = run.file.longs();
            try {
                use.accept(view);
            } catch (Throwable e) {
                try {
                    view.release();
                } catch (IllegalStateException alreadyEnded) {
                    e.addSuppressed(alreadyEnded);
                }
                throw e;
            }
            if (!view.release()) {
                view.length(); // ended by the close first: throws, naming the file
                throw new AssertionError("the only owner's release of " + view + " did not end it");
            }
        }
    }

    @FunctionalInterface
    private interface ViewUse {
        void accept(LongArray view) throws IOException;
    }

    /** Writes generation after generation of its own range, through new views, and forces every other one. */
    private static final class Writer extends Worker {
        final int generations;
        /** The last generation written completely; the one being written (equal unless cut short). */
        int completed;
        int started;

        Writer(Run run, int id, int generations) {
            super(run, id);
            this.generations = generations;
        }

        @Override
        String name() {
            return "writer-" + id;
        }

        @Override
        void work() throws IOException {
            long[] values = new long[RANGE];
            for (int g = 1; g <= generations; g++) {
                int generation = g;
                withView(view -> write(view, generation, values));
                if (g == 3) {
                    countWarmedUp();
                }
            }
        }

        private void write(LongArray view, int g, long[] values) throws IOException {
            int from = id * RANGE;
            assertThat(view.length()).isGreaterThanOrEqualTo(INITIAL);
            for (int i = 0; i < RANGE; i++) {
                values[i] = value(id, g, from + i);
            }
            started = g;
            switch (g % 3) {
                case 0 -> {
                    for (int i = 0; i < RANGE; i++) {
                        view.set(from + i, values[i]);
                    }
                }
                case 1 -> view.copyFrom(values, 0, from, RANGE);
                default -> {
                    try (LongArray second = run.file.longs()) { // another mapping of the same pages
                        second.copyFrom(values, 0, from, RANGE);
                    }
                }
            }
            completed = g;
            long[] back = view.toArray(from, from + RANGE);
            for (int i = 0; i < RANGE; i++) {
                if (back[i] != values[i]) {
                    throw new AssertionError(name() + " generation " + g + ": element " + (from + i)
                            + " reads " + back[i] + " right after writing " + values[i]);
                }
            }
            if (g % 2 == 0) {
                run.file.force();
            }
        }
    }

    /** Grows the file step after step, writes each new part through a new view and forces now and then. */
    private static final class Grower extends Worker {
        final int grows;
        /** Steps grown (the length is INITIAL + grown * GROW), and steps whose new part was written completely. */
        int grown;
        int completed;

        Grower(Run run, int grows) {
            super(run, GROWER);
            this.grows = grows;
        }

        @Override
        String name() {
            return "grower";
        }

        @Override
        void work() throws IOException {
            for (int step = 1; step <= grows; step++) {
                long length = INITIAL + (long) step * GROW;
                run.file.grow(length);
                grown = step;
                int now = step;
                withView(view -> {
                    assertThat(view.length()).as("only the grower grows").isEqualTo(length);
                    long from = length - GROW;
                    long[] values = new long[GROW];
                    for (int i = 0; i < GROW; i++) {
                        values[i] = value(GROWER, now, from + i);
                    }
                    view.copyFrom(values, 0, from, GROW);
                    completed = now;
                    if (now % 3 == 0) {
                        run.file.force();
                    }
                });
                if (step == 3) {
                    countWarmedUp();
                }
            }
        }
    }
}
