#!/usr/bin/env python3
"""CONTRIBUTING.md's recipes name every file a new extension must touch (issue 40, item 7).

Each recipe under CONTRIBUTING.md's "## Recipes" (a "### " heading per extension point: task kind,
instance family, option, output format, telemetry source, launch format) lists files as paths in
backticks. Each has a probe here: rules that find, in the tree, the places that know the existing
members by name — a switch over the enum, a name table, a list of every member in code or prose,
a loop bounded by the last enumerator. The members come from the code itself (the TaskKind enum
and its name table, wherever they live; the LaunchFormat/TelemetryFormat/OutputFormat enums and
name tables; the catalog's families; the workload field table), so a new member moves the probe
with it.

The test fails, saying what to do, when
- a file matches a probe but its recipe does not list it (a new switch over TaskKind in a new
  file; a new list of launch formats in a doc),
- a recipe lists a file that does not exist, or one that no probe rule matches any more (the
  table moved, or the file lost a member: a new one was added everywhere but there),
- a path with a placeholder (`src/launch/render_<name>.cc`) matches no existing file.

    python3 tests/docs/recipes_test.py [REPO_ROOT] [--show]

--show prints each probe's files with the rule and line that matched (for writing a recipe).
Needs python3 and the source tree only.
"""
import bisect
import fnmatch
import glob
import json
import os
import re
import subprocess
import sys

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
SHOW = "--show" in sys.argv[1:]
ROOT = os.path.abspath(ARGS[0] if ARGS else os.path.join(os.path.dirname(__file__), "..", ".."))
DOC = "CONTRIBUTING.md"
SELF = "tests/docs/recipes_test.py"

# Sample data, not code: corpora, fixtures, translations catalogs, the generated OpenAPI document.
NOT_SCANNED = ("fuzz/corpus/", "fuzz/regressions/", "po/", "web/vendor/", "src/server/openapi.json")
# Where the probes look (data/ only where a rule says so).
CODE = ("src/", "include/", "python/", "web/", "tests/", "fuzz/", "scripts/", "bench/",
        "CMakeLists.txt")
DOCS = ("doc/", "README.md", "README.zh-CN.md")


class ProbeError(Exception):
    pass


def tree_files():
    """Tracked and untracked-not-ignored files: a new file counts before it is committed."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    if out.returncode == 0:
        names = out.stdout.split("\n")
    else:  # not a git checkout (a source tarball)
        names = [os.path.relpath(os.path.join(d, f), ROOT).replace(os.sep, "/")
                 for d, _, fs in os.walk(ROOT) if "/.git" not in d for f in fs]
    keep = []
    for n in names:
        if not n or n in (DOC, SELF) or n.startswith(NOT_SCANNED) or "/fixtures/" in n:
            continue
        if os.path.isfile(os.path.join(ROOT, n)):
            keep.append(n)
    return sorted(keep)


FILES = tree_files()
_TEXT = {}


def text(path):
    if path not in _TEXT:
        try:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                _TEXT[path] = f.read()
        except (UnicodeDecodeError, OSError):
            _TEXT[path] = ""
    return _TEXT[path]


def in_scope(path, scope):
    return any(path == s or path.startswith(s) for s in scope)


def line_of(path, pos):
    t = text(path)
    n = t.count("\n", 0, pos) + 1
    start = t.rfind("\n", 0, pos) + 1
    end = t.find("\n", pos)
    return n, t[start:end if end >= 0 else len(t)].strip()[:100]


def find_one(regex, scope=("src/", "include/"), what=""):
    """The one file (in scope) matching regex, and the match."""
    hits = [(p, m) for p in FILES if in_scope(p, scope) for m in [re.search(regex, text(p), re.S)]
            if m]
    if len(hits) != 1:
        raise ProbeError(f"expected one file with {what or regex}, found "
                         f"{[p for p, _ in hits] or 'none'}: update the probe in {SELF}")
    return hits[0]


def enum_members(name):
    """Enumerators of `enum class name`, wherever it is declared."""
    _, m = find_one(r"enum class " + name + r"\s*\{([^}]*)\}", scope=("src/", "include/"),
                    what=f"enum class {name}")
    return re.findall(r"\b(k\w+)\b", re.sub(r"//[^\n]*", "", m.group(1)))


def name_table(enum):
    """(enumerator, name) of enum's name table: `{Enum::kX, "x"}` rows, wherever they are."""
    _, m = find_one(r"\{\s*" + enum + r"::k\w+,\s*\"[^\"]+\"\s*\}(?:\s*,\s*\{\s*" + enum +
                    r"::k\w+,\s*\"[^\"]+\"\s*\})+", what=f"the name table of {enum}")
    return re.findall(enum + r"::(k\w+),\s*\"([^\"]+)\"", m.group(0))


# ---- rules: each returns {path: (line, text)} of the files it matches ----

class Rule:
    def __init__(self, why, scope):
        self.why, self.scope = why, scope

    def files(self):
        out = {}
        for p in FILES:
            if in_scope(p, self.scope):
                pos = self.match(text(p))
                if pos is not None:
                    out[p] = line_of(p, pos)
        return out


class Pattern(Rule):
    """Files where a regex matches."""
    def __init__(self, why, regex, scope=CODE, flags=0):
        super().__init__(why, scope)
        self.re = re.compile(regex, flags)

    def match(self, t):
        m = self.re.search(t)
        return m.start() if m else None


class Every(Rule):
    """Files naming every token (regexes), anywhere or all within `window` characters."""
    def __init__(self, why, tokens, scope=CODE, window=None, flags=0, labels=None):
        super().__init__(why, scope)
        if not tokens:
            raise ProbeError(f"no members for the rule '{why}': update the probe in {SELF}")
        self.tokens = [re.compile(x, flags) for x in tokens]
        self.labels = labels or tokens
        self.window = window

    def missing(self, t):
        """The members a file that names most of them lacks (a half-done addition)."""
        gone = [lab for x, lab in zip(self.tokens, self.labels) if not x.search(t)]
        return gone if 0 < len(gone) <= len(self.tokens) // 2 else []

    def match(self, t):
        first = []
        for x in self.tokens:  # cheap: most files lack some token
            m = x.search(t)
            if not m:
                return None
            first.append(m.start())
        if self.window is None:
            return min(first)
        pos = [[m.start() for m in x.finditer(t)] for x in self.tokens]
        for p0 in pos[0]:
            lo, hi = p0 - self.window, p0 + self.window
            if all(bisect.bisect_left(ps, lo) < bisect.bisect_right(ps, hi) for ps in pos[1:]):
                return p0
        return None


class Several(Rule):
    """Files naming at least n distinct matches of a regex within `window` characters."""
    def __init__(self, why, regex, n, window, scope=CODE, flags=0):
        super().__init__(why, scope)
        self.re, self.n, self.window = re.compile(regex, flags), n, window

    def match(self, t):
        hits = [(m.start(), m.group(1).lower()) for m in self.re.finditer(t)]
        count, lo = {}, 0
        for p, name in hits:  # a sliding window over the matches
            count[name] = count.get(name, 0) + 1
            while hits[lo][0] < p - self.window:
                gone = hits[lo][1]
                count[gone] -= 1
                if not count[gone]:
                    del count[gone]
                lo += 1
            if len(count) >= self.n:
                return hits[lo][0]
        return None


def word(name):
    """A name as a whole word (a hyphenated name is one word)."""
    return r"(?<![\w-])" + re.escape(name) + r"(?![\w-])"


def enumerator(e):
    return r"\b" + e + r"\b"


def prefix(name):
    """A member's first word, as the start of a word: "nvidia-smi-csv" -> nvidia (nvidia-smi CSV),
    "aws-cli" -> aws (AWS CLI, awsCli)."""
    return r"(?<![A-Za-z])" + re.escape(name.split("-")[0])


# ---- the probes, one per recipe heading ----

def task_kind():
    kinds = enum_members("TaskKind")
    kinds = [k for k in kinds if k != "kCount"]
    # The registry (src/workload/task_kinds.h): {.kind = TaskKind::kX, .name = "x", ...,
    # .validate = ValidateX, .estimate = EstimateX}, one entry per kind.
    registry, m = find_one(r"\.kind = TaskKind::k\w+, \.name = \"[^\"]+\"",
                           what="the task kind registry (kTaskKinds)")
    entries = re.findall(r"\.kind = TaskKind::(k\w+), \.name = \"([^\"]+)\"", text(registry))
    names = [n for _, n in entries]
    estimators = sorted(set(re.findall(r"\.estimate = (Estimate\w+)", text(registry))))
    validators = sorted(set(re.findall(r"\.validate = (Validate\w+)", text(registry))))
    scope = CODE + DOCS
    return [
        Every("names every TaskKind enumerator", [enumerator(k) for k in kinds], scope,
              labels=kinds),
        Every("names every task kind", [word(n) for n in names], scope, labels=names),
        Pattern("switches on TaskKind", r"case TaskKind::k\w+:", scope),
        Every("names every estimator the registry names", [r"\b" + e + r"\(" for e in estimators],
              scope),
        Every("names every validator the registry names", [r"\b" + v + r"\(" for v in validators],
              scope),
        Several("tests a task against 3+ kinds (a predicate or a kind's set)",
                r"TaskKind::(k\w+)", 3, 120, scope),
        Several("names 3+ tasks as workload file keys",
                r"key == \"(" + "|".join(map(re.escape, names)) + r")\"", 3, 160, scope),
    ]


def instance_family():
    catalog = json.loads(text("data/catalog.json") or "{}")
    fams = sorted({t["family"] for t in catalog.get("instance_types", [])}, key=len, reverse=True)
    if not fams:
        raise ProbeError(f"no families in data/catalog.json: update the probe in {SELF}")
    alt = "|".join(map(re.escape, fams))
    return [
        Several("lists 7+ instance families (or family prefixes such as trn*) within 300 chars",
                r"(?<![\w.-])(" + alt + r"|(?:inf|trn|dl|vt|gr|[pgf])\*)(?![\w-])", 7, 300,
                ("src/", "include/", "python/", "web/", "data/") + DOCS, re.I),
        Several("lists 5+ quoted families or family prefixes within 300 chars (a code table)",
                r"\"(" + alt + r"|inf|trn|dl|vt|gr|u-p)\"", 5, 300,
                ("src/", "include/", "python/", "web/")),
    ]


def option():
    # The workload's declaration (src/workload/workload_options.h): v.Number("tokens", ...).
    decl, _ = find_one(r"void DeclareOptions\(V& v, Workload& w\)",
                       what="the workload's declaration (DeclareOptions(V& v, Workload& w))")
    fields = sorted(set(re.findall(r"\bv\.[A-Z]\w*\(\s*\"([a-z0-9-]+)\"", text(decl))))
    return [
        Every("names every workload field", [r"[\"'.]" + re.escape(f) + r"[\"']" for f in fields],
              CODE + DOCS, labels=fields),
        Pattern("defines the Workload struct", r"^struct Workload \{", CODE, re.M),
        Pattern("checks the bounds of workload numbers", r"^Status CheckLimits\(", CODE, re.M),
        Pattern("holds the per-option sample or exception tables",
                r"^(SAMPLES|EFFECT_SAMPLES|NO_EFFECT) = \{", ("tests/",), re.M),
    ]


def output_format():
    kinds = enum_members("OutputFormat")
    names = [n for _, n in name_table("OutputFormat")]
    scope = CODE + DOCS
    return [
        Every("names every OutputFormat enumerator", [enumerator(k) for k in kinds], scope),
        Every("lists every output format within 200 chars", [word(n) for n in names], scope, 200,
              re.I),
        Pattern("loops over output formats", r"for \(OutputFormat \w+ : \{", scope),
    ]


def telemetry_source():
    # kAuto ("auto", detect from the content) is not a source.
    kinds = [k for k in enum_members("TelemetryFormat") if k != "kAuto"]
    names = [n for k, n in name_table("TelemetryFormat") if k != "kAuto"]
    reader, _ = find_one(r"case TelemetryFormat::k\w+:", what="the switch over TelemetryFormat")
    # The parsers the switch calls ("n = telemetry::ParseSmiCsv(...)"), not helpers it shares.
    parsers = sorted(set(re.findall(r"=\s*telemetry::(Parse\w+)\(", text(reader))))
    parser_files = [os.path.basename(p) for p in FILES if p.startswith("src/telemetry/") and
                    p.endswith(".cc") and any(re.search(r"^\S.*\b" + f + r"\(", text(p), re.M)
                                              for f in parsers)]
    targets = [os.path.basename(p)[len("fuzz_"):-3] for p in FILES
               if fnmatch.fnmatch(p, "fuzz/fuzz_telemetry_*.cc")]
    scope = CODE + DOCS
    return [
        Every("names every TelemetryFormat enumerator", [enumerator(k) for k in kinds], scope),
        Every("lists every telemetry source within 200 chars",
              sorted({prefix(n) for n in names}), scope, 200, re.I),
        Every("names every format's parser", [r"\b" + p + r"\(" for p in parsers], scope),
        Every("names every parser's source file", [re.escape(f) for f in parser_files], scope),
        Pattern("checks the format a file is detected as",
                r"EXPECT_EQ\(\w+, TelemetryFormat::k", ("tests/",)),
        Every("names every telemetry fuzz target",
              [r"(?<![A-Za-z0-9-])" + t + r"(?![\w-])" for t in targets], scope),
    ]


def launch_format():
    kinds = enum_members("LaunchFormat")
    names = [n for _, n in name_table("LaunchFormat")]
    renderers = [os.path.basename(p) for p in FILES if fnmatch.fnmatch(p, "src/launch/render_*.cc")]
    switch, _ = find_one(r"case LaunchFormat::k\w+:", what="the switch over LaunchFormat")
    functions = sorted(set(re.findall(r"launch_internal::(Render\w+)\(", text(switch))))
    scope = CODE + DOCS
    return [
        Every("names every LaunchFormat enumerator", [enumerator(k) for k in kinds], scope),
        Every("lists every launch format within 200 chars", [prefix(n) for n in names], scope,
              200, re.I),
        Every("names every renderer", [r"\b" + f + r"\(" for f in functions], scope),
        Every("names every renderer's source file", [re.escape(r) for r in renderers], scope),
        Pattern("loops over launch formats", r"for \(LaunchFormat \w+ : \{", scope),
    ]


PROBES = {
    "A task kind": task_kind,
    "An instance family": instance_family,
    "An option": option,
    "An output format": output_format,
    "A telemetry source": telemetry_source,
    "A launch format": launch_format,
}

# ---- the recipes ----

PATH = re.compile(r"`([\w.<>*-]+(?:/[\w.<>*-]*)*)`")
EXT = (".cc", ".h", ".py", ".js", ".sh", ".md", ".txt", ".cmake", ".json", ".csv", ".html",
       ".dict", ".css", ".pyi", ".yaml")


def recipes():
    """{heading: [paths]} from CONTRIBUTING.md's ## Recipes section."""
    t = text_of_doc()
    m = re.search(r"^## Recipes\n(.*?)(?=^## |\Z)", t, re.M | re.S)
    if not m:
        raise ProbeError(f"{DOC} has no '## Recipes' section")
    out = {}
    for part in re.split(r"^### ", m.group(1), flags=re.M)[1:]:
        head, _, body = part.partition("\n")
        paths = []
        for p in PATH.findall(body):
            if ("/" in p or p.endswith(EXT)) and not p.startswith("-") and p not in paths:
                paths.append(p)
        out[head.strip()] = paths
    return out


def text_of_doc():
    with open(os.path.join(ROOT, DOC), encoding="utf-8") as f:
        return f.read()


def exists(path):
    return os.path.exists(os.path.join(ROOT, path.rstrip("/")))


def check(title, listed, rules, problems):
    found = {}  # path -> [(why, line, text)]
    for r in rules:
        hits = r.files()
        if not hits:
            problems.append(f"{title}: the probe rule '{r.why}' matches no file any more: "
                            f"a new member is missing where it looks (add it there), or the code "
                            f"it looks for moved or was renamed (update the rule in {SELF})")
        for p, (n, snippet) in hits.items():
            found.setdefault(p, []).append((r.why, n, snippet))
    # A folder (a trailing /) or a pattern (<name> for the new one) is checked to exist, not
    # compared: the probe finds files that name the existing members.
    concrete = [p for p in listed if "<" not in p and "*" not in p and not p.endswith("/")]
    for p in listed:
        if p in concrete or p.endswith("/") and "<" not in p:
            if not exists(p):
                problems.append(f"{title}: {DOC} lists `{p}`, which does not exist: fix the path "
                                f"or drop it from the recipe")
        elif not glob.glob(os.path.join(ROOT, re.sub(r"<[^>]*>", "*", p).rstrip("/"))):
            problems.append(f"{title}: {DOC} lists `{p}`, whose pattern matches no existing file "
                            f"(a placeholder in <> stands for the new one's name): fix the path")
    for p in sorted(set(found) - set(concrete)):
        why, n, snippet = found[p][0]
        problems.append(f"{title}: {p}:{n} {why} ({snippet!r}) but the recipe in {DOC} does not "
                        f"list it: add `{p}` to the recipe with what a new one needs there "
                        f"(or, if it needs nothing, stop the file matching or narrow the rule in "
                        f"{SELF})")
    for p in sorted(set(concrete) - set(found)):
        if exists(p):
            gone = sorted({m for r in rules if isinstance(r, Every) and in_scope(p, r.scope)
                           for m in r.missing(text(p))})
            hint = f" It lacks {', '.join(gone)}: add them there." if gone else ""
            problems.append(f"{title}: {DOC} lists `{p}` but no probe rule matches it any more "
                            f"(rules: {'; '.join(r.why for r in rules)}): if it lost a member, add "
                            f"the missing one there; if a new one no longer needs it, drop it from "
                            f"the recipe.{hint}")
    if SHOW:
        print(f"### {title}: {len(found)} files found, {len(concrete)} listed "
              f"(+{len(listed) - len(concrete)} new)")
        for p in sorted(found):
            print(f"  {p}: " + "; ".join(f"{w} (:{n})" for w, n, _ in found[p]))


def main():
    problems = []
    try:
        listed = recipes()
        for title in sorted(set(PROBES) - set(listed)):
            problems.append(f"{DOC} has no recipe '### {title}' under '## Recipes'")
        for title in sorted(set(listed) - set(PROBES)):
            problems.append(f"{DOC}: recipe '### {title}' has no probe: add one to PROBES in "
                            f"{SELF}")
        for title, probe in PROBES.items():
            if title in listed:
                check(title, listed[title], probe(), problems)
    except ProbeError as e:
        problems.append(str(e))
    for p in problems:
        print("FAIL " + p)
    if problems:
        print(f"{len(problems)} problem(s); the recipes are in {DOC}, the probes in {SELF}")
        return 1
    print(f"ok: {len(PROBES)} recipes match their probes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
