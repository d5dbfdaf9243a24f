#!/usr/bin/env python3
"""Runs every example in README.md, README.zh-CN.md and doc/*.md and fails when the output they show has drifted.

    doc_examples.py --bin BUILD/gpuadvisor [--python-path BUILD/python] [--update] [FILE.md ...]

Every fenced block of those files is one of (doc/contributing.md, "Examples in the docs are tests"):

  * a console example: lines `$ COMMAND` (a trailing backslash continues it), each followed by
    the output it shows. COMMAND runs under bash with the built `gpuadvisor` first on PATH, in a
    fresh directory per block (`examples` links to the repository's), stdout and stderr together,
    with the embedded catalog, no user catalog (empty HOME and XDG_DATA_HOME) and "today" fixed at
    TODAY (GPUADVISOR_TODAY), so dated warnings are stable. A `$ ... python3` line followed by
    `>>> ` lines is a Python session run with the built module. `$ gpuadvisor serve ...` starts
    the server on a free port for the rest of the block; a block that uses
    http://127.0.0.1:8080 without starting one gets one; the port reads as 8080 in the output.
  * a ```python cell: run in one interpreter per document (cells share names, as in a notebook);
    the fenced block right after it (next line) is what it printed, and a cell without one
    must print nothing.
  * any other block: marked `<!-- doc-example: skip (why) -->` on the line(s) before it. An
    unmarked block that is not run fails the check, so new docs cannot dodge it.

`<!-- doc-example: setup` ... `-->` before a block runs the shell lines it holds in the block's
directory first ($REPO is the repository), to make input files; its output is not compared.

Shown output is compared line by line after removing trailing whitespace and trailing blank
lines. A line `...` (indented or not) stands for any number of lines, `...` inside a line for
any text (doctest's ELLIPSIS). --update rewrites the shown output from the runs, keeping the
`...` elisions where the lines around them still anchor them; review the diff.
"""
import argparse
import concurrent.futures
import difflib
import glob
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TODAY = "2026-12-07"
DOC_PORT = "8080"
COMMAND_TIMEOUT = 60
FENCE = re.compile(r"^\s*(```+)\s*([\w+-]*).*$")  # indented fences too: none escapes the check
MARKER = re.compile(r"<!--\s*doc-example:\s*(.*?)\s*-->", re.S)
PY_REPL = re.compile(r"(^|\s)(/usr/bin/)?python3?\s*$")


class Block:
    def __init__(self, path, start, end, info, lines, marker):
        self.path, self.start, self.end, self.info = path, start, end, info
        self.lines = lines  # body lines; body line k is file line start + 1 + k (0-based)
        self.marker = marker
        self.output_of = None  # the python cell this block shows the output of

    def where(self, k=0):
        return f"{os.path.relpath(self.path, REPO)}:{self.start + 2 + k}"


def parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read().split("\n")
    blocks, i, pending, pending_end = [], 0, None, -1
    while i < len(text):
        line = text[i]
        if line.startswith("<!--") and "doc-example:" in line:
            j = i
            chunk = line
            while "-->" not in chunk and j + 1 < len(text):
                j += 1
                chunk += "\n" + text[j]
            m = MARKER.search(chunk)
            if not m:
                raise SystemExit(f"{path}:{i + 1}: unterminated doc-example comment")
            pending, pending_end = m.group(1), j
            i = j + 1
            continue
        m = FENCE.match(line)
        if m:
            fence, info = m.group(1), m.group(2)
            j = i + 1
            while j < len(text) and text[j].strip() != fence:
                j += 1
            between = text[pending_end + 1:i] if pending is not None else []
            marker = pending if pending is not None and all(not t.strip() for t in between) else None
            blocks.append(Block(path, i, j, info, text[i + 1:j], marker))
            pending = None
            i = j + 1
            continue
        i += 1
    # A python cell's output is the block that opens on the line after it closes.
    for a, b in zip(blocks, blocks[1:]):
        if a.info == "python" and b.start == a.end + 1 and b.info in ("", "text") and b.marker is None:
            b.output_of = a
    return blocks


# ---------------------------------------------------------------- matching shown vs actual output


def clean(lines):
    out = [l.rstrip() for l in lines]
    while out and not out[-1]:
        out.pop()
    return out


def line_matches(shown, actual):
    if "..." not in shown:
        return shown == actual
    parts = [re.escape(p) for p in shown.split("...")]
    return re.fullmatch(".*".join(parts), actual, re.S) is not None


def matches(shown, actual):
    """Whether actual fits the shown lines; and the index of the first shown line that did not."""
    memo, furthest = {}, [0]

    def go(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        furthest[0] = max(furthest[0], i)
        if i == len(shown):
            ok = j == len(actual)
        elif shown[i].strip() == "...":
            ok = any(go(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            ok = j < len(actual) and line_matches(shown[i], actual[j]) and go(i + 1, j + 1)
        memo[key] = ok
        return ok

    sys.setrecursionlimit(max(10000, 4 * (len(shown) + len(actual))))
    ok = go(0, 0)
    return ok, min(furthest[0], max(len(shown) - 1, 0))


def line_key(line):
    """A table row's first cell, a `name: value` line's name, else None."""
    if re.fullmatch(r"\s*-[-\s]*", line):
        return "<table rule>"
    cells = re.split(r"\s{2,}", line.strip())
    if len(cells) > 1:
        return cells[0]
    m = re.match(r"\s*([^:]{1,40}):\s", line)
    return m.group(1) if m else None


def find_line(shown, actual, pos):
    """Where the shown line went in actual (from pos): the same text, the same key, or the most
    similar line; None if nothing is close."""
    for k in range(pos, len(actual)):
        if line_matches(shown, actual[k]):
            return k
    key = line_key(shown)
    if key is not None:
        for k in range(pos, len(actual)):
            if line_key(actual[k]) == key:
                return k
    best, best_ratio = None, 0.6
    for k in range(pos, len(actual)):
        ratio = difflib.SequenceMatcher(None, shown, actual[k]).ratio()
        if ratio > best_ratio:
            best, best_ratio = k, ratio
    return best


def regenerate(shown, actual):
    """New shown lines from actual output. Without `...` the run's output as it is; with them,
    each shown line is replaced by the line of the run it became (same text, same key or the most
    similar); a shown `...` stays where it still leaves lines out, lines new between two adjacent
    shown lines are added, so the doc keeps showing what it chose to show."""
    if not any("..." in l for l in shown):
        return list(actual)
    elision = next((l for l in shown if l.strip() == "..."), "...")
    out, pos, elided = [], 0, False
    for n, l in enumerate(shown):
        if l.strip() == "...":
            elided = True
            continue
        if not l.strip() and elided:
            # a blank line right after `...` anchors nothing: it belongs to the next shown line
            nxt = next((m for m in shown[n + 1:] if m.strip() and m.strip() != "..."), None)
            k = find_line(nxt, actual, pos) if nxt is not None else None
            k = k - 1 if k is not None and k - 1 >= pos and not actual[k - 1].strip() else None
        else:
            k = find_line(l, actual, pos)
        if k is None:
            continue  # the line is gone from the output: drop it
        if k > pos:
            # lines the doc left out where it says so stay left out; where it showed the lines
            # as adjacent, the new ones in between are shown
            out.extend([elision] if elided else actual[pos:k])
        keep = "..." in l and line_matches(l, actual[k])
        out.append(l if keep else actual[k])
        pos, elided = k + 1, False
    if shown[-1].strip() == "...":
        if pos < len(actual):
            out.append(elision)
    else:
        out.extend(actual[pos:])
    return out


# ---------------------------------------------------------------- running


# `curl -s [-H 'N: v'] [-d BODY] [--path-as-is] URL` with http.client (which sends the path as given).
CURL_SHIM = r"""import http.client, sys, urllib.parse
args, headers, body, url = sys.argv[1:], {}, None, None
while args:
    a = args.pop(0)
    if a == "-H":
        name, _, value = args.pop(0).partition(":")
        headers[name.strip()] = value.strip()
    elif a == "-d":
        body = args.pop(0).encode()
    elif a.startswith("-"):
        continue
    else:
        url = a
u = urllib.parse.urlsplit(url)
conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
if body is not None:
    headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
conn.request("POST" if body is not None else "GET", (u.path or "/") + ("?" + u.query if u.query else ""),
             body=body, headers=headers)
sys.stdout.buffer.write(conn.getresponse().read())
"""


class Env:
    def __init__(self, args):
        self.bin = os.path.abspath(args.bin)
        self.python_path = os.path.abspath(args.python_path) if args.python_path else None
        self.python = args.python
        self.no_python = args.no_python
        self.root = tempfile.mkdtemp(prefix="doc-examples-")
        self.bindir = os.path.join(self.root, "bin")
        os.mkdir(self.bindir)
        os.symlink(self.bin, os.path.join(self.bindir, "gpuadvisor"))
        if shutil.which("curl") is None:  # the server examples' client, where curl is not installed
            shim = os.path.join(self.bindir, "curl")
            with open(shim, "w", encoding="utf-8") as f:
                f.write(f"#!{sys.executable}\n{CURL_SHIM}")
            os.chmod(shim, 0o755)

    def workdir(self):
        d = tempfile.mkdtemp(dir=self.root)
        os.symlink(os.path.join(REPO, "examples"), os.path.join(d, "examples"))
        for sub in ("home", "xdg"):
            os.mkdir(os.path.join(d, "." + sub))
        return d

    def environ(self, d):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("GPUADVISOR_", "AWS_", "XDG_")) and k not in ("HOME", "COLUMNS")}
        env.update(PATH=self.bindir + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
                   HOME=os.path.join(d, ".home"), XDG_DATA_HOME=os.path.join(d, ".xdg"),
                   GPUADVISOR_CATALOG="embedded", GPUADVISOR_TODAY=TODAY, NO_COLOR="1",
                   LC_ALL="C.UTF-8", TZ="UTC", REPO=REPO, PYTHONDONTWRITEBYTECODE="1")
        if self.python_path:
            env["PYTHONPATH"] = self.python_path
        return env


# `gpuadvisor serve ...`, `gpuadvisor --lang zh serve ...`: a server to start, not a command to run.
SERVE = re.compile(r"gpuadvisor (?:--lang[ =]\w+ )?serve\b")


class Server:
    def __init__(self, env, d, args):
        self.proc = subprocess.Popen(["bash", "-c", f"exec {args} --port 0"], cwd=d, env=env.environ(d),
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=0)
        # its two start-up lines, waiting at most 30 s (never blocking on a silent server)
        data, deadline = b"", time.time() + 30
        while data.count(b"\n") < 2 and time.time() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, deadline - time.time()))
            chunk = os.read(self.proc.stdout.fileno(), 4096) if ready else b""
            if not chunk:
                break
            data += chunk
        self.lines = data.decode("utf-8", "replace").split("\n")[:2]
        m = re.search(r"127\.0\.0\.1:(\d+)/", self.lines[0])
        if data.count(b"\n") < 2 or not m:
            self.stop()
            raise RuntimeError(f"`{args}` did not start: {data.decode('utf-8', 'replace')!r}")
        self.port = m.group(1)

    def to_doc(self, text):
        return text.replace(f"127.0.0.1:{self.port}", f"127.0.0.1:{DOC_PORT}")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def split_console(block):
    """[(body index of the `$` line, command text, [shown lines], kind, [repl statements])]."""
    items, k, lines = [], 0, block.lines
    while k < len(lines) and not lines[k].startswith("$ "):
        if lines[k].strip():
            raise ValueError(f"{block.where(k)}: text before the first `$ ` command")
        k += 1
    while k < len(lines):
        at, cmd = k, lines[k][2:]
        while cmd.endswith("\\") and k + 1 < len(lines):
            k += 1
            cmd = cmd + "\n" + lines[k]
        k += 1
        shown_start = k
        while k < len(lines) and not lines[k].startswith("$ "):
            k += 1
        shown = lines[shown_start:k]
        kind = "repl" if PY_REPL.search(cmd) and any(l.startswith(">>> ") for l in shown) else "shell"
        items.append((at, cmd, shown_start, shown, kind))
    return items


def repl_statements(shown):
    statements, cur = [], None
    for l in shown:
        if l.startswith(">>> "):
            if cur is not None:
                statements.append(cur)
            cur = l[4:]
        elif l.startswith("... ") and cur is not None:
            cur += "\n" + l[4:]
    if cur is not None:
        statements.append(cur)
    return statements


def run_python(env, d, steps):
    if not env.python_path:
        raise RuntimeError("Python examples need --python-path (the build's python/ directory) or --no-python")
    proc = subprocess.run([env.python, os.path.join(REPO, "tests", "docs", "py_session.py")],
                          input=json.dumps(steps), capture_output=True, text=True, cwd=d,
                          env=env.environ(d), timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"python session failed: {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout)


def run_setup(env, d, marker, where):
    script = marker[len("setup"):]
    proc = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=d, env=env.environ(d),
                          capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
    if proc.returncode != 0:
        raise RuntimeError(f"{where}: setup failed: {proc.stderr.strip()}")


class Check:
    """One comparison: shown lines at (block, first body index) against actual lines."""

    def __init__(self, block, first, shown, actual, label):
        self.block, self.first, self.shown, self.actual, self.label = block, first, shown, actual, label

    def result(self):
        shown, actual = clean(self.shown), clean(self.actual)
        ok, bad = matches(shown, actual)
        return ok, bad, shown, actual


def run_console(env, block):
    d = env.workdir()
    checks, server = [], None
    try:
        if block.marker and block.marker.startswith("setup"):
            run_setup(env, d, block.marker, block.where())
        items = split_console(block)
        if any("127.0.0.1:" + DOC_PORT in cmd for _, cmd, _, _, _ in items) and not any(
                SERVE.match(cmd) for _, cmd, _, _, _ in items):
            server = Server(env, d, "gpuadvisor serve")
        for at, cmd, shown_start, shown, kind in items:
            label = cmd.split("\n")[0]
            if SERVE.match(cmd):
                if server:
                    server.stop()
                server = Server(env, d, cmd.split("#")[0].strip())
                checks.append(Check(block, shown_start, shown, [server.to_doc(l) for l in server.lines], label))
                continue
            if kind == "repl" and env.no_python:
                continue
            if kind == "repl":
                outputs = run_python(env, d, [{"kind": "repl", "statements": repl_statements(shown)}])[0]["outputs"]
                actual, n = [], 0
                for l in shown:
                    if l.startswith(">>> "):
                        if n:
                            actual.extend(outputs[n - 1].splitlines())
                        n += 1
                    if l.startswith((">>> ", "... ")):
                        actual.append(l)
                if n:
                    actual.extend(outputs[n - 1].splitlines())
                checks.append(Check(block, shown_start, shown, actual, label))
                continue
            run = cmd
            if server:
                run = run.replace(f"127.0.0.1:{DOC_PORT}", f"127.0.0.1:{server.port}")
            try:
                proc = subprocess.run(["bash", "-c", run], cwd=d, env=env.environ(d), stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT)
                out = proc.stdout.decode("utf-8", "replace")
            except subprocess.TimeoutExpired:
                out = f"<timed out after {COMMAND_TIMEOUT} s>"
            if server:
                out = server.to_doc(out)
            checks.append(Check(block, shown_start, shown, out.split("\n"), label))
    finally:
        if server:
            server.stop()
        shutil.rmtree(d, ignore_errors=True)
    return checks


def run_cells(env, path, cells):
    """cells: [(python block, its output block or None)], in document order, one interpreter."""
    d = env.workdir()
    try:
        for cell, _ in cells:
            if cell.marker and cell.marker.startswith("setup"):
                run_setup(env, d, cell.marker, cell.where())
        results = run_python(env, d, [{"kind": "cell", "src": "\n".join(c.lines)} for c, _ in cells])
    finally:
        shutil.rmtree(d, ignore_errors=True)
    checks = []
    for (cell, out_block), res in zip(cells, results):
        if res["error"]:
            raise RuntimeError(f"{cell.where()}: the cell raised:\n{res['error']}")
        if out_block is None:
            checks.append(Check(cell, None, [], res["output"].split("\n"), "python cell"))
        else:
            checks.append(Check(out_block, 0, out_block.lines, res["output"].split("\n"), "python cell"))
    return checks


def collect(files, no_python=False):
    jobs, errors, stats = [], [], {"skipped": 0, "run": 0, "no_python": 0}
    for path in files:
        blocks = parse(path)
        cells = []
        for b in blocks:
            if b.output_of is not None:
                continue
            if b.marker is not None and not b.marker.startswith("setup"):
                if not re.fullmatch(r"skip \(.+\)", b.marker, re.S):
                    errors.append(f"{b.where(-1)}: unknown doc-example marker {b.marker!r} "
                                  "(expected `skip (why)` or `setup` and shell lines)")
                stats["skipped"] += 1
                continue
            if b.info == "python" and no_python:
                stats["no_python"] += 1
            elif b.info == "python":
                nxt = next((o for o in blocks if o.output_of is b), None)
                cells.append((b, nxt))
                stats["run"] += 1
            elif any(l.startswith("$ ") for l in b.lines):
                jobs.append(("console", b))
                stats["run"] += 1
            else:
                errors.append(f"{b.where(-1)}: a fenced block that is not run: make it a `$ command` "
                              "example or mark it `<!-- doc-example: skip (why) -->` (doc/contributing.md)")
        if cells:
            jobs.append(("cells", (path, cells)))
    return jobs, errors, stats


def describe(check, bad, shown, actual):
    b = check.block
    where = b.where(check.first + bad) if check.first is not None else b.where(len(b.lines))
    what = f"`$ {check.label}`" if check.label != "python cell" else "the python cell"
    if check.first is None:
        head = f"{where}: {what} printed output but shows none (add an output block right after it)"
    else:
        head = f"{where}: output of {what} differs from a run (first differing shown line here)"
    diff = difflib.unified_diff(shown, actual, "shown in the doc", "printed by the run", lineterm="", n=2)
    return head + "\n" + "\n".join("    " + l for l in diff)


def timed(kind, x, env):
    started = time.time()
    if kind == "console":
        checks, where = run_console(env, x), x.where(-1)
    else:
        checks, where = run_cells(env, *x), os.path.relpath(x[0], REPO) + " (python cells)"
    return checks, time.time() - started, where


def apply_updates(updates):
    by_file = {}
    for path, lo, hi, new in updates:
        by_file.setdefault(path, []).append((lo, hi, new))
    for path, edits in by_file.items():
        with open(path, encoding="utf-8") as f:
            text = f.read().split("\n")
        for lo, hi, new in sorted(edits, reverse=True):
            text[lo:hi] = new
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(text))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the built gpuadvisor binary")
    ap.add_argument("--python-path", help="the build's python/ directory (PYTHONPATH for the module)")
    ap.add_argument("--no-python", action="store_true",
                    help="a build without the module: leave the Python examples out (counted)")
    ap.add_argument("--python", default="/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable)
    ap.add_argument("--update", action="store_true", help="rewrite the shown output from the runs")
    ap.add_argument("--jobs", type=int, default=min(8, (os.cpu_count() or 2) * 2))
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = [os.path.abspath(f) for f in args.files] or (
        [os.path.join(REPO, "README.md"), os.path.join(REPO, "README.zh-CN.md")] +
        sorted(glob.glob(os.path.join(REPO, "doc", "*.md"))))
    started = time.time()
    jobs, errors, stats = collect(files, args.no_python)
    env = Env(args)
    failures, updates, compared, timings = [], [], 0, []
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(timed, kind, x, env) for kind, x in jobs]
            for fut in concurrent.futures.as_completed(futures):
                try:
                    checks, seconds, where = fut.result()
                    timings.append((seconds, where))
                except (RuntimeError, ValueError) as exc:
                    errors.append(str(exc))
                    continue
                for check in checks:
                    compared += 1
                    ok, bad, shown, actual = check.result()
                    if ok:
                        continue
                    new = regenerate(shown if check.first is not None else [], actual)
                    if new is not None and not matches(clean(new), actual)[0]:
                        new = None  # the elisions could not be kept: edit by hand
                    if args.update and check.first is not None and new is not None:
                        lo = check.block.start + 1 + check.first
                        # keep the blank lines that separated this output from the next command
                        tail = len(check.shown) - len(clean(check.shown))
                        updates.append((check.block.path, lo, lo + len(check.shown),
                                        new + [""] * tail))
                    else:
                        failures.append(describe(check, bad, shown, actual))
    finally:
        shutil.rmtree(env.root, ignore_errors=True)
    if updates:
        apply_updates(updates)
    for e in sorted(errors):
        print(e, file=sys.stderr)
    for f in sorted(failures):
        print(f, file=sys.stderr)
    left_out = f", {stats['no_python']} Python cells left out (--no-python)" if stats["no_python"] else ""
    rewritten = f", {len(updates)} rewritten" if updates else ""
    slowest = ", ".join(f"{w} {t:.1f} s" for t, w in sorted(timings, reverse=True)[:3])
    print(f"doc_examples: {len(files)} files, {stats['run']} blocks run ({compared} outputs compared), "
          f"{stats['skipped']} marked skip{left_out}; {len(failures)} drifted, {len(errors)} errors"
          f"{rewritten}; {time.time() - started:.1f} s" + (f" (slowest: {slowest})" if slowest else ""))
    return 1 if failures or errors else 0


if __name__ == "__main__":
    sys.exit(main())
