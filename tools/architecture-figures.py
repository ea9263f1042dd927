#!/usr/bin/env python3
"""Prints the figures ARCHITECTURE.md shows: lines per class and the dependencies between packages.

    python3 tools/architecture-figures.py            # markdown for ARCHITECTURE.md's "Sizes and dependencies"

Lines are physical lines of each main source file (comments included). A package depends on another when one
of its files imports a type of the other or names it fully qualified.
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = ["offheap-core", "offheap-recorder", "offheap-micrometer", "offheap-netty", "offheap-jetty", "offheap-cli", "offheap-lab"]
REFERENCE = re.compile(r"\b(dev\.offheap\.[a-z][a-z0-9_.]*)\.[A-Z]")


def sources(module):
    base = os.path.join(ROOT, module, "src", "main", "java")
    for directory, _, files in os.walk(base):
        for name in files:
            if name.endswith(".java") and name not in ("module-info.java", "package-info.java"):
                path = os.path.join(directory, name)
                package = os.path.relpath(directory, base).replace(os.sep, ".")
                yield package, name[:-5], path


def all_packages():
    return {package for module in MODULES for package, _, _ in sources(module)}


def main():
    known = all_packages()
    for module in MODULES:
        sizes = defaultdict(list)
        depends = defaultdict(set)
        for package, cls, path in sources(module):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            sizes[package].append((text.count("\n"), cls))
            for ref in REFERENCE.findall(text):
                target = ref
                while target and target not in known:
                    target = target.rsplit(".", 1)[0] if "." in target else ""
                if target and target != package:
                    depends[package].add(target)
        print(f"### {module}\n")
        print("| package | classes | lines | largest | depends on |")
        print("|---|---:|---:|---|---|")
        for package in sorted(sizes):
            classes = sorted(sizes[package], reverse=True)
            total = sum(n for n, _ in classes)
            largest = ", ".join(f"{c} {n}" for n, c in classes[:3])
            deps = ", ".join(sorted(d.replace("dev.offheap.", "") for d in depends[package])) or "-"
            print(f"| `{package.replace('dev.offheap.', '')}` | {len(classes)} | {total} | {largest} | {deps} |")
        print()


if __name__ == "__main__":
    sys.exit(main())
