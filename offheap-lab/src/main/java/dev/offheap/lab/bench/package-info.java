/**
 * The JMH benchmarks behind the lab's micro experiments. They are started through JMH's API by the
 * experiments, never by hand; each {@code @Benchmark} method calls one allocator or reads one layout directly,
 * so every call site stays monomorphic even when several run in one JVM (the lab's tiny scale).
 */
package dev.offheap.lab.bench;
