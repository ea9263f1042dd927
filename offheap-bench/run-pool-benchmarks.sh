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

BENCH_DIR="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
JAR="$BENCH_DIR/target/benchmarks.jar"
RESULTS="$BENCH_DIR/results"

# Prints the path of a java executable of version 25 or newer: $JAVA_HOME's, one under /usr/lib/jvm, or the
# one on the PATH.
find_java() {
    local candidate version
    for candidate in "${JAVA_HOME:+$JAVA_HOME/bin/java}" /usr/lib/jvm/*25*/bin/java /usr/lib/jvm/*/bin/java \
            "$(command -v java || true)"; do
        [[ -n "$candidate" && -x "$candidate" ]] || continue
        version="$("$candidate" -version 2>&1 | awk -F'"' '/version/ { print $2; exit }')" || continue
        version="${version%%[!0-9]*}"
        if [[ -n "$version" ]] && (( version >= 25 )); then
            printf '%s' "$candidate"
            return 0
        fi
    done
    return 1
}

if ! JAVA="$(find_java)"; then
    echo "run-pool-benchmarks: needs a JDK 25 or newer; set JAVA_HOME" >&2
    exit 2
fi

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

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    echo "run-pool-benchmarks: building $JAR" >&2
    "$ROOT/offheap" build -pl offheap-bench -am
fi
if [[ ! -f "$JAR" ]]; then
    echo "run-pool-benchmarks: $JAR is missing; build it (./offheap build) or unset SKIP_BUILD" >&2
    exit 2
fi

mkdir -p "$RESULTS"
stamp="$(date -u +%Y-%m-%d-%H%M%S)"
json="$RESULTS/pool-$stamp$suffix.json"
log="$RESULTS/pool-$stamp$suffix.txt"

{
    echo "# offheap buffer pool benchmarks, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# commit: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)$(
        [[ -n "$(git -C "$ROOT" status --porcelain -- . ":(exclude)offheap-bench/results" 2>/dev/null)" ]] && echo ' (with uncommitted changes)')"
    echo "# machine: $(uname -srm), $(nproc) cpus, $(awk '/model name/ { sub(/.*: /, ""); print; exit }' \
        /proc/cpuinfo 2>/dev/null), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    echo "# java: $JAVA"
    "$JAVA" -version 2>&1 | sed 's/^/#   /'
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
