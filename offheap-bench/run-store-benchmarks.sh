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

SCRIPT=run-store-benchmarks
# shellcheck source=bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"

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

build_jar

mkdir -p "$RESULTS"
stamp="$(date -u +%Y-%m-%d-%H%M%S)"
json="$RESULTS/store-$stamp$suffix.json"
log="$RESULTS/store-$stamp$suffix.txt"

{
    print_header "offheap store benchmarks"
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
