#!/bin/sh
# PlainCrossThread: 5 separate launches per size, same JVM flags as the JMH forks (ForkFlags).
# Usage: offheap-bench/scripts/plain-crossthread.sh [rounds=15] [leases=200000] > results.txt
# Build first: ./mvnw -q -o -pl offheap-bench -am package -DskipTests
ROUNDS=${1:-15}
LEASES=${2:-200000}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
JAR=$(dirname "$0")/../target/benchmarks.jar
uptime
for size in 1024 random 65536; do
  for launch in 1 2 3 4 5; do
    echo "### size=$size launch=$launch"
    "$JAVA" -Xms1g -Xmx1g -XX:+UseG1GC --enable-native-access=ALL-UNNAMED \
      --sun-misc-unsafe-memory-access=allow -Dio.netty.allocator.useCacheForAllThreads=true \
      -Dio.netty.leakDetection.level=disabled \
      -cp "$JAR" dev.offheap.bench.PlainCrossThread "$size" "$ROUNDS" "$LEASES" 2>&1
  done
done
uptime
