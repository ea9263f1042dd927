#!/usr/bin/env bash
# Builds offheap-bench and runs SpillThroughput for the record: fills and sums a spill-backed DoubleArray
# larger than this machine's RAM and compares it with the disk's sequential write and read bandwidth,
# measured in the same run on the same file system. Not a CI test: it writes the size four times over
# (disk write, disk read, store fill, store sum), several minutes at the default size. Run it as root (to
# drop the page cache between passes) on a quiet machine: other disk or memory traffic lands in the figures.
#
#   offheap-bench/run-spill-benchmark.sh [--size SIZE] [--dir DIRECTORY] [--keep-mapped]
#
# Options (passed on to SpillThroughput):
#   --size SIZE      e.g. 4g for a quick proof, default 1.25 x MemTotal rounded up to a whole GiB
#   --dir DIRECTORY  where the test file and the spill file go; default offheap-bench/target/spill-bench.
#                    Must be on a disk: tmpfs and ramfs are refused, and so is a file system with less
#                    free space than the size plus 10 %. Both files are deleted at the end (the spill
#                    file is unlinked from the start, so it goes even if the JVM is killed).
#   --keep-mapped    sum without first unmapping the array's resident pages (see SpillThroughput's comment)
#
# Environment:
#   SKIP_BUILD=1     use the offheap-bench/target/benchmarks.jar already built
#   JAVA_OPTS=...    extra JVM options (the heap is -Xmx1g: the data is off-heap)
#
# Writes offheap-bench/results/spill-<date>.txt: a header with the commit, machine, JDK and disk, then
# SpillThroughput's output (its tables). Its progress lines (stderr, every 5 s) go to the terminal and to
# spill-<date>.progress.txt beside it.
set -euo pipefail

SCRIPT=run-spill-benchmark
# shellcheck source=bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"

# The directory the files go to: --dir's value if given, else the default, which is passed on explicitly.
args=("$@")
dir=""
for (( i = 0; i < ${#args[@]}; i++ )); do
    case "${args[i]}" in
        --dir) dir="${args[i + 1]:-}" ;;
        -h|--help) exec "$JAVA" -cp "$JAR" dev.offheap.bench.SpillThroughput --help ;;
    esac
done
if [[ -z "$dir" ]]; then
    dir="$BENCH_DIR/target/spill-bench"
    args+=(--dir "$dir")
fi

build_jar

mkdir -p "$RESULTS" "$dir"
stamp="$(date -u +%Y-%m-%d-%H%M%S)"
log="$RESULTS/spill-$stamp.txt"
progress="$RESULTS/spill-$stamp.progress.txt"

# The block device under $dir and its model, if lsblk knows them (virtual disks often have no model).
source_dev="$(findmnt -n -o SOURCE -T "$dir" 2>/dev/null || true)"
disk_info="unknown"
if [[ "$source_dev" == /dev/* ]] && command -v lsblk >/dev/null 2>&1; then
    parent="$(lsblk -n -d -o PKNAME "$source_dev" 2>/dev/null | head -n 1 || true)"
    disk="/dev/${parent:-${source_dev#/dev/}}"
    disk_info="$(lsblk -n -d -o NAME,MODEL,SIZE,ROTA,TRAN "$disk" 2>/dev/null \
        | awk '{ $1 = $1; print }' || true)"
    [[ -n "$disk_info" ]] || disk_info="unknown"
fi

{
    print_header "offheap spill store throughput"
    echo "# memory: $(awk '/MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo), swap $(
        awk '/SwapTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "# disk: $dir is on $(findmnt -n -o SOURCE,FSTYPE,OPTIONS -T "$dir" 2>/dev/null || echo '?')"
    echo "#   device (lsblk NAME MODEL SIZE ROTA TRAN): $disk_info"
    df -h "$dir" | sed 's/^/#   /'
    echo "# run: SpillThroughput ${args[*]}"
    echo
} | tee "$log"

# shellcheck disable=SC2086 # JAVA_OPTS is split into words on purpose
"$JAVA" -Xms1g -Xmx1g -XX:+UseG1GC --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} \
    -cp "$JAR" dev.offheap.bench.SpillThroughput "${args[@]}" 2> >(tee "$progress" >&2) | tee -a "$log"

{
    echo
    echo "# after the run: $(df -h --output=avail "$dir" | tail -n 1 | tr -d ' ') available on $dir"
} | tee -a "$log"
echo "run-spill-benchmark: results in $log, progress lines in $progress" >&2
