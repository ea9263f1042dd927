package dev.offheap.metrics;

/**
 * A {@code MemoryBudget} as JMX shows it: {@code dev.offheap:type=MemoryBudget,name=<budget path>}, while a
 * registered pool charges it (see the package documentation). Read live.
 */
public interface MemoryBudgetMXBean {

    /** Names from the root down, joined by '/'. */
    String getPath();

    /** Bytes charged now. */
    long getUsedBytes();

    /** The most bytes ever charged at once. */
    long getPeakBytes();

    /** This level's limit, -1 when it has none. */
    long getLimitBytes();

    /** What a charge could still get here, counting every ancestor's room; -1 when nothing limits it. */
    long getAvailableBytes();
}
