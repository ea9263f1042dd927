#!/usr/bin/env python3
"""Turns a JMH JSON result of the pool benchmarks into the Markdown tables of BENCHMARKS.md.

    python3 offheap-bench/summarize.py offheap-bench/results/pool-<date>.json

Each cell is the mean in ns per operation with JMH's 99.9 % error; ratios are against offheap (default
settings) in the same run, so they carry the comparison even when the machine's absolute speed varies.
"""
import json
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


if __name__ == "__main__":
    data = load(sys.argv[1])
    for bench in ["AcquireReleaseBenchmark", "CrossThreadBenchmark"]:
        print(f"### {bench}\n")
        print(table(data, bench))
        print()
