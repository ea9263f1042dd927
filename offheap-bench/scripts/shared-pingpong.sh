#!/bin/sh
# SharedArrayPingPong: two JVMs exchanging values through one mapped .npy file, offheap's SHARED LongArray and
# IntArray against Agrona's UnsafeBuffer over a MappedByteBuffer of the same file; 3 launches (about 90 s).
# Usage: offheap-bench/scripts/shared-pingpong.sh [launches=3] [rounds=10] [roundTrips=100000] > results.txt
# Build first: ./mvnw -q -o -pl offheap-core,offheap-netty,offheap-bench package -DskipTests
# Agrona 2.x reaches jdk.internal.misc.Unsafe (hence --add-exports); offheap needs native access only.
LAUNCHES=${1:-3}
ROUNDS=${2:-10}
TRIPS=${3:-100000}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
JAR=$(dirname "$0")/../target/benchmarks.jar
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null)"
echo "# $(uname -srm), $(nproc) cpus, $(awk '/model name/ { sub(/.*: /, ""); print; exit }' /proc/cpuinfo)"
uptime
for launch in $(seq 1 "$LAUNCHES"); do
  echo "### launch=$launch"
  "$JAVA" -Xms256m -Xmx256m --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
    -cp "$JAR" dev.offheap.bench.SharedArrayPingPong lead "$DIR" 3 "$ROUNDS" "$TRIPS" 2>&1
done
uptime
