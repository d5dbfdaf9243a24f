#!/usr/bin/env python3
"""End to end, offline: `gpuadvisor catalog update --aws` through the real AWS CLI against a local
AWS (fake_aws_prices.py: pricing get-products, spot price history, Reserved Instance and Capacity
Block offerings, Savings Plans rates in their wire formats, moto for the rest), the public
spot-advisor feed from fake_aws_pricing.py (--endpoint). The user catalog lives in a temporary
XDG_DATA_HOME; GPUADVISOR_TODAY pins the day prices are aged from.
  - Must show: from the embedded snapshot to the fake's prices in one command: on-demand from the
    Query API, spot observed per zone (not estimated), the RI terms of the offerings, the soonest
    Capacity Block's price, the Savings Plans rates; no stale warning.
  - A region whose every call is refused (UnauthorizedOperation / AccessDeniedException) and a
    throttled pricing API while the other calls answer: the failures are named, exit 3; without
    the Query API a region's public offer file serves instead, and where that fails too the
    region keeps its previous prices.
  - --profile, --endpoint-url, --aws-cli without --aws: exit 2 naming the option.

Usage: update_aws_test.py PATH/TO/gpuadvisor. Exit 77 (skipped) without moto or the AWS CLI.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import aws_test_env

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = "2026-12-04"
# The region whose every call is refused: few accelerator types in the embedded catalog (GPUs
# only, none sold as Capacity Blocks), so its failing calls cost little time.
REFUSED = "ap-south-2"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def read_calls(path):
    """The fake's log of the calls it answered, one JSON object each."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f]


def region_of(doc, region):
    return next((r for r in doc.get("regions", []) if r["region"] == region), {})


def row(rows, itype):
    return next((r for r in rows if r["instance_type"] == itype), {})


def main():
    binary = os.path.abspath(sys.argv[1])
    why = aws_test_env.missing()
    if why:
        print(f"update_aws_test: SKIPPED: {why}")
        return 77
    tmp = tempfile.mkdtemp(prefix="gpuadvisor-update-aws-")
    calls = os.path.join(tmp, "calls.jsonl")
    faults = os.path.join(tmp, "faults")
    aws, aws_url = aws_test_env.start(tmp, "fake_aws_prices", lambda port: [
        port, "--today", TODAY, "--log", calls, "--faults", faults,
        # Several pages: the AWS CLI merges GetProducts pages, gpuadvisor pages Savings Plans.
        "--pricing-page-size", "5", "--sp-page-size", "100"])
    public_faults = os.path.join(tmp, "public-faults")
    public, public_url = aws_test_env.start(tmp, "fake_aws_pricing", lambda port: [
        "--port-file", port, "--regions", "us-east-1," + REFUSED,
        "--publication-date", "2026-12-01T00:00:00Z", "--faults", public_faults])
    try:
        if aws_url is None or public_url is None:
            for name in ("fake_aws_prices", "fake_aws_pricing"):
                print(f"update_aws_test: {name}:", open(os.path.join(tmp, name + ".log")).read())
            print("update_aws_test: a fake did not start")
            return 1
        env = aws_test_env.clean_env(tmp, TODAY)

        def run(*args):
            return subprocess.run([binary, *args], env=env, capture_output=True, text=True,
                                  timeout=300)

        def as_json(r):
            try:
                return json.loads(r.stdout)
            except ValueError:
                return {}

        def kept_report(r, name):
            """The update's JSON report (kept in tmp for a failure's post-mortem) and its
            outcomes by name."""
            with open(os.path.join(tmp, name), "w") as f:
                f.write(r.stdout)
            report = as_json(r)
            return report, {o["what"]: o for o in report.get("outcomes", [])}

        def update(*args):
            return run("catalog", "update", "--aws", "--endpoint-url", aws_url,
                       "--endpoint", public_url, "--json", *args)

        # --- The AWS CLI's options mean nothing without --aws: exit 2, one line naming it.
        for opt, value in (("--profile", "x"), ("--endpoint-url", aws_url), ("--aws-cli", "aws")):
            r = run("catalog", "update", "--regions", "us-east-1", "--endpoint", public_url, opt,
                    value)
            check(r.returncode == 2 and opt + ": only with --aws" in r.stderr
                  and len(r.stderr.strip().splitlines()) == 1,
                  f"{opt} without --aws: exit 2 naming it ({r.returncode}: {r.stderr})")
        check(not os.path.exists(os.path.join(tmp, "xdg", "gpuadvisor", "catalog.json")),
              "a refused command writes no catalog")

        embedded_refused = row(as_json(run("instances", "--region", REFUSED, "--json",
                                           "--catalog", "embedded")), "g6e.xlarge")
        check(embedded_refused.get("on_demand_usd_per_hour") is not None,
              f"the embedded catalog prices g6e.xlarge in {REFUSED}: {embedded_refused}")

        # --- Must show: one command, the embedded snapshot to the fake's prices.
        t0 = time.time()
        r = update("--regions", "us-east-1")
        print(f"catalog update --aws, one region: {time.time() - t0:.1f} s")
        check(r.returncode == 0, f"update exit 0 ({r.returncode}: {r.stderr})")
        report, outcomes = kept_report(r, "update1.json")
        # One outcome per call, named by region and kind (the Price List per instance family,
        # Capacity Blocks per type), its url the AWS CLI call.
        for what, call, least in (
                ("us-east-1 price-list-query (", "aws pricing get-products --region us-east-1", 2),
                ("us-east-1 spot-price-history",
                 "aws ec2 describe-spot-price-history --region us-east-1", 1),
                ("us-east-1 reserved-offerings",
                 "aws ec2 describe-reserved-instances-offerings --region us-east-1", 1),
                ("us-east-1 capacity-blocks ",
                 "aws ec2 describe-capacity-block-offerings --region us-east-1", 4),
                ("us-east-1 savings-plan-rates",
                 "aws savingsplans describe-savings-plans-offering-rates --region us-east-1", 1)):
            got = [o for w, o in outcomes.items() if w.startswith(what)]
            check(len(got) >= least and all(o["result"] == "updated" and o["url"] == call
                                            for o in got),
                  f"{what}...: updated, named by its call: {got}")
        for what in ("us-east-1 price-list-query (GPU instance)",
                     "us-east-1 price-list-query (Machine Learning ASIC Instances)",
                     "us-east-1 capacity-blocks p5.48xlarge", "spot-advisor"):
            check(outcomes.get(what, {}).get("result") == "updated",
                  f"{what}: updated: {outcomes.get(what)}")
        check(report.get("failed") == [], f"nothing failed: {report.get('failed')}")

        sent = read_calls(calls)
        ops = [c["op"] for c in sent]
        check(ops.count("GetProducts") >= 4,
              f"two instance families, each over pages of 5 products: {ops}")
        check({c["key"] for c in sent} == {"testing"},
              f"without --profile, the AWS CLI's usual chain (here the environment's key): {sent[:1]}")
        spot_calls = [c for c in sent if c["op"] == "DescribeSpotPriceHistory"]
        asked = [v[0] for c in spot_calls for k, v in c["params"].items()
                 if k.startswith("InstanceType.")]
        check("p5.48xlarge" in asked and "trn1.32xlarge" in asked and "m5.large" not in asked,
              f"spot history asked for the catalog's accelerator types only: {asked}")
        check(all(c["params"].get("StartTime") for c in spot_calls),
              "spot history asked from a start time")
        cb_types = [c["params"]["InstanceType"][0] for c in sent
                    if c["op"] == "DescribeCapacityBlockOfferings"]
        check("p5.48xlarge" in cb_types, f"Capacity Block offers asked for p5.48xlarge: {cb_types}")
        sp_calls = [c for c in sent if c["op"] == "DescribeSavingsPlansOfferingRates"]
        check(len(sp_calls) >= 2 and sp_calls[1]["params"].get("nextToken"),
              f"Savings Plans rates read page after page: {[c['params'] for c in sp_calls]}")

        r = run("instances", "--region", "us-east-1", "--gpu", "H100", "--json")
        p5 = row(as_json(r), "p5.48xlarge")
        check(p5.get("on_demand_usd_per_hour") == 50.0
              and p5.get("price_source", "").startswith("aws-price-list-query")
              and p5.get("price_date", "").startswith("2026-12-01") and not p5.get("price_stale"),
              f"on-demand from the Query API, dated by its publication: {p5}")
        check(p5.get("spot_usd_per_hour") == 12.5 and p5.get("spot_estimated") is False
              and p5.get("spot_source", "").startswith("spot-price-history")
              and p5.get("spot_date", "").startswith(TODAY),
              f"spot observed, the lowest zone's latest price, dated by it: {p5}")
        check(abs((p5.get("reserved_1y_no_upfront_usd_per_hour") or 0) - 31.0) < 1e-9,
              f"1y standard No Upfront RI from the offerings: {p5}")
        r = run("instances", "--region", "us-east-1", "--gpu", "H100")
        check(r.returncode == 0 and r.stderr == "", f"no stale warning after the update: {r.stderr}")

        show = region_of(as_json(run("show", "p5.48xlarge", "--json")), "us-east-1")
        check(show.get("spot_note", "").startswith("lowest of the latest price in 3 AZs"),
              f"the spot note: {show.get('spot_note')}")
        check(abs((show.get("capacity_block_usd_per_hour") or 0) - 31.5) < 1e-9
              and show.get("capacity_block_date", "") >= TODAY,
              f"the soonest 24-hour block's fee per instance-hour (756 / 24; a later block is "
              f"cheaper): {show}")
        terms = {t.get("term") or "%dy-%s-%s" % (t["years"], t["offering_class"], t["payment"]): t
                 for t in show.get("reserved", [])}
        want = {"1y-standard-no-upfront": (0, 31.0), "1y-standard-partial-upfront": (131400, 15.0),
                "1y-standard-all-upfront": (258420, 0), "3y-convertible-no-upfront": (0, 24.0)}
        for term, (upfront, hourly) in want.items():
            t = terms.get(term, {})
            check(abs(t.get("upfront_usd", -1) - upfront) < 1e-6
                  and abs(t.get("usd_per_hour", -1) - hourly) < 1e-6,
                  f"RI {term}: ${upfront} upfront + ${hourly}/h: {t}")
        check(len(terms) == 12 and all(t.get("source", "").startswith("ec2-reserved-offerings")
                                       for t in terms.values()),
              f"the 12 RI terms, from the offerings: {terms}")

        plans = {"%s-%dy-%s" % (p["plan"], p["years"], p["payment"]): p["usd_per_hour"]
                 for p in show.get("savings_plans", [])}
        check(len(plans) == 12 and abs(plans.get("ec2-instance-3y-all-upfront", 0) - 19.5) < 1e-6
              and abs(plans.get("compute-1y-partial-upfront", 0) - 35.0) < 1e-6,
              f"the 12 Savings Plans rates: {plans}")
        check(all(p["source"].startswith("savings-plans-offering-rates")
                  for p in show.get("savings_plans", [])),
              f"the rates' source: {show.get('savings_plans')}")
        pricing = as_json(run("pricing", "p5.48xlarge", "--region", "us-east-1", "--json"))
        options = {o["option"]: o for o in pricing.get("options", [])}
        for option, rate in (("savings-plan-compute-1y", 36.0), ("savings-plan-ec2-instance-1y", 32.0),
                             ("savings-plan-compute-3y", 25.0), ("savings-plan-ec2-instance-3y", 21.0),
                             ("reserved-1y-no-upfront", 31.0), ("capacity-block", 31.5)):
            o = options.get(option, {})
            check(o.get("priced") and abs((o.get("usd_per_hour") or 0) - rate) < 1e-6,
                  f"pricing {option} at ${rate}/h: {o}")
        block = options.get("capacity-block", {})
        check((block.get("price_source") or "").startswith("capacity-block-offerings"),
              f"the Capacity Block price from the offer: {block}")

        # --- Prices move (x0.9); REFUSED refuses every call and the pricing API throttles: both
        # named, exit 3; spot (answered) moves, on-demand (throttled) and REFUSED keep their
        # prices.
        # This run goes through --aws-cli (a wrapper that notes its arguments) with --profile:
        # the profile's own key signs every call.
        with open(faults, "w") as f:
            f.write(f"price-factor 0.9\nfail-region {REFUSED}\nthrottle-pricing always\n")
        # Without the Query API a region's public offer file serves instead; REFUSED's fails too.
        with open(public_faults, "w") as f:
            f.write(f"{REFUSED}/index.csv 500 always\n")
        with open(env["AWS_SHARED_CREDENTIALS_FILE"], "w") as f:
            f.write("[prod]\naws_access_key_id = AKIAPRODPROFILE00001\n"
                    "aws_secret_access_key = prod-secret\n")
        wrapper = os.path.join(tmp, "aws-wrapper")
        argv_log = os.path.join(tmp, "wrapper.log")
        with open(wrapper, "w") as f:
            f.write('#!/bin/sh\necho "$*" >>"%s"\nexec aws "$@"\n' % argv_log)
        os.chmod(wrapper, 0o755)
        first_call = len(read_calls(calls))
        t0 = time.time()
        r = update("--regions", "us-east-1," + REFUSED, "--profile", "prod", "--aws-cli", wrapper,
                   "--retries", "0")
        print(f"catalog update --aws, two regions, faults: {time.time() - t0:.1f} s")
        check(r.returncode == 3, f"partial failure: exit 3 ({r.returncode}: {r.stderr})")
        report, outcomes = kept_report(r, "update2.json")
        throttled = outcomes.get("us-east-1 price-list-query (GPU instance)", {})
        check(throttled.get("result") == "failed" and "ThrottlingException" in throttled.get(
            "error", ""), f"the throttled call is named with the API's error: {throttled}")
        spot = outcomes.get("us-east-1 spot-price-history", {})
        check(spot.get("result") == "updated", f"the other calls still answer: {spot}")
        refused = {w: o for w, o in outcomes.items() if w.startswith(REFUSED + " ")}
        check(len(refused) >= 4 and all(o["result"] == "failed" for o in refused.values()),
              f"every {REFUSED} call failed: {refused}")
        check(any("UnauthorizedOperation" in o["error"] for o in refused.values())
              and any("AccessDeniedException" in o["error"] for o in refused.values()),
              f"the refusals carry the API's error codes: {refused}")
        check(REFUSED + " spot-price-history" in r.stderr
              and "us-east-1 price-list-query (GPU instance)" in r.stderr,
              f"stderr names what failed: {r.stderr}")
        argv = open(argv_log).read().splitlines() if os.path.exists(argv_log) else []
        check(len(argv) >= 10 and all(a.startswith("--output json --profile prod --endpoint-url "
                                                   + aws_url + " --region ") for a in argv),
              f"each call runs --aws-cli with the global options first: {argv[:3]}")
        sent = read_calls(calls)[first_call:]
        check(sent and {c["key"] for c in sent} == {"AKIAPRODPROFILE00001"},
              f"every call signed with the profile's key: {sorted({c['key'] for c in sent})}")
        fallback = outcomes.get("us-east-1", {})
        check(fallback.get("result") == "updated" and fallback.get("url", "").endswith(
            "/us-east-1/index.csv") and any("instead of the Price List Query API" in n
                                             for n in fallback.get("notes", [])),
              f"the public offer file serves instead of the throttled Query API: {fallback}")
        check(outcomes.get(REFUSED, {}).get("result") == "failed",
              f"{REFUSED}'s offer file failed too: {outcomes.get(REFUSED)}")
        p5 = row(as_json(run("instances", "--region", "us-east-1", "--json")), "p5.48xlarge")
        source = p5.get("price_source") or ""
        check(source.startswith("aws-price-list-") and not source.startswith("aws-price-list-query"),
              f"on-demand from the public offer file, not the throttled API: {source}")
        check(abs((p5.get("spot_usd_per_hour") or 0) - 11.25) < 1e-9,
              f"the answered spot history taken: {p5.get('spot_usd_per_hour')}")
        kept = row(as_json(run("instances", "--region", REFUSED, "--json")), "g6e.xlarge")
        check(kept.get("on_demand_usd_per_hour") == embedded_refused.get("on_demand_usd_per_hour")
              and kept.get("price_source") == embedded_refused.get("price_source"),
              f"{REFUSED} keeps its previous prices: {kept} vs {embedded_refused}")
    finally:
        for proc in (aws, public):
            proc.kill()
            proc.wait()
        if failures:
            print("update_aws_test: kept", tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"update_aws_test: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
