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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The counting benchmark of issue 15: atomic operations on the pool's shared lines per lease (an acquire and
 * its release), and the share of the leases the busiest line takes, for six traffic patterns at 1, 2, 4, 16
 * and 64 threads. A count, not a timing: threads may outnumber cores, and the result is the same on 2 cores
 * as on 64 (up to failed compare-and-sets, which are counted too and depend on interleaving).
 *
 * <p>Every thread has a cache of its own, as on a machine with that many cores. Each row runs its threads
 * through a warm-up (caches filled, slabs cut), zeroes the counters once all have finished it, runs a
 * measured phase of a fixed number of leases in all, and reads the counters once all have finished that
 * (before the threads put back what they still hold, such as the FIFO window). Prints per row a {@code ROW}
 * line (tab-separated, for {@link SharedLineCountTest}) and a {@code # lines:} line with the busiest lines,
 * then a markdown table.
 *
 * <p>Counting must be on from the JVM's start ({@code -Ddev.offheap.buffer.countSharedLines=true}); this main
 * turns it on itself when it is the first to touch the pool classes, and refuses to run if it is off.
 * Arguments: the leases of each measured phase (default 200,000), then optionally pattern ids to run.
 * Run by {@link SharedLineCountTest}, which writes the table to {@code offheap-core/target/shared-lines.md};
 * or by hand, after {@code ./mvnw -q -o -pl offheap-core test-compile}:
 * {@code java --enable-native-access=ALL-UNNAMED -cp offheap-core/target/classes:offheap-core/target/test-classes
 * dev.offheap.buffer.SharedLineCount [leases [PATTERN...]]}.
 */
public final class SharedLineCount {
    static final String FLAG = "dev.offheap.buffer.countSharedLines";
    static final int[] THREAD_COUNTS = {1, 2, 4, 16, 64};
    static final int DEFAULT_LEASES = 200_000;
    static final int SIZE = 1024;
    /** Buffers one thread keeps leased in the FIFO pattern. */
    static final int FIFO_WINDOW = 256;
    /** Bounded hand-off queues: a producer blocks (parks) when its consumer lags. */
    static final int QUEUE_CAPACITY = 256;
    private static final long SEED = 15;

    /** The traffic patterns of issue 15, plus a sanity row with no thread caches. */
    enum Pattern {
        LIFO("same-thread LIFO", 1),
        FIFO("same-thread FIFO (window 256)", 1),
        PAIRS("1 producer -> 1 consumer (T/2 pairs)", 2),
        FAN_IN("N producers -> 1 consumer", 2),
        FAN_OUT("1 producer -> N consumers", 2),
        RANDOM("random sizes 64 B-64 KiB, each released by the next thread", 1),
        /** Same-thread LIFO on a pool without thread caches: every lease on the shared level. */
        NO_CACHES("sanity: same-thread LIFO, threadCaches(0)", 1);

        final String title;
        final int minThreads;

        Pattern(String title, int minThreads) {
            this.title = title;
            this.minThreads = minThreads;
        }
    }

    /** One row: {@code atomics} is the sum over every shared line, {@code busiest} the largest one's count. */
    record Row(Pattern pattern, int threads, long leases, long atomics, long busiest, String busiestLine) {
        double atomicsPerLease() {
            return (double) atomics / leases;
        }

        double busiestShare() {
            return (double) busiest / leases;
        }

        String machineLine() {
            return String.join("\t", "ROW", pattern.name(), Integer.toString(threads), Long.toString(leases),
                    Long.toString(atomics), Long.toString(busiest), busiestLine);
        }

        static Row parse(String line) {
            String[] f = line.split("\t", -1);
            if (f.length != 7 || !f[0].equals("ROW")) {
                throw new IllegalArgumentException("not a row: " + line);
            }
            return new Row(Pattern.valueOf(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]),
                    Long.parseLong(f[4]), Long.parseLong(f[5]), f[6]);
        }
    }

    /** A line's count when the measured phase ended. */
    /** What one thread does in a phase; {@link #finish} gives back what it still holds after the last. */
    interface Worker {
        /** Runs phase 0 (warm-up) or 1 (measured); returns the acquires made. */
        long run(int phase) throws InterruptedException;

        default void finish() {}
    }

    private SharedLineCount() {}

    public static void main(String[] args) throws Exception {
        if (System.getProperty(FLAG) == null) {
            System.setProperty(FLAG, "true"); // before SharedLines is initialized: this is its first use
        }
        if (!SharedLines.COUNTING) {
            System.err.println("shared-line counting is off: run with -D" + FLAG + "=true");
            System.exit(2);
        }
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            System.err.println("worker " + thread.getName() + " failed:");
            e.printStackTrace();
            Runtime.getRuntime().halt(1); // the other workers would wait for it forever
        });
        int leases = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_LEASES;
        List<Pattern> patterns = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            patterns.add(Pattern.valueOf(args[i]));
        }
        if (patterns.isEmpty()) {
            patterns.addAll(List.of(Pattern.values()));
        }
        List<Row> rows = new ArrayList<>();
        for (Pattern pattern : patterns) {
            for (int threads : pattern == Pattern.NO_CACHES ? new int[] {1, 4} : THREAD_COUNTS) {
                if (threads < pattern.minThreads) {
                    continue;
                }
                List<String> busiestLines = new ArrayList<>();
                Row row = measure(pattern, threads, leases, busiestLines);
                System.out.println(row.machineLine());
                System.out.println("# lines: " + String.join(", ", busiestLines));
                rows.add(row);
            }
        }
        System.out.println();
        System.out.print(markdown(rows));
    }

    /**
     * One row: a fresh pool, warm-up, counters zeroed, measured phase, counters read, pool closed. Adds the
     * five busiest lines and the number of lines used to {@code busiestLines}, for a reader.
     */
    static Row measure(Pattern pattern, int threads, int leases, List<String> busiestLines)
            throws InterruptedException {
        SharedLines.forget();
        int warmUpLeases = Math.max(leases, threads * 2 * FIFO_WINDOW);
        String name = "count-" + pattern.name().toLowerCase(Locale.ROOT) + "-" + threads;
        BufferPool.Builder builder = BufferPool.builder().jmx(false).name(name)
                .threadCaches(pattern == Pattern.NO_CACHES ? 0 : Math.max(4, threads + 1));
        if (pattern == Pattern.NO_CACHES) {
            // The sanity row counts exactly 2 atomics per lease: a lease sampled for use after release (1 in
            // 131,072 at random, so about 1.5 of 200,000) gives its slot back after a handshake, and the next
            // acquire then cuts a new slot instead of popping one, a count short.
            builder.useAfterReleaseSampling(0);
        }
        AtomicReference<List<SharedLines.Count>> snapshot = new AtomicReference<>();
        long acquires = 0;
        try (BufferPool pool = builder.build()) {
            List<Worker> workers = workers(pattern, pool, threads, warmUpLeases, leases);
            CyclicBarrier warmedUp = new CyclicBarrier(workers.size(), SharedLines::zero);
            // The counts are taken at once: what the threads put back afterwards, and the pool's close
            // draining its free stacks, go on counting on the same lines.
            CyclicBarrier measured = new CyclicBarrier(workers.size(), () -> snapshot.set(SharedLines.snapshot()));
            long[] counted = new long[workers.size()];
            List<Thread> running = new ArrayList<>();
            for (int i = 0; i < workers.size(); i++) {
                Worker worker = workers.get(i);
                int n = i;
                running.add(Thread.ofPlatform().name(name + "-" + i).start(() -> {
                    try {
                        worker.run(0);
                        warmedUp.await();
                        counted[n] = worker.run(1);
                        measured.await();
                        worker.finish();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            for (Thread thread : running) {
                thread.join();
            }
            for (long c : counted) {
                acquires += c;
            }
        } finally {
            SharedLines.forget();
        }
        List<SharedLines.Count> lines = snapshot.get();
        long atomics = 0;
        for (SharedLines.Count line : lines) {
            atomics += line.count();
        }
        for (SharedLines.Count line : lines.subList(0, Math.min(5, lines.size()))) {
            busiestLines.add(line.name() + ": " + line.count());
        }
        busiestLines.add(lines.size() + " lines used");
        return lines.isEmpty() ? new Row(pattern, threads, acquires, 0, 0, "-")
                : new Row(pattern, threads, acquires, atomics, lines.getFirst().count(), lines.getFirst().name());
    }

    static List<Worker> workers(Pattern pattern, BufferPool pool, int threads, int warmUp, int measured) {
        List<Worker> workers = new ArrayList<>();
        switch (pattern) {
            case LIFO, NO_CACHES -> {
                for (int i = 0; i < threads; i++) {
                    workers.add(new Lifo(pool, warmUp / threads, measured / threads));
                }
            }
            case FIFO -> {
                for (int i = 0; i < threads; i++) {
                    workers.add(new Fifo(pool, warmUp / threads, measured / threads));
                }
            }
            case PAIRS -> {
                int pairs = threads / 2;
                for (int i = 0; i < pairs; i++) {
                    BlockingQueue<BufferLease> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
                    workers.add(new Producer(pool, queue, warmUp / pairs, measured / pairs));
                    workers.add(new Consumer(queue, warmUp / pairs, measured / pairs));
                }
            }
            case FAN_IN -> {
                int producers = threads - 1;
                int warmUpEach = warmUp / producers;
                int measuredEach = measured / producers;
                BlockingQueue<BufferLease> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
                for (int i = 0; i < producers; i++) {
                    workers.add(new Producer(pool, queue, warmUpEach, measuredEach));
                }
                workers.add(new Consumer(queue, warmUpEach * producers, measuredEach * producers));
            }
            case FAN_OUT -> {
                int consumers = threads - 1;
                int warmUpEach = warmUp / consumers;
                int measuredEach = measured / consumers;
                BlockingQueue<BufferLease> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
                workers.add(new Producer(pool, queue, warmUpEach * consumers, measuredEach * consumers));
                for (int i = 0; i < consumers; i++) {
                    workers.add(new Consumer(queue, warmUpEach, measuredEach));
                }
            }
            case RANDOM -> {
                List<BlockingQueue<BufferLease>> inboxes = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    inboxes.add(new ArrayBlockingQueue<>(threads));
                }
                for (int i = 0; i < threads; i++) {
                    workers.add(new RandomSizes(pool, inboxes.get((i + 1) % threads), inboxes.get(i),
                            new SplittableRandom(SEED * 1000 + i), warmUp / threads, measured / threads));
                }
            }
        }
        return workers;
    }

    /** Steps per phase, shared by the workers below. */
    private abstract static class Phased implements Worker {
        private final int[] steps;

        Phased(int warmUp, int measured) {
            this.steps = new int[] {warmUp, measured};
        }

        @Override
        public final long run(int phase) throws InterruptedException {
            int n = steps[phase];
            for (int i = 0; i < n; i++) {
                step();
            }
            return acquiresPerStep() * (long) n;
        }

        abstract void step() throws InterruptedException;

        int acquiresPerStep() {
            return 1;
        }
    }

    /** Acquires and releases at once. */
    private static final class Lifo extends Phased {
        private final BufferPool pool;

        Lifo(BufferPool pool, int warmUp, int measured) {
            super(warmUp, measured);
            this.pool = pool;
        }

        @Override
        void step() {
            pool.acquire(SIZE).close();
        }
    }

    /** Keeps {@link #FIFO_WINDOW} buffers: each step acquires one and releases the oldest. */
    private static final class Fifo extends Phased {
        private final BufferPool pool;
        private final ArrayDeque<BufferLease> window = new ArrayDeque<>();

        Fifo(BufferPool pool, int warmUp, int measured) {
            super(warmUp, measured);
            this.pool = pool;
        }

        @Override
        void step() {
            window.addLast(pool.acquire(SIZE));
            if (window.size() > FIFO_WINDOW) {
                window.removeFirst().close();
            }
        }

        @Override
        public void finish() {
            BufferLease buffer;
            while ((buffer = window.pollFirst()) != null) {
                buffer.close();
            }
        }
    }

    /** Acquires and hands over; releases nothing. */
    private static final class Producer extends Phased {
        private final BufferPool pool;
        private final BlockingQueue<BufferLease> queue;

        Producer(BufferPool pool, BlockingQueue<BufferLease> queue, int warmUp, int measured) {
            super(warmUp, measured);
            this.pool = pool;
            this.queue = queue;
        }

        @Override
        void step() throws InterruptedException {
            queue.put(pool.acquire(SIZE));
        }
    }

    /** Takes over and releases; acquires nothing. */
    private static final class Consumer extends Phased {
        private final BlockingQueue<BufferLease> queue;

        Consumer(BlockingQueue<BufferLease> queue, int warmUp, int measured) {
            super(warmUp, measured);
            this.queue = queue;
        }

        @Override
        void step() throws InterruptedException {
            queue.take().close();
        }

        @Override
        int acquiresPerStep() {
            return 0;
        }
    }

    /**
     * Threads in a ring: each step acquires a buffer of a random size, puts it in the next thread's inbox,
     * takes the oldest one from its own (the previous thread's) and releases it; one thread alone is its own
     * next. Not one queue shared by all: there a thread that runs alone for a time slice, as on 2 cores,
     * takes back its own buffers, and the count would depend on the scheduler. At most one buffer per
     * thread is in flight, so an inbox of {@code threads} places never fills.
     */
    private static final class RandomSizes extends Phased {
        private final BufferPool pool;
        private final BlockingQueue<BufferLease> next;
        private final BlockingQueue<BufferLease> inbox;
        private final SplittableRandom random;

        RandomSizes(BufferPool pool, BlockingQueue<BufferLease> next, BlockingQueue<BufferLease> inbox,
                SplittableRandom random, int warmUp, int measured) {
            super(warmUp, measured);
            this.pool = pool;
            this.next = next;
            this.inbox = inbox;
            this.random = random;
        }

        @Override
        void step() throws InterruptedException {
            next.put(pool.acquire(randomSize(random)));
            inbox.take().close();
        }
    }

    /** Log-uniform from 64 B to 64 KiB: a doubling [2^e, 2^(e+1)] with e uniform in [6, 16), then uniform. */
    static int randomSize(SplittableRandom random) {
        int low = 1 << random.nextInt(6, 16);
        return Math.min(1 << 16, low + random.nextInt(low + 1));
    }

    static String markdown(List<Row> rows) {
        StringBuilder out = new StringBuilder();
        out.append("| pattern | threads | leases | shared atomics per lease | busiest line's share | busiest line |\n");
        out.append("|---|---:|---:|---:|---:|---|\n");
        for (Row row : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %d | %,d | %.4f | %.4f | %s |%n", row.pattern().title,
                    row.threads(), row.leases(), row.atomicsPerLease(), row.busiestShare(), row.busiestLine()));
        }
        return out.toString();
    }
}
