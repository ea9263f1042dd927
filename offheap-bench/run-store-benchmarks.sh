#!/usr/bin/env bash
# Builds offheap-bench and runs the store benchmark (StoreBenchmark: sequential sum and random gather over
# 256 MiB and 4 GiB of doubles, the store against double[], a flat MemorySegment and seed 003's two chunked
# designs), for the record. Run it on a quiet machine: nothing else busy, no power saving. It needs about
# 12 GiB of free memory (a 6 GiB heap per fork plus up to 4 GiB off-heap, and 4 GiB of spill file in
# java.io.tmpdir's file system) and takes about 15 minutes.
#
#   offheap-bench/run-store-benchmarks.sh [more JMH options...]
#
# Environment:
#   JMH_ARGS=...    run settings, replacing the default "-f 1 -wi 3 -w 2s -i 5 -r 2s" (or QUICK's)
#   QUICK=1         a smoke run, not a record: 256m only, one 1 s warmup and one 1 s iteration per
#                   combination; files are named store-<date>-quick.*. Proves that every layout runs and that
#                   its sums are right (each fork checks them in setup), measures nothing.
#   BENCHMARKS=...  JMH include regex; default the whole StoreBenchmark
#   SKIP_BUILD=1    use the offheap-bench/target/benchmarks.jar already built
#
# Writes offheap-bench/results/store-<date>.json (JMH's JSON) and store-<date>.txt next to it: the console
# output, after a header with the commit, machine and JDK. Options given to this script go to JMH after
# the defaults, e.g. "-p size=256m" to run one size only, or "-p spillDir=/some/disk" for the spill files.
# The forks' JVM flags (6 GiB heap, G1, native access, Unsafe allowed) are in ForkFlags.java; do not pass
# -jvmArgsAppend unless you repeat them, as it replaces them.
#
# Tables with ratios: python3 offheap-bench/summarize.py offheap-bench/results/store-<date>.json
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
    echo "run-store-benchmarks: needs a JDK 25 or newer; set JAVA_HOME" >&2
    exit 2
fi

if [[ "${QUICK:-0}" == 1 ]]; then
    default_args="-f 1 -wi 1 -w 1s -i 1 -r 1s -p size=256m"
    suffix="-quick"
else
    # One fork per combination: a 4 GiB setup (allocate, fill, check) takes seconds, and each fork runs one
    # layout only. An operation takes 10-600 ms, so 2 s iterations hold several.
    default_args="-f 1 -wi 3 -w 2s -i 5 -r 2s"
    suffix=""
fi
read -r -a jmh_args <<< "${JMH_ARGS:-$default_args}"
benchmarks="${BENCHMARKS:-dev\.offheap\.bench\.StoreBenchmark}"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    echo "run-store-benchmarks: building $JAR" >&2
    "$ROOT/offheap" build -pl offheap-bench -am
fi
if [[ ! -f "$JAR" ]]; then
    echo "run-store-benchmarks: $JAR is missing; build it (./offheap build) or unset SKIP_BUILD" >&2
    exit 2
fi

mkdir -p "$RESULTS"
stamp="$(date -u +%Y-%m-%d-%H%M%S)"
json="$RESULTS/store-$stamp$suffix.json"
log="$RESULTS/store-$stamp$suffix.txt"

{
    echo "# offheap store benchmarks, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# commit: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)$(
        [[ -n "$(git -C "$ROOT" status --porcelain -- . ":(exclude)offheap-bench/results" 2>/dev/null)" ]] && echo ' (with uncommitted changes)')"
    echo "# machine: $(uname -srm), $(nproc) cpus, $(awk '/model name/ { sub(/.*: /, ""); print; exit }' \
        /proc/cpuinfo 2>/dev/null), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    echo "# java: $JAVA"
    "$JAVA" -version 2>&1 | sed 's/^/#   /'
    echo "# memory: $(awk '/MemTotal|MemAvailable/ { printf "%s %.1f GiB ", $1, $2 / 1048576 }' /proc/meminfo 2>/dev/null)"
    echo "# jmh: $benchmarks ${jmh_args[*]} $*"
    echo
} | tee "$log"

# The JMH host JVM uses Unsafe itself (JMH 1.37); the flag only keeps JDK 24+'s warning out of the record.
# -foe false: a failing benchmark is reported and the others still run; the check below then fails the script.
"$JAVA" --sun-misc-unsafe-memory-access=allow -jar "$JAR" "$benchmarks" "${jmh_args[@]}" \
    -foe false -rf json -rff "$json" "$@" 2>&1 | tee -a "$log"

echo "run-store-benchmarks: results in $json, console output in $log" >&2
if grep -q '<failure>' "$log"; then
    echo "run-store-benchmarks: some benchmarks failed, see $log" >&2
    exit 1
fi
