package dev.offheap.store;

/** What a new array holds. */
public enum Contents {
    /** Zeros, like a new Java array: nothing of a previous array shows through a reused chunk. */
    ZEROS,
    /**
     * Whatever the reused chunks held before (their own process's data, or zeros): for callers that
     * overwrite every element before reading it, and want to skip clearing.
     */
    UNINITIALIZED
}
