package dev.offheap.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many memory mappings a pool's chunks and arrays may hold: half of Linux's {@code vm.max_map_count}
 * (65,530 by default), the other half is left to the JVM, whose threads, heap and libraries need their own.
 */
final class MappingBudget {
    private final AtomicLong used = new AtomicLong();
    private final long limit;
    private final String pool;
    private final long chunkSize;

    MappingBudget(String pool, long chunkSize, long limit) {
        this.pool = pool;
        this.chunkSize = chunkSize;
        this.limit = limit;
    }

    void take(long mappings) {
        long now = used.addAndGet(mappings);
        if (now > limit) {
            used.addAndGet(-mappings);
            throw refusal(mappings, now - mappings);
        }
    }

    /** Throws as {@link #take} would, taking nothing: to refuse a request before it takes anything else. */
    void check(long mappings) {
        long now = used.get();
        if (mappings > limit - now) {
            throw refusal(mappings, now);
        }
    }

    private IllegalStateException refusal(long mappings, long held) {
        return new IllegalStateException("pool '" + pool + "' needs " + mappings + " more memory mappings but"
                + " holds " + held + " of the " + limit + " it may use (half of vm.max_map_count,"
                + " the rest is left to the JVM): use chunks larger than " + chunkSize + " bytes, or raise"
                + " vm.max_map_count");
    }

    void give(long mappings) {
        used.addAndGet(-mappings);
    }

    long used() {
        return used.get();
    }
}
