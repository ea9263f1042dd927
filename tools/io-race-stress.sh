#!/usr/bin/env bash
# Release, trim and close racing file, socket and pipe I/O, at length: the buffer pool's IoRaceTest (7 modes) and
# the store's (4 layouts and mapped files), each mode in a child JVM, ROUNDS rounds per mode (default 250; the
# test suite runs 25). Prints each mode's counts; fails on a crash, a byte of an operation outside its own lease
# or array, or anything left charged, mapped or quarantined. About 3 minutes on 2 cores at 250 rounds.
#
#   tools/io-race-stress.sh [ROUNDS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-250}"
seed_option=()
if [[ -n "${2:-}" ]]; then
    seed_option=("-Dio.race.seed=$2")
fi
if [[ -z "${JAVA_HOME:-}" ]]; then
    for dir in /usr/lib/jvm/*25*; do
        if [[ -x "$dir/bin/java" ]]; then
            export JAVA_HOME="$dir"
            break
        fi
    done
fi
export MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow ${MAVEN_OPTS:-}"
log="$(mktemp)"
status=0
./mvnw -B -pl offheap-core test -Dtest='dev.offheap.buffer.IoRaceTest,dev.offheap.store.IoRaceTest' \
    -Dsurefire.failIfNoSpecifiedTests=false -Dio.race.rounds="$rounds" "${seed_option[@]}" >"$log" 2>&1 || status=$?
grep -E '^IoRaceTest |Tests run:|landed|AssertionError|hs_err' "$log" | grep -v 'Time elapsed' || true
if [[ $status -ne 0 ]]; then
    echo "io-race-stress: FAILED (full log: $log)" >&2
    exit "$status"
fi
rm -f "$log"
echo "io-race-stress: every mode passed $rounds rounds"
