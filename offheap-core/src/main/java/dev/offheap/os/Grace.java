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

package dev.offheap.os;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Ending the views of memory other threads may be using, and the grace that memory waits out before it is
 * reused or unmapped.
 *
 * <p>Closing a shared arena is a handshake with every thread: a thread found inside an access to the arena
 * gets an exception instead of going on. On JDK 25 (JDK-8364167, fixed in later JDKs, not backported) a
 * thread the handshake reaches at a safepoint poll that cannot throw still makes the access it was about to
 * make, after the close has returned. Memory whose views ended therefore waits for one more completed
 * handshake before it is reused or unmapped: that handshake cannot complete before such a thread reaches its
 * next poll, and so before its straggling access is over. The access then lands in memory of the same ended
 * lease or array, never in another's and never in unmapped memory.
 *
 * <p>Every view arena offheap closes goes through {@link #endViews(Arena)}, so each close is also the grace
 * of the memory ended before it: a steady stream of releases pays no handshake of its own for the grace.
 * {@link #await()} runs one when a caller cannot wait (a pool's trim or close).
 */
public final class Grace {
    private static final System.Logger LOG = System.getLogger(Grace.class.getName());
    /** Handshakes started through this class, each numbered when it starts. */
    private static final AtomicLong STARTED = new AtomicLong();
    /** The highest number of a handshake that completed. */
    private static final AtomicLong PASSED = new AtomicLong();
    /** Actions waiting for a handshake after their ticket; guarded by itself. */
    private static final List<Later> LATER = new ArrayList<>();

    private record Later(long ticket, Runnable action) {}

    private Grace() {}

    /**
     * Closes {@code views}, a shared arena whose segments were handed out: a handshake with every thread.
     * Actions waiting for a handshake ({@link #later}) whose grace this one completes run afterwards.
     *
     * @return true once the views have ended; false, with nothing changed, if an I/O operation or a native call
     *         holds one of them (the JDK's "Session is acquired by N clients"): try again once it has ended
     * @throws IllegalStateException if the arena was already closed
     */
    public static boolean endViews(Arena views) {
        long number = STARTED.incrementAndGet();
        try {
            views.close();
        } catch (IllegalStateException e) {
            if (views.scope().isAlive()) {
                return false; // acquired: the JDK changed nothing
            }
            throw e;
        }
        PASSED.accumulateAndGet(number, Math::max);
        runDue();
        return true;
    }

    /**
     * The ticket of memory whose views ended before this call: it may be reused or unmapped once
     * {@link #passed(long)} says so.
     */
    public static long ticket() {
        return STARTED.get();
    }

    /** Whether a handshake that started after {@code ticket} was taken has completed. */
    public static boolean passed(long ticket) {
        return PASSED.get() > ticket;
    }

    /**
     * Runs {@code action} once a handshake that starts after this call has completed: at the next
     * {@link #endViews} or {@link #await()} of any thread. It must be short and take no lock a closing thread may
     * hold (an {@code munmap}, a lock-free push).
     */
    public static void later(Runnable action) {
        long ticket = ticket();
        synchronized (LATER) {
            LATER.add(new Later(ticket, action));
        }
    }

    /**
     * One handshake of its own: when it returns, every ticket taken before the call has passed, and every
     * action {@link #later} registered before it has run.
     */
    public static void await() {
        if (!endViews(Arena.ofShared())) {
            throw new AssertionError("a new arena cannot be held");
        }
    }

    /** {@link #await()} if an action registered with {@link #later} is still waiting; else nothing. */
    public static void awaitPending() {
        boolean pending;
        synchronized (LATER) {
            pending = !LATER.isEmpty();
        }
        if (pending) {
            await();
        }
    }

    private static void runDue() {
        List<Runnable> due = null;
        long passed = PASSED.get();
        synchronized (LATER) {
            for (int i = LATER.size() - 1; i >= 0; i--) {
                if (LATER.get(i).ticket() < passed) {
                    if (due == null) {
                        due = new ArrayList<>();
                    }
                    due.add(LATER.remove(i).action());
                }
            }
        }
        if (due == null) {
            return;
        }
        for (Runnable action : due.reversed()) {
            try {
                action.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "offheap: freeing memory after its grace failed", e);
            }
        }
    }
}
