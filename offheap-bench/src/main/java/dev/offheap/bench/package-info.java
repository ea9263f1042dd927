/*
 * Copyright 2026 the offheap authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

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
