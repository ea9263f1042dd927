#!/usr/bin/env bash
# Launch distribution: store access in plain programs (no JMH), many fresh JVM launches per code shape.
#
#   offheap-bench/launch-distribution.sh [LAUNCHES] [SHAPE...]
#
# Each launch runs dev.offheap.bench.StoreShapes SHAPE in a new JVM: the shape's store code, the same code over a
# flat MemorySegment and over a double[], in the thread's CPU time, and prints the median ratio store/flat of its
# last rounds. This script prints, per shape, min / median / max of those ratios over LAUNCHES launches
# (default 20), and the same for double[]/flat. Then 20 launches of dev.offheap.bench.PlainAcquireRelease 1024
# (the pool's acquire + release in a plain loop, ns per pair). About 25 minutes on 2 cores.
# Extra JVM flags for the launches in SHAPES_JAVA_OPTS (e.g. -XX:TieredStopAtLevel=1).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
JAVA="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
JAR=offheap-bench/target/benchmarks.jar
LAUNCHES="${1:-20}"
shift || true
SHAPES=("$@")
if (( ${#SHAPES[@]} == 0 )); then
    SHAPES=(static lambda main-loop random-then-sequential two-types-two-arrays spill memory-and-spill set kernel
        random-small-then-lambda random-small-then-static random-small-then-main-loop random-thread-then-lambda
        many-arrays-then-lambda random-small-then-lambda-long random-small-then-lambda-int many-loops-one-method
        mixed-loops-one-method ops-in-one-method ops-after-other-arrays transform)
fi
if [[ ! -f "$JAR" ]]; then
    MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow ${MAVEN_OPTS:-}" ./mvnw -B -q -pl offheap-bench -am package -DskipTests
fi
OUT="$(mktemp -d)"
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD) load $(cut -d' ' -f1-3 /proc/loadavg) ${SHAPES_JAVA_OPTS:-}"
stats() { # prints min / median / max of the numbers on stdin
    sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        printf "%.3f / %.3f / %.3f", v[1], m, v[NR] }'
}
printf '%-24s %-26s %-26s %s\n' shape "store/flat min/med/max" "double[]/flat min/med/max" launches
for shape in "${SHAPES[@]}"; do
    for ((i = 0; i < LAUNCHES; i++)); do
        # shellcheck disable=SC2086
        "$JAVA" ${SHAPES_JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED -cp "$JAR" dev.offheap.bench.StoreShapes "$shape" \
            | grep '^shape=' >> "$OUT/$shape"
    done
    store="$(sed -E 's/.* ratio=([0-9.]+).*/\1/' "$OUT/$shape" | stats)"
    heap="$(sed -E 's/.* heap-ratio=([0-9.]+).*/\1/' "$OUT/$shape" | stats)"
    printf '%-24s %-26s %-26s %s\n' "$shape" "$store" "$heap" "$(wc -l < "$OUT/$shape")"
done
for ((i = 0; i < LAUNCHES; i++)); do
    "$JAVA" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
        -Dio.netty.leakDetection.level=disabled -cp "$JAR" dev.offheap.bench.PlainAcquireRelease 1024 >> "$OUT/pool"
done
echo "pool acquire+release 1024 B, plain loop, ns (offheap min/med/max): $(sed -E 's/.*offheap ([0-9.]+) ns.*/\1/' "$OUT/pool" | stats)"
echo "                                    ns (netty   min/med/max): $(sed -E 's/.*netty ([0-9.]+) ns.*/\1/' "$OUT/pool" | stats)"
echo "raw lines: $OUT"
