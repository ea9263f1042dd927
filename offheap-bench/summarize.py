#!/usr/bin/env python3
"""Turns a JMH JSON result of the pool or store benchmarks into the Markdown tables of BENCHMARKS.md.

    python3 offheap-bench/summarize.py offheap-bench/results/pool-<date>.json
    python3 offheap-bench/summarize.py offheap-bench/results/store-<date>.json

Pool benchmarks: each cell is the mean in ns per operation with JMH's 99.9 % error; ratios are against
offheap (default settings) in the same run, so they carry the comparison even when the machine's absolute
speed varies.

Store benchmark: one table per operation and size, ms per operation per layout with JMH's 99.9 % error, and
its ratio to flat-segment and to bytebuffer-chunks in the same run (higher is slower). The store's kernel
route (sequentialSumKernel) is listed under the sequential sum as "<layout> (kernel)".
"""
import json
import math
import sys

ORDER = ["offheap", "offheap-noleak", "offheap-nocache", "offheap-checked", "heap", "direct",
         "arena-confined", "netty-pooled", "netty-adaptive"]


def load(path):
    rows = {}
    for r in json.load(open(path)):
        bench = r["benchmark"].split(".")[-2]
        key = (bench, r["params"]["allocator"], int(r["params"]["size"]))
        secondary = r.get("secondaryMetrics", {})
        rows[key] = (r["primaryMetric"]["score"], r["primaryMetric"]["scoreError"],
                     secondary.get("gc.alloc.rate.norm", {}).get("score"),
                     secondary.get("gc.count", {}).get("score"))
    return rows


def fmt_ns(ns, error):
    if ns >= 10_000:
        return f"{ns / 1000:.1f} ± {error / 1000:.1f} µs"
    return f"{ns:.1f} ± {error:.1f} ns"


def table(rows, bench):
    sizes = sorted({k[2] for k in rows if k[0] == bench})
    allocators = [a for a in ORDER if any(k[0] == bench and k[1] == a for k in rows)]
    head = "| allocator | " + " | ".join(f"{s} B" for s in sizes) + " | B/op | GCs |"
    out = [head, "|" + "---|" * (len(sizes) + 3)]
    for a in allocators:
        cells, bops, gcs = [], [], []
        for s in sizes:
            v = rows.get((bench, a, s))
            base = rows.get((bench, "offheap", s))
            if not v:
                cells.append("-")
                continue
            ratio = f" ({v[0] / base[0]:.1f}x)" if base and a != "offheap" else ""
            cells.append(f"{fmt_ns(v[0], v[1])}{ratio}")
            bops.append(v[2] or 0.0)
            gcs.append(v[3] or 0.0)
        out.append(f"| {a} | " + " | ".join(cells)
                   + f" | {min(bops):.1f}-{max(bops):.1f} | {int(min(gcs))}-{int(max(gcs))} |")
    return "\n".join(out)


STORE_ORDER = ["double-array", "flat-segment", "store-memory", "store-memory (kernel)", "store-spill",
               "store-spill (kernel)", "bytebuffer-chunks", "unsafe-table"]
STORE_OPERATIONS = [("sequentialSum", "Sequential sum"), ("randomGather", "Random gather of 2^21 elements")]


def size_label(size):
    """'256m' -> '256 MiB', '4g' -> '4 GiB'."""
    units = {"k": "KiB", "m": "MiB", "g": "GiB"}
    return f"{size[:-1]} {units[size[-1].lower()]}" if size[-1].lower() in units else f"{size} B"


def size_bytes(size):
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    return int(size[:-1]) * units[size[-1].lower()] if size[-1].lower() in units else int(size)


def load_store(path):
    """{(operation, size): {layout: (score, error)}}; the kernel benchmark joins the sequential sum."""
    rows = {}
    for r in json.load(open(path)):
        method = r["benchmark"].split(".")[-1]
        if method == "sequentialSumKernel":
            method, layout = "sequentialSum", r["params"]["storeLayout"] + " (kernel)"
        else:
            layout = r["params"]["layout"]
        rows.setdefault((method, r["params"]["size"]), {})[layout] = (
            r["primaryMetric"]["score"], r["primaryMetric"]["scoreError"])
    return rows


def ratio(value, base):
    return f"{value / base:.2f}x" if base else "-"


def store_tables(rows):
    out = []
    for method, title in STORE_OPERATIONS:
        for size in sorted({k[1] for k in rows if k[0] == method}, key=size_bytes):
            layouts = rows[(method, size)]
            flat = layouts.get("flat-segment", (None,))[0]
            chunks = layouts.get("bytebuffer-chunks", (None,))[0]
            out.append(f"#### {title}, {size_label(size)} of doubles\n")
            out.append("| layout | ms/op | vs flat-segment | vs bytebuffer-chunks |")
            out.append("|---|---|---|---|")
            names = [n for n in STORE_ORDER if n in layouts] + sorted(n for n in layouts if n not in STORE_ORDER)
            for name in names:
                score, error = layouts[name]
                error = float(error)  # "NaN" (a string) when there was a single iteration
                spread = "" if math.isnan(error) else f" ± {error:.2f}"
                out.append(f"| {name} | {score:.2f}{spread} | {ratio(score, flat)} | {ratio(score, chunks)} |")
            out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    if any(r["benchmark"].split(".")[-2] == "StoreBenchmark" for r in json.load(open(sys.argv[1]))):
        print(store_tables(load_store(sys.argv[1])))
        sys.exit(0)
    data = load(sys.argv[1])
    for bench in ["AcquireReleaseBenchmark", "CrossThreadBenchmark"]:
        print(f"### {bench}\n")
        print(table(data, bench))
        print()
