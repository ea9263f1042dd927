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

package dev.offheap.account;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One component's account with a {@link MemoryBudget}: charges made through it count in the budget as
 * usual, and the owner keeps its own balance and the stack where it was opened, so that a budget closed
 * with memory still charged can name who took it ({@link MemoryBudget#report()}).
 *
 * {@snippet :
 * BudgetOwner account = budget.owner("chunk cache");
 * account.charge(4L << 20);
 * // ...
 * account.release(4L << 20);
 * account.close();
 * }
 *
 * <p>Safe for use by any number of threads. Charging costs the budget's charge plus one atomic add.
 */
public final class BudgetOwner implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("dev.offheap.account");
    private final MemoryBudget budget;
    private final String name;
    /** Captured once when the owner opens (never on a charge); only its stack is used. */
    private final Throwable openedAt = new Throwable();
    private final String openedBy = Thread.currentThread().getName();
    private final AtomicLong outstanding = new AtomicLong();
    private volatile boolean closed;

    BudgetOwner(MemoryBudget budget, String name) {
        this.budget = budget;
        this.name = Objects.requireNonNull(name, "name");
    }

    /**
     * Charges the budget, as {@link MemoryBudget#charge(long)}, and counts the bytes as this owner's.
     *
     * @param bytes the bytes to charge
     * @throws IllegalArgumentException if {@code bytes < 0}
     * @throws BudgetExceededException if the budget refuses, naming this owner; nothing is charged
     * @throws IllegalStateException if the budget (or an ancestor) is closed
     */
    public void charge(long bytes) {
        budget.charge(bytes, this);
        outstanding.addAndGet(bytes);
    }

    /**
     * Like {@link #charge(long)} but answers false instead of throwing {@link BudgetExceededException}.
     *
     * @param bytes the bytes to charge
     * @return true if the bytes are charged and counted as this owner's, false if the budget refused them
     * @throws IllegalArgumentException if {@code bytes < 0}
     * @throws IllegalStateException if the budget (or an ancestor) is closed
     */
    public boolean tryCharge(long bytes) {
        if (!budget.tryCharge(bytes)) {
            return false;
        }
        outstanding.addAndGet(bytes);
        return true;
    }

    /**
     * Gives back bytes this owner charged. Allowed after the budget is closed.
     *
     * @param bytes the bytes to give back
     * @throws IllegalArgumentException if {@code bytes < 0}
     * @throws IllegalStateException if this owner has fewer bytes outstanding; nothing changes then
     */
    public void release(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
        }
        long before;
        do {
            before = outstanding.get();
            if (before < bytes) {
                throw new IllegalStateException("owner '" + name + "' of budget '" + budget.path() + "' released "
                        + bytes + " bytes but only " + before + " were charged through it");
            }
        } while (!outstanding.compareAndSet(before, before - bytes));
        budget.release(bytes);
        if (closed && before == bytes) {
            budget.forget(this);
        }
    }

    /** {@return the bytes charged through this owner and not released} */
    public long outstanding() {
        return outstanding.get();
    }

    /** {@return the name given to {@link MemoryBudget#owner(String)}, used in reports} */
    public String name() {
        return name;
    }

    /** {@return the budget this owner charges} */
    public MemoryBudget budget() {
        return budget;
    }

    /**
     * Where this owner was opened: the stack of the caller of {@link MemoryBudget#owner(String)}.
     *
     * @return the frames, innermost first, a new array on each call
     */
    public StackTraceElement[] openedAt() {
        StackTraceElement[] stack = openedAt.getStackTrace();
        int first = 0;
        while (first < stack.length - 1 && isOurs(stack[first].getClassName())) {
            first++;
        }
        return Arrays.copyOfRange(stack, first, stack.length);
    }

    /** {@return the name of the thread that opened this owner} */
    public String openedBy() {
        return openedBy;
    }

    /**
     * Closes this owner. With nothing outstanding it leaves its budget's reports at once. With bytes still
     * charged it logs a warning naming itself and the bytes to the {@code System.Logger}
     * {@code dev.offheap.account} (as a pool closed with leases out does) and stays listed, so that the
     * budget's report names it, until its last bytes are released; releasing them is still allowed. A second
     * close does nothing.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        long left = outstanding.get();
        if (left == 0) {
            budget.forget(this);
        } else {
            LOG.log(System.Logger.Level.WARNING, "budget owner '" + name + "' of budget '" + budget.path()
                    + "' closed with " + left + " bytes still charged; it stays in the budget's report until they"
                    + " are released");
        }
    }

    @Override
    public String toString() {
        return "BudgetOwner[" + name + " of " + budget.path() + ": " + outstanding.get() + " bytes]";
    }

    private static boolean isOurs(String className) {
        return className.equals(BudgetOwner.class.getName()) || className.equals(MemoryBudget.class.getName());
    }
}
