/**
 * Micrometer meters for offheap, one {@link io.micrometer.core.instrument.binder.MeterBinder} per pool or
 * budget:
 *
 * {@snippet :
 * new BufferPoolMeters(pool).bindTo(registry);
 * new ChunkPoolMeters(store).bindTo(registry);
 * new MemoryBudgetMeters(budget).bindTo(registry);
 * }
 *
 * <p>Every meter is tagged {@code type} ({@code BufferPool}, {@code ChunkPool} or {@code MemoryBudget}) and
 * {@code name} (the pool's name, or the budget's path), plus any tags given to the binder. Byte figures have
 * the base unit {@code bytes}; a limit is a gauge only when there is one. Gauges hold their pool or budget
 * weakly, as Micrometer's do by default: they read NaN once it is gone. Reading them costs what reading the
 * JMX attributes costs (see {@link dev.offheap.metrics}): a buffer pool walks its slots at most once a
 * second.
 */
package dev.offheap.micrometer;
