#!/usr/bin/env python3
"""The library reads no environment (issue 24, item 5).

Fails, naming file:line, when a source under src/ outside the front ends (src/cli/,
src/server/, src/python/) or a public header under include/ calls getenv/secure_getenv
(handing `environ` on to a child process, as `watch` does for the aws CLI, is not reading it):
settings such as today's date, allow-lists and endpoints are read by a front
end once, at start, and handed to the library (doc/design.md, "Layers").
Usage: layering_test.py [REPO_ROOT]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), ".."))
FRONT_ENDS = ("src/cli/", "src/server/", "src/python/")
ENV = re.compile(r"\b(secure_)?getenv\s*\(")


def sources():
    out = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard", "--", "src/",
                          "include/"], cwd=ROOT, capture_output=True, check=True)
    for path in out.stdout.decode().split("\0"):
        if path.endswith((".cc", ".h")) and not path.startswith(FRONT_ENDS):
            yield path


def main():
    bad = []
    for path in sources():
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if ENV.search(line.split("//", 1)[0]):
                    bad.append(f"{path}:{n}: reads the environment: {line.strip()}")
    for b in bad:
        print(b)
    if bad:
        print(f"layering: {len(bad)} library line(s) read the environment; read it in a front end "
              "and pass the value in")
        return 1
    print("layering: the library reads no environment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
