#!/usr/bin/env python3
"""Mutation check: each one-line mutation in tests/mutations.txt must make a test fail.

Every mutation disables an option or breaks a rule with a one-line edit (an ignored flag, a
flipped operator, a dropped bound check). If the suite still passes with the edit, no test
checks that behaviour: the mutation "survives" and this script exits 1.

The working tree is never modified. Its files (tracked and untracked, not ignored) are copied
into a scratch tree, build-mutation/src/, built once in build-mutation/src/build-test/ (the
same relative layout and flags as `scripts/test.sh`, so ccache shares objects with it), and
for each mutation one file of the scratch copy is edited, the test target rebuilt
incrementally, the named tests run, and the file restored.

  python3 scripts/mutation-check.py                 every mutation in tests/mutations.txt
  python3 scripts/mutation-check.py NAME...          only these
  python3 scripts/mutation-check.py --list FILE      another list
  python3 scripts/mutation-check.py --base REV --share 3 --max 30
                    the mutations near lines changed since REV, and a third of the others,
                    at most 30 of them (CI)

The list: blocks separated by blank lines, "#" comments, keys:
  name:    short id
  file:    path in the repository
  find:    text on one line of the file, found exactly once (else the mutation is "stale")
  replace: what replaces it
  test:    unit GTEST_FILTER   (gpuadvisor_tests)
           server GTEST_FILTER (gpuadvisor_server_tests and gpuadvisor_security_tests)
           ctest REGEX         (ctest -R over the tests that run the CLI binary, e.g.
                               ^cli_contract$; not the browser, load, network and python ones)
  why:     what the mutation breaks, for the table
Exit: 0 all killed, 1 a mutation survived, went stale or did not build, 2 bad usage.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = ("name", "file", "find", "replace", "test", "why")
TARGETS = {"unit": ["gpuadvisor_tests"],
           "server": ["gpuadvisor_server_tests", "gpuadvisor_security_tests"],
           "ctest": ["gpuadvisor"]}
TEST_TIMEOUT_S = 600


def parse_list(path):
    """Returns the mutation blocks as dicts; exits 2 naming file:line on a malformed block."""
    blocks, cur, start = [], {}, 0
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines + [""], 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                missing = [k for k in KEYS if k not in cur]
                if missing:
                    sys.exit(f"{path}:{start}: mutation block lacks {', '.join(missing)}")
                if cur["test"].split(" ", 1)[0] not in TARGETS:
                    sys.exit(f"{path}:{start}: test: expected unit|server|ctest, got "
                             f"\"{cur['test']}\"")
                blocks.append(cur)
                cur = {}
            continue
        key, sep, value = line.partition(":")
        if not sep or key.strip() not in KEYS:
            sys.exit(f"{path}:{n}: expected one of {'|'.join(KEYS)}: VALUE, got \"{line}\"")
        if not cur:
            start = n
        cur[key.strip()] = value[1:] if value.startswith(" ") else value
    names = [b["name"] for b in blocks]
    dup = {x for x in names if names.count(x) > 1}
    if dup:
        sys.exit(f"{path}: duplicate mutation names: {', '.join(sorted(dup))}")
    return blocks


def repo_files():
    out = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=ROOT,
                         check=True, capture_output=True).stdout.decode()
    return [p for p in out.split("\0") if p and os.path.isfile(os.path.join(ROOT, p))]


def sync_tree(tree):
    """Makes `tree` a copy of the working tree. Unchanged files keep their mtime (no rebuild)."""
    files = set(repo_files())
    for rel in files:
        src, dst = os.path.join(ROOT, rel), os.path.join(tree, rel)
        with open(src, "rb") as f:
            data = f.read()
        try:
            with open(dst, "rb") as f:
                if f.read() == data:
                    continue
        except OSError:
            pass
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)
        shutil.copymode(src, dst)
    for dirpath, dirnames, filenames in os.walk(tree):
        rel_dir = os.path.relpath(dirpath, tree)
        if rel_dir == "build-test":
            dirnames[:] = []
            continue
        dirnames[:] = [d for d in dirnames if not (rel_dir == "." and d == "build-test")]
        for name in filenames:
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if rel not in files:
                os.remove(os.path.join(dirpath, name))


def run(cmd, cwd, log, timeout=None):
    with open(log, "ab") as out:
        out.write(("\n$ " + " ".join(cmd) + "\n").encode())
        out.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            return 124


def build(build_dir, targets, log, jobs):
    return run(["cmake", "--build", build_dir, f"-j{jobs}", "--target", *targets], ROOT, log)


def run_tests(build_dir, test, log):
    kind, arg = test.split(" ", 1)
    if kind in ("unit", "server"):  # killed when any of the kind's executables fails
        for exe in TARGETS[kind]:
            rc = run([os.path.join(build_dir, "tests", exe), f"--gtest_filter={arg}",
                      "--gtest_brief=1"], ROOT, log, TEST_TIMEOUT_S)
            if rc != 0:
                return rc
        return 0
    cmd = ["ctest", "--test-dir", build_dir, "-R", arg, "-LE", "browser|load|network|python",
           "-j2", "--no-tests=error"]
    return run(cmd, ROOT, log, TEST_TIMEOUT_S)


def apply(tree, m):
    """Returns (path, original text, mutated text, line number) or a reason it is stale."""
    path = os.path.join(tree, m["file"])
    if not os.path.isfile(path):
        return None, f"no file {m['file']}"
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = [i for i, line in enumerate(text.split("\n"), 1) if m["find"] in line]
    count = text.count(m["find"])
    if count != 1 or len(lines) != 1:
        return None, f"\"find\" occurs {count} times in {m['file']}, expected once"
    return (path, text, text.replace(m["find"], m["replace"]), lines[0]), ""


def git(*argv):
    r = subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def changed_lines(base):
    """{file: [(first, last), ...]}: the lines of each file (as it is now) that changed since
    `base`, renames followed; None when `base` is unknown (a shallow clone)."""
    diff = git("diff", "-U0", "-M", "--no-color", f"{base}..HEAD")
    if diff is None:
        return None
    out, path, hunk = {}, None, None

    def close(hunk):
        # A hunk that only renames an include (a header moved) changes no code near it.
        if hunk and not all(re.match(r"[-+]\s*#\s*include\b", t) for t in hunk[2]):
            out.setdefault(hunk[0], []).append(hunk[1])

    for line in diff.splitlines():
        if line.startswith(("+++ ", "--- ", "diff ")):
            close(hunk)
            hunk = None
            if line.startswith("+++ "):
                path = line[6:] if line.startswith("+++ b/") else None
        elif line.startswith("@@") and path:
            close(hunk)
            m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            hunk = None
            if m:
                first, n = int(m.group(1)), int(m.group(2) or 1)
                hunk = (path, (first, first + max(n, 1) - 1), [])
        elif hunk and line[:1] in "+-":
            hunk[2].append(line)
    close(hunk)
    return out


# A mutation always runs when a change since the base comes within this many lines of it: its
# function, or the code it depends on, may have changed.
NEAR_LINES = 30


def select_share(mutations, base, share, most=0):
    """The mutations near lines changed since `base` (all when it is unknown, e.g. in a shallow
    clone), and one in `share` of the rest, by turn; at most `most` of them when it is set (the
    near ones first, then the turn's; a cut is taken by turn as well, so that successive landings
    run the ones left out). Staleness (a find text no longer in its file exactly once) is checked
    for every mutation beforehand, without building."""
    changed = changed_lines(base) if base else None
    count = git("rev-list", "--count", "--first-parent", "HEAD")
    if changed is None or count is None:
        print("mutation-check: no base to compare with; running every mutation", flush=True)
        return mutations
    turn = int(count) % share

    def near_a_change(m):
        ranges = changed.get(m["file"])
        if not ranges:
            return False
        with open(os.path.join(ROOT, m["file"]), encoding="utf-8") as f:
            text = f.read()
        at = text.find(m["find"])
        if at < 0:
            return True  # stale: it runs, and fails, naming it
        line = text.count("\n", 0, at) + 1
        return any(first - NEAR_LINES <= line <= last + NEAR_LINES for first, last in ranges)

    near = [m for m in mutations if near_a_change(m)]
    rest = [m for i, m in enumerate(mutations) if i % share == turn and m not in near]
    print(f"mutation-check: {len(near) + len(rest)} of {len(mutations)} mutations: {len(near)} "
          f"within {NEAR_LINES} lines of a change since {base} and turn {turn} of {share} of the "
          f"rest ({len(rest)})", flush=True)
    if most and len(near) + len(rest) > most:
        near, rest = cut_by_turn(near, most, int(count)), cut_by_turn(rest, most, int(count))
        rest = rest[:max(0, most - len(near))]
        print(f"mutation-check: at most {most} a run: {len(near)} near a change and "
              f"{len(rest)} of the turn's run now, the others on later turns", flush=True)
    return near + rest


def cut_by_turn(mutations, most, turn):
    """At most `most` of `mutations`: a window starting at a place that moves with `turn`, so
    that successive runs cover all of them."""
    if len(mutations) <= most:
        return mutations
    start = (turn * most) % len(mutations)
    return [mutations[(start + k) % len(mutations)] for k in range(most)]


def check_stale(mutations):
    """Every mutation's find text is in its file exactly once (no build needed)."""
    bad = []
    for m in mutations:
        try:
            with open(os.path.join(ROOT, m["file"]), encoding="utf-8") as f:
                n = f.read().count(m["find"])
        except OSError:
            n = -1
        if n != 1:
            bad.append(f"{m['name']}: {m['file']}: find text found {max(n, 0)} times")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help="only these mutations")
    ap.add_argument("--list", default=os.path.join(ROOT, "tests", "mutations.txt"))
    ap.add_argument("--dir", default=os.path.join(ROOT, "build-mutation"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--base", help="with --share: the mutations within a few lines of a change "
                    "since this revision always run")
    ap.add_argument("--share", type=int, default=1,
                    help="of the other mutations run one in N: those whose index in the list "
                         "is congruent to HEAD's first-parent commit count mod N, so successive "
                         "landings take turns (default 1: all)")
    ap.add_argument("--max", type=int, default=0,
                    help="with --share: run at most this many, those near a change first (a "
                         "bound on the stage's time; the ones cut take later turns)")
    args = ap.parse_args()
    mutations = parse_list(args.list)
    unknown = set(args.names) - {m["name"] for m in mutations}
    if unknown:
        sys.exit(f"unknown mutation(s): {', '.join(sorted(unknown))}")
    stale = check_stale(mutations)
    if stale:
        sys.exit("mutation-check: stale mutations (update tests/mutations.txt):\n  " +
                 "\n  ".join(stale))
    if args.names:
        mutations = [m for m in mutations if m["name"] in args.names]
    elif args.share > 1:
        mutations = select_share(mutations, args.base, args.share, args.max)

    tree = os.path.join(args.dir, "src")
    build_dir = os.path.join(tree, "build-test")
    log = os.path.join(args.dir, "mutation.log")
    os.makedirs(tree, exist_ok=True)
    open(log, "w").close()
    # Relative paths in the compiler's hash: the scratch tree's objects are the release build's.
    env = os.environ
    env.setdefault("CCACHE_BASEDIR", ROOT)
    env.setdefault("CCACHE_NOHASHDIR", "true")
    sync_tree(tree)
    if run(["cmake", "-S", tree, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
            "-DGPUADVISOR_BUILD_TESTS=ON", "-DGPUADVISOR_WERROR=ON",
            "-DGPUADVISOR_BUILD_PYTHON=OFF"], ROOT, log) != 0:
        sys.exit(f"mutation-check: cmake failed, see {log}")
    needed = sorted({t for m in mutations for t in TARGETS[m["test"].split(" ", 1)[0]]})
    t0 = time.time()
    if build(build_dir, needed, log, args.jobs) != 0:
        sys.exit(f"mutation-check: the unmutated tree does not build, see {log}")
    print(f"mutation-check: baseline built in {time.time() - t0:.0f} s", flush=True)
    # Unmutated, every named test must pass: else each mutation would be "killed" for nothing.
    for test in sorted({m["test"] for m in mutations}):
        if run_tests(build_dir, test, log) != 0:
            sys.exit(f"mutation-check: \"{test}\" fails on the unmutated tree, see {log}")
    print(f"mutation-check: baseline tests pass ({time.time() - t0:.0f} s)", flush=True)

    rows, bad = [], 0
    for m in mutations:
        start = time.time()
        applied, why_stale = apply(tree, m)
        where = m["file"]
        if applied is None:
            result = "STALE"
        else:
            path, original, mutated, line = applied
            where = f"{m['file']}:{line}"
            with open(path, "w", encoding="utf-8") as f:
                f.write(mutated)
            try:
                with open(log, "a") as f:
                    f.write(f"\n=== {m['name']}: {where}\n")
                if build(build_dir, TARGETS[m["test"].split(" ", 1)[0]], log, args.jobs) != 0:
                    result = "BUILD-FAILED"
                else:
                    rc = run_tests(build_dir, m["test"], log)
                    result = "killed" if rc != 0 else "SURVIVED"
                    if rc == 124:
                        result = "killed (timeout)"
            finally:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(original)
        if not result.startswith("killed"):
            bad += 1
        rows.append((m["name"], where, m["test"], result, time.time() - start,
                     why_stale or m["why"]))
        print(f"  {m['name']}: {result} ({time.time() - start:.0f} s)", flush=True)

    widths = [max(len(str(r[i])) for r in rows + [("mutation", "where", "test", "result")])
              for i in range(4)]
    print()
    print("  ".join(h.ljust(w) for h, w in zip(("mutation", "where", "test", "result"), widths))
          + "  seconds  why")
    for r in rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(r[:4], widths)) + f"  {r[4]:7.0f}  {r[5]}")
    killed = len(rows) - bad
    summary = f"mutation check: {killed}/{len(rows)} mutations killed"
    print(f"\n{summary}" + (f"; {bad} not (see {log})" if bad else ""))
    if os.environ.get("GPUADVISOR_SUMMARY"):
        with open(os.environ["GPUADVISOR_SUMMARY"], "a") as f:
            f.write(summary + "\n")
    # Leave the scratch build matching the working tree (restored files rebuild next time).
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
