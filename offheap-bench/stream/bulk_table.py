#!/usr/bin/env python3
# Copyright 2026 the offheap authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     https://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""The tables of run-bulk-benchmarks.sh, from the files of one run.

    python3 offheap-bench/stream/bulk_table.py offheap-bench/results/bulk-<date>.txt [JMH JSON files...]

The .txt holds the lines STREAM (stream.c), NumPy (numpy_bulk.py), BulkSpill and dd printed; the JMH JSON files
are WholeArrayBenchmark's bulk-<date>.json and, with BIG=1, BeyondIntBenchmark's bulk-<date>-big.json beside it
(those that exist), unless named. Bandwidth is
counted as STREAM counts it, the arrays an operation must read or write once, per element of 8 bytes:

    copy 2, scale 2, add 3, triad 3, mix 3, dot 2, prefixSum 2 (read and write one array), sum 1, max 1,
    fill 1 (write only)

so GB/s = elements x 8 x arrays / seconds / 1e9 for offheap, STREAM and NumPy alike. STREAM's figure per kernel
is the best of every STREAM run in the file (the script runs it before and after JMH), the hardest reference.
NumPy's is the best of its forms (out= arguments where it has them); the idiomatic form is shown beside it.
"""
import json
import math
import os
import re
import sys

ARRAYS = {"copy": 2, "scale": 2, "add": 3, "triad": 3, "mix": 3, "sum": 1, "dot": 2, "max": 1, "fill": 1,
          "prefixSum": 2}
FLAT = {"copy": "flatCopy", "triad": "flatTriad", "sum": "flatSum"}
NUMPY_BEST = {"triad": ["triad", "triad-out"], "mix": ["mix", "mix-out"]}


def fields(line):
    return dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)


def size_bytes(size):
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    return int(size[:-1]) * units[size[-1].lower()] if size[-1].lower() in units else int(size)


def load_text(path):
    stream, numpy, spill, disk, notes = {}, {}, [], [], []
    for line in open(path, errors="replace"):
        line = line.strip()
        if line.startswith("stream threads="):
            f = fields(line)
            key = (f["kernel"], int(f["threads"]))
            stream[key] = max(stream.get(key, 0.0), float(f["best_gbs"]))
        elif line.startswith("numpy op="):
            f = fields(line)
            numpy[f["op"]] = f
        elif line.startswith("spill workers="):
            spill.append(fields(line))
        elif line.startswith("disk op="):
            disk.append(fields(line))
        elif (line.startswith("# numpy") or line.startswith("# stream:")) and line[2:] not in notes:
            notes.append(line[2:])
    return stream, numpy, spill, disk, notes


def load_jmh(path):
    rows = {}
    if not path or not os.path.exists(path):
        return rows
    for r in json.load(open(path)):
        method = r["benchmark"].split(".")[-1]
        params = r.get("params", {})
        error = r["primaryMetric"]["scoreError"]
        error = float(error) if error != "NaN" else math.nan
        unit = r["primaryMetric"]["scoreUnit"]
        if unit != "ms/op":
            raise SystemExit(f"{path}: {method} in {unit}, expected ms/op")
        workers = params.get("workers", params.get("sortWorkers", "one"))
        rows[(method, workers)] = (r["primaryMetric"]["score"], error, params)
    return rows


def gbs(bytes_moved, ms):
    return bytes_moved / (ms / 1e3) / 1e9


def cell(value, digits=2):
    return "-" if value is None else f"{value:.{digits}f}"


def ratio(a, b):
    return "-" if a is None or not b else f"{a / b:.2f}"


def bandwidth_table(jmh, stream, numpy):
    sizes = {p["size"] for (_, _, p) in jmh.values() if "size" in p}
    if not sizes:
        return "(no WholeArrayBenchmark results)\n"
    size = size_bytes(sorted(sizes)[0])
    out = [f"Bandwidth, GB/s as STREAM counts bytes, arrays of {size // 2**20} MiB ({size // 8} doubles); "
           "higher is better.\n",
           "| operation | arrays counted | offheap all | offheap one | flat loop, one thread | STREAM C all "
           "| STREAM C one | NumPy (best form) | NumPy idiomatic | all / STREAM all | one / STREAM one "
           "| all / NumPy | one / NumPy |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    threads = sorted({t for (_, t) in stream})
    many = max(threads) if threads else None
    for op, arrays in ARRAYS.items():
        moved = size * arrays
        all_ = gbs(moved, jmh[(op, "all")][0]) if (op, "all") in jmh else None
        one = gbs(moved, jmh[(op, "one")][0]) if (op, "one") in jmh else None
        flat = None
        if op in FLAT:
            hit = [v for (m, _), v in jmh.items() if m == FLAT[op]]
            flat = gbs(moved, hit[0][0]) if hit else None
        s_all = stream.get((op, many)) if many and many > 1 else None
        s_one = stream.get((op, 1))
        forms = [numpy[k] for k in NUMPY_BEST.get(op, [op]) if k in numpy]
        n_best = max((float(f["best_gbs"]) for f in forms), default=None)
        n_idiom = float(numpy[op]["best_gbs"]) if op in NUMPY_BEST and op in numpy else None
        out.append(f"| {op} | {arrays} | {cell(all_)} | {cell(one)} | {cell(flat)} | {cell(s_all)} | {cell(s_one)} "
                   f"| {cell(n_best)} | {cell(n_idiom)} | {ratio(all_, s_all)} | {ratio(one, s_one)} "
                   f"| {ratio(all_, n_best)} | {ratio(one, n_best)} |")
    if many:
        out.append(f"\nSTREAM C all = {many} OpenMP threads; one = OMP_NUM_THREADS=1. offheap all = Workers.allCores(), "
                   "one = Workers.callerOnly(). NumPy runs these on one thread (np.dot through BLAS: see its "
                   "cpu_per_wall in the log).")
    return "\n".join(out) + "\n"


def sort_table(jmh, numpy):
    hit = [p for (m, _), (_, _, p) in jmh.items() if m in ("sortStore", "sortArraysParallel")]
    if not hit:
        return ""
    n = size_bytes(hit[0]["sortSize"]) // 8

    def ns(method, workers):
        v = jmh.get((method, workers))
        return v[0] * 1e6 / n if v else None

    store_all, store_one = ns("sortStore", "all"), ns("sortStore", "one")
    parallel, serial = ns("sortArraysParallel", "all"), ns("sortArraysParallel", "one")
    np_sort = float(numpy["sort"]["best_ns_per_element"]) if "sort" in numpy else None
    out = [f"Sort of {n} random longs ({n * 8 // 2**20} MiB), ns per element; lower is better.\n",
           "| store, all | store, one | Arrays.parallelSort | Arrays.sort | np.sort (one thread) "
           "| store all / parallelSort | store one / Arrays.sort | store all / np.sort |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|",
           f"| {cell(store_all)} | {cell(store_one)} | {cell(parallel)} | {cell(serial)} | {cell(np_sort)} "
           f"| {ratio(store_all, parallel)} | {ratio(store_one, serial)} | {ratio(store_all, np_sort)} |"]
    return "\n".join(out) + "\n"


def big_table(jmh, stream, parallel_ns):
    elements = (1 << 31) + (1 << 20)
    rows = []
    best_stream = max(stream.values(), default=None)
    copy_stream = max((v for (k, _), v in stream.items() if k == "copy"), default=None)
    for (method, workers), (ms, error, _) in sorted(jmh.items()):
        if method == "hugeIntSum":
            v = gbs(elements * 4, ms)
            rows.append(f"| IntArray.sum, {elements} ints | {workers} | {v:.2f} GB/s | {ratio(v, best_stream)} "
                        "x STREAM's best kernel (no STREAM kernel only reads) |")
        elif method == "hugeByteCopy":
            v = gbs(elements * 2, ms)
            rows.append(f"| ByteArray copy, {elements} bytes | {workers} | {v:.2f} GB/s | {ratio(v, copy_stream)} "
                        "x STREAM copy (best of its runs, any threads) |")
        elif method == "hugeIntSort":
            v = ms * 1e6 / elements
            rows.append(f"| IntArray.sort, {elements} random ints | {workers} | {v:.2f} ns/element "
                        f"| {ratio(v, parallel_ns)} x Arrays.parallelSort's ns/element on the long[] above (lower is better) |")
    if not rows:
        return ""
    return "\n".join(["Beyond 2^31 elements (BeyondIntBenchmark, one operation per iteration).\n",
                      "| operation | workers | result | against |", "|---|---|---:|---|"] + rows) + "\n"


def spill_table(spill, disk):
    if not spill and not disk:
        return ""
    disk_best = max((float(d["gbs"]) for d in disk), default=None)
    out = ["Spilled array (BulkSpill) against the disk's sequential read (dd, cold page cache), GB/s, best "
           "round.\n", "| measurement | GB/s | rounds | vs dd read |", "|---|---:|---:|---:|",
           f"| dd if=FILE of=/dev/null bs=1M | {cell(disk_best)} | {len(disk)} | 1 |"]
    for workers, cache in [("all", "cold"), ("one", "cold"), ("all", "warm")]:
        runs = [float(s["gbs"]) for s in spill if s["workers"] == workers and s["cache"] == cache]
        if runs:
            label = f"store sum(), {workers}, {'cold cache' if cache == 'cold' else 'in the page cache (ceiling)'}"
            out.append(f"| {label} | {max(runs):.2f} | {len(runs)} | {ratio(max(runs), disk_best)} |")
    return "\n".join(out) + "\n"


def goal_checks(jmh, stream, numpy, spill, disk):
    """Issue 30's goals as lines: the measured ratio, the bound, and met or not (on this run's figures)."""
    checks = []

    def check(name, value, bound, higher_is_better=True):
        if value is None:
            return
        met = value >= bound if higher_is_better else value <= bound
        sign = ">=" if higher_is_better else "<="
        checks.append(f"- {name}: {value:.2f} (goal {sign} {bound:.2f}): {'met' if met else 'NOT met'}")

    sizes = {p["size"] for (_, _, p) in jmh.values() if "size" in p}
    if sizes:
        size = size_bytes(sorted(sizes)[0])
        many = max((t for (_, t) in stream), default=None)

        def offheap(op, workers="all"):
            v = jmh.get((op, workers))
            return gbs(size * ARRAYS[op], v[0]) if v else None

        def share(a, b):
            return a / b if a is not None and b else None

        for op in ("copy", "triad"):
            check(f"{op}, offheap all / STREAM C all", share(offheap(op), stream.get((op, many))), 0.80)
        for op in ("sum", "mix", "triad"):
            forms = [float(numpy[k]["best_gbs"]) for k in NUMPY_BEST.get(op, [op]) if k in numpy]
            check(f"{op}, offheap all / NumPy's best form", share(offheap(op), max(forms, default=None)), 1.00)
    n_sort = [p for (m, _), (_, _, p) in jmh.items() if m == "sortArraysParallel"]
    parallel = jmh.get(("sortArraysParallel", "all"))
    store = jmh.get(("sortStore", "all"))
    if parallel and store:
        check("sort, store all / Arrays.parallelSort (time per element, same long[] size)", store[0] / parallel[0],
              1.00, higher_is_better=False)
    copy_stream = max((v for (k, _), v in stream.items() if k == "copy"), default=None)
    best_stream = max(stream.values(), default=None)
    elements = (1 << 31) + (1 << 20)
    if ("hugeByteCopy", "all") in jmh and copy_stream:
        check("copy beyond 2^31 elements, all / STREAM copy", gbs(2 * elements, jmh[("hugeByteCopy", "all")][0])
              / copy_stream, 0.80)
    if ("hugeIntSum", "all") in jmh and best_stream:
        check("sum beyond 2^31 elements, all / STREAM's best kernel",
              gbs(4 * elements, jmh[("hugeIntSum", "all")][0]) / best_stream, 0.80)
    if ("hugeIntSort", "all") in jmh and parallel and n_sort:
        per_element = jmh[("hugeIntSort", "all")][0] / elements
        parallel_per_element = parallel[0] / (size_bytes(n_sort[0]["sortSize"]) // 8)
        check("sort beyond 2^31 elements (ints), ns/element / Arrays.parallelSort's (long[])",
              per_element / parallel_per_element, 1.00, higher_is_better=False)
    disk_best = max((float(d["gbs"]) for d in disk), default=None)
    cold = [float(x["gbs"]) for x in spill if x["workers"] == "all" and x["cache"] == "cold"]
    if cold and disk_best:
        check("spilled sum, all, cold cache / dd read", max(cold) / disk_best, 0.80)
    if not checks:
        return ""
    return "\n".join(["Issue 30's goals on this run's figures (a QUICK run's prove nothing):\n"] + checks) + "\n"


def main():
    text = sys.argv[1]
    stem = re.sub(r"\.txt$", "", text)
    json_paths = sys.argv[2:] or [stem + ".json", stem + "-big.json"]
    stream, numpy, spill, disk, notes = load_text(text)
    jmh = {}
    for path in json_paths:
        jmh.update(load_jmh(path))
    print(bandwidth_table(jmh, stream, numpy))
    print(sort_table(jmh, numpy))
    parallel = jmh.get(("sortArraysParallel", "all"))
    parallel_ns = None
    if parallel:
        parallel_ns = parallel[0] * 1e6 / (size_bytes(parallel[2]["sortSize"]) // 8)
    for table in (big_table(jmh, stream, parallel_ns), spill_table(spill, disk),
                  goal_checks(jmh, stream, numpy, spill, disk)):
        if table:
            print(table)
    for note in notes:
        print(f"- {note}")


if __name__ == "__main__":
    main()
