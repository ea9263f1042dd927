/**
 * offheap's JFR events (names in {@link dev.offheap.metrics.OffheapEvents}). Each has a static {@code emit}
 * that does nothing unless a recording wants the event ({@code shouldCommit()}); callers emit only on slow
 * paths: memory taken from or given back to the OS, a trim, a refused charge, a leak.
 */
package dev.offheap.metrics.jfr;
