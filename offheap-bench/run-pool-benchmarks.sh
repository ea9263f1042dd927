#!/usr/bin/env bash
# Builds offheap-bench and runs the buffer pool benchmarks (AcquireReleaseBenchmark, CrossThreadBenchmark)
# with the GC profiler, for the record. Run it on a quiet machine: nothing else busy, no power saving.
#
#   offheap-bench/run-pool-benchmarks.sh [more JMH options...]
#
# Environment:
#   JMH_ARGS=...    run settings, replacing the default "-f 2 -wi 5 -w 1s -i 5 -r 1s" (or QUICK's)
#   QUICK=1         a smoke run, not a record: one short fork each, size 1024, allocators offheap,
#                   netty-pooled and direct; files are named pool-<date>-quick.*. Proves that the
#                   benchmarks run, measures nothing: one 1 s warmup is too short for the JIT on a small
#                   machine (Netty's path in particular).
#   BENCHMARKS=...  JMH include regex; default both benchmarks
#   SKIP_BUILD=1    use the offheap-bench/target/benchmarks.jar already built
#
# Writes offheap-bench/results/pool-<date>.json (JMH's JSON) and pool-<date>.txt next to it: the console
# output, after a header with the commit, machine and JDK. Options given to this script go to JMH after
# the defaults, e.g. "-p size=16384" to run one size only. The forks' JVM flags are in ForkFlags.java; do not
# pass -jvmArgsAppend unless you repeat them, as it replaces them.
set -euo pipefail

SCRIPT=run-pool-benchmarks
# shellcheck source=bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"

if [[ "${QUICK:-0}" == 1 ]]; then
    default_args="-f 1 -wi 1 -w 1s -i 1 -r 1s -p size=1024 -p allocator=offheap,netty-pooled,direct"
    suffix="-quick"
else
    # 5 warmup iterations of 1 s: long enough for allocateDirect to reach its steady state (the GC freeing
    # dead direct buffers), see Allocator.Direct. Check gc.count of the direct results.
    default_args="-f 2 -wi 5 -w 1s -i 5 -r 1s"
    suffix=""
fi
read -r -a jmh_args <<< "${JMH_ARGS:-$default_args}"
benchmarks="${BENCHMARKS:-dev\.offheap\.bench\.(AcquireRelease|CrossThread)Benchmark}"

build_jar

mkdir -p "$RESULTS"
stamp="$(date -u +%Y-%m-%d-%H%M%S)"
json="$RESULTS/pool-$stamp$suffix.json"
log="$RESULTS/pool-$stamp$suffix.txt"

{
    print_header "offheap buffer pool benchmarks"
    echo "# jmh: $benchmarks -prof gc ${jmh_args[*]} $*"
    echo
} | tee "$log"

# The JMH host JVM uses Unsafe itself (JMH 1.37); the flag only keeps JDK 24+'s warning out of the record.
# -foe false: a failing benchmark is reported and the others still run; the check below then fails the script.
"$JAVA" --sun-misc-unsafe-memory-access=allow -jar "$JAR" "$benchmarks" -prof gc "${jmh_args[@]}" \
    -foe false -rf json -rff "$json" "$@" 2>&1 | tee -a "$log"

echo "run-pool-benchmarks: results in $json, console output in $log" >&2
if grep -q '<failure>' "$log"; then
    echo "run-pool-benchmarks: some benchmarks failed, see $log" >&2
    exit 1
fi
