package dev.offheap.account;

/**
 * A charge that would take a {@link MemoryBudget} past its limit. Nothing was charged: the caller may free
 * memory and try again, and the component that was charging stays usable.
 */
public final class BudgetExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String budgetPath;
    private final long requested;
    private final long used;
    private final long limit;

    public BudgetExceededException(String budgetPath, long requested, long used, long limit) {
        super("memory budget '" + budgetPath + "' exceeded: asked for " + Bytes.format(requested) + ", "
                + Bytes.format(used) + " used of " + Bytes.format(limit) + " allowed");
        this.budgetPath = budgetPath;
        this.requested = requested;
        this.used = used;
        this.limit = limit;
    }

    /** The budget that refused, as {@link MemoryBudget#path()}. */
    public String budgetPath() {
        return budgetPath;
    }

    public long requested() {
        return requested;
    }

    /** Bytes charged to that budget when it refused. */
    public long used() {
        return used;
    }

    public long limit() {
        return limit;
    }
}
