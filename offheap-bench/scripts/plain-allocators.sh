#!/bin/sh
# PlainAllocators: the allocators of NettyAllocatorBenchmark and the core pool in plain programs (no JMH), one
# allocator per launch, launches interleaved, on plain threads and on FastThreadLocalThreads (Netty's event-loop
# thread type); the same JVM flags as the JMH forks (ForkFlags: Netty as shipped on JDK 25, no Unsafe, its
# default leak detection). Compare within one run: the machine's load moves every figure.
# Usage: offheap-bench/scripts/plain-allocators.sh [launches=3] > results.txt
# Build first: ./mvnw -q -o -pl offheap-bench -am package -DskipTests
LAUNCHES=${1:-3}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
JAR=$(dirname "$0")/../target/benchmarks.jar
echo "# $(date -u +%FT%TZ) $(uptime)"
for launch in $(seq 1 "$LAUNCHES"); do
  for thread in plain event-loop; do
    for allocator in pool offheap offheap-recycling netty-pooled netty-adaptive; do
      "$JAVA" -Xms1g -Xmx1g -XX:+UseG1GC --enable-native-access=ALL-UNNAMED \
        -Dio.netty.allocator.useCacheForAllThreads=true \
        -cp "$JAR" dev.offheap.bench.PlainAllocators "$allocator" "$thread" 2>&1 | sed "s/^/launch=$launch /"
    done
  done
done
echo "# $(date -u +%FT%TZ) $(uptime)"
