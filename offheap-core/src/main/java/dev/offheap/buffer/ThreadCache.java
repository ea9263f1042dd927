package dev.offheap.buffer;

/**
 * Free slots kept by one platform thread, a small stack per size class, touched only by that thread with
 * plain loads and stores: the lock-free, allocation-free fast path. Refills from and flushes to the shared
 * {@link FreeStack} of the class in batches of half its capacity, so a thread that only releases (the
 * consumer of a producer/consumer pair) hands its surplus on instead of growing.
 *
 * <p>Other threads touch a cache only through {@link #requestFlush()}, or drain it once its owner is dead.
 */
final class ThreadCache {
    private static final int REGISTER_RETRY_INTERVAL = 4096;

    final Thread owner;
    final boolean registered;
    private final SizeClassPool[] classes;
    private final int[] capacities;
    private final PooledBuffer[][] stacks;
    private final int[] counts;
    /** Per class: acquires served from this cache, and acquires that had to refill it. */
    final long[] hits;
    final long[] misses;
    private volatile boolean flushRequested;
    private int sampleCountdown;
    private int registerCountdown = REGISTER_RETRY_INTERVAL;

    ThreadCache(Thread owner, SizeClassPool[] classes, int[] capacities, boolean registered, int sampleInterval) {
        this.owner = owner;
        this.classes = classes;
        this.capacities = registered ? capacities : new int[capacities.length];
        this.registered = registered;
        this.stacks = new PooledBuffer[classes.length][];
        this.counts = new int[classes.length];
        this.hits = new long[classes.length];
        this.misses = new long[classes.length];
        this.sampleCountdown = sampleInterval;
    }

    /** A free slot of class {@code cls}, from this cache if it has one, else from the class's pool. */
    PooledBuffer take(int cls) {
        if (flushRequested) {
            flushAll();
        }
        int c = counts[cls];
        if (c > 0) {
            counts[cls] = --c;
            hits[cls]++;
            return stacks[cls][c];
        }
        return refill(cls);
    }

    /** Keeps a released slot, flushing half of the class's stack to the shared one when it is full. */
    void give(PooledBuffer slot) {
        if (flushRequested) {
            flushAll();
        }
        int cls = slot.home.index;
        int capacity = capacities[cls];
        if (capacity == 0) {
            slot.home.give(slot);
            return;
        }
        PooledBuffer[] stack = stacks[cls];
        if (stack == null) {
            stacks[cls] = stack = new PooledBuffer[capacity];
        }
        int c = counts[cls];
        if (c == capacity) {
            c = flush(cls, capacity / 2);
        }
        if (stack[c] != slot) {
            stack[c] = slot; // a LIFO acquire/release finds its slot still there: no store, no GC barrier
        }
        counts[cls] = c + 1;
    }

    /** True once every {@code interval} calls: the acquisitions leak detection tracks. */
    boolean sample(int interval) {
        if (--sampleCountdown > 0) {
            return false;
        }
        sampleCountdown = interval;
        return true;
    }

    /** Counts down to the next attempt of an unregistered thread to get a cache of its own. */
    boolean shouldRetryRegistration() {
        if (--registerCountdown > 0) {
            return false;
        }
        registerCountdown = REGISTER_RETRY_INTERVAL;
        return true;
    }

    /** Asks the owner to flush at its next acquire or release (trim() cannot touch a live thread's cache). */
    void requestFlush() {
        flushRequested = true;
    }

    /** Moves every slot to the shared stacks. Only the owner, or anyone once the owner is dead. */
    void flushAll() {
        flushRequested = false;
        for (int cls = 0; cls < counts.length; cls++) {
            flush(cls, counts[cls]);
        }
    }

    int count(int cls) {
        return counts[cls];
    }

    private PooledBuffer refill(int cls) {
        SizeClassPool pool = classes[cls];
        int capacity = capacities[cls];
        if (capacity == 0) {
            return pool.takeUncached();
        }
        misses[cls]++;
        PooledBuffer[] stack = stacks[cls];
        if (stack == null) {
            stacks[cls] = stack = new PooledBuffer[capacity];
        }
        int got = pool.takeBatch(stack, 0, Math.max(1, capacity / 2));
        counts[cls] = got - 1;
        return stack[got - 1];
    }

    /** Moves the top {@code n} slots of class {@code cls} to its shared stack; returns the count left. */
    private int flush(int cls, int n) {
        int c = counts[cls];
        PooledBuffer[] stack = stacks[cls];
        SizeClassPool pool = classes[cls];
        for (int i = 0; i < n; i++) {
            PooledBuffer slot = stack[--c];
            stack[c] = null;
            pool.give(slot);
        }
        counts[cls] = c;
        return c;
    }
}
