#!/usr/bin/env bash
# What the memory recorder (offheap-recorder, issue 29) costs the JVM it runs in. Run on demand, not a test.
#
#   offheap-bench/recorder-cost.sh [SECONDS [WORKERS]]      (PARTS=footprint: the footprint runs alone)
#
# A busy target (offheap-bench/scripts/RecorderCostTarget.java: WORKERS threads, default 2 on this 2-core machine,
# building and dropping small maps, so the machine is saturated and the GC busy; 200 idle threads; a 1 GiB heap
# committed and touched at start, -Xms1g -Xmx1g -XX:+AlwaysPreTouch, the largest pagemap the recorder reads; G1;
# NMT summary; -Xlog:safepoint to a file) runs SECONDS (default 60) four times, in turn: without the recorder, with
# it at 5 s (its default), at 1 s, and at 100 ms (its floor, which also fills a 720-sample history in 72 s). For
# each: the recorder thread's own CPU time (its task's schedstat, in ns; the kernel names it offheap-recorde) per sample and as a
# share of one core, the target's work per second, its RSS at the end, the safepoints over the run and NMT's
# committed total, Class and Thread at the end. The recorder's heap (its classes' instances) is read from
# GC.class_histogram at the end of the 100 ms run. Then the footprint on idle JVMs (offheap-bench/scripts/
# RecorderFootprintTarget.java): RSS and NMT 10 s after start with an empty Java agent and with the recorder, 3
# rounds each, on a JVM that did what services do at start (lambdas, streams, string concatenation) and on a bare
# one. The machine's other load moves the work rates by tens of percent: compare within one run.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_RUN="${1:-60}"
WORKERS="${2:-2}"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
JAR="$(ls "$ROOT"/offheap-recorder/target/offheap-recorder-*.jar 2>/dev/null | grep -v -e sources -e javadoc | head -1 || true)"
if [[ -z "$JAR" ]]; then
    (cd "$ROOT" && MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow ${MAVEN_OPTS:-}" \
        ./mvnw -B -q -pl offheap-recorder package -DskipTests) >&2
    JAR="$(ls "$ROOT"/offheap-recorder/target/offheap-recorder-*.jar | grep -v -e sources -e javadoc | head -1)"
fi
WORK="$(mktemp -d)"
TARGET=""
trap '[[ -n "$TARGET" ]] && kill "$TARGET" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
"$JAVA_HOME/bin/javac" --release 17 -d "$WORK" "$ROOT/offheap-bench/scripts/RecorderCostTarget.java" \
    "$ROOT/offheap-bench/scripts/RecorderFootprintTarget.java"
printf 'Premain-Class: EmptyAgent\n' > "$WORK/empty.mf"
mkdir -p "$WORK/empty"
printf 'public class EmptyAgent { public static void premain(String a) {} }\n' > "$WORK/empty/EmptyAgent.java"
"$JAVA_HOME/bin/javac" -d "$WORK/empty" "$WORK/empty/EmptyAgent.java"
"$JAVA_HOME/bin/jar" cfm "$WORK/empty.jar" "$WORK/empty.mf" -C "$WORK/empty" EmptyAgent.class

clk="$(getconf CLK_TCK)"
task_cpu_us() { # pid, thread name: CPU microseconds of that thread (schedstat, in ns), 0 if none
    local t
    for t in /proc/"$1"/task/*; do
        if [[ "$(cat "$t/comm" 2>/dev/null)" == "${2:0:15}" ]]; then # the kernel keeps 15 characters of a name
            awk '{ printf "%d\n", $1 / 1000 }' "$t/schedstat"
            return
        fi
    done
    echo 0
}
cpu_ms() { awk -v hz="$clk" '{ sub(/.*\) /, ""); printf "%d\n", ($12 + $13) * 1000 / hz }' "/proc/$1/stat"; }
done_now() { tail -1 "$WORK/target.out" | awk '{ print $2 + 0 }'; }
nmt() { "$JAVA_HOME/bin/jcmd" "$1" VM.native_memory summary scale=KB 2>/dev/null | awk '
    /^Total:/ { for (i = 1; i <= NF; i++) if ($i ~ /committed=/) { v = $i; sub(/.*=/, "", v); sub(/KB.*/, "", v); total = v } }
    /^-  *Class \(/ { v = $0; sub(/.*committed=/, "", v); sub(/KB.*/, "", v); cls = v }
    /^-  *Thread \(/ { v = $0; sub(/.*committed=/, "", v); sub(/KB.*/, "", v); thr = v }
    END { printf "NMT committed %.1f MiB (Class %.1f, Thread %.1f)", total / 1024, cls / 1024, thr / 1024 }'; }

run() { # label, agent options or "none"
    local label="$1" options="$2" agent=()
    [[ "$options" != none ]] && agent=("-javaagent:$JAR=$options")
    rm -f "$WORK/safepoint.log"
    "$JAVA" -Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:+UseG1GC -XX:NativeMemoryTracking=summary \
        -Xlog:safepoint:file="$WORK/safepoint.log" "${agent[@]}" -cp "$WORK" RecorderCostTarget "$WORKERS" 200 \
        > "$WORK/target.out" 2> "$WORK/target.err" &
    TARGET=$!
    until grep -q ready "$WORK/target.out" 2>/dev/null; do sleep 0.1; done
    sleep 2
    local c0 d0 r0 t0 c1 d1 r1 t1 rss sp
    c0="$(cpu_ms "$TARGET")"; d0="$(done_now)"; r0="$(task_cpu_us "$TARGET" offheap-recorder)"; t0="$(date +%s%3N)"
    sleep "$SECONDS_RUN"
    c1="$(cpu_ms "$TARGET")"; d1="$(done_now)"; r1="$(task_cpu_us "$TARGET" offheap-recorder)"; t1="$(date +%s%3N)"
    rss="$(awk '$1 == "VmRSS:" { printf "%.1f", $2 / 1024 }' "/proc/$TARGET/status")"
    sp="$(grep -c 'Safepoint "' "$WORK/safepoint.log" || true)"
    local ms=$((t1 - t0)) interval_ms
    case "$options" in
        none) interval_ms=0 ;;
        *interval=100ms*) interval_ms=100 ;;
        *interval=1s*) interval_ms=1000 ;;
        *) interval_ms=5000 ;;
    esac
    local per_sample="-" share="-"
    if (( interval_ms > 0 )); then
        per_sample="$(awk -v c=$((r1 - r0)) -v ms=$ms -v i=$interval_ms 'BEGIN { printf "%.0f us", c / (ms / i) }')"
        share="$(awk -v c=$((r1 - r0)) -v ms=$ms 'BEGIN { printf "%.4f %%", c / 10 / ms }')"
    fi
    printf '%-22s recorder CPU %8.1f ms (%s per sample, %s of a core)  target CPU %5d ms/s  work %8.0f/s  RSS %7s MiB  %4d safepoints  %s\n' \
        "$label" "$(awk -v c=$((r1 - r0)) 'BEGIN { print c / 1000 }')" "$per_sample" "$share" $(( (c1 - c0) * 1000 / ms )) \
        "$(awk -v a="$d1" -v b="$d0" -v ms=$ms 'BEGIN { print (a - b) * 1000 / ms }')" "$rss" "$sp" "$(nmt "$TARGET")"
    if [[ "$options" == *interval=100ms* ]]; then
        "$JAVA_HOME/bin/jcmd" "$TARGET" GC.class_histogram 2>/dev/null | awk '
            /dev\.offheap\.recorder/ { n += $2; b += $3; printf "    %-50s %6d instances %8d bytes\n", $4, $2, $3 }
            END { printf "    the recorder'"'"'s objects: %d bytes (Instants and the JDK'"'"'s own objects not counted)\n", b }'
    fi
    kill "$TARGET"; wait "$TARGET" 2>/dev/null || true; TARGET=""
}

footprint() { # target kind (typical or bare): RSS and NMT committed 10 s after start, empty agent vs recorder, 3 rounds
    local kind="$1" round a p
    for round in 1 2 3; do
        for a in empty recorder; do
            local agent="-javaagent:$WORK/empty.jar"
            [[ "$a" == recorder ]] && agent="-javaagent:$JAR=dir=$WORK/fp,signal=none"
            rm -f "$WORK/fp-safepoint.log"
            "$JAVA" -Xms256m -Xmx256m -XX:+AlwaysPreTouch -XX:NativeMemoryTracking=summary "$agent" \
                -Xlog:safepoint:file="$WORK/fp-safepoint.log" -cp "$WORK" RecorderFootprintTarget "$kind" > "$WORK/fp.out" 2>&1 &
            p=$!
            sleep 10
            printf '%-8s round %d %-9s RSS %8.1f MiB  %s  %d safepoints\n' "$kind" "$round" "$a" \
                "$(awk '$1 == "VmRSS:" { print $2 / 1024 }' "/proc/$p/status")" "$(nmt "$p")" \
                "$(grep -c 'Safepoint "' "$WORK/fp-safepoint.log" || true)"
            kill "$p"; wait "$p" 2>/dev/null || true
        done
    done
}

if [[ "${PARTS:-all}" == all ]]; then
echo "recorder cost: $SECONDS_RUN s per run, $WORKERS busy workers + 200 idle threads, 1 GiB heap touched; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
run "no recorder" none
run "recorder, 5 s" "dir=$WORK/r5,signal=none"
run "recorder, 1 s" "dir=$WORK/r1,interval=1s,signal=none"
run "recorder, 100 ms" "dir=$WORK/r01,interval=100ms,signal=none"
fi
echo "footprint: an idle JVM 10 s after start (256 MiB heap touched), with an empty Java agent (what any agent costs) and with the recorder at 5 s"
footprint typical
footprint bare
