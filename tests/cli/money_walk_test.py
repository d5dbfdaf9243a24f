#!/usr/bin/env python3
"""Issue 37, item 1: every amount carries its currency, and no total adds two currencies.

Runs every command that shows money over inputs with hosts, regions and price changes in both
USD (us-east-1) and CNY (AWS China), through every front end (the CLI's --json, the HTTP server,
the Python module when it is built), and walks each JSON answer:

- a key that names a currency (a `usd` or `cny` word: `wasted_cny`, `on_demand_usd_per_hour`)
  must name the currency of the object it is in: the object's own `currency`, else that of its
  `region` (cn-* is CNY), else its parent's; a China object with a `_usd` key is yuan in a
  dollar column;
- a number under a money word (cost, price, wasted, savings, upfront, spend, budget) must name
  its currency in its key, or sit in an object that says its `currency`;
- `idle`'s totals are one per currency, each the sum of that currency's hosts, never mixed;
- a China-only answer's table shows yuan (¥) and no dollar sign.

Usage: money_walk_test.py PATH/TO/gpuadvisor [PYTHONPATH-of-the-module]
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

BIN = sys.argv[1]
PYPATH = sys.argv[2] if len(sys.argv) > 2 else ""
failures = []
checked = {"answers": 0, "money_keys": 0}

MONEY_WORDS = re.compile(r"(^|_)(cost|price|wasted|savings?|upfront|spend|budget)(_|$)")
NOT_MONEY = re.compile(r"(_pct|_fraction|_hours|_s|_days|_figures|_date|_source|_stale|_note|_count|_rps|"
                       r"_kind|_option|_ratio|_band|_estimated|_per_usd|_per_cny)$")
CURRENCY_WORD = re.compile(r"(^|_)(usd|cny)(_|$)")


def fail(what):
    failures.append(what)
    print("FAIL:", what)


def region_currency(region):
    if not isinstance(region, str) or region in ("", "all"):
        return None
    return "CNY" if region.startswith("cn-") else "USD"


def walk(node, where, inherited):
    """Checks every object below `node`; `inherited` is the currency of the enclosing object."""
    if isinstance(node, list):
        for i, x in enumerate(node):
            walk(x, "%s[%d]" % (where, i), inherited)
        return
    if not isinstance(node, dict):
        return
    own = node.get("currency") if isinstance(node.get("currency"), str) else None
    if own and own not in ("USD", "CNY"):
        own = None
    cur = own or region_currency(node.get("region")) or inherited
    for key, value in node.items():
        m = CURRENCY_WORD.search(key)
        if m and isinstance(value, (int, float)) and not isinstance(value, bool):
            checked["money_keys"] += 1
            named = m.group(2).upper()
            if cur and named != cur and not key.startswith("total_"):
                fail("%s.%s: a %s amount in an object in %s" % (where, key, named, cur))
        elif (MONEY_WORDS.search(key) and not NOT_MONEY.search(key)
              and isinstance(value, (int, float)) and not isinstance(value, bool)
              and not own):
            fail("%s.%s = %r: money without its currency (no usd/cny in the key, no currency "
                 "field)" % (where, key, value))
        walk(value, "%s.%s" % (where, key), cur)


def check_idle_totals(d, where):
    """One total per currency, each the sum of that currency's hosts."""
    for kind, host_key in (("total_wasted_%s", "wasted_%s"),
                           ("total_savings_%s_per_month", None)):
        for cur in ("usd", "cny"):
            hosts = [h for h in d["instances"] if h.get("currency", "USD").lower() == cur]
            if host_key:
                want = sum(h.get(host_key % cur) or 0 for h in hosts)
            else:
                want = sum(h["recommendation"].get("savings_%s_per_month" % cur) or 0
                           for h in hosts)
            got = d.get(kind % cur)
            if hosts and got is None:
                fail("%s: %s missing with %d %s host(s)" % (where, kind % cur, len(hosts), cur))
            elif got is not None and abs(got - want) > 0.01 * max(1, len(hosts)):
                fail("%s: %s = %s, its hosts sum to %s" % (where, kind % cur, got, want))
            for h in d["instances"] if host_key else []:
                other = "usd" if cur == "cny" else "cny"
                if h.get("currency", "USD").lower() == cur and (host_key % other) in h:
                    fail("%s: host %s in %s has %s" % (where, h["host"], cur, host_key % other))


def run(args, expect_rc=0):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=120)
    if p.returncode != expect_rc:
        fail("gpuadvisor %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr[-400:]))
        return None
    return p.stdout


def answer(name, data, check_idle=False):
    checked["answers"] += 1
    walk(data, name, None)
    if check_idle:
        check_idle_totals(data, name)


def yuan_only_table(name, args):
    out = run(args)
    if out is None:
        return
    if "$" in out:
        line = next(x for x in out.splitlines() if "$" in x)
        fail("%s: a China-only table shows a dollar sign: %r" % (name, line))
    elif "¥" not in out:
        fail("%s: a China-only table shows no yuan sign:\n%s" % (name, out[:600]))


def make_inputs(tmp):
    rows = ["timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], "
            "memory.total [MiB]"]
    for i in range(48 * 12 + 1):
        h, m = divmod(5 * i, 60)
        day, h = divmod(h, 24)
        t = "2026/11/%02d %02d:%02d:00.000" % (20 + day, h, m)
        util = 0 if (i // 12) % 4 else 80
        for host in ("bj-1", "va-1", "nx-1"):
            rows.append("%s, %s, 0, NVIDIA A10G, %d %%, 100 MiB, 22888 MiB" % (t, host, util))
    fleet = os.path.join(tmp, "fleet.csv")
    with open(fleet, "w") as f:
        f.write("\n".join(rows) + "\n")
    inv = os.path.join(tmp, "hosts.csv")
    with open(inv, "w") as f:
        f.write("hostname,instance_type,region\nbj-1,g5.xlarge,cn-north-1\n"
                "va-1,g5.xlarge,us-east-1\nnx-1,g5.xlarge,cn-northwest-1\n")
    inv_cn = os.path.join(tmp, "hosts-cn.csv")
    with open(inv_cn, "w") as f:
        f.write("hostname,instance_type,region\nbj-1,g5.xlarge,cn-north-1\n")
    fleet_cn = os.path.join(tmp, "fleet-cn.csv")
    with open(fleet_cn, "w") as f:
        f.write("\n".join(r for r in rows if ", va-1," not in r and ", nx-1," not in r) + "\n")
    trace = os.path.join(tmp, "trace.csv")
    with open(trace, "w") as f:
        f.write("timestamp,requests_per_s\n")
        for i in range(0, 48):
            f.write("%d,%d\n" % (i * 1800, 2 + (i % 12)))
    return fleet, inv, fleet_cn, inv_cn, trace


def catalog_pair(tmp):
    """The embedded catalog and a copy with a CNY and a USD on-demand price changed."""
    old = os.path.join(tmp, "old.json")
    new = os.path.join(tmp, "new.json")
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "data", "catalog.json")) as f:  # the embedded one
        text = f.read()
    cat = json.loads(text)
    with open(old, "w") as f:
        f.write(text)
    changed = 0
    for t in cat["instance_types"]:
        if t["instance_type"] != "g5.xlarge":
            continue
        for o in t["regions"]:
            od = o.get("on_demand")
            if o["region"] in ("cn-north-1", "us-east-1") and od:
                key = "cny_per_hour" if o["region"].startswith("cn-") else "usd_per_hour"
                od[key] = round(od[key] * 1.1, 6)
                changed += 1
    if changed != 2:
        fail("catalog fixture: g5.xlarge in cn-north-1 and us-east-1 expected, changed %d" % changed)
    with open(new, "w") as f:
        json.dump(cat, f)
    return old, new


def cli(tmp, fleet, inv, fleet_cn, inv_cn, trace, old, new):
    W = ["--task", "train-vision", "--model", "unet3d", "--images", "168", "--epochs", "200",
         "--batch", "2", "--precision", "bf16"]
    jobs = {
        "idle (CLI)": (["idle", fleet, "--inventory", inv, "--json"], True),
        "instances cn": (["instances", "--region", "cn-north-1", "--json"], False),
        "instances all": (["instances", "--region", "all", "--gpu", "A10G", "--json"], False),
        "show": (["show", "g5.xlarge", "--json"], False),
        "gpus": (["gpus", "--json"], False),
        "pricing cn": (["pricing", "g5.xlarge", "--region", "cn-north-1", "--hours", "8760",
                        "--json"], False),
        "estimate cn": (["estimate", *W, "--instance", "g5.xlarge", "--region", "cn-north-1",
                         "--json"], False),
        "recommend both": (["recommend", *W, "--regions", "cn-north-1,us-east-1", "--json"], False),
        "recommend fx": (["recommend", *W, "--regions", "cn-north-1,us-east-1", "--fx",
                          "CNY=7.1@2026-12-01", "--json"], False),
        "simulate cn": (["simulate", "--trace", trace, "--instance", "g5.xlarge", "--region",
                         "cn-north-1", "--capacity-rps", "5", "--json"], False),
        "catalog diff": (["catalog", "diff", old, new, "--json"], False),
        "catalog info": (["catalog", "info", "--json"], False),
    }
    for name, (args, idle) in jobs.items():
        out = run(args)
        if out is None:
            continue
        try:
            data = json.loads(out)
        except ValueError as e:
            fail("%s: not JSON: %s" % (name, e))
            continue
        answer(name, data, idle)
    yuan_only_table("idle table cn", ["idle", fleet_cn, "--inventory", inv_cn])
    yuan_only_table("simulate table cn", ["simulate", "--trace", trace, "--instance", "g5.xlarge",
                                          "--region", "cn-north-1", "--capacity-rps", "5"])
    yuan_only_table("pricing table cn", ["pricing", "g5.xlarge", "--region", "cn-north-1"])
    # The mixed idle table: one TOTAL per currency, yuan rows in yuan.
    out = run(["idle", fleet, "--inventory", inv]) or ""
    totals = [x for x in out.splitlines() if x.startswith("TOTAL")]
    if len(totals) != 2 or "¥" not in totals[-1] or "$" not in totals[0]:
        fail("idle table: one TOTAL row per currency expected, got %r" % totals)
    for line in out.splitlines():
        if line.startswith("bj-1") and ("$" in line or "¥" not in line):
            fail("idle table: the Beijing host's amounts are not in yuan: %r" % line)


def http(tmp, fleet_cn, fleet):
    server = subprocess.Popen([BIN, "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))
        base = "http://127.0.0.1:%d" % port

        def post(path, body, ctype):
            req = urllib.request.Request(base + path, data=body, method="POST",
                                         headers={"Content-Type": ctype})
            try:
                with urllib.request.urlopen(req, timeout=60) as r:
                    return json.loads(r.read())
            except urllib.error.HTTPError as e:
                raise RuntimeError("POST %s: %s %s" % (path, e.code, e.read()[:300])) from e

        def get(path):
            try:
                with urllib.request.urlopen(base + path, timeout=60) as r:
                    return json.loads(r.read())
            except urllib.error.HTTPError as e:
                raise RuntimeError("GET %s: %s %s" % (path, e.code, e.read()[:300])) from e

        with open(fleet_cn, "rb") as f:
            body = f.read()
        answer("idle (HTTP, Beijing)",
               post("/v1/idle?host=bj-1&instance-type=g5.xlarge&region=cn-north-1", body,
                    "text/csv"), True)
        with open(fleet, "rb") as f:
            body = f.read()
        answer("idle (HTTP, guessed, Ningxia)",
               post("/v1/idle?region=cn-northwest-1", body, "text/csv"), True)
        answer("instances (HTTP)", get("/v1/instances?region=cn-north-1"))
        answer("pricing (HTTP)", post("/v1/pricing", b'{"instance":"g5.xlarge","region":'
                                      b'"cn-north-1","hours":8760}', "application/json"))
        answer("estimate (HTTP)", post("/v1/estimate", b'{"task":"train-vision","model":"unet3d",'
                                       b'"images":168,"epochs":200,"batch":2,"instance":'
                                       b'"g5.xlarge","region":"cn-north-1"}', "application/json"))
        answer("gpus (HTTP)", get("/v1/gpus"))
    except Exception as e:  # noqa: BLE001  (any failure of the front end is a finding)
        fail("HTTP: %s: %s" % (type(e).__name__, e))
    finally:
        server.terminate()
        server.wait(15)


def python(fleet, inv):
    if not PYPATH:
        print("skip: Python front end (no module path given)")
        return
    code = r"""
import json, sys
import gpuadvisor as ga
r = ga.idle([sys.argv[1]], inventory=sys.argv[2])
out = {"report": r.to_dict(),
       "wasted": {h.host: [h.wasted.amount, h.wasted.currency] for h in r.instances},
       "totals": [[m.amount, m.currency] for m in r.totals()]}
try:
    ga.Money(1, "USD") + ga.Money(1, "CNY")
    out["mixed_add"] = "allowed"
except TypeError:
    out["mixed_add"] = "refused"
print(json.dumps(out))
"""
    env = dict(os.environ, PYTHONPATH=PYPATH)
    p = subprocess.run([sys.executable, "-c", code, fleet, inv], capture_output=True, text=True,
                       env=env, timeout=120)
    if p.returncode != 0:
        if "No module named" in p.stderr:
            print("skip: Python front end (module not built):", p.stderr.strip()[-200:])
            return
        fail("python: %s" % p.stderr[-600:])
        return
    d = json.loads(p.stdout)
    answer("idle (Python)", d["report"], True)
    if d["wasted"].get("bj-1", [0, ""])[1] != "CNY" or d["wasted"].get("va-1", [0, ""])[1] != "USD":
        fail("python: HostUsage.wasted currencies %r" % d["wasted"])
    if sorted(c for _, c in d["totals"]) != ["CNY", "USD"]:
        fail("python: IdleReport.totals() %r" % d["totals"])
    if d["mixed_add"] != "refused":
        fail("python: Money(USD) + Money(CNY) was allowed")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        fleet, inv, fleet_cn, inv_cn, trace = make_inputs(tmp)
        old, new = catalog_pair(tmp)
        cli(tmp, fleet, inv, fleet_cn, inv_cn, trace, old, new)
        http(tmp, fleet_cn, fleet)
        python(fleet, inv)
    print("money walk: %d answers, %d amounts keyed by currency, %d failure(s)"
          % (checked["answers"], checked["money_keys"], len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
