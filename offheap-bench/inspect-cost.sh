#!/usr/bin/env bash
# The cost of looking (issue 12): what `offheap inspect PID` costs the JVM it inspects. Run on demand, not a test.
#
#   offheap-bench/inspect-cost.sh [SAMPLES]
#
# Starts a target JVM (offheap-bench/scripts/InspectCostTarget.java, compiled for release 17: -Xms4g -Xmx4g, G1,
# 1 GiB of live arrays with every page touched, 4 threads that read a little of them every 20 ms, allocating
# nothing), with -Xlog:safepoint to a file, waits 5 s for it to settle, then:
#   1. reads its RSS (VmRSS) and threads (/proc/PID/status) before anything looked at it, and the CPU time its own
#      threads take at rest over 10 s (what the CPU time in 3. is to be compared with);
#   2. runs one `offheap inspect PID` (the first: it starts whatever inspect starts in the target), timed; reads
#      RSS and threads 2 s later;
#   3. runs `offheap inspect PID --watch 1 --json` until it has printed SAMPLES samples (default 100), then stops
#      it; reads RSS and threads 2 s later, and the target's CPU time (utime + stime) used meanwhile;
#   4. runs 10 more single `offheap inspect PID`, each a new CLI process, and prints min / median / max wall time,
#      then 10 more for the CLI's CPU time (user + sys, /usr/bin/time), which depends less on the machine's load;
#   5. prints the target's safepoints while 3. ran and while 2.-4. ran, from its log: count, p50 / p99 / max of
#      each pause's total time, and the VM operations that caused them.
# The target does nothing by itself, so every change is the inspection's.
#
# Environment:
#   OFFHEAP_CLI_DIR   a directory with offheap-cli.jar and lib/ (default offheap-cli/target, built when missing),
#                     e.g. one built from an older commit, to measure before and after a change
#   INSPECT_ARGS      extra arguments for every inspect, e.g. --jmx
#   TARGET_JAVA       the target's java (default: JAVA_HOME's), e.g. /usr/lib/jvm/java-17-openjdk-amd64/bin/java
#   TARGET_OPTS       extra target JVM options
# About 2.5 minutes with a fast inspect; with one that takes 2-7 s, SAMPLES of them take that long each.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SAMPLES="${1:-100}"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
TARGET_JAVA="${TARGET_JAVA:-$JAVA}"
CLI_DIR="${OFFHEAP_CLI_DIR:-$ROOT/offheap-cli/target}"
if [[ ! -f "$CLI_DIR/offheap-cli.jar" ]]; then
    (cd "$ROOT" && MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow ${MAVEN_OPTS:-}" \
        ./mvnw -B -q -pl offheap-cli -am package -DskipTests) >&2
fi
WORK="$(mktemp -d)"
trap 'kill "$TARGET" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
"$JAVA_HOME/bin/javac" --release 17 -d "$WORK" "$ROOT/offheap-bench/scripts/InspectCostTarget.java"

# shellcheck disable=SC2086 # INSPECT_ARGS and TARGET_OPTS are split into words on purpose
inspect() {
    "$JAVA" --enable-native-access=dev.offheap.core,dev.offheap.cli -p "$CLI_DIR/offheap-cli.jar:$CLI_DIR/lib" \
        -m dev.offheap.cli/dev.offheap.cli.OffheapCli inspect "$TARGET" ${INSPECT_ARGS:-} "$@"
}
now_ms() { date +%s%3N; }
status() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
mib() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }
# count, p50 / p99 / max (ms, nearest rank) of the safepoints logged between two wall-clock times (ms), and their
# operations
safepoints() {
    awk -v from="$1" -v to="$2" '
        /Safepoint "/ {
            t = $0; sub(/^\[/, "", t); sub(/ms\].*/, "", t)
            if (t + 0 < from || t + 0 > to) next
            op = $0; sub(/.*Safepoint "/, "", op); sub(/".*/, "", op)
            total = $0; sub(/.*Total: /, "", total); sub(/ ns.*/, "", total)
            printf "%.3f %s\n", total / 1e6, op
        }' "$WORK/safepoint.log" | sort -g > "$WORK/pauses"
    if [[ ! -s "$WORK/pauses" ]]; then
        echo "0 safepoints"
        return
    fi
    awk '
        function rank(p, n,   i) { i = int(p * n); if (i < p * n) i++; return i < 1 ? 1 : i }
        { v[NR] = $1; ops[$2]++ }
        END {
            printf "%d safepoints, pause p50 %.3f ms, p99 %.3f ms, max %.3f ms; operations:", NR, v[rank(0.5, NR)],
                v[rank(0.99, NR)], v[NR]
            for (o in ops) printf " %s x%d", o, ops[o]
            print ""
        }' "$WORK/pauses"
}

# shellcheck disable=SC2086
"$TARGET_JAVA" -Xms4g -Xmx4g -XX:+UseG1GC "-Xlog:safepoint=info:file=$WORK/safepoint.log:timemillis" \
    ${TARGET_OPTS:-} -cp "$WORK" InspectCostTarget > "$WORK/target.out" 2>&1 &
TARGET=$!
for _ in $(seq 1 300); do
    grep -q READY "$WORK/target.out" 2>/dev/null && break
    sleep 0.1
done
grep -q READY "$WORK/target.out" || { echo "the target did not start:" >&2; cat "$WORK/target.out" >&2; exit 1; }
sleep 5
echo "# $(date -u +%FT%TZ) commit $(git -C "$ROOT" rev-parse --short HEAD) cli $CLI_DIR ${INSPECT_ARGS:-}"
echo "# target: $("$TARGET_JAVA" -version 2>&1 | head -1), pid $TARGET, load $(cut -d' ' -f1-3 /proc/loadavg)"
rest0="$(cpu_ticks "$TARGET")"; sleep 10; rest1="$(cpu_ticks "$TARGET")"
rss0="$(status "$TARGET" VmRSS)"; threads0="$(status "$TARGET" Threads)"
printf '%-34s RSS %8s MiB, %3s threads; target CPU at rest %d ms per 10 s\n' "before" "$(mib "$rss0")" "$threads0" \
    $(( (rest1 - rest0) * 1000 / $(getconf CLK_TCK) ))

start_all="$(now_ms)"
t0="$(now_ms)"; inspect > "$WORK/first.txt" 2>&1 || { echo "inspect failed:" >&2; cat "$WORK/first.txt" >&2; exit 1; }
first_ms=$(( $(now_ms) - t0 ))
sleep 2
rss1="$(status "$TARGET" VmRSS)"; threads1="$(status "$TARGET" Threads)"
printf '%-34s RSS %8s MiB (%+.1f), %3s threads (%+d); took %d ms\n' "after one inspect" "$(mib "$rss1")" \
    "$(awk -v a="$rss1" -v b="$rss0" 'BEGIN { print (a - b) / 1024 }')" "$threads1" $((threads1 - threads0)) "$first_ms"

cpu0="$(cpu_ticks "$TARGET")"
start_watch="$(now_ms)"
inspect --watch 1 --json > "$WORK/watch.jsonl" 2> "$WORK/watch.err" &
WATCH=$!
while (( $(grep -c '^{' "$WORK/watch.jsonl" 2>/dev/null || true) < SAMPLES )); do
    kill -0 "$WATCH" 2>/dev/null || { echo "watch ended early:" >&2; cat "$WORK/watch.err" >&2; exit 1; }
    sleep 0.2
done
kill "$WATCH"; wait "$WATCH" 2>/dev/null || true
end_watch="$(now_ms)"
cpu1="$(cpu_ticks "$TARGET")"
sleep 2
rss2="$(status "$TARGET" VmRSS)"; threads2="$(status "$TARGET" Threads)"
printf '%-34s RSS %8s MiB (%+.1f), %3s threads (%+d); %d samples in %d s, target CPU %d ms\n' \
    "after $SAMPLES watch samples" "$(mib "$rss2")" "$(awk -v a="$rss2" -v b="$rss0" 'BEGIN { print (a - b) / 1024 }')" \
    "$threads2" $((threads2 - threads0)) "$SAMPLES" $(( (end_watch - start_watch) / 1000 )) \
    $(( (cpu1 - cpu0) * 1000 / $(getconf CLK_TCK) ))

for _ in $(seq 1 10); do
    t0="$(now_ms)"; inspect > /dev/null 2>&1; echo $(( $(now_ms) - t0 )) >> "$WORK/times"
done
# the CLI's own CPU time (user + sys), less sensitive than wall time to what else runs on the machine
for _ in $(seq 1 10); do
    # shellcheck disable=SC2086
    /usr/bin/time -o "$WORK/cpu" -f "%U %S" "$JAVA" --enable-native-access=dev.offheap.core,dev.offheap.cli \
        -p "$CLI_DIR/offheap-cli.jar:$CLI_DIR/lib" -m dev.offheap.cli/dev.offheap.cli.OffheapCli inspect "$TARGET" \
        ${INSPECT_ARGS:-} > /dev/null 2>&1 || true
    awk '{ printf "%d\n", ($1 + $2) * 1000 }' "$WORK/cpu" >> "$WORK/cpus"
done
end_all="$(now_ms)"
median10() { sort -n "$1" | awk '{ v[NR] = $1 } END { printf "%d / %d / %d", v[1], (v[5] + v[6]) / 2, v[NR] }'; }
printf '%-34s %s ms (first: %d ms); its CPU time %s ms\n' "one inspect, min/median/max of 10" \
    "$(median10 "$WORK/times")" "$first_ms" "$(median10 "$WORK/cpus")"
printf '%-34s %s\n' "safepoints during the watch" "$(safepoints "$start_watch" "$end_watch")"
printf '%-34s %s\n' "safepoints during all inspects" "$(safepoints "$start_all" "$end_all")"
printf '%-34s RSS %8s MiB (%+.1f), %3s threads (%+d)\n' "at the end" "$(mib "$(status "$TARGET" VmRSS)")" \
    "$(awk -v a="$(status "$TARGET" VmRSS)" -v b="$rss0" 'BEGIN { print (a - b) / 1024 }')" \
    "$(status "$TARGET" Threads)" $(( $(status "$TARGET" Threads) - threads0 ))
echo "raw: $WORK (safepoint.log, first.txt, watch.jsonl)"
