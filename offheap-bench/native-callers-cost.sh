#!/usr/bin/env bash
# What `offheap inspect PID --native-callers SECONDS` costs the JVM it records (issue 28). Run on demand, not a test.
#
#   offheap-bench/native-callers-cost.sh [SECONDS [RATE]]
#
# Starts a target busy in malloc at a steady rate (offheap-bench/scripts/NativeCallersCostTarget.java: one thread
# creating and ending RATE Inflaters a second, default 50,000: about 100,000 mallocs and as many frees a second;
# a 256 MiB heap committed and touched at start, so that RSS moves only with native memory; G1, -Xlog:safepoint
# to a file), waits 5 s, then measures three windows:
# before any recording (SECONDS, default 10), while `offheap inspect --native-callers SECONDS` records (its middle
# SECONDS - 2: the attach and the agent's start and stop are left out), and after it (SECONDS; async-profiler
# stopped, its library still loaded). For each: the target's work done per second (its own counter), its CPU time
# (utime + stime of /proc/PID/stat) and RSS (VmRSS), and the safepoints in it. The machine's other load moves the
# rates by tens of percent: compare within one run, and run it twice.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_WINDOW="${1:-10}"
RATE="${2:-50000}"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
CLI_DIR="${OFFHEAP_CLI_DIR:-$ROOT/offheap-cli/target}"
if [[ ! -f "$CLI_DIR/offheap-cli.jar" ]]; then
    (cd "$ROOT" && MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow ${MAVEN_OPTS:-}" \
        ./mvnw -B -q -pl offheap-cli -am package -DskipTests) >&2
fi
WORK="$(mktemp -d)"
trap 'kill "$TARGET" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
"$JAVA_HOME/bin/javac" --release 17 -d "$WORK" "$ROOT/offheap-bench/scripts/NativeCallersCostTarget.java"

status() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%d\n", ($12 + $13) * 1000 / hz }' "/proc/$1/stat"; }
done_now() { tail -1 "$WORK/target.out" | awk '{ print $2 }'; }
now_ms() { date +%s%3N; }
safepoints() {
    awk -v from="$1" -v to="$2" '
        /Safepoint "/ {
            t = $0; sub(/^\[/, "", t); sub(/ms\].*/, "", t)
            if (t + 0 < from || t + 0 > to) next
            total = $0; sub(/.*Total: /, "", total); sub(/ ns.*/, "", total)
            n++; sum += total; if (total > max) max = total
        }
        END { printf "%d safepoints, max %.2f ms", n, max / 1e6 }' "$WORK/safepoint.log"
}
window() { # label, command to run during the window (or "sleep")
    local label="$1"; shift
    local d0 c0 t0 d1 c1 t1
    d0="$(done_now)"; c0="$(cpu_ms "$TARGET")"; t0="$(now_ms)"
    "$@"
    d1="$(done_now)"; c1="$(cpu_ms "$TARGET")"; t1="$(now_ms)"
    printf '%-28s %9.0f Inflaters/s  CPU %5d ms/s  RSS %7.1f MiB  %s\n' "$label" \
        "$(awk -v a="$d1" -v b="$d0" -v ms=$((t1 - t0)) 'BEGIN { print (a - b) * 1000 / ms }')" \
        $(( (c1 - c0) * 1000 / (t1 - t0) )) "$(awk -v kb="$(status "$TARGET" VmRSS)" 'BEGIN { print kb / 1024 }')" \
        "$(safepoints "$t0" "$t1")"
}
record() {
    "$JAVA" --enable-native-access=dev.offheap.core,dev.offheap.cli -p "$CLI_DIR/offheap-cli.jar:$CLI_DIR/lib" \
        -m dev.offheap.cli/dev.offheap.cli.OffheapCli inspect "$TARGET" --native-callers "$SECONDS_WINDOW" --json \
        > "$WORK/inspect.json" 2> "$WORK/inspect.err" || { cat "$WORK/inspect.err" >&2; exit 1; }
}

"$JAVA" -Xms256m -Xmx256m -XX:+AlwaysPreTouch -XX:+UseG1GC "-Xlog:safepoint=info:file=$WORK/safepoint.log:timemillis" -cp "$WORK" \
    NativeCallersCostTarget "$RATE" > "$WORK/target.out" 2>&1 &
TARGET=$!
for _ in $(seq 1 300); do grep -q READY "$WORK/target.out" 2>/dev/null && break; sleep 0.1; done
sleep 5
echo "# $(date -u +%FT%TZ) commit $(git -C "$ROOT" rev-parse --short HEAD), target pid $TARGET, load $(cut -d' ' -f1-3 /proc/loadavg)"
window "before" sleep "$SECONDS_WINDOW"
t_rec="$(now_ms)"; record & RECORD=$!
sleep 1   # the attach and the agent's start
window "while recording" sleep $((SECONDS_WINDOW - 2))
wait "$RECORD"
echo "# the inspect took $(( $(now_ms) - t_rec )) ms in all for a $SECONDS_WINDOW s window (reading the recording after it)"
window "after (profiler stopped)" sleep "$SECONDS_WINDOW"
python3 -c "
import json, sys
d = json.load(open('$WORK/inspect.json'))['nativeCallers']
print('# recorded: %.1f MiB allocated, %.1f MiB held, %d frees; top site: %s' % (d['allocated'] / 2**20,
      d['held'] / 2**20, d['frees'], (d['sites'][0]['caller'] + ' -> ' + d['sites'][0]['javaFrame']) if d['sites'] else '-'))"
