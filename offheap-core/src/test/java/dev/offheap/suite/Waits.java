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

package dev.offheap.suite;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Bounded waits for tests: each gives up after {@link #LIMIT} (or the time given) with an
 * {@link AssertionError} that says what was awaited, and for a thread, where it is stuck. A test that would
 * hang fails instead, and says why.
 */
public final class Waits {
    /** Longer than any wait in a passing test takes on a busy 2-core machine, by far. */
    public static final Duration LIMIT = Duration.ofMinutes(2);

    private Waits() {}

    /** Joins each thread, failing with its stack if one still runs after {@link #LIMIT}. */
    public static void join(Thread... threads) throws InterruptedException {
        join(Arrays.asList(threads));
    }

    /**
     * The waits below are counted in slices of this, not as one deadline on the monotonic clock: a clock that jumps
     * (run 36 saw a thread that had just started declared stuck "after PT2M" in a child JVM that ran 1.6 s: its
     * nanoTime leapt past the deadline between two reads, as a VM's clock can when it is paused or moved) cuts one
     * slice short, not the whole wait.
     */
    private static final Duration SLICE = Duration.ofMillis(100);
    private static final long SLICES = LIMIT.toMillis() / SLICE.toMillis();

    /**
     * Time waited in a polling loop, read on the monotonic clock between polls but with each step counted as at most
     * a {@link #SLICE}: a jump of the clock counts as one slice, a real wait as what it took.
     */
    public static final class Stopwatch {
        private long last = System.nanoTime();
        private long waited;

        /** True once {@link #LIMIT} has been waited since this stopwatch was made. */
        public boolean expired() {
            long now = System.nanoTime();
            waited += Math.clamp(now - last, 0, SLICE.toNanos());
            last = now;
            return waited >= LIMIT.toNanos();
        }
    }

    /** Joins each thread, failing with its stack if one still runs after {@link #LIMIT} in all. */
    public static void join(Collection<Thread> threads) throws InterruptedException {
        long left = SLICES;
        for (Thread thread : threads) {
            while (thread.isAlive() && left > 0) {
                thread.join(SLICE);
                left--;
            }
            if (thread.isAlive()) {
                throw new AssertionError("thread '" + thread.getName() + "' still runs after " + LIMIT + ", at:\n"
                        + stack(thread));
            }
        }
    }

    /** Awaits {@code latch}, failing after {@link #LIMIT} with {@code what} and the count left. */
    public static void await(CountDownLatch latch, String what) throws InterruptedException {
        for (long left = SLICES; left > 0; left--) {
            if (latch.await(SLICE.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        }
        throw new AssertionError(what + ": still waiting after " + LIMIT + " (" + latch.getCount() + " to go)");
    }

    /** Takes a permit, failing after {@link #LIMIT} with {@code what}. */
    public static void acquire(Semaphore semaphore, String what) throws InterruptedException {
        for (long left = SLICES; left > 0; left--) {
            if (semaphore.tryAcquire(SLICE.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        }
        throw new AssertionError(what + ": no permit after " + LIMIT);
    }

    /** Takes the head of {@code queue}, failing after {@link #LIMIT} with {@code what}. */
    public static <T> T take(BlockingQueue<T> queue, String what) throws InterruptedException {
        for (long left = SLICES; left > 0; left--) {
            T head = queue.poll(SLICE.toMillis(), TimeUnit.MILLISECONDS);
            if (head != null) {
                return head;
            }
        }
        throw new AssertionError(what + ": nothing came after " + LIMIT);
    }

    /** What a process printed (standard output, and standard error if merged) and how it exited. */
    public record Finished(int exitCode, String output) {}

    /**
     * Reads everything {@code process} prints while waiting for it to end, at most {@code timeout}: a process
     * that never ends is killed and the test fails with what it printed so far. (Reading the output to its end
     * first and waiting second would block forever on a process that does not end.)
     */
    public static Finished finish(Process process, Duration timeout, String what) throws InterruptedException {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        Thread reader = Thread.ofVirtual().start(() -> copy(process.getInputStream(), output));
        boolean ended = false;
        for (long left = Math.max(1, timeout.toMillis() / SLICE.toMillis()); left > 0 && !ended; left--) {
            ended = process.waitFor(SLICE.toMillis(), TimeUnit.MILLISECONDS);
        }
        if (!ended) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            reader.join(Duration.ofSeconds(10));
            throw new AssertionError(what + " did not end within " + timeout + "; it printed:\n" + text(output));
        }
        reader.join(Duration.ofSeconds(10));
        return new Finished(process.exitValue(), text(output));
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try (in) {
            byte[] chunk = new byte[8192];
            for (int n; (n = in.read(chunk)) >= 0; ) {
                synchronized (out) {
                    out.write(chunk, 0, n);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String text(ByteArrayOutputStream output) {
        synchronized (output) {
            return output.toString(StandardCharsets.UTF_8);
        }
    }

    /**
     * The threads of a process that did not end in time ({@code jcmd PID Thread.print}, itself bounded), for
     * the failure message: a hang shows where it waits, a machine too busy shows threads at work.
     */
    public static String threadDump(Process process) throws InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            return finish(dump, Duration.ofSeconds(30), "jcmd Thread.print").output();
        } catch (IOException | AssertionError e) {
            return "(no thread dump: " + e.getMessage() + ")";
        }
    }

    public static String stack(Thread thread) {
        List<StackTraceElement> frames = Arrays.asList(thread.getStackTrace());
        return frames.stream().map(f -> "    at " + f).collect(Collectors.joining("\n"));
    }

    /** Waits until {@code thread} is blocked on a monitor the calling thread holds. */
    public static void blockedOnMe(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (true) {
            ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(thread.threadId());
            if (info != null && info.getThreadState() == Thread.State.BLOCKED
                    && info.getLockOwnerId() == Thread.currentThread().threadId()) {
                return;
            }
            if (!thread.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("thread '" + thread.getName() + "' never blocked on the test's monitor");
            }
            Thread.sleep(1);
        }
    }
}
