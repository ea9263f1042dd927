package dev.offheap.metrics;

/**
 * A {@code MemoryBudget} as JMX shows it: {@code dev.offheap:type=MemoryBudget,name=<budget path>}, while a
 * registered pool charges it (see the package documentation). Read live. Limits follow {@link PoolStats}:
 * {@code Long.MAX_VALUE} when there is none.
 */
public interface MemoryBudgetMXBean {

    /**
     * Names from the root down, joined by '/'.
     *
     * @return the budget's path
     */
    String getPath();

    /**
     * Bytes charged now.
     *
     * @return the bytes
     */
    long getUsedBytes();

    /**
     * The most bytes ever charged at once.
     *
     * @return the peak in bytes
     */
    long getPeakBytes();

    /**
     * This level's limit.
     *
     * @return the limit in bytes, {@code Long.MAX_VALUE} when there is none
     */
    long getLimitBytes();

    /**
     * What a charge could still get here, counting every ancestor's room.
     *
     * @return the bytes, {@code Long.MAX_VALUE} when nothing limits it
     */
    long getAvailableBytes();
}
