#!/usr/bin/env python3
"""Buyer panel for `gpuadvisor recommend` (issue 38).

Runs `BIN recommend ARGS --json` for every scenario of the fixture and checks
that the #1 plan (plans[0]) lies in the expert's acceptable set.

usage: buyer_panel_test.py --bin PATH [--fixture FILE] [--report]

The fixture's "known_misses" ({id: why the engine misses it}) are scenarios the engine is known
to answer outside the expert's set, each with its reason: they may fail, and one that passes
fails the test until it leaves the list (the list only shrinks).

Exit 0: every scenario passes but the known misses (or --report was given).
Exit 1: a scenario outside known_misses failed, or a known miss passed.
Exit 2: the fixture is malformed (or the binary cannot be run).
Python 3 standard library only.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FIXTURE = os.path.join(HERE, "buyer_panel.json")
MIN_SCENARIOS = 25
TIMEOUT_S = 120
REQUIRED = ("id", "title", "args", "accept", "expert_pick", "reasoning", "sources")
LIST_FIELDS = {"gpu_model": "gpu_model", "purchase": "purchase", "instance_type": "instance_type"}
INT_FIELDS = ("max_instances", "min_instances")


class FixtureError(Exception):
    pass


def validate(fixture):
    if not isinstance(fixture, dict):
        raise FixtureError("top level must be a JSON object with keys about and scenarios")
    if not isinstance(fixture.get("about"), str) or not fixture["about"].strip():
        raise FixtureError('missing or empty "about"')
    scenarios = fixture.get("scenarios")
    if not isinstance(scenarios, list):
        raise FixtureError('"scenarios" must be a list')
    if len(scenarios) < MIN_SCENARIOS:
        raise FixtureError(f"{len(scenarios)} scenarios; at least {MIN_SCENARIOS} are required")
    seen = set()
    for i, s in enumerate(scenarios):
        where = f"scenario #{i + 1}"
        if not isinstance(s, dict):
            raise FixtureError(f"{where}: not an object")
        if isinstance(s.get("id"), str):
            where = f"scenario {s['id']!r}"
        missing = [k for k in REQUIRED if k not in s]
        if missing:
            raise FixtureError(f"{where}: missing {', '.join(missing)}")
        for k in ("id", "title", "expert_pick", "reasoning"):
            if not isinstance(s[k], str) or not s[k].strip():
                raise FixtureError(f"{where}: {k} must be a non-empty string")
        if s["id"] in seen:
            raise FixtureError(f"{where}: duplicate id")
        seen.add(s["id"])
        args = s["args"]
        if not isinstance(args, list) or not args or not all(isinstance(a, str) for a in args):
            raise FixtureError(f"{where}: args must be a non-empty list of strings")
        if "--json" in args or "--format" in args:
            raise FixtureError(f"{where}: args must not choose the output format (the test adds --json)")
        accept = s["accept"]
        if not isinstance(accept, dict):
            raise FixtureError(f"{where}: accept must be an object")
        unknown = set(accept) - set(LIST_FIELDS) - set(INT_FIELDS)
        if unknown:
            raise FixtureError(f"{where}: unknown accept field(s) {', '.join(sorted(unknown))}")
        for k in LIST_FIELDS:
            if k in accept:
                v = accept[k]
                if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
                    raise FixtureError(f"{where}: accept.{k} must be a non-empty list of strings")
        for k in INT_FIELDS:
            if k in accept and (not isinstance(accept[k], int) or isinstance(accept[k], bool) or accept[k] < 1):
                raise FixtureError(f"{where}: accept.{k} must be a positive integer")
        if "min_instances" in accept and "max_instances" in accept and accept["min_instances"] > accept["max_instances"]:
            raise FixtureError(f"{where}: accept.min_instances > accept.max_instances")
        sources = s["sources"]
        if not isinstance(sources, list) or not sources:
            raise FixtureError(f"{where}: sources must be a non-empty list")
        for src in sources:
            if not isinstance(src, dict) or not all(isinstance(src.get(k), str) and src.get(k) for k in ("title", "url", "date")):
                raise FixtureError(f"{where}: every source needs title, url and date strings")
        if not any(src["url"].startswith("https://") for src in sources):
            raise FixtureError(f"{where}: no source has an https URL")
    misses = fixture.get("known_misses", {})
    if not isinstance(misses, dict) or not all(isinstance(v, str) and v.strip() for v in misses.values()):
        raise FixtureError('"known_misses" must map scenario ids to a non-empty reason')
    unknown = set(misses) - seen
    if unknown:
        raise FixtureError(f"known_misses name no scenario: {', '.join(sorted(unknown))}")
    return scenarios


def run_one(binary, args):
    """Returns (plan or None, note)."""
    argv = [binary, "recommend", *args, "--json"]
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {TIMEOUT_S} s"
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        err = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"exit {p.returncode}, no JSON: {err[:200]}"
    plans = doc.get("plans") if isinstance(doc, dict) else None
    if not plans:
        return None, f"exit {p.returncode}, no plan"
    return plans[0], ""


def check(plan, accept):
    failed = []
    for k, field in LIST_FIELDS.items():
        if k in accept and plan.get(field) not in accept[k]:
            failed.append(f"{k}={plan.get(field)!r} not in {accept[k]}")
    n = plan.get("instances")
    if "max_instances" in accept and (not isinstance(n, int) or n > accept["max_instances"]):
        failed.append(f"instances={n} > max_instances={accept['max_instances']}")
    if "min_instances" in accept and (not isinstance(n, int) or n < accept["min_instances"]):
        failed.append(f"instances={n} < min_instances={accept['min_instances']}")
    return failed


def describe(plan):
    return (f"{plan.get('instance_type')} x {plan.get('instances')}, {plan.get('purchase')}, "
            f"{plan.get('gpu_model')}, {plan.get('region')}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="gpuadvisor binary")
    ap.add_argument("--fixture", default=DEFAULT_FIXTURE, help="buyer panel JSON (default: next to this script)")
    ap.add_argument("--report", action="store_true", help="always exit 0 (report only)")
    opts = ap.parse_args()

    try:
        with open(opts.fixture, encoding="utf-8") as f:
            fixture = json.load(f)
        scenarios = validate(fixture)
    except (OSError, ValueError) as e:
        print(f"buyer_panel_test: bad fixture {opts.fixture}: {e}", file=sys.stderr)
        return 2
    except FixtureError as e:
        print(f"buyer_panel_test: bad fixture {opts.fixture}: {e}", file=sys.stderr)
        return 2
    if not os.access(opts.bin, os.X_OK):
        print(f"buyer_panel_test: {opts.bin} is not an executable", file=sys.stderr)
        return 2

    misses = fixture.get("known_misses", {})
    passed = 0
    unexpected = []
    width = max(len(s["id"]) for s in scenarios)
    for s in scenarios:
        known = s["id"] in misses
        plan, note = run_one(opts.bin, s["args"])
        failed = [f"none ({note})"] if plan is None else check(plan, s["accept"])
        if failed:
            tag = "MISS" if known else "FAIL"
            what = "none" if plan is None else describe(plan)
            print(f"{s['id']:<{width}}  {tag}  #1: {what}; failed: {'; '.join(failed)}; expert: {s['expert_pick']}"
                  + (f"; known: {misses[s['id']]}" if known else ""))
            if not known:
                unexpected.append(s["id"])
        else:
            passed += 1
            print(f"{s['id']:<{width}}  PASS  #1: {describe(plan)}")
            if known:
                print(f"{'':<{width}}        (a known miss now passes: remove it from known_misses)")
                unexpected.append(s["id"])
    print(f"{passed}/{len(scenarios)} scenarios: #1 in the expert's acceptable set "
          f"({len(misses)} known misses)")
    if unexpected and not opts.report:
        print(f"buyer_panel_test: unexpected: {', '.join(unexpected)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
