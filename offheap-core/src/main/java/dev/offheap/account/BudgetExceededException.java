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
    private final long reclaimed;

    public BudgetExceededException(String budgetPath, long requested, long used, long limit) {
        this(budgetPath, requested, used, limit, -1);
    }

    /** {@code reclaimed < 0}: no reclaimer was asked. */
    BudgetExceededException(String budgetPath, long requested, long used, long limit, long reclaimed) {
        super("memory budget '" + budgetPath + "' exceeded: asked for " + Bytes.format(requested) + ", "
                + Bytes.format(used) + " used of " + Bytes.format(limit) + " allowed"
                + (reclaimed < 0 ? "" : " (reclaimers freed " + Bytes.format(reclaimed) + " before one retry)"));
        this.budgetPath = budgetPath;
        this.requested = requested;
        this.used = used;
        this.limit = limit;
        this.reclaimed = Math.max(0, reclaimed);
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

    /** Bytes the budget's {@link Reclaimer}s freed before the charge was retried and refused again; 0 if none ran. */
    public long reclaimed() {
        return reclaimed;
    }
}
