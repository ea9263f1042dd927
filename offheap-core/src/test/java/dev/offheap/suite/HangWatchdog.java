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

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.engine.TestExecutionResult;

/**
 * A bound on every test of every engine: JUnit Jupiter's own default timeout (5 minutes, set in the build)
 * covers Jupiter tests only if they answer an interrupt, and none covers jqwik's properties. A test still
 * running after {@link #LIMIT} gets its name and every thread's stack printed and its thread interrupted; if
 * it still runs {@link #GRACE} later, the test JVM halts, which fails the build with that message printed
 * instead of holding CI until its own limit. Registered through {@code META-INF/services}.
 */
public final class HangWatchdog implements TestExecutionListener {
    /** How long a test may run; {@code -Doffheap.test.hangLimitSeconds=N} changes it (to see the watchdog work). */
    static final Duration LIMIT = Duration.ofSeconds(Long.getLong("offheap.test.hangLimitSeconds", 360));
    static final Duration GRACE = LIMIT.dividedBy(6);

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "offheap test watchdog");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, ScheduledFuture<?>> running = new ConcurrentHashMap<>();

    @Override
    public void executionStarted(TestIdentifier test) {
        if (!test.isTest()) {
            return;
        }
        Thread runner = Thread.currentThread();
        running.put(test.getUniqueId(), timer.schedule(() -> overdue(test, runner), LIMIT.toMillis(),
                TimeUnit.MILLISECONDS));
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        ScheduledFuture<?> watch = running.remove(test.getUniqueId());
        if (watch != null) {
            watch.cancel(false);
        }
    }

    private void overdue(TestIdentifier test, Thread runner) {
        PrintStream err = System.err;
        err.println("HANG: " + test.getDisplayName() + " (" + test.getUniqueId() + ") still runs after " + LIMIT
                + "; interrupting it. Every thread:");
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            err.print(info);
        }
        runner.interrupt();
        running.put(test.getUniqueId(), timer.schedule(() -> {
            err.println("HANG: " + test.getDisplayName() + " ignored the interrupt for " + GRACE
                    + "; halting the test JVM so that the build fails now.");
            err.flush();
            Runtime.getRuntime().halt(97);
        }, GRACE.toMillis(), TimeUnit.MILLISECONDS));
    }
}
