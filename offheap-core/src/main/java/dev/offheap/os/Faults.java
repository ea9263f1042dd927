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

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault seam of the tests: makes the Nth system call of a kind, counted from when it is armed, fail with a
 * chosen errno, exactly as the kernel refusing it would look to the caller ({@link Libc} takes its error path
 * with that errno; the portable equivalents of the same steps throw what the JDK throws), so that the undo
 * path of every step of a pool can be tested. Only calls made by the thread that armed it count and fail.
 *
 * <p>Package-private: nothing outside this package can arm it (the tests do, through a helper of this package
 * of their own). Unarmed it costs one volatile read of a boolean, on paths that make a system call anyway:
 * never per element, per lease or per acquire.
 */
final class Faults {
    /** The calls that can be made to fail, each with its portable equivalents. */
    enum Call {
        /** {@code mmap}; portable: {@code Arena.allocate} of a block, {@code FileChannel.map}. */
        MMAP,
        /** {@code mremap}. */
        MREMAP,
        /** {@code munmap}. */
        MUNMAP,
        /** {@code madvise}. */
        MADVISE,
        /** {@code fallocate} (reserving space and punching holes); portable: the writes that reserve space. */
        FALLOCATE,
        /** {@code ftruncate}; portable: {@code FileChannel.truncate}. */
        FTRUNCATE
    }

    /** False but while a fault waits: the only thing a call reads when none does. */
    private static volatile boolean armed;
    /** Faults waiting for their call; guarded by itself. */
    private static final List<Plan> PLANS = new ArrayList<>();
    /** Addresses mapped (or moved to) by the armed thread's calls while armed, as pairs; guarded by PLANS. */
    private static final List<long[]> MAPPED = new ArrayList<>();
    /** The thread whose calls count; guarded by PLANS. */
    private static Thread thread;

    private static final class Plan {
        final Call call;
        final int errno;
        int countdown;

        Plan(Call call, int nth, int errno) {
            this.call = call;
            this.countdown = nth;
            this.errno = errno;
        }
    }

    private Faults() {}

    /**
     * Makes the {@code nth} call of kind {@code call} that the calling thread makes from now on fail with
     * {@code errno}. Several faults may wait at once, of one kind or several; each counts on its own.
     *
     * @throws IllegalStateException if faults armed by another thread still wait
     */
    static void failNth(Call call, int nth, int errno) {
        if (nth < 1 || errno <= 0) {
            throw new IllegalArgumentException("fault on call " + nth + " with errno " + errno);
        }
        synchronized (PLANS) {
            if (thread != null && thread != Thread.currentThread() && !PLANS.isEmpty()) {
                throw new IllegalStateException("faults armed by " + thread + " still wait");
            }
            if (thread != Thread.currentThread()) {
                MAPPED.clear();
            }
            thread = Thread.currentThread();
            PLANS.add(new Plan(call, nth, errno));
            armed = true;
        }
    }

    /** Forgets every fault still waiting and the addresses recorded. */
    static void clear() {
        synchronized (PLANS) {
            PLANS.clear();
            MAPPED.clear();
            thread = null;
            armed = false;
        }
    }

    /** How many armed faults have not happened yet. */
    static int waiting() {
        synchronized (PLANS) {
            return PLANS.size();
        }
    }

    /** The ranges the armed thread's calls mapped since it armed the first fault, as {@code [start, end)} pairs. */
    static List<long[]> mapped() {
        synchronized (PLANS) {
            return List.copyOf(MAPPED);
        }
    }

    /** The errno the call about to be made must fail with, or 0 to make it. */
    static int errnoFor(Call call) {
        return armed ? due(call) : 0;
    }

    /** {@link #errnoFor}, for a portable call: the {@link IOException} the JDK would throw, or nothing. */
    static void throwIfDue(Call call) throws IOException {
        int errno = errnoFor(call);
        if (errno != 0) {
            throw new IOException(strerror(errno));
        }
    }

    /** Records that the armed thread mapped {@code [address, address + length)} (a log for the tests). */
    static void mapped(long address, long length) {
        if (armed) {
            synchronized (PLANS) {
                if (Thread.currentThread() == thread) {
                    MAPPED.add(new long[] {address, address + length});
                }
            }
        }
    }

    private static int due(Call call) {
        synchronized (PLANS) {
            if (Thread.currentThread() != thread) {
                return 0;
            }
            int errno = 0;
            for (int i = 0; i < PLANS.size(); i++) {
                Plan plan = PLANS.get(i);
                if (plan.call == call && --plan.countdown == 0) {
                    errno = errno == 0 ? plan.errno : errno;
                    PLANS.remove(i--);
                }
            }
            return errno;
        }
    }

    /** The text of {@code strerror(errno)}, as the JDK puts it in an {@link IOException}. */
    static String strerror(int errno) {
        return switch (errno) {
            case 1 -> "Operation not permitted";
            case 5 -> "Input/output error";
            case 12 -> "Cannot allocate memory";
            case 13 -> "Permission denied";
            case 22 -> "Invalid argument";
            case 27 -> "File too large";
            case 28 -> "No space left on device";
            case 122 -> "Disk quota exceeded";
            default -> "Unknown error " + errno;
        };
    }
}
