#!/usr/bin/env python3
"""Chinese everywhere (issue 42): under `--lang zh` a reader sees no English word outside the
allow-list tests/cli/zh_allowlist.txt (product names, instance types, regions, units, option
names, code). Runs every subcommand that `gpuadvisor --help` lists (the servers and agents
`serve`/`watch` excepted, see SKIP), the `--help` scenarios and the README / guide examples, in
table output, and fails listing each remaining English word (2+ ASCII letters, no digit) with the command that printed it.

`--help` texts are not read yet (untranslated; issue 42 lists them separately).
`launch` writes a spec for another program (each --format): its code is that program's
language, so only its stderr and its comment lines are read.

Messages not translated yet are listed, per command, in tests/cli/zh_pending.txt: a ratchet, not
an allow-list. A word there that a command no longer prints fails too (delete it: the list only
shrinks), and a new English word fails whether or not the list has room for it.
`--update-pending` rewrites that list from what the commands print now (review its diff: it
must only lose lines).

Usage: zh_everywhere_test.py PATH/TO/gpuadvisor SOURCE_DIR [--verbose] [--update-pending]
"""
import os
import re
import subprocess
import sys
import tempfile

BIN, SRC = sys.argv[1], sys.argv[2]
VERBOSE = "--verbose" in sys.argv
UPDATE = "--update-pending" in sys.argv
HERE = os.path.dirname(os.path.abspath(__file__))
EX = os.path.join(SRC, "examples")
# Servers and agents: `serve` answers HTTP (its own test checks Accept-Language), `watch` runs on
# an instance until it is idle; neither prints a report to read here.
SKIP = {"serve", "watch"}
# One Chinese term per idea on every front end (doc/i18n.md, the term list): a variant found in
# any command's output, the message catalog or the web page's strings fails, naming the term.
VARIANTS = {"空闲": "闲置 (idle)", "可信度": "置信度 (confidence)"}


def variant_problems(where, text):
    return [f"{where}: {bad} where the product says {good}" for bad, good in VARIANTS.items()
            if bad in text]


def load_allowlist(path):
    """Lines `word TOKEN  # why` or `regex PATTERN  # why`; every entry must say why."""
    words, regexes = set(), []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            body, sep, why = line.partition("  # ")
            if not sep or not why.strip():
                sys.exit(f"{path}:{n}: an entry without a reason (`  # why`)")
            kind, _, value = body.strip().partition(" ")
            if kind == "word":
                words.update(value.split())
            elif kind == "regex":
                regexes.append(re.compile(value.strip()))
            else:
                sys.exit(f"{path}:{n}: unknown kind {kind!r} (word or regex)")
    return words, regexes


WORDS, REGEXES = load_allowlist(os.path.join(HERE, "zh_allowlist.txt"))
PENDING_FILE = os.path.join(HERE, "zh_pending.txt")


def load_pending():
    """Lines `COMMAND WORD...`: English still printed by COMMAND (its first argument)."""
    pending = {}
    if os.path.exists(PENDING_FILE):
        with open(PENDING_FILE, encoding="utf-8") as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    cmd, *words = line.split()
                    pending.setdefault(cmd, set()).update(words)
    return pending


def english_words(text):
    """The ASCII words of 2+ letters left in TEXT once the allowed patterns and tokens are gone."""
    left = []
    for line in text.splitlines():
        for r in REGEXES:
            line = r.sub(" ", line)
        # A token with a digit is an identifier (H100, EC2, L-7212CCBC, v4), never an English word.
        for w in re.findall(r"[A-Za-z0-9]+", line):
            if re.search(r"[A-Za-z]{2}", w) and not re.search(r"\d", w) and w not in WORDS:
                left.append(w)
    return left


def run(args, stdin=None):
    env = dict(os.environ)
    for v in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        env.pop(v, None)
    env.update(GPUADVISOR_CATALOG="embedded", GPUADVISOR_TODAY="2026-12-07", COLUMNS="200")
    p = subprocess.run([BIN, "--lang", "zh"] + args, capture_output=True, text=True, env=env,
                       cwd=SRC, timeout=300, input=stdin)
    return p.returncode, p.stdout, p.stderr


def subcommands():
    _, out, _ = run(["--help"])
    names, inside = [], False
    for line in out.splitlines():
        if not line.startswith(" "):
            inside = line.strip() in ("Subcommands:", "子命令：", "子命令:")
            continue
        m = re.match(r"^  ([a-z][a-z-]*)\s", line)
        if inside and m:
            names.append(m.group(1))
    return names


def help_scenarios():
    """The `gpuadvisor ...` lines of the top-level help (the buying guide's scenarios)."""
    _, out, _ = run(["--help"])
    cmds = []
    for line in out.splitlines():
        m = re.search(r"\bgpuadvisor ((?:recommend|estimate|instances|show|gpus|models|catalog)\b[^`(]*)", line)
        if m and "COMMAND" not in m.group(1) and "--help" not in m.group(1) and "json" not in m.group(1):
            cmds.append(m.group(1).split())
    return cmds


def main():
    tmp = tempfile.mkdtemp()
    subprocess.run([sys.executable, os.path.join(HERE, "make_fleet.py"), tmp], check=True)
    fleet = os.path.join(tmp, "fleet.csv")
    plans = os.path.join(tmp, "plans.json")
    with open(plans, "w") as f:
        f.write(run(["recommend", "--workload", os.path.join(EX, "llm-finetune.yaml"), "--json"])[1])

    cases = [
        ["instances", "--gpu", "H100"],
        ["instances", "--gpu", "L4", "--min-gpus", "4"],
        ["instances", "--region", "cn-northwest-1"],
        ["show", "p5.48xlarge"],
        ["show", "g6e.xlarge", "--region", "cn-north-1"],
        ["gpus"],
        ["models"],
        ["catalog", "info"],
        ["estimate", "--task", "serve", "--model", "llama-3.1-8b", "--instance", "g6e.xlarge"],
        ["estimate", "--task", "finetune", "--model", "llama-3.1-8b", "--tokens", "200M",
         "--instance", "p5.48xlarge"],
        ["estimate", "--task", "pretrain", "--model", "llama-3.1-70b", "--tokens", "1T",
         "--instance", "p5.48xlarge", "--count", "16"],
        ["estimate", "--workload", os.path.join(EX, "medical-imaging.yaml"), "--instance", "g6e.xlarge"],
        ["pricing", "p5.48xlarge", "--hours", "100"],
        ["pricing", "g6e.xlarge", "--hours", "5000"],
        ["pricing", "g5.xlarge", "--region", "cn-north-1", "--hours", "300"],
        ["idle", fleet],
        ["simulate", "--instance", "g5.xlarge", "--capacity-rps", "5", "--diurnal", "60,6", "--days", "1"],
        ["simulate", "--instance", "g6e.xlarge", "--diurnal", "40,5", "--task", "serve", "--model",
         "llama-3-8b", "--itl-p95", "50ms"],
        ["launch", "p5.48xlarge", "--count", "4", "--purchase", "spot", "--dataset-gib", "500",
         "--checkpoint-gib", "120"],
        ["launch", "trn1.32xlarge", "--region", "eu-north-1"],
        ["launch", "g6e.xlarge", "--format", "cloudformation"],
        ["launch", "g6e.xlarge", "--format", "terraform"],
        ["launch", "--from-plan", plans, "--format", "skypilot"],
        ["launch", "g5.xlarge", "--region", "cn-northwest-1", "--format", "skypilot"],
        ["commitments", os.path.join(EX, "cur2-sample.csv.gz")],
        ["account", "show"],
    ]
    for w in sorted(os.listdir(EX)):
        if w.endswith(".yaml"):
            cases.append(["recommend", "--workload", os.path.join(EX, w), "--top", "3"])
    cases += [c for c in help_scenarios() if c[0] != "recommend" or "--top" in c] + \
             [c + ["--top", "3"] for c in help_scenarios() if c[0] == "recommend"]

    unique = []
    for c in cases:
        if c not in unique:
            unique.append(c)
    cases = unique
    covered = {c[0] for c in cases}
    problems = []
    for name in subcommands():
        if name not in covered and name not in SKIP:
            problems.append(f"`{name}` (listed by `gpuadvisor --help`) is run by no case here")

    for rel in ("po/zh_CN.po", "web/i18n-zh-CN.js"):
        with open(os.path.join(SRC, rel), encoding="utf-8") as f:
            problems += variant_problems(rel, f.read())
    pending = load_pending()
    printed = {}  # command -> English words it prints
    total = 0
    for args in cases:
        rc, out, err = run(args)
        shown = "gpuadvisor --lang zh " + " ".join(os.path.relpath(a, SRC) if a.startswith("/") and not a.startswith(tmp) else
                                                    os.path.basename(a) if a.startswith(tmp) else a for a in args)
        if rc not in (0, 1, 2) or (rc != 0 and not err):
            problems.append(f"{shown}: exit {rc}: {err.strip()[:300]}")
        if args[0] == "launch":
            out = "\n".join(l for l in out.splitlines() if l.lstrip().startswith(("#", "//")))
        text = out + "\n" + err
        problems += variant_problems(shown, text)
        seen = {}
        for line in text.splitlines():
            for w in english_words(line):
                seen.setdefault(w, line.strip())
        printed.setdefault(args[0], set()).update(seen)
        new = {w: l for w, l in seen.items() if w not in pending.get(args[0], set())}
        total += len(new)
        if new:
            problems.append(f"{shown}: {len(new)} English word(s): " + ", ".join(sorted(new)))
            if VERBOSE:
                for w, line in sorted(new.items()):
                    problems.append(f"    {w}: {line[:200]}")
    if UPDATE:
        with open(PENDING_FILE, "w", encoding="utf-8") as f:
            f.write("# English words each command still prints under --lang zh: messages not translated yet\n"
                    "# (tests/cli/zh_everywhere_test.py). This list only shrinks: translate, then delete.\n")
            for cmd in sorted(printed):
                if printed[cmd]:
                    f.write(cmd + " " + " ".join(sorted(printed[cmd])) + "\n")
        print(f"wrote {PENDING_FILE}")
        return 0
    for cmd, words in sorted(pending.items()):
        gone = words - printed.get(cmd, set())
        if gone:
            problems.append(f"{cmd}: no longer prints {', '.join(sorted(gone))}: delete from "
                            f"tests/cli/zh_pending.txt (or run with --update-pending)")
    if problems and not total:
        print("\n".join(problems))
        print("FAIL: the problems above (tests/cli/zh_pending.txt, the command list or a term)")
        return 1
    if problems:
        print("\n".join(problems))
        print(f"FAIL: {total} English word(s) under --lang zh outside tests/cli/zh_allowlist.txt "
              f"(add a word there only with a reason it stays English)")
        return 1
    print(f"ok: {len(cases)} commands under --lang zh, no English outside the allow-list")
    return 0


if __name__ == "__main__":
    sys.exit(main())
