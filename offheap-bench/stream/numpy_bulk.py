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
"""NumPy on the data of WholeArrayBenchmark, for run-bulk-benchmarks.sh.

    python3 offheap-bench/stream/numpy_bulk.py [--elements 33554432] [--trials 10] [--sort-elements 4194304]

Three arrays of 2^25 float64 (256 MiB each) hold what WholeArrayBenchmark's arrays hold (a[i] = (i % 1009) * 0.5,
b = 1, c = 2), and each operation is timed with time.perf_counter, best of TRIALS after one untimed call. Bytes
are counted as STREAM counts them (the arrays an operation must read and write once, temporaries not
counted), the same counts bulk_table.py uses for offheap:

    copy           np.copyto(c, a)                                   2 arrays
    scale          np.multiply(c, q, out=b)                          2
    add            np.add(a, b, out=c)                               3
    triad          a[:] = b + q * c            (idiomatic: makes a temporary for q * c and one for the sum)
    triad-out      np.multiply(c, q, out=a); np.add(a, b, out=a)     (no temporary: the best NumPy can do; two
                                                                      passes, a is written, read and written)
    mix            c[:] = x * a + y * b        (idiomatic, x = 0.5, y = 1.5)
    mix-out        np.multiply(a, x, out=c); np.multiply(b, y, out=t); np.add(c, t, out=c)
                                                                     (t allocated once, outside the timing)
    sum            a.sum()                                           1    (pairwise summation)
    dot            np.dot(a, b)                                      2    (BLAS ddot)
    max            a.max()                                           1
    fill           c.fill(1.5)                                       1
    prefixSum      np.cumsum(c, out=c)                               2
    sort           x.sort() on a fresh copy of 2^22 random int64, default kind; reported in ns per element
                   (the copy is made before the timing starts: np.sort(x) would add a 32 MiB copy)

Threads: NumPy runs its ufuncs, reductions, copyto, cumsum and sort on the calling thread alone. np.dot goes to
the BLAS library NumPy was built with, which may use several threads (OpenBLAS does for long vectors): each
line reports the process CPU time over wall time of the best trial (cpu_per_wall), about 1.0 for one thread
and up to the number of cores for more, so the table can say which ran on several.

Output, one line per operation (parsed by bulk_table.py), after '#' comment lines describing the setup:
    numpy op=sum bytes=268435456 best_s=0.0301 avg_s=0.0312 best_gbs=8.92 cpu_per_wall=1.00
"""
import argparse
import os
import platform
import sys
import time

import numpy as np


def measure(name, function, trials, bytes_moved=None, elements=None, prepare=None):
    """Best and mean wall time of `function` over `trials` timed calls after one untimed call; `prepare`
    runs untimed before each call."""
    if prepare:
        prepare()
    function()
    times, cpu = [], []
    for _ in range(trials):
        if prepare:
            prepare()
        c0 = time.process_time()
        t0 = time.perf_counter()
        function()
        t1 = time.perf_counter()
        c1 = time.process_time()
        times.append(t1 - t0)
        cpu.append((c1 - c0) / (t1 - t0))
    best = min(times)
    best_cpu = cpu[times.index(best)]
    line = f"numpy op={name} best_s={best:.6f} avg_s={sum(times) / len(times):.6f}"
    if bytes_moved is not None:
        line += f" bytes={bytes_moved} best_gbs={bytes_moved / best / 1e9:.3f}"
    if elements is not None:
        line += f" elements={elements} best_ns_per_element={best * 1e9 / elements:.3f}"
    print(line + f" cpu_per_wall={best_cpu:.2f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=1 << 25)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--sort-elements", type=int, default=1 << 22)
    args = parser.parse_args()
    n, trials = args.elements, args.trials

    print(f"# numpy {np.__version__}, python {platform.python_version()} ({sys.executable}), "
          f"{os.cpu_count()} cpus; best of {trials} after one untimed call")
    blas = ""
    try:
        config = np.show_config(mode="dicts")
        info = config.get("Build Dependencies", {}).get("blas", {})
        blas = f"{info.get('name', '?')} {info.get('version', '')} {info.get('openblas configuration', '')}".strip()
    except Exception as e:  # older NumPy: no mode="dicts"
        blas = f"unknown ({e})"
    print(f"# numpy blas: {blas}; OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}, "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")
    print(f"# numpy arrays: 3 x {n} float64 ({n * 8 / 2**20:.0f} MiB each); sort: {args.sort_elements} int64")

    q, x, y = 3.0, 0.5, 1.5
    a = (np.arange(n, dtype=np.int64) % 1009).astype(np.float64) * 0.5
    b = np.ones(n)
    c = np.full(n, 2.0)
    t = np.empty(n)
    t.fill(0.0)  # touch its pages before any timing
    d = 8 * n

    measure("copy", lambda: np.copyto(c, a), trials, 2 * d)
    measure("scale", lambda: np.multiply(c, q, out=b), trials, 2 * d)
    measure("add", lambda: np.add(a, b, out=c), trials, 3 * d)

    def triad():
        a[:] = b + q * c

    def triad_out():
        np.multiply(c, q, out=a)
        np.add(a, b, out=a)

    measure("triad", triad, trials, 3 * d)
    measure("triad-out", triad_out, trials, 3 * d)

    def mix():
        c[:] = x * a + y * b

    def mix_out():
        np.multiply(a, x, out=c)
        np.multiply(b, y, out=t)
        np.add(c, t, out=c)

    measure("mix", mix, trials, 3 * d)
    measure("mix-out", mix_out, trials, 3 * d)

    # The reductions read a as WholeArrayBenchmark fills it.
    a[:] = (np.arange(n, dtype=np.int64) % 1009).astype(np.float64) * 0.5
    b.fill(1.0)
    sink = []
    measure("sum", lambda: sink.append(a.sum()), trials, d)
    measure("dot", lambda: sink.append(np.dot(a, b)), trials, 2 * d)
    measure("max", lambda: sink.append(a.max()), trials, d)
    measure("fill", lambda: c.fill(1.5), trials, d)
    c.fill(2.0)
    measure("prefixSum", lambda: np.cumsum(c, out=c), trials, 2 * d)
    expected = sum(((i % 1009) * 0.5) for i in range(1009)) * (n // 1009) + sum(
        (i % 1009) * 0.5 for i in range(n - n % 1009, n))
    if abs(sink[0] - expected) > 1e-9 * expected:
        print(f"numpy: a.sum() = {sink[0]}, expected {expected}", file=sys.stderr)
        sys.exit(1)
    del a, b, c, t

    rng = np.random.default_rng(42)
    source = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=args.sort_elements,
                          dtype=np.int64, endpoint=True)
    work = np.empty_like(source)
    measure("sort", work.sort, trials, elements=args.sort_elements, prepare=lambda: np.copyto(work, source))
    if not np.all(work[1:] >= work[:-1]):
        print("numpy: the sort did not sort", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
