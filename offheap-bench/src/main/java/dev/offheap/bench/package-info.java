/**
 * JMH benchmarks comparing the offheap-core buffer pool with Netty's pooled allocator.
 *
 * <p>Build with {@code ./mvnw -pl offheap-bench -am -DskipTests package}, then run
 * {@code java -jar offheap-bench/target/benchmarks.jar}. {@code offheap-bench/run-pool-benchmarks.sh} builds
 * and runs {@link dev.offheap.bench.AcquireReleaseBenchmark} and {@link dev.offheap.bench.CrossThreadBenchmark}
 * for the record, writing JSON and console output to {@code offheap-bench/results/}.
 */
package dev.offheap.bench;
