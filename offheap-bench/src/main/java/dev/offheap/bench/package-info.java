/**
 * JMH benchmarks comparing the offheap-core buffer pool with Netty's pooled allocator, and the store with flat
 * and chunked storage.
 *
 * <p>Build with {@code ./mvnw -pl offheap-bench -am -DskipTests package}, then run
 * {@code java -jar offheap-bench/target/benchmarks.jar}. {@code offheap-bench/run-pool-benchmarks.sh} builds
 * and runs {@link dev.offheap.bench.AcquireReleaseBenchmark} and {@link dev.offheap.bench.CrossThreadBenchmark}
 * for the record, writing JSON and console output to {@code offheap-bench/results/};
 * {@code offheap-bench/run-store-benchmarks.sh} does the same for {@link dev.offheap.bench.StoreBenchmark} (the
 * store's typed arrays against {@code double[]}, a flat segment and seed 003's chunked designs).
 * {@link dev.offheap.bench.MetricsCostBenchmark} measures acquire+release with JMX and JFR on and off.
 */
package dev.offheap.bench;
