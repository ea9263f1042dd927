# Shared by the run-*.sh scripts of offheap-bench; sourced, not run. The caller sets SCRIPT (its name, for
# messages) and has `set -euo pipefail`.

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
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
    echo "$SCRIPT: needs a JDK 25 or newer; set JAVA_HOME" >&2
    exit 2
fi

# Builds benchmarks.jar unless SKIP_BUILD=1, and fails clearly if it is missing.
build_jar() {
    if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
        echo "$SCRIPT: building $JAR" >&2
        "$ROOT/offheap" build -pl offheap-bench -am
    fi
    if [[ ! -f "$JAR" ]]; then
        echo "$SCRIPT: $JAR is missing; build it (./offheap build) or unset SKIP_BUILD" >&2
        exit 2
    fi
}

# Prints the header of a results file: title $1, then commit, machine and JDK.
print_header() {
    echo "# $1, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# commit: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)$(
        [[ -n "$(git -C "$ROOT" status --porcelain -- . ":(exclude)offheap-bench/results" 2>/dev/null)" ]] && echo ' (with uncommitted changes)')"
    echo "# machine: $(uname -srm), $(nproc) cpus, $(awk '/model name/ { sub(/.*: /, ""); print; exit }' \
        /proc/cpuinfo 2>/dev/null), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    echo "# java: $JAVA"
    "$JAVA" -version 2>&1 | sed 's/^/#   /'
}
