/**
 * JMH benchmarks comparing the offheap-core buffer pool with Netty's pooled allocator.
 *
 * <p>Build with {@code ./mvnw -pl offheap-bench -am -DskipTests package}, then run
 * {@code java -jar offheap-bench/target/benchmarks.jar}.
 */
package dev.offheap.bench;
