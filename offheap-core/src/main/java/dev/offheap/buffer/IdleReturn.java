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

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The clock of idle return: one daemon thread for every pool of the JVM that asks the pools it watches, one
 * look per delay each, to give back what they no longer need ({@link BufferPool#returnIdle()}). It holds a
 * pool only weakly, so a pool dropped without close is still garbage, and its look is cancelled at close.
 * Acquires and releases never touch it: the looks read what the pool keeps anyway.
 */
final class IdleReturn {
    /**
     * The default delay of a new builder, or "off" to build pools without idle return unless they ask for it:
     * the test suites set it so that a look in the background never moves the figures a test asserts (the
     * tests of idle return set the delay per pool).
     */
    static final String DEFAULT_PROPERTY = "dev.offheap.buffer.idleReturnDefault";
    static final Duration DEFAULT_DELAY = Duration.ofSeconds(10);

    private IdleReturn() {}

    /** The delay a new builder starts with: {@link #DEFAULT_DELAY}, or zero (off) if the property says "off". */
    static Duration defaultDelay() {
        return defaultDelay(System.getProperty(DEFAULT_PROPERTY));
    }

    static Duration defaultDelay(String property) {
        return "off".equals(property) ? Duration.ZERO : DEFAULT_DELAY;
    }

    /**
     * Looks at {@code pool} every {@code delay} from now on; cancel the returned handle when the pool closes.
     */
    static ScheduledFuture<?> watch(BufferPool pool, Duration delay) {
        Look look = new Look(pool);
        long nanos = delay.toNanos();
        ScheduledFuture<?> future = Clock.TIMER.scheduleWithFixedDelay(look, nanos, nanos, TimeUnit.NANOSECONDS);
        look.future = future;
        return future;
    }

    /** One pool's periodic look, holding it weakly. */
    private static final class Look implements Runnable {
        private static final System.Logger LOG = System.getLogger(IdleReturn.class.getName());
        private final WeakReference<BufferPool> pool;
        volatile ScheduledFuture<?> future;

        Look(BufferPool pool) {
            this.pool = new WeakReference<>(pool);
        }

        @Override
        public void run() {
            BufferPool p = pool.get();
            if (p == null || p.isClosed()) {
                ScheduledFuture<?> f = future;
                if (f != null) {
                    f.cancel(false);
                }
                return;
            }
            try {
                p.returnIdle();
            } catch (RuntimeException e) {
                // A look that failed (the OS refusing an munmap, a close racing it) must not end the next ones.
                LOG.log(System.Logger.Level.WARNING, "idle return of buffer pool '" + p.name() + "' failed; the"
                        + " next look tries again", e);
            }
        }
    }

    /** The thread, made at the first pool that uses idle return. */
    private static final class Clock {
        static final ScheduledThreadPoolExecutor TIMER = timer();

        private static ScheduledThreadPoolExecutor timer() {
            ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
                    Thread.ofPlatform().daemon().name("offheap-idle-return").factory());
            timer.setRemoveOnCancelPolicy(true);
            return timer;
        }
    }
}
