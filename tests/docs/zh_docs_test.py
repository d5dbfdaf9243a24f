#!/usr/bin/env python3
"""The Chinese docs keep up with the English ones (issue 42, item 1).

    python3 tests/docs/zh_docs_test.py REPO_ROOT [--bin BUILD/gpuadvisor]

Fails, naming the first difference, when

  (a) README.zh-CN.md's `##`/`###` sections no longer correspond one-to-one and in order to
      README.md's. Sections pair up in order, zh-only sections (ZH_ONLY below) left out; a pair
      must have the same level and the same inline-code spans in its heading (the English
      "### `instances` — filter, sort, compare" pairs with "### `instances`：筛选、排序、比较"),
      and the prose of the two sections must share most of its `code` spans (options, paths and
      commands stay as they are in a translation; MIN_OVERLAP below), so a heading without code
      cannot pair with the wrong section either. `####` and deeper belong to their section.
  (b) the console commands (`$ ` lines of the fenced blocks, continuations joined) of a pair of
      sections differ as multisets once `--lang zh` is removed and whitespace normalised. Every
      `gpuadvisor` command of a zh doc that is run (not in a block marked doc-example: skip) must
      say `gpuadvisor --lang zh ...`, except the commands in NOT_ACCEPTED, which still refuse
      `--lang` and keep the English command under a NOT_ACCEPTED_NOTE comment before their block.
      With --bin, each such command is tried with `--lang zh`: once it is accepted, the test says
      to add `--lang zh` there (and regenerate the output with doc_examples.py --update).
  (c) with --bin: doc/guide.zh-CN.md lacks a `##` section running each scenario command that
      `gpuadvisor --help` lists under "Start here". Matching (after removing `--lang zh`; the
      command ends at the first `|`, `;`, `>` or `&`): the same subcommand, and every option of the
      scenario given with the same value; more options are fine (`--regions`, `--top`, ...), and a
      `--workload examples/FILE.yaml` counts as the options that file holds (flags on the line win).
  (d) the prose of README.zh-CN.md or doc/guide.zh-CN.md is not mostly Chinese: a paragraph
      (outside fenced blocks, HTML comments, links and inline code) with more than MAX_ASCII_RUN
      consecutive ASCII words — a sentence left in English. Words made only of punctuation do
      not count; a word holding any non-ASCII character ends the run.

Needs python3 (stdlib only); the binary only for the --bin checks.
"""
import argparse
import collections
import os
import re
import shlex
import subprocess
import sys
import tempfile

EN_README, ZH_README, ZH_GUIDE = "README.md", "README.zh-CN.md", "doc/guide.zh-CN.md"
# Sections of README.zh-CN.md with no English counterpart (their commands are not compared).
ZH_ONLY = {"中文界面", "中国团队常用的模型", "更多"}
# Commands that refuse `gpuadvisor --lang zh ...` today (matched on their first word); the zh docs
# show them as in README.md, under this comment before the block.
NOT_ACCEPTED = ()
NOT_ACCEPTED_NOTE = "<!-- zh: --lang not accepted by this command yet -->"
MAX_ASCII_RUN = 12
# Paired sections whose prose has MIN_SPANS `code` spans or more (together) must share at least
# this share of them: a translation keeps option names, paths and commands as they are.
MIN_SPANS, MIN_OVERLAP = 4, 0.3
FENCE = re.compile(r"^\s*(```+)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LANG_ZH = re.compile(r"(?<=\s)--lang zh(?=\s|$)")


class Doc:
    """A markdown file: its headings, fenced blocks and prose, with line numbers (1-based)."""

    def __init__(self, root, rel):
        self.rel = rel
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            self.lines = f.read().split("\n")
        self.headings = []  # (line, level, title)
        self.blocks = []  # (open line, close line, body lines, comments just before, skipped)
        in_block, start, fence = False, 0, ""
        for n, line in enumerate(self.lines, 1):
            m = FENCE.match(line)
            if in_block:
                if line.strip() == fence:
                    body = self.lines[start:n - 1]
                    before = self.comments_before(start)
                    skipped = any(re.search(r"doc-example:\s*skip\b", c) for c in before)
                    self.blocks.append((start, n, body, before, skipped))
                    in_block = False
                continue
            if m:
                in_block, start, fence = True, n, m.group(1)
                continue
            h = HEADING.match(line)
            if h:
                self.headings.append((n, len(h.group(1)), h.group(2)))

    def comments_before(self, line):
        """The HTML comments (and blank lines) right above the block opening at `line`."""
        out, k = [], line - 2
        while k >= 0:
            text = self.lines[k].strip()
            if not text:
                k -= 1
                continue
            if text.endswith("-->"):
                j = k
                while j > 0 and "<!--" not in self.lines[j]:
                    j -= 1
                out.append("\n".join(self.lines[j:k + 1]))
                k = j - 1
                continue
            break
        return out

    def sections(self, levels=(2, 3)):
        """[(line, level, title, end line)]: each heading of the levels, up to the next one."""
        hs = [h for h in self.headings if h[1] in levels]
        out = []
        for i, (n, level, title) in enumerate(hs):
            end = hs[i + 1][0] if i + 1 < len(hs) else len(self.lines) + 1
            out.append((n, level, title, end))
        return out

    def commands(self, lo, hi):
        """[(line, command, block)] of the console blocks opening between lines lo and hi."""
        out = []
        for block in self.blocks:
            start, _, body, _, _ = block
            if not lo < start < hi:
                continue
            k = 0
            while k < len(body):
                if body[k].startswith("$ "):
                    at, cmd = k, body[k][2:]
                    while cmd.endswith("\\") and k + 1 < len(body):
                        k += 1
                        cmd = cmd[:-1] + " " + body[k]
                    out.append((start + 1 + at, cmd, block))
                k += 1
        return out


def code_spans(text):
    return sorted(re.findall(r"`([^`]+)`", text))


def normalise(cmd):
    return " ".join(LANG_ZH.sub("", cmd).split())


def where(doc, line):
    return f"{doc.rel}:{line}"


# ---------------------------------------------------------------- (a), (b) README sections


def check_sections(en, zh):
    """The pairs of (en, zh) sections, and the first structural difference (or None)."""
    es = en.sections()
    zs = [s for s in zh.sections() if s[2] not in ZH_ONLY]
    pairs = []
    for i in range(max(len(es), len(zs))):
        e = es[i] if i < len(es) else None
        z = zs[i] if i < len(zs) else None
        if e is None:
            return pairs, (f"{where(zh, z[0])}: section {'#' * z[1]} {z[2]!r} has no counterpart in "
                           f"{en.rel} (it ends before); translate-only sections go in ZH_ONLY of this test")
        if z is None:
            return pairs, (f"{where(en, e[0])}: section {'#' * e[1]} {e[2]!r} has no counterpart in "
                           f"{zh.rel} (it ends before): translate it")
        if e[1] != z[1] or (code_spans(z[2]) and code_spans(e[2]) != code_spans(z[2])) or (
                code_spans(e[2]) and code_spans(e[2]) != code_spans(z[2])):
            return pairs, (f"{where(en, e[0])}: section {'#' * e[1]} {e[2]!r} (no. {i + 1}) does not match "
                           f"{where(zh, z[0])} {'#' * z[1]} {z[2]!r}: the zh sections must follow "
                           f"{en.rel}'s one to one, in order, with the same level and the same `code` in "
                           "the heading (a section missing, added or moved?)")
        a, b = body_spans(en, e), body_spans(zh, z)
        if len(a | b) >= MIN_SPANS and len(a & b) < MIN_OVERLAP * len(a | b):
            return pairs, (f"{where(en, e[0])}: section {'#' * e[1]} {e[2]!r} (no. {i + 1}) does not match "
                           f"{where(zh, z[0])} {'#' * z[1]} {z[2]!r}: their texts share {len(a & b)} of "
                           f"{len(a | b)} `code` spans (a translation keeps them): a section missing, added "
                           "or moved?")
        pairs.append((e, z))
    return pairs, None


def body_spans(doc, section):
    """The inline code of a section's prose (fenced blocks left out), whitespace normalised."""
    hidden = set()
    for start, end, _, _, _ in doc.blocks:
        hidden.update(range(start, end + 1))
    text = "\n".join(l for n, l in enumerate(doc.lines[section[0]:section[3] - 1], section[0] + 1)
                     if n not in hidden)
    return {" ".join(m.split()) for m in re.findall(r"`([^`]+)`", text)}


def check_commands(en, zh, pairs):
    for e, z in pairs:
        ec = collections.Counter(normalise(c) for _, c, _ in en.commands(e[0], e[3]))
        zc = collections.Counter(normalise(c) for _, c, _ in zh.commands(z[0], z[3]))
        if ec != zc:
            missing = list((ec - zc).elements())
            extra = list((zc - ec).elements())
            what = []
            if missing:
                what.append(f"missing `$ {missing[0]}`" + (f" and {len(missing) - 1} more" if len(missing) > 1 else ""))
            if extra:
                what.append(f"not in {en.rel}: `$ {extra[0]}`" + (f" and {len(extra) - 1} more" if len(extra) > 1 else ""))
            return (f"{where(zh, z[0])}: section {z[2]!r} runs other commands than {where(en, e[0])} "
                    f"{e[2]!r} (compared without --lang zh): " + "; ".join(what))
    return None


def first_word(cmd):
    words = normalise(cmd).split()
    return words[1] if len(words) > 1 and words[0] == "gpuadvisor" else None


def check_lang(doc):
    """Every run gpuadvisor command says --lang zh, or is a documented refusal under the note."""
    problems, refused = [], {}
    for line, cmd, (start, _, _, before, skipped) in doc.commands(0, len(doc.lines) + 1):
        if skipped or not cmd.startswith("gpuadvisor"):
            continue
        word = first_word(cmd)
        has_note = any(NOT_ACCEPTED_NOTE in c for c in before)
        if cmd.startswith("gpuadvisor --lang zh ") or cmd == "gpuadvisor --lang zh":
            if word in NOT_ACCEPTED:
                problems.append(f"{where(doc, line)}: `{word}` is listed as refusing --lang (NOT_ACCEPTED in "
                                "this test) but the doc runs it with --lang zh: drop it from NOT_ACCEPTED "
                                "once the command accepts it")
            continue
        if word not in NOT_ACCEPTED:
            problems.append(f"{where(doc, line)}: `$ {cmd}` lacks `--lang zh` right after `gpuadvisor` "
                            f"(only {', '.join(NOT_ACCEPTED)} may, under {NOT_ACCEPTED_NOTE})")
        elif not has_note:
            problems.append(f"{where(doc, line)}: `$ {cmd}` runs without --lang zh: put "
                            f"{NOT_ACCEPTED_NOTE} before its block (line {start})")
        else:
            words = normalise(cmd).split()[1:]
            key = tuple(words[:2] if len(words) > 1 and not words[1].startswith("-") else words[:1])
            refused.setdefault(key, (where(doc, line), shell_words(cmd)[1:]))
    return problems, refused


def probe_refusals(binary, refused):
    """The NOT_ACCEPTED commands that now accept --lang zh: each kind (`catalog import`, `launch`,
    ...) is run once, as its first use in the docs with --lang zh, in an empty directory (its input
    files absent: an accepted --lang then fails on them, or runs, instead of naming --lang)."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="zh-docs-") as d:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GPUADVISOR_", "AWS_", "XDG_"))}
        env.update(HOME=d, XDG_DATA_HOME=d, GPUADVISOR_CATALOG="embedded", LC_ALL="C.UTF-8")
        for key, (at, words) in sorted(refused.items()):
            args = [binary, "--lang", "zh", *words]
            if key == ("serve",) and "--port" not in words:
                args += ["--port", "0"]
            try:
                p = subprocess.run(args, cwd=d, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                                   text=True, timeout=10)
                out, rc = p.stdout + p.stderr, p.returncode
            except subprocess.TimeoutExpired:
                out, rc = "", None  # it ran (a server): accepted
            if not (rc == 2 and "--lang" in out):
                problems.append(f"{at}: `gpuadvisor --lang zh {' '.join(key)}` is accepted now: add --lang zh "
                                "after gpuadvisor in the zh docs, drop the note before the block, regenerate "
                                "its output (doc_examples.py --update) and update NOT_ACCEPTED in this test")
    return problems


# ---------------------------------------------------------------- (c) the guide's scenarios


def scenarios(binary):
    out = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=60).stdout.split("\n")
    start = next((i for i, l in enumerate(out) if l.startswith("Start here")), None)
    if start is None:
        raise SystemExit("zh_docs_test: `gpuadvisor --help` has no \"Start here\" section of scenarios")
    found = []
    for line in out[start + 1:]:
        if not line.startswith("  "):
            break
        m = re.match(r"\s+(.*?)\s{2,}(gpuadvisor\s.*)$", line)
        if m:
            found.append((m.group(1), m.group(2).strip()))
    return found


def shell_words(cmd):
    """The words of a command line without --lang zh, up to its first `|`, `;`, `&`, `>` or `#`."""
    lex = shlex.shlex(normalise(cmd), posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = "#"
    tokens = []
    for t in lex:
        if t and all(c in "|;&<>()" for c in t):
            break
        tokens.append(t)
    return tokens


def parse_command(cmd, root):
    """(subcommand words, {option: value}) of one shell command line; --workload files expanded."""
    tokens = shell_words(cmd)
    if not tokens or tokens[0] != "gpuadvisor":
        return None, {}
    words, opts, k = [], {}, 1
    while k < len(tokens) and not tokens[k].startswith("-"):
        words.append(tokens[k])
        k += 1
    while k < len(tokens):
        t = tokens[k]
        if t.startswith("--"):
            name, eq, value = t.partition("=")
            if not eq:
                value = tokens[k + 1] if k + 1 < len(tokens) and not tokens[k + 1].startswith("--") else "true"
                k += 0 if value == "true" else 1
            opts[name] = value
        k += 1
    workload = opts.get("--workload")
    if workload and os.path.isfile(os.path.join(root, workload)):
        with open(os.path.join(root, workload), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"([A-Za-z0-9_-]+):\s*(.*?)\s*(#.*)?$", line)
                if m and m.group(2):
                    opts.setdefault("--" + m.group(1), m.group(2).strip("'\""))
    return words, opts


def check_guide(guide, binary, root):
    runs = []  # (section, words, options)
    for n, _, title, end in guide.sections(levels=(2,)):
        for _, cmd, _ in guide.commands(n, end):
            words, opts = parse_command(cmd, root)
            if words is not None:
                runs.append((title, words, opts))
    problems = []
    for label, cmd in scenarios(binary):
        words, opts = parse_command(cmd, root)
        if not any(w == words and all(o.get(k) == v for k, v in opts.items()) for _, w, o in runs):
            problems.append(f"{guide.rel}: no `##` section runs the buying guide's scenario \"{label}\" "
                            f"(`gpuadvisor --help`): `{cmd}`; add one whose example runs it with --lang zh "
                            "(more options such as --regions or --top are fine)")
    return problems


# ---------------------------------------------------------------- (d) prose is Chinese


def prose_paragraphs(doc):
    """[(first line, text)] outside fenced blocks and HTML comments, split at blank lines."""
    hidden = set()
    for start, end, _, _, _ in doc.blocks:
        hidden.update(range(start, end + 1))
    text = "\n".join("" if n in hidden else l for n, l in enumerate(doc.lines, 1))
    text = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    paragraphs, cur, first = [], [], 0
    for n, line in enumerate(text.split("\n"), 1):
        if line.strip():
            if not cur:
                first = n
            cur.append(line)
        elif cur:
            paragraphs.append((first, "\n".join(cur)))
            cur = []
    if cur:
        paragraphs.append((first, "\n".join(cur)))
    return paragraphs


def ascii_runs(text):
    text = re.sub(r"(`+)(.+?)\1", " ", text, flags=re.S)  # inline code
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", " ", text)  # links and images
    text = re.sub(r"<https?://[^>]*>|https?://\S+", " ", text)  # bare URLs
    run, longest = [], []
    for word in text.split():
        if not word.isascii():
            run = []
        elif re.search(r"[A-Za-z0-9]", word):
            run.append(word)
            if len(run) > len(longest):
                longest = list(run)
    return longest


def check_prose(doc):
    for line, text in prose_paragraphs(doc):
        run = ascii_runs(text)
        if len(run) > MAX_ASCII_RUN:
            return (f"{where(doc, line)}: the paragraph here has {len(run)} ASCII words in a row "
                    f"(\"{' '.join(run[:16])}{' ...' if len(run) > 16 else ''}\"): translate it, or put "
                    f"names, options and quoted output in `code` (more than {MAX_ASCII_RUN} fails)")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--bin", help="the built gpuadvisor (for the scenario list and the --lang probes)")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    en, zh, guide = Doc(root, EN_README), Doc(root, ZH_README), Doc(root, ZH_GUIDE)

    problems = []
    pairs, structural = check_sections(en, zh)
    if structural:
        problems.append(structural)
    differs = check_commands(en, zh, pairs)
    if differs:
        problems.append(differs)
    refused = {}
    for doc in (zh, guide):
        p, r = check_lang(doc)
        problems += p
        for k, v in r.items():
            refused.setdefault(k, v)
    if args.bin:
        problems += probe_refusals(os.path.abspath(args.bin), refused)
        problems += check_guide(guide, os.path.abspath(args.bin), root)
    for doc in (zh, guide):
        p = check_prose(doc)
        if p:
            problems.append(p)

    for p in problems:
        print(p, file=sys.stderr)
    checked = (f"{len(pairs)} section pairs, {sum(1 for d in (zh, guide) for _ in d.commands(0, len(d.lines) + 1))} "
               f"zh commands" + (", the guide's scenarios and the --lang refusals" if args.bin else ""))
    print(f"zh_docs_test: {checked}; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
