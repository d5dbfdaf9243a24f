#!/usr/bin/env python3
"""Lists the C++ functions longer than N lines, longest first.

  python3 scripts/long-functions.py                  functions over 60 lines under src/
  python3 scripts/long-functions.py -n 100 src/idle  over 100 lines, one folder (or files)

A function's length is counted from the first line of its signature to its closing brace,
both included (so a 3-line signature plus a 10-line body counts 13). Lambdas and local
classes count towards the function that contains them. The scan is lexical, not a compiler:
comments, string and character literals (raw strings included) are blanked, then braces are
matched; a "{" opens a function body when the text before it, back to the previous ";",
"{", "}" or access specifier, ends with a parameter list (optionally followed by const,
noexcept, override, a trailing return type or a constructor's member initialisers) and does
not start with a control keyword. Good enough for this code base's Google-style formatting;
not a CI gate.
Exit: 0 always (it is a report), 2 on bad usage.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTENSIONS = (".cc", ".h", ".cpp", ".hpp")
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else|return|case)\b")
# A scope that is not a function: namespace, class/struct/union/enum, extern "C".
AGGREGATE = re.compile(r"\b(namespace|class|struct|union|enum)\b[^()]*$|^\s*extern\s*$")
ACCESS = re.compile(r"\b(public|private|protected)\s*$")
NAME_BEFORE_PARAMS = re.compile(r"([~\w:<>]+|operator\s*\S+)\s*\($")


def blank_comments_and_strings(text):
    """Returns text with comments and literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def function_name(head):
    """Returns the function name if `head` (text before a "{") ends a function signature."""
    head = re.sub(r"^\s*#.*$", "", head, flags=re.M)  # preprocessor lines
    if CONTROL.match(head) or AGGREGATE.search(head) or "=" in head.split("(")[0]:
        return None
    # Strip a constructor's member initialisers: "X::X(int a) : a_(a), b_{}" -> "X::X(int a)".
    depth, cut = 0, None
    for k, ch in enumerate(head):
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        elif ch == ":" and depth == 0 and head[k - 1:k] != ":" and head[k + 1:k + 2] != ":":
            cut = k
            break
    sig = head[:cut] if cut is not None else head
    sig = re.sub(r"->\s*[\w:<>,\s*&]+$", "", sig.rstrip())  # trailing return type
    sig = re.sub(r"(\b(const|noexcept|override|final|mutable)\b|\s|&)*$", "", sig)
    if not sig.endswith(")"):
        return None
    depth = 0
    for k in range(len(sig) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(sig[k], 0)
        if depth == 0:
            m = NAME_BEFORE_PARAMS.search(sig[:k + 1])
            return m.group(1) if m else None
    return None


def scan(path):
    """Yields (name, first_line, last_line) for each function defined in the file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = blank_comments_and_strings(f.read())
    stack = []  # per open "{": function name or None
    last_stop = 0  # index after the previous ";", "{" or "}" at the current level
    for i, ch in enumerate(text):
        if ch == "{":
            name = None
            if all(s is None for s in stack):  # not nested inside a function
                head = text[last_stop:i]
                name = function_name(head)
                if name:
                    first = text.count("\n", 0, last_stop + len(head) - len(head.lstrip()))
                    stack.append((name, first + 1))
                    last_stop = i + 1
                    continue
            stack.append(None)
            last_stop = i + 1
        elif ch == "}":
            top = stack.pop() if stack else None
            if top is not None:
                yield top[0], top[1], text.count("\n", 0, i) + 1
            last_stop = i + 1
        elif ch == ";":
            last_stop = i + 1
        elif ch == ":" and ACCESS.search(text, last_stop, i) and text[i + 1:i + 2] != ":":
            last_stop = i + 1  # "public:" / "private:" ends nothing but starts the next member


def files_under(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for dirpath, _, names in os.walk(p):
            for name in sorted(names):
                if name.endswith(EXTENSIONS):
                    yield os.path.join(dirpath, name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=60, help="report functions over N lines (60)")
    ap.add_argument("paths", nargs="*", help="files or folders (default: src/)")
    args = ap.parse_args()
    paths = args.paths or [os.path.join(ROOT, "src")]
    rows = []
    for path in files_under(paths):
        rel = os.path.relpath(path, ROOT) if os.path.isabs(path) else path
        for name, first, last in scan(path):
            if last - first + 1 > args.n:
                rows.append((last - first + 1, f"{rel}:{first}", name))
    for length, where, name in sorted(rows, key=lambda r: (-r[0], r[1])):
        print(f"{length:5d}  {where}  {name}")
    print(f"{len(rows)} function(s) over {args.n} lines", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
