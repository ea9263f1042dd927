#!/usr/bin/env bash
# The accuracy harness of `offheap inspect` (issue 12): starts third-party workloads, and for each takes the
# ground truth, runs `./offheap inspect PID --json`, takes the truth again, and compares them category by
# category. See inspect-accuracy/README.md and docs/inspect-accuracy.md.
#
#   inspect-accuracy/run.sh [--jdk 17|25|both] [--nmt on|off|both] [--out DIR] [WORKLOAD...]
#
# WORKLOAD: netty lucene h2 inflater inflater-jemalloc zstd duckdb rocksdb threads (default: all of them).
# --jdk: 17 is Debian's openjdk-17-jdk-headless (/usr/lib/jvm/java-17-openjdk-amd64), 25 the JDK the project
#        uses ($JAVA_HOME when it is a 25, else one under /usr/lib/jvm). Default both.
# --nmt: on runs the target with -XX:NativeMemoryTracking=detail, off without NMT. Default both.
# --out: where results go (default inspect-accuracy/results/DATE, DATE-2... if taken).
# --offheap DIR: measure the inspect of another checkout (its ./offheap; default this repository), e.g. an
#           export of another commit: git archive COMMIT | tar -x -C DIR; echo COMMIT > DIR/.commit
# --strict: exit with 1 when any target misses a goal (a category off by more than 5 % and 2 MiB, or too much
#           unexplained), or could not be measured.
#
# Writes, per target, OUT/WORKLOAD-jdkN-nmtMODE/{result.md,result.json,inspect.json,target.log,pagesize.log,
# command.txt} and OUT/summary.md (paste into docs/inspect-accuracy.md). Needs to read the target's
# /proc/PID/pagemap and /proc/PID/mem (the same user, or root; under Yama ptrace_scope 1 only root).
# Installs libjemalloc2 (and openjdk-17-jdk-headless) with apt-get when missing (root or sudo).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
ALL_WORKLOADS=(netty lucene h2 inflater inflater-jemalloc zstd duckdb rocksdb threads)
JEMALLOC=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
JDK17=/usr/lib/jvm/java-17-openjdk-amd64
READY_TIMEOUT=${READY_TIMEOUT:-300}

jdks=(17 25)
nmts=(off on)
out=""
strict=""
offheap_dir="$ROOT"
workloads=()
while (( $# > 0 )); do
    case "$1" in
        --jdk)
            case "${2:-}" in 17|25) jdks=("$2") ;; both) jdks=(17 25) ;; *) echo "run.sh: --jdk 17|25|both" >&2; exit 2 ;; esac
            shift 2 ;;
        --nmt)
            case "${2:-}" in on|off) nmts=("$2") ;; both) nmts=(off on) ;; *) echo "run.sh: --nmt on|off|both" >&2; exit 2 ;; esac
            shift 2 ;;
        --out)
            out="$2"; shift 2 ;;
        --strict)
            strict=yes; shift ;;
        --offheap)
            offheap_dir="$(cd "$2" && pwd)"; shift 2 ;;
        -h|--help)
            sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*)
            echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *)
            case " ${ALL_WORKLOADS[*]} " in
                *" $1 "*) workloads+=("$1") ;;
                *) echo "run.sh: unknown workload $1 (one of: ${ALL_WORKLOADS[*]})" >&2; exit 2 ;;
            esac
            shift ;;
    esac
done
(( ${#workloads[@]} > 0 )) || workloads=("${ALL_WORKLOADS[@]}")

java_major() {
    "$1/bin/java" -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print v[1]; exit }'
}

find_jdk25() {
    local dir
    if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/jcmd" && "$(java_major "$JAVA_HOME")" == 25 ]]; then
        printf '%s' "$JAVA_HOME"; return 0
    fi
    for dir in /usr/lib/jvm/*25*; do
        if [[ -x "$dir/bin/jcmd" && "$(java_major "$dir")" == 25 ]]; then
            printf '%s' "$dir"; return 0
        fi
    done
    return 1
}

as_root() {
    if (( $(id -u) == 0 )); then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi
}

apt_install() {
    echo "run.sh: installing $*..." >&2
    { as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "$@"; } >&2
}

JDK25="$(find_jdk25)" || { echo "run.sh: no JDK 25 found (set JAVA_HOME)" >&2; exit 2; }
export JAVA_HOME="$JDK25"
export MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow ${MAVEN_OPTS:-}"
if [[ " ${jdks[*]} " == *" 17 "* && ! -x "$JDK17/bin/jcmd" ]]; then
    apt_install openjdk-17-jdk-headless || { echo "run.sh: needs $JDK17 (openjdk-17-jdk-headless)" >&2; exit 2; }
fi
if [[ " ${workloads[*]} " == *" inflater-jemalloc "* && ! -f "$JEMALLOC" ]]; then
    apt_install libjemalloc2 || { echo "run.sh: needs $JEMALLOC (libjemalloc2)" >&2; exit 2; }
fi

# the harness and its workloads, rebuilt when a source or the pom is newer than the jar
JAR="$HERE/target/inspect-accuracy.jar"
if [[ ! -f "$JAR" || -n "$(find "$HERE/src" "$HERE/pom.xml" -newer "$JAR" -print -quit)" ]]; then
    echo "run.sh: building inspect-accuracy..." >&2
    "$ROOT/mvnw" -f "$HERE/pom.xml" -B -q package >&2
fi
# the CLI, built by ./offheap on first use
OFFHEAP="$offheap_dir/offheap"
"$OFFHEAP" inspect --help >/dev/null
if git -C "$offheap_dir" rev-parse --short HEAD >/dev/null 2>&1; then
    # the commit that last changed what inspect is built from, and where the checkout stands
    inspect_commit="$(git -C "$offheap_dir" log -1 --format=%h -- offheap-cli offheap-core pom.xml offheap)"
    inspect_commit+="$(git -C "$offheap_dir" diff --quiet HEAD -- offheap-cli offheap-core || echo ' with local changes')"
    inspect_commit+=" (checkout at $(git -C "$offheap_dir" rev-parse --short HEAD) on $(git -C "$offheap_dir" rev-parse --abbrev-ref HEAD)"
    if base="$(git -C "$offheap_dir" merge-base HEAD main 2>/dev/null)"; then
        inspect_commit+=", main's $(git -C "$offheap_dir" rev-parse --short "$base") merged in"
    fi
    inspect_commit+=")"
else
    inspect_commit="$(cat "$offheap_dir/.commit" 2>/dev/null || echo unknown) (exported to $offheap_dir)"
fi

if [[ -z "$out" ]]; then
    out="$HERE/results/$(date +%Y-%m-%d)"
    n=2
    base="$out"
    while [[ -e "$out" ]]; do out="$base-$n"; n=$((n + 1)); done
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# the workloads' files (Lucene's index, H2's database): one place, emptied by each workload as it starts
WORK="${TMPDIR:-/tmp}/inspect-accuracy-work"
mkdir -p "$WORK"
trap 'stop_target; rm -rf "$WORK"' EXIT
{
    echo "date: $(date -Iseconds)"
    echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), kernel $(uname -r), $(ldd --version | head -1)"
    echo "inspect: $inspect_commit"
    echo "JDK 17: $("$JDK17/bin/java" -version 2>&1 | head -1)"
    echo "JDK 25: $("$JDK25/bin/java" -version 2>&1 | head -1)"
    if [[ -f "$JEMALLOC" ]]; then
        echo "jemalloc: $(dpkg-query -W -f '${Package} ${Version}' libjemalloc2 2>/dev/null || echo "$JEMALLOC")"
    fi
} > "$out/machine.txt"

TARGET_PID=""
stop_target() {
    if [[ -n "$TARGET_PID" ]] && kill -0 "$TARGET_PID" 2>/dev/null; then
        kill "$TARGET_PID" 2>/dev/null || true
        wait "$TARGET_PID" 2>/dev/null || true
    fi
    TARGET_PID=""
}

# Sets TARGET (the command as an array), TARGET_ENV (env assignments) for workload $1 on JDK home $2.
describe() {
    local workload="$1" jdk="$2" major="$3" dir="$4"
    local cp="$HERE/target/inspect-accuracy.jar:$HERE/target/lib/*"
    local pkg=dev.offheap.accuracy.workload
    TARGET_ENV=()
    TARGET=("$jdk/bin/java" -XX:+UseG1GC "-Xlog:pagesize:file=$dir/pagesize.log")
    case "$workload" in
        netty)
            TARGET+=(-Xmx256m -cp "$cp" "$pkg.NettyHttp" clients=64 body=1048576 pauseMillis=10 warmupSeconds=20) ;;
        lucene)
            # Lucene 10 needs JDK 21+: JDK 17 runs Lucene 9.12
            local lucene="$HERE/target/lib-lucene10/*"
            (( major < 21 )) && lucene="$HERE/target/lib-lucene9/*"
            TARGET+=(-Xmx512m -cp "$cp:$lucene" "$pkg.LuceneMmap" "dir=$WORK/lucene" docs=300000 queries=20000) ;;
        h2)
            TARGET+=(-Xmx1g -cp "$cp" "$pkg.H2Cache" "dir=$WORK/h2" rows=300000 cacheKb=524288) ;;
        inflater)
            TARGET+=(-Xmx256m -cp "$cp" "$pkg.InflaterLeak" threads=8 keep=120 make=240) ;;
        inflater-jemalloc)
            TARGET_ENV=("LD_PRELOAD=$JEMALLOC")
            # the FFM call to jemalloc's mallctl (its own statistics, JDK 22+) is a restricted method
            (( major >= 22 )) && TARGET+=(--enable-native-access=ALL-UNNAMED)
            TARGET+=(-Xmx256m -cp "$cp" "$pkg.InflaterLeak" threads=8 keep=120 make=240) ;;
        zstd)
            TARGET+=(-Xmx256m -cp "$cp" "$pkg.ZstdNative" contexts=8 input=8388608 levels=3,9,12,15,19) ;;
        duckdb)
            # DuckDB's JNI library links its own jemalloc: neither NMT nor glibc sees the table's memory
            (( major >= 22 )) && TARGET+=(--enable-native-access=ALL-UNNAMED)
            TARGET+=(-Xmx256m -cp "$cp" "$pkg.DuckDbTable" rows=20000000) ;;
        rocksdb)
            # RocksDB's block cache (256 MiB, filled) in glibc's malloc
            (( major >= 22 )) && TARGET+=(--enable-native-access=ALL-UNNAMED)
            TARGET+=(-Xmx256m -cp "$cp" "$pkg.RocksDbCache" cacheMb=256 rows=300000) ;;
        threads)
            # 2,000 platform threads 200 frames deep, and 100,000 parked virtual threads on JDK 21+
            TARGET+=(-Xmx1g -cp "$cp" "$pkg.ManyThreads" platform=2000 depth=200 virtual=100000) ;;
    esac
}

# Prints the arguments as one shell command line: single quotes around those that need them.
quote() {
    local arg line=""
    for arg in "$@"; do
        if [[ "$arg" =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then
            line+="$arg "
        else
            line+="'${arg//\'/\'\\\'\'}' "
        fi
    done
    printf '%s\n' "${line% }"
}

started=$(date +%s)
for jdk_version in "${jdks[@]}"; do
    if [[ "$jdk_version" == 17 ]]; then jdk="$JDK17"; else jdk="$JDK25"; fi
    major="$(java_major "$jdk")"
    for nmt in "${nmts[@]}"; do
        for workload in "${workloads[@]}"; do
            name="$workload-jdk$jdk_version-nmt$nmt"
            dir="$out/$name"
            mkdir -p "$dir"
            describe "$workload" "$jdk" "$major" "$dir"
            [[ "$nmt" == on ]] && TARGET=("${TARGET[0]}" -XX:NativeMemoryTracking=detail "${TARGET[@]:1}")
            # the command as a shell would take it, paths relative to the repository's root
            quote "${TARGET_ENV[@]}" "${TARGET[@]}" | sed -e "s|$ROOT/||g" > "$dir/command.txt"
            echo "run.sh: $name: starting" >&2
            t0=$(date +%s)
            env "${TARGET_ENV[@]}" "${TARGET[@]}" > "$dir/target.log" 2>&1 &
            TARGET_PID=$!
            ready=""
            for ((i = 0; i < READY_TIMEOUT * 2; i++)); do
                if grep -q '^READY' "$dir/target.log" 2>/dev/null; then ready=yes; break; fi
                kill -0 "$TARGET_PID" 2>/dev/null || break
                sleep 0.5
            done
            if [[ -z "$ready" ]]; then
                echo "run.sh: $name: no READY (see $dir/target.log)" >&2
                printf '### %s\n\nThe target never printed READY: see target.log.\n\n' "$name" > "$dir/result.md"
                stop_target
                continue
            fi
            echo "run.sh: $name: ready after $(( $(date +%s) - t0 )) s (pid $TARGET_PID), measuring" >&2
            "$JDK25/bin/java" -cp "$HERE/target/inspect-accuracy.jar" dev.offheap.accuracy.truth.Compare \
                --pid "$TARGET_PID" --jdk "$jdk" --name "$workload" --nmt "$nmt" --out "$dir" \
                --pagesize-log "$dir/pagesize.log" --command-file "$dir/command.txt" -- "$OFFHEAP" inspect \
                > "$dir/compare.log" 2>&1 && rm -f "$dir/compare.log" \
                || echo "run.sh: $name: the comparison failed (see $dir/compare.log)" >&2
            stop_target
            echo "run.sh: $name: done in $(( $(date +%s) - t0 )) s" >&2
        done
    done
done
"$JDK25/bin/java" -cp "$HERE/target/inspect-accuracy.jar" dev.offheap.accuracy.truth.Summary "$out" \
    --seconds "$(( $(date +%s) - started ))" ${strict:+--strict}
echo "run.sh: results in $out (summary.md)" >&2
