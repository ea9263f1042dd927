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

package dev.offheap.cli;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.Bytes;
import dev.offheap.account.MemoryBudget;
import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code offheap demo}: walks through the buffer pool and the store, printing what they do and hold.
 * Timings here are rough single runs; BENCHMARKS.md has the measured figures.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Runs a short demonstration of the buffer pool and the store and prints their statistics.")
final class DemoCommand implements Callable<Integer> {
    private static final long MIB = 1 << 20;

    @Option(names = "--ops", defaultValue = "2000000",
            description = "Acquire+release pairs in the single-thread loop (default: ${DEFAULT-VALUE}).")
    private int ops;

    private final PrintStream out = System.out;

    @Override
    public Integer call() throws Exception {
        MemoryBudget process = MemoryBudget.root("process", 256 * MIB);
        MemoryBudget budget = process.child("demo-pool", 64 * MIB);
        try (BufferPool pool = BufferPool.builder().name("demo").budget(budget).build()) {
            step("A 4 KiB lease: a ByteBuffer and a MemorySegment over the same native memory");
            leaseViews(pool);
            step(String.format("%,d acquire+release pairs of 1 KiB on one thread (no lock; a 32-byte handle per lease)", ops));
            singleThread(pool);
            step("Producer/consumer: one thread acquires, another releases 200,000 buffers");
            producerConsumer(pool);
            step("10,000 virtual threads, each with a 16 KiB buffer for a moment");
            virtualThreads(pool);
            step("3 MiB, above the largest size class: a mapping of its own, unmapped at release");
            dedicated(pool);
            step("Statistics, then trim() gives idle memory back to the OS");
            out.print(pool.stats().format());
            pool.trim();
            out.println("after trim:");
            out.print(pool.stats().format());
            step("Budgets: 'process' allows 256 MiB, the pool's budget 64 MiB");
            budgetLimit(pool);
            out.println("   budget " + budget.path() + ": " + Bytes.human(budget.used()) + " used, peak "
                    + Bytes.human(budget.peak()));
        }
        step("Checked mode: a view kept past release throws instead of reaching reused memory");
        checkedMode();
        step("Leak detection: a lease dropped without release is reported and its memory recovered");
        leakDetection();
        new StoreDemo(out, this::step).run();
        return 0;
    }

    private void leaseViews(BufferPool pool) {
        try (BufferLease buffer = pool.acquire(4096)) {
            ByteBuffer bytes = buffer.byteBuffer();
            bytes.putLong(0x0123_4567_89AB_CDEFL).putInt(42);
            MemorySegment segment = buffer.segment();
            out.printf("   wrote a long and an int through the ByteBuffer (%s, position %d, limit %d)%n",
                    bytes.order(), bytes.position(), bytes.limit());
            // the ByteBuffer is big-endian, as any new ByteBuffer; layouts say their order themselves
            out.printf("   read through the segment (%d bytes) with big-endian layouts: 0x%X and %d%n",
                    segment.byteSize(), segment.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 0),
                    segment.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 8));
        }
    }

    private void singleThread(BufferPool pool) {
        long sum = 0;
        for (int round = 0; round < 2; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                BufferLease buffer = pool.acquire(1024);
                buffer.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) i);
                sum += buffer.size();
                buffer.release();
            }
            long elapsed = System.nanoTime() - start;
            out.printf("   %s: %.1f ns per pair%n", round == 0 ? "warm-up" : "measured",
                    (double) elapsed / ops);
        }
        if (sum == 42) {
            out.println();
        }
    }

    private void producerConsumer(BufferPool pool) throws InterruptedException {
        int count = 200_000;
        BlockingQueue<BufferLease> queue = new ArrayBlockingQueue<>(256);
        AtomicLong checksum = new AtomicLong();
        Thread consumer = Thread.ofPlatform().name("consumer").start(() -> {
            try {
                for (int i = 0; i < count; i++) {
                    BufferLease buffer = queue.take();
                    checksum.addAndGet(buffer.segment().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
                    buffer.release();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            BufferLease buffer = pool.acquire(2048);
            buffer.segment().set(ValueLayout.JAVA_INT_UNALIGNED, 0, 1);
            queue.put(buffer);
        }
        consumer.join();
        out.printf("   %d buffers crossed threads in %d ms (checksum %d); the pool holds %s from the OS%n",
                count, (System.nanoTime() - start) / 1_000_000, checksum.get(),
                Bytes.human(pool.stats().bytesFromOs()));
    }

    private void virtualThreads(BufferPool pool) {
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 10_000; i++) {
                int n = i;
                executor.submit(() -> {
                    try (BufferLease buffer = pool.acquire(16 * 1024)) {
                        buffer.segment().fill((byte) n);
                        Thread.yield();
                    }
                });
            }
        }
        var stats = pool.stats();
        out.printf("   done: %s from the OS, %d thread caches (virtual threads use the shared free lists)%n",
                Bytes.human(stats.bytesFromOs()), stats.threadCaches());
    }

    private void dedicated(BufferPool pool) {
        try (BufferLease big = pool.acquire(3 * (int) MIB)) {
            big.segment().fill((byte) 7);
            out.printf("   leased %s; the pool now holds %s in dedicated regions%n", Bytes.human(big.size()),
                    Bytes.human(pool.stats().dedicatedBytes()));
        }
        out.printf("   released; dedicated regions now %s%n", Bytes.human(pool.stats().dedicatedBytes()));
    }

    private void budgetLimit(BufferPool pool) {
        List<BufferLease> held = new ArrayList<>();
        try {
            while (true) {
                held.add(pool.acquire(8 * (int) MIB));
            }
        } catch (BudgetExceededException e) {
            out.printf("   after %d leases of 8 MiB: %s%n", held.size(), e.getMessage());
        } finally {
            held.forEach(BufferLease::release);
        }
        try (BufferLease again = pool.acquire(8 * (int) MIB)) {
            out.printf("   released them; the pool is still usable: leased %s again%n", Bytes.human(again.size()));
        }
    }

    private void checkedMode() {
        try (BufferPool pool = BufferPool.builder().name("demo-checked").checked(true).build()) {
            BufferLease buffer = pool.acquire(256);
            MemorySegment kept = buffer.segment();
            buffer.release();
            try {
                kept.get(ValueLayout.JAVA_BYTE, 0);
                out.println("   unexpected: the stale view still worked");
            } catch (IllegalStateException e) {
                out.println("   reading the released lease's segment threw: " + e.getMessage());
            }
        }
    }

    private void leakDetection() throws InterruptedException {
        try (BufferPool pool = BufferPool.builder().name("demo-leaks").leakSampling(1).build()) {
            leak(pool);
            for (int i = 0; i < 50 && pool.stats().leaks() == 0; i++) {
                System.gc();
                Thread.sleep(20);
            }
            var stats = pool.stats();
            out.printf("   leaks reported: %d (logged through System.Logger above), leases now %d%n",
                    stats.leaks(), stats.leases());
        }
    }

    private static void leak(BufferPool pool) {
        pool.acquire(512).segment().fill((byte) 1);
    }

    private int steps;

    private void step(String title) {
        out.println();
        out.println(++steps + ". " + title);
    }
}
