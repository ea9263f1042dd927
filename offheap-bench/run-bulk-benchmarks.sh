#!/usr/bin/env bash
# Builds offheap-bench and measures the store's whole-array operations on arrays larger than the caches
# against this machine's memory bandwidth, NumPy and Arrays.parallelSort, all in one run (issue 30):
#
#   1. STREAM C (stream/stream.c: copy, scale, add, triad over three arrays of 2^25 doubles, 256 MiB each;
#      gcc -O3 -march=native -fopenmp; the arrays ask for transparent huge pages, as the store's chunks and
#      NumPy's arrays do), with one OpenMP thread per core and with one thread;
#   2. NumPy (stream/numpy_bulk.py) on the same arrays: copy, scale, add, triad and a*x + b*y (idiomatic and
#      with out= arguments), sum, dot, max, fill, cumsum, and np.sort of 2^22 random int64;
#   3. JMH's WholeArrayBenchmark: the same operations on the store's DoubleArray (Workers.allCores() and
#      callerOnly()), hand-written flat-segment loops, and the sort of 2^22 random longs against
#      Arrays.parallelSort / Arrays.sort;
#   4. STREAM C again (the table takes each kernel's best of both STREAM runs: the hardest reference);
#   5. with BIG=1, JMH's BeyondIntBenchmark in a JMH run of its own (one operation per iteration): sum of an
#      IntArray of 2^31 + 2^20 elements, copy of a ByteArray of 2^31 + 2^20 bytes, sort of 2^31 + 2^20 random
#      ints;
#   6. with SPILL=1, BulkSpill: DoubleArray.sum() over a spilled array read from the disk after drop_caches,
#      against dd's sequential read of a file of the same size after drop_caches, on the same file system.
#
# Run it on a quiet machine: nothing else busy (other processes' memory traffic lands in every figure). The
# default run takes about 9 minutes and needs 2 GiB of free memory; BIG=1 adds 5 to 10 minutes (most of it
# four sorts of 8 GiB, 50-120 s each on two busy cores) and needs 9 GiB free (one 8 GiB array per fork); SPILL=1 adds about a minute per GiB of
# SPILL_SIZE, needs root (to drop the page cache) and twice SPILL_SIZE free on SPILL_DIR's file system.
#
#   offheap-bench/run-bulk-benchmarks.sh [more JMH options...]
#
# Environment:
#   QUICK=1         a smoke run, not a record (about 4 minutes, 7 with BIG=1 SPILL=1): STREAM and NumPy best of 3, JMH
#                   one 1 s warmup and one 1 s iteration per benchmark (BIG: one warmup and one measured
#                   operation); files are named bulk-<date>-quick*
#   JMH_ARGS=...    JMH run settings, replacing the default "-f 1 -wi 2 -w 2s -i 4 -r 2s" (or QUICK's)
#   TRIALS=N        STREAM and NumPy trials, best of N (default 20 for STREAM, 10 for NumPy; QUICK 3)
#   BIG=1           also BeyondIntBenchmark (arrays beyond 2^31 elements), in a JMH run of its own with
#                   BIG_JMH_ARGS (default "-f 1 -wi 1 -i 3": single operations, so no -w/-r)
#   SPILL=1         also the spilled array against the disk; SPILL_SIZE (default 2g), SPILL_DIR (default
#                   /var/tmp/offheap-bulkspill: must be on the disk, not tmpfs), SPILL_ROUNDS (default 3)
#   BENCHMARKS=...  JMH include regex of the main JMH run, replacing WholeArrayBenchmark
#   THREADS=N       STREAM's OpenMP threads for the "all" run (default nproc)
#   STREAM_HUGE=0   STREAM's arrays without madvise(MADV_HUGEPAGE) (default 1: with, like the store's and NumPy's)
#   CC, PYTHON      the C compiler (default gcc) and Python with NumPy (default python3)
#   SKIP_BUILD=1    use the offheap-bench/target/benchmarks.jar already built
#   IGNORE_JMH_LOCK=1  run even while another JMH run holds /tmp/jmh.lock (by default the script waits for it
#                   and holds it for the whole run, STREAM and NumPy included)
#
# Writes offheap-bench/results/bulk-<date>.txt (a header with the commit, machine, JDK, compiler and NumPy,
# then everything STREAM, NumPy, JMH, BulkSpill and dd printed, then the tables), bulk-<date>.json (JMH's
# JSON) and, with BIG=1, bulk-<date>-big.json. Options given to this script go to both JMH runs after the
# defaults, e.g. "-p size=2g" for 2 GiB arrays (then set STREAM_ELEMENTS too, in doubles, e.g. 268435456, or
# STREAM and NumPy stay at 256 MiB).
#
# Tables again from the files: python3 offheap-bench/stream/bulk_table.py offheap-bench/results/bulk-<date>.txt
set -euo pipefail

SCRIPT=run-bulk-benchmarks
# shellcheck source=bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"

CC="${CC:-gcc}"
PYTHON="${PYTHON:-python3}"
THREADS="${THREADS:-$(nproc)}"
ELEMENTS="${STREAM_ELEMENTS:-33554432}"  # 2^25 doubles: 256 MiB per array, as WholeArrayBenchmark's default size

if [[ "${QUICK:-0}" == 1 ]]; then
    default_args="-f 1 -wi 1 -w 1s -i 1 -r 1s"
    default_big_args="-f 1 -wi 1 -i 1"
    stream_trials="${TRIALS:-3}"
    numpy_trials="${TRIALS:-3}"
    suffix="-quick"
else
    # An operation takes 15-150 ms (sort 100-600 ms), so 2 s iterations hold several; each benchmark and
    # workers value runs in a fork of its own.
    default_args="-f 1 -wi 2 -w 2s -i 4 -r 2s"
    default_big_args="-f 1 -wi 1 -i 3"
    stream_trials="${TRIALS:-20}"
    numpy_trials="${TRIALS:-10}"
    suffix=""
fi
read -r -a jmh_args <<< "${JMH_ARGS:-$default_args}"
read -r -a big_jmh_args <<< "${BIG_JMH_ARGS:-$default_big_args}"
benchmarks="${BENCHMARKS:-dev\.offheap\.bench\.WholeArrayBenchmark\.}"

# The whole run holds JMH's lock (/tmp/jmh.lock, a POSIX record lock, as JMH takes it), so that no other JMH
# run on this machine overlaps STREAM, NumPy or JMH here, and waits for it while another run holds it: this
# script re-executes itself from a Python process that took the lock (the lock stays with the process
# through exec), and its JMH then skips the lock (-Djmh.ignoreLock=true). IGNORE_JMH_LOCK=1 skips all that.
jmh_lock="${TMPDIR:-/tmp}/jmh.lock"
if [[ "${IGNORE_JMH_LOCK:-0}" != 1 && -z "${BULK_HOLDS_JMH_LOCK:-}" ]]; then
    export BULK_HOLDS_JMH_LOCK=1
    exec "$PYTHON" -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o666)
try:
    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
except OSError:
    print(f"run-bulk-benchmarks: another JMH run holds {sys.argv[1]}; waiting for it to end", file=sys.stderr)
    fcntl.lockf(fd, fcntl.LOCK_EX)
os.set_inheritable(fd, True)
os.execvp("bash", ["bash"] + sys.argv[2:])
' "$jmh_lock" "$0" "$@"
fi

for tool in "$CC" "$PYTHON"; do
    command -v "$tool" >/dev/null || { echo "$SCRIPT: needs $tool" >&2; exit 2; }
done
"$PYTHON" -c 'import numpy' 2>/dev/null || { echo "$SCRIPT: $PYTHON has no numpy" >&2; exit 2; }

build_jar

# The STREAM binary is a build output: target/, not the sources.
stream_bin="$BENCH_DIR/target/stream/stream"
mkdir -p "$(dirname "$stream_bin")"
"$CC" -O3 -march=native -fopenmp -o "$stream_bin" "$BENCH_DIR/stream/stream.c" -lm

mkdir -p "$RESULTS"
stamp="$(date -u +%Y-%m-%d-%H%M%S)"
json="$RESULTS/bulk-$stamp$suffix.json"
big_json="$RESULTS/bulk-$stamp$suffix-big.json"
big_files=()
[[ "${BIG:-0}" == 1 ]] && big_files=("$big_json")
log="$RESULTS/bulk-$stamp$suffix.txt"

{
    print_header "offheap whole-array operations against STREAM, NumPy and Arrays.parallelSort (issue 30)"
    echo "# memory: $(awk '/MemTotal|MemAvailable/ { printf "%s %.1f GiB ", $1, $2 / 1048576 }' /proc/meminfo 2>/dev/null)"
    echo "# transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
    echo "# cc: $("$CC" --version | head -1), -O3 -march=native -fopenmp; STREAM $ELEMENTS doubles per array," \
        "best of $((stream_trials - 1)) after one warm-up, $THREADS and 1 threads"
    echo "# python: $("$PYTHON" -c 'import sys, numpy; print(sys.version.split()[0], "numpy", numpy.__version__)')"
    echo "# jmh: $benchmarks ${jmh_args[*]} $*"
    [[ "${BIG:-0}" == 1 ]] && echo "# jmh (BIG=1): dev\.offheap\.bench\.BeyondIntBenchmark\. ${big_jmh_args[*]} $*"
    [[ "${SPILL:-0}" == 1 ]] && echo "# spill: ${SPILL_SIZE:-2g} in ${SPILL_DIR:-/var/tmp/offheap-bulkspill}, ${SPILL_ROUNDS:-3} rounds"
    echo
} | tee "$log"

run_stream() {
    echo "## STREAM C, $1 ($2 threads)"
    OMP_NUM_THREADS="$2" OMP_PROC_BIND=spread "$stream_bin" "$ELEMENTS" "$stream_trials" "${STREAM_HUGE:-1}"
    echo
}

{
    run_stream "before JMH" "$THREADS"
    run_stream "before JMH" 1
    echo "## NumPy"
    "$PYTHON" "$BENCH_DIR/stream/numpy_bulk.py" --elements "$ELEMENTS" --trials "$numpy_trials"
    echo
    echo "## JMH"
} 2>&1 | tee -a "$log"

# The JMH host JVM uses Unsafe itself (JMH 1.37); the flag only keeps JDK 24+'s warning out of the record.
# -foe false: a failing benchmark is reported and the others still run; the check at the end fails the script.
"$JAVA" --sun-misc-unsafe-memory-access=allow -Djmh.ignoreLock=true -jar "$JAR" "$benchmarks" "${jmh_args[@]}" \
    -foe false -rf json -rff "$json" "$@" 2>&1 | tee -a "$log"

if [[ "${BIG:-0}" == 1 ]]; then
    echo "## JMH, beyond 2^31 elements (BIG=1)" | tee -a "$log"
    "$JAVA" --sun-misc-unsafe-memory-access=allow -Djmh.ignoreLock=true -jar "$JAR" \
        'dev\.offheap\.bench\.BeyondIntBenchmark\.' "${big_jmh_args[@]}" -foe false -rf json -rff "$big_json" "$@" \
        2>&1 | tee -a "$log"
fi

{
    echo
    run_stream "after JMH" "$THREADS"
    run_stream "after JMH" 1
} 2>&1 | tee -a "$log"

# The disk's sequential read: a file of SPILL_SIZE written with dd and fsynced, then read with dd after
# dropping the page cache, one line per round.
dd_rounds() {
    local file="$1" bytes="$2" rounds="$3" round t0 t1
    for ((round = 1; round <= rounds; round++)); do
        sync
        echo 1 > /proc/sys/vm/drop_caches
        t0="$(date +%s.%N)"
        dd if="$file" of=/dev/null bs=1M status=none
        t1="$(date +%s.%N)"
        awk -v r="$round" -v b="$bytes" -v t0="$t0" -v t1="$t1" \
            'BEGIN { printf "disk op=dd-read round=%d bytes=%.0f seconds=%.4f gbs=%.3f\n", r, b, t1 - t0, b / (t1 - t0) / 1e9 }'
    done
}

if [[ "${SPILL:-0}" == 1 ]]; then
    spill_dir="${SPILL_DIR:-/var/tmp/offheap-bulkspill}"
    spill_size="${SPILL_SIZE:-2g}"
    spill_rounds="${SPILL_ROUNDS:-3}"
    if [[ ! -w /proc/sys/vm/drop_caches ]]; then
        echo "$SCRIPT: SPILL=1 needs root (to write /proc/sys/vm/drop_caches)" >&2
        exit 2
    fi
    mkdir -p "$spill_dir"
    case "$(stat -f -c %T "$spill_dir")" in
        tmpfs|ramfs) echo "$SCRIPT: SPILL_DIR $spill_dir is in memory ($(stat -f -c %T "$spill_dir")): give a disk" >&2; exit 2 ;;
    esac
    mib=$(( $("$PYTHON" -c "import sys; s=sys.argv[1]; u={'k':1<<10,'m':1<<20,'g':1<<30}; print(int(s[:-1])*u[s[-1]] if s[-1] in u else int(s))" "$spill_size") >> 20 ))
    dd_file="$spill_dir/dd-read-$$.dat"
    trap 'rm -f "$dd_file"' EXIT
    {
        echo "## Spilled array against dd ($spill_size in $spill_dir, $(stat -f -c %T "$spill_dir"), $(df -P "$spill_dir" | awk 'NR == 2 { print $1 }'))"
        dd if=/dev/zero of="$dd_file" bs=1M count="$mib" conv=fsync status=none
        dd_rounds "$dd_file" $((mib << 20)) "$spill_rounds"
        "$JAVA" -Xmx1g --enable-native-access=ALL-UNNAMED -cp "$JAR" dev.offheap.bench.BulkSpill \
            --size "$spill_size" --dir "$spill_dir" --rounds "$spill_rounds"
        dd_rounds "$dd_file" $((mib << 20)) "$spill_rounds"
        rm -f "$dd_file"
        echo
    } 2>&1 | tee -a "$log"
fi

{
    echo "## Tables (stream/bulk_table.py)"
    echo
    "$PYTHON" "$BENCH_DIR/stream/bulk_table.py" "$log" "$json" "${big_files[@]}"
} 2>&1 | tee -a "$log"

echo "$SCRIPT: results in $json${big_files[*]:+ and ${big_files[*]}}, console output and tables in $log" >&2
if grep -q '<failure>' "$log"; then
    echo "$SCRIPT: some benchmarks failed, see $log" >&2
    exit 1
fi
