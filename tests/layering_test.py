#!/usr/bin/env python3
"""The library reads no environment and speaks no CLI (issue 24, items 2 and 5).

Fails, naming file:line, when a source under src/ outside the front ends (src/cli/,
src/server/, src/python/) or a public header under include/ calls getenv/secure_getenv
(handing `environ` on to a child process, as `watch` does for the aws CLI, is not reading it):
settings such as today's date, allow-lists and endpoints are read by a front
end once, at start, and handed to the library (doc/design.md, "Layers").

And no string literal in those sources begins with "--": the library names a field in neutral
words ("min-gpus: expected ...") and each front end spells it (`--min-gpus` in the CLI, `min-gpus`
over HTTP, `min_gpus` in Python). The one exception is another program's command line that the
library writes (the aws CLI's `--instance-ids`, mdadm's `--raid-devices`): such a line says so in
a comment, "another program's flag".
And the layers keep to their folders (doc/design.md, "Three layers"): a public header under
include/ includes only public headers; the library (src/ but app/ and the front ends) includes
neither the application layer (app/) nor a front end; a front end includes only the public API,
the application layer, util/ and the front ends' own headers, never a library internal; and no
declaration in include/ says which front ends offer a field (FrontEnd, front_ends, kCli ...).
And every process gets an argument vector, never a command line split from a string (issue 43:
a catalog name with spaces became extra AWS CLI arguments): only the runners start processes
(posix_spawn, exec*, system, popen: SPAWN_FILES), and in the files that build a process's
arguments (ARGV_FILES) no string literal holds an option glued to text, " --next-token " or
"ec2 describe-x --filters ..." (a name shown to the user, not run, says "shown, not run").
Usage: layering_test.py [REPO_ROOT]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), ".."))
FRONT_ENDS = ("src/cli/", "src/server/", "src/python/")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
FRONT_END_MAY = ("gpuadvisor/", "app/", "util/", "cli/", "server/")
ENV = re.compile(r"\b(secure_)?getenv\s*\(")
OTHER_PROGRAM = "another program's flag"
PROCESS = re.compile(r"\b(posix_spawnp?|execv[pe]?|execl[pe]?|system|popen)\s*\(")
# The runners: the AWS CLI's (account scan, catalog update --aws), watch's (nvidia-smi, actions)
# and serve's re-exec of itself.
SPAWN_FILES = ("src/cli/process.cc", "src/cli/serve_exec.cc")
ARGV_FILES = ("src/catalog/import/update.cc", "src/cli/cmd_account.cc", "src/cli/aws_cli.cc",
              "src/watch/watch.cc", "src/cli/cmd_watch.cc", "src/cli/cmd_catalog_update.cc",
              "src/cli/serve_exec.cc", "src/cli/cmd_commitments.cc")
GLUED = re.compile(r"^(\s+|(aws|ec2|pricing|savingsplans|sts|service-quotas|nvidia-smi|sh)"
                   r"( [a-z0-9-]+)* )--[a-z]")
SHOWN = "shown, not run"


# A command's argument struct (`struct CatalogBuildArgs {`): the front ends', never include/'s.
COMMAND_ARGS = re.compile(r"\s*struct\s+\w+Args\b")
# Which front ends offer a field (`.front_ends = kCli`, `FrontEnd`): src/app/options.h decides it,
# never a declaration in include/ (issue 40, item 3).
FRONT_END_BITS = re.compile(r"\b(front_ends|FrontEnd|kCli|kHttp|kPython|kEveryFrontEnd)\b")


def code_and_literals(line):
    """The line's code (comments cut) and the string literals in it."""
    code, literals, i, cur, quote = [], [], 0, None, None
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                cur.append(line[i:i + 2])
                i += 2
                continue
            if ch == quote:
                if quote == '"':
                    literals.append("".join(cur))
                quote = None
            else:
                cur.append(ch)
        elif line.startswith("//", i):
            break
        elif ch in "\"'":
            quote, cur = ch, []
        code.append(ch)
        i += 1
    return "".join(code), literals


def sources():
    out = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard", "--", "src/",
                          "include/"], cwd=ROOT, capture_output=True, check=True)
    for path in out.stdout.decode().split("\0"):
        if path.endswith((".cc", ".h")) and not path.startswith(FRONT_ENDS):
            yield path


def all_sources():
    out = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard", "--", "src/",
                          "include/"], cwd=ROOT, capture_output=True, check=True)
    return [p for p in out.stdout.decode().split("\0") if p.endswith((".cc", ".h"))]


def include_problem(path, header):
    """Why `path` may not include `header`, or None."""
    if path.startswith("include/"):
        return None if header.startswith("gpuadvisor/") else "a public header includes an internal one"
    if path.startswith(FRONT_ENDS):
        if header.startswith(FRONT_END_MAY) or "/" not in header:
            return None
        return "a front end includes a library internal"
    if path.startswith("src/app/"):
        if header.startswith(("cli/", "server/")):
            return "the application layer includes a front end"
        return None
    if header.startswith(("app/", "cli/", "server/")):
        return "the library includes the application layer or a front end"
    return None


def main():
    bad = []
    for path in all_sources():
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m:
                    why = include_problem(path, m.group(1))
                    if why:
                        bad.append(f"{path}:{n}: {why}: {line.strip()}")
    for path in sources():
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                code, literals = code_and_literals(line)
                if ENV.search(code):
                    bad.append(f"{path}:{n}: reads the environment: {line.strip()}")
                if OTHER_PROGRAM not in line and any(lit.startswith("--") for lit in literals):
                    bad.append(f"{path}:{n}: a CLI flag in the library: {line.strip()}")
    for path in all_sources():
        if not path.startswith("include/"):
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if COMMAND_ARGS.match(line):
                    bad.append(f"{path}:{n}: a command's arguments in the public API (they are "
                               f"the front end's: src/app/command_args.h): {line.strip()}")
                code, _ = code_and_literals(line)
                if FRONT_END_BITS.search(code):
                    bad.append(f"{path}:{n}: front-end bits in the public API (which front ends "
                               f"offer a field is src/app/options.h's: OfferedBy, CommandOf): "
                               f"{line.strip()}")
    for path in all_sources():
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                code, literals = code_and_literals(line)
                if PROCESS.search(code) and path not in SPAWN_FILES and "std::system_error" not in code:
                    bad.append(f"{path}:{n}: starts a process outside the runners: {line.strip()}")
                if path in ARGV_FILES and SHOWN not in line and any(GLUED.match(lit) for lit in literals):
                    bad.append(f"{path}:{n}: a command line built as a string (one argv element "
                               f"per value): {line.strip()}")
    for b in bad:
        print(b)
    if bad:
        print(f"layering: {len(bad)} line(s) cross a layer (doc/design.md, \"Three layers\"), read the "
              "environment in the library (read it in a front end and pass the value in) or spell a "
              "CLI flag there (name the field; the front end spells it)")
        return 1
    print("layering: each layer includes only what it may; the library reads no environment and "
          "spells no CLI flag")
    return 0


if __name__ == "__main__":
    sys.exit(main())
