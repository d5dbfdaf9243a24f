#!/usr/bin/env python3
"""Code, tests, benchmarks and fuzz targets refer to files in this repository only (issue 18).

Fails, naming file:line, when a file under src/ include/ tests/ bench/ fuzz/ scripts/ python/
names a path outside the repository: the sibling checkout ../shared (its design/*.md spec,
its data/), a /work/ path, the spec's files (PRODUCT.md, CLI-CONTRACT.md, STYLE.md,
modeling-notes.md) or its data sets (catalog-sources/, aws-api-samples/,
calibration-cases*.json, gpu-specs.csv), or a bare spec section "(§N". A clone of this
repository has none of them: point at doc/ or state the fact where it is used.

Every line is checked, comments and code alike (a path in code is as unreachable as one in a
comment). Usage: repo_refs_test.py [REPO_ROOT]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), ".."))
FOLDERS = ("src/", "include/", "tests/", "bench/", "fuzz/", "scripts/", "python/")
PATTERNS = [
    (re.compile(r"\.\./shared\b"), "the sibling checkout ../shared"),
    (re.compile(r"(?<![\w./-])shared/(data|design)\b"), "the shared checkout"),
    (re.compile(r"(?<![\w.-])/work/"), "an absolute /work/ path"),
    (re.compile(r"\bdesign/[\w-]+\.md\b"), "the spec's design/ folder"),
    (re.compile(r"\b(PRODUCT|CLI-CONTRACT|STYLE)\.md\b"), "a spec file"),
    (re.compile(r"\bmodeling-notes\b"), "the spec's modelling notes"),
    (re.compile(r"\b(catalog-sources|aws-api-samples)\b"), "a shared data folder"),
    (re.compile(r"\bcalibration-cases[\w*-]*\.json\b"), "a shared calibration file"),
    (re.compile(r"\bgpu-specs\.csv\b"), "a shared data file"),
    (re.compile(r"\(§\s*\d"), "a spec section"),
]
SELF = "tests/repo_refs_test.py"


def files():
    out = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard", "--", *FOLDERS],
                         cwd=ROOT, capture_output=True, check=False)
    if out.returncode == 0:
        return [p for p in out.stdout.decode().split("\0") if p]
    paths = []  # not a git checkout (a source tarball): walk the folders
    for folder in FOLDERS:
        for dirpath, _, names in os.walk(os.path.join(ROOT, folder)):
            paths += [os.path.relpath(os.path.join(dirpath, n), ROOT) for n in names]
    return paths


def main():
    found, checked = [], 0
    for rel in sorted(files()):
        path = os.path.join(ROOT, rel)
        if rel == SELF or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        if b"\0" in data[:8192]:
            continue  # binary (a fuzz input, a gzip fixture)
        checked += 1
        for n, line in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
            for pat, what in PATTERNS:
                m = pat.search(line)
                if m:
                    found.append(f"{rel}:{n}: names {what} (\"{m.group(0)}\"): point at doc/ or "
                                 "state the fact here")
    for f in found:
        print(f)
    print(f"{checked} files checked, {len(found)} reference(s) outside the repository")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
