#!/usr/bin/env python3
"""Every option of every command is used by some test, other than for an error message.

The options come from the binary's own --help (so a new option is listed the day it is added);
a test "uses" one when a line of a test file under tests/ names it (`--name`) and is not an
expect_exit line, or, for a workload field, when the field has its row in
tests/workload/option_effects_test.cc (that test checks each field changes the estimate).
Options left out on purpose are listed in tests/cli/options_untested.txt with the reason; an
entry there for an option that is now used, or no longer exists, fails too (the list only
shrinks). Usage: options_covered.py PATH/TO/gpuadvisor TESTS_DIR
"""
import os
import re
import subprocess
import sys

COMMON = {"--help", "--format", "--json", "--catalog", "--max-price-age", "--no-color"}


def run_help(binary, words):
    out = subprocess.run([binary, *words, "--help"], capture_output=True, text=True)
    return out.stdout


def subcommands(text):
    """Names listed under "Subcommands:" in a help text."""
    names, inside = [], False
    for line in text.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
            continue
        if inside:
            m = re.match(r"^  ([a-z][a-z-]*)\s", line)
            if not m:
                break
            names.append(m.group(1))
    return names


def options(text):
    return set(re.findall(r"^\s+(?:-\w,)?(--[a-z][a-z0-9-]*)", text, re.M))


def commands(binary, words=()):
    text = run_help(binary, list(words))
    subs = subcommands(text)
    if not subs:
        return {" ".join(words): options(text) - COMMON}
    out = {}
    for s in subs:
        out.update(commands(binary, (*words, s)))
    return out


def used_options(tests_dir):
    used = set()
    for root, _, files in os.walk(tests_dir):
        for name in files:
            if not name.endswith((".sh", ".py", ".cc", ".js")) or name == "options_covered.py":
                continue
            with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                for line in f:
                    if "expect_exit" in line:
                        continue
                    used.update(re.findall(r"--[a-z][a-z0-9-]*", line))
    effects = os.path.join(tests_dir, "workload", "option_effects_test.cc")
    with open(effects, encoding="utf-8") as f:
        used.update("--" + m for m in re.findall(r'^\s+\{"([a-z0-9-]+)", "', f.read(), re.M))
    return used


def allowlist(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"^(\S+(?: \S+)*?) (--[a-z0-9-]+)\s+(\S.*)$", line)
            if not m:
                sys.exit(f"{path}:{n}: expected COMMAND --OPTION REASON")
            out[(m.group(1), m.group(2))] = m.group(3)
    return out


def main():
    binary, tests_dir = sys.argv[1], sys.argv[2]
    cmds = commands(binary)
    if len(cmds) < 10:
        sys.exit(f"options_covered: only {len(cmds)} commands found in --help")
    used = used_options(tests_dir)
    allowed = allowlist(os.path.join(tests_dir, "cli", "options_untested.txt"))
    bad = []
    for cmd, opts in sorted(cmds.items()):
        for o in sorted(opts):
            if o not in used and (cmd, o) not in allowed:
                bad.append(f"{cmd} {o}: no test uses it (add one, or list it with a reason in "
                           "tests/cli/options_untested.txt)")
    for (cmd, o), _ in sorted(allowed.items()):
        if o not in cmds.get(cmd, set()):
            bad.append(f"{cmd} {o}: listed as untested but the command has no such option")
        elif o in used:
            bad.append(f"{cmd} {o}: listed as untested but a test uses it now: remove the line")
    for b in bad:
        print("FAIL:", b)
    total = sum(len(v) for v in cmds.values())
    print(f"options_covered: {len(cmds)} commands, {total} options, {len(allowed)} allowed "
          f"untested, {len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
