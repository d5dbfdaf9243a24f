#!/usr/bin/env bash
# End to end: `gpuadvisor idle --prometheus` against a real prometheus (Debian's 2.x) on a loopback
# port, its TSDB backfilled with promtool from a generated DCGM fleet (tests/cli/dcgm_fleet.py),
# must report exactly what `gpuadvisor idle FILE` reports on the same readings exported as
# Prometheus text (only the source fields "files" and "prometheus" differ), however the hosts are
# paginated. A coarser --step must keep the readings count and the decisions. --pushdown (issue 41,
# item 2: the idle analysis computed in PromQL) must give the file's report within the stated
# tolerance with far fewer bytes, and the shipped recording rules must pass `promtool check
# rules`. Skips (exit 77) without prometheus/promtool (scripts/deps.sh installs them).
# Usage: idle_prometheus_test.sh PATH/TO/gpuadvisor
set -u
BIN=$(realpath "${1:?usage: idle_prometheus_test.sh PATH/TO/gpuadvisor}")
PY=python3
HERE=$(cd "$(dirname "$0")" && pwd)
if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then
  echo "idle_prometheus_test: SKIPPED (needs prometheus and promtool: apt-get install prometheus)"
  exit 77
fi
T=${KEEP_T:-$(mktemp -d)}
pid= spid=
cleanup() { [ -n "$spid" ] && kill "$spid" 2>/dev/null; [ -n "$pid" ] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }; [ -z "${KEEP_T:-}" ] && rm -rf "$T"; }
trap cleanup EXIT
source "$HERE/lib.sh"

# A fleet of 5 hosts x 4 GPUs (H100, L4, A10G), 36 h at 1 min, ending before the last hour (prometheus
# 2.x keeps backfilled blocks only within its retention, counted from the newest block).
# The last UTC midnight at least an hour ago: the same time of day on every run, so that no
# run's range clips an office host's idle streak near the idle-window length (at 21:35 UTC the
# range ended 30 min into one, and 1-minute and 5-minute windows then disagreed on it).
END=$(( $(date +%s) - 3600 )); END=$(( END - END % 86400 ))
HOURS=36
"$PY" "$HERE/dcgm_fleet.py" --end "$END" --hours $HOURS --mixed \
  --openmetrics "$T/fleet.om" --text "$T/fleet.prom" 2>/dev/null || { bad "generator failed"; exit 1; }
promtool tsdb create-blocks-from openmetrics "$T/fleet.om" "$T/data" > "$T/promtool.log" 2>&1 ||
  { bad "promtool failed: $(tail -3 "$T/promtool.log")"; exit 1; }
printf 'global:\n  scrape_interval: 1h\n' > "$T/prometheus.yml"
PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The admin API and /-/quit enabled: the attacks below must reach neither.
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/data" \
  --web.enable-admin-api --web.enable-lifecycle --storage.tsdb.retention.time=100y --web.listen-address="127.0.0.1:$PORT" > "$T/prometheus.log" 2>&1 &
pid=$!
URL=http://127.0.0.1:$PORT
for _ in $(seq 150); do
  "$PY" -c "import urllib.request; urllib.request.urlopen('$URL/-/ready')" 2>/dev/null && break
  sleep 0.2
done
"$PY" -c "import urllib.request; urllib.request.urlopen('$URL/-/ready')" 2>/dev/null ||
  { bad "prometheus did not start: $(tail -5 "$T/prometheus.log")"; exit 1; }

RANGE=(--since "${HOURS}h" --until "$END")
"$BIN" idle "$T/fleet.prom" --json > "$T/file.json" 2>/dev/null || bad "idle on the file failed"
"$BIN" idle --prometheus "$URL" "${RANGE[@]}" --step 1m --json > "$T/prom.json" 2>"$T/prom.err" ||
  bad "idle --prometheus failed: $(cat "$T/prom.err")"
# Small pages: one host per request and ~2 h time chunks (7 aggregates x 4 GPUs x 120 steps).
"$BIN" idle --prometheus "$URL/" "${RANGE[@]}" --step 1m --prometheus-max-points 3360 --json \
  > "$T/paged.json" 2>"$T/paged.err" || bad "paged idle --prometheus failed: $(cat "$T/paged.err")"
# Credentials and tenant headers are sent (this prometheus does not check them): same report.
echo "token-123" > "$T/token"; echo "user:pass" > "$T/basic"
"$BIN" idle --prometheus "$URL" "${RANGE[@]}" --step 1m --bearer-token-file "$T/token" \
  --prometheus-header 'X-Scope-OrgID: team-a' --json > "$T/bearer.json" 2>/dev/null &&
  "$BIN" idle --prometheus "$URL" "${RANGE[@]}" --step 1m --basic-auth-file "$T/basic" \
  --json > "$T/basic.json" 2>/dev/null || bad "idle --prometheus with credentials failed"
expect_exit "bad basic file" 2 "--basic-auth-file: expected user:password" idle \
  --prometheus "$URL" --basic-auth-file "$T/token"
"$BIN" idle --prometheus "$URL" "${RANGE[@]}" --json > "$T/coarse.json" 2>/dev/null ||
  bad "idle --prometheus --step 5m failed"
"$BIN" idle --prometheus "$URL" "${RANGE[@]}" --step 1m --selector '{modelName="NVIDIA L4"}' \
  --json > "$T/l4.json" 2>/dev/null || bad "idle --prometheus --selector failed"

# Push-down: the server computes idle stretches (subqueries at the 1-minute scrape interval) and
# returns per-GPU totals and per-host hourly figures. Also one host per request, and 5-minute
# windows (compared with the 5-minute window mode).
"$BIN" idle --prometheus "$URL" "${RANGE[@]}" --step 1m --pushdown --json > "$T/pd.json" \
  2>"$T/pd.err" || bad "idle --prometheus --pushdown failed: $(cat "$T/pd.err")"
"$BIN" idle --prometheus "$URL" "${RANGE[@]}" --step 1m --pushdown --prometheus-max-points 9000 \
  --json > "$T/pd_paged.json" 2>"$T/pd_paged.err" ||
  bad "paged idle --pushdown failed: $(cat "$T/pd_paged.err")"
"$BIN" idle --prometheus "$URL" "${RANGE[@]}" --pushdown --json > "$T/pd5.json" 2>"$T/pd5.err" ||
  bad "idle --pushdown --step 5m failed: $(cat "$T/pd5.err")"
expect_exit "pushdown without a server" 2 "--pushdown: only with prometheus" idle \
  "$T/fleet.prom" --pushdown
expect_exit "pushdown step" 2 "--step: with pushdown, expected a step that divides an hour" idle \
  --prometheus "$URL" "${RANGE[@]}" --step 7m --pushdown
promtool check rules "$HERE/../../data/prometheus/gpuadvisor-idle.rules.yml" > "$T/rules.log" 2>&1 &&
  promtool test rules "$HERE/idle_rules_test.yml" >> "$T/rules.log" 2>&1 &&
  ok || bad "promtool check/test rules: $(tail -5 "$T/rules.log")"

"$PY" - "$T" <<'PYEOF' || bad "push-down reports differ (see above)"
import json, sys
t = sys.argv[1]
load = lambda n: json.load(open(f"{t}/{n}.json"))
f, pd, paged, coarse, pd5 = (load(n) for n in ("file", "pd", "pd_paged", "coarse", "pd5"))
ok = True
def check(cond, msg):
    global ok
    if not cond:
        ok = False
        print("FAIL:", msg)
# Exact: readings, time covered, idle stretches (hours, count, longest, periods), waste and the
# decisions. Within a tolerance: utilisation means (the file's come from 0.1 % bins: 0.05) and
# 95th percentiles (quantile_over_time interpolates between readings: 1 point).
EXACT = ("samples", "gpus", "gpus_busy", "hours_covered", "idle_hours", "idle_fraction",
         "idle_period_count", "longest_idle_hours", "idle_periods", "gpu_idle_hours", "status",
         "instance_type", "mem_used_max_mib", "first_sample", "last_sample")
NEAR = {"avg_util_pct": 0.05, "p95_util_pct": 1.0}
def compare(a, b, name, exact=EXACT, near=NEAR, gpu_p95=True):
    ha = {h["host"]: h for h in a["instances"]}
    hb = {h["host"]: h for h in b["instances"]}
    check(set(ha) == set(hb), f"{name}: hosts {sorted(ha)} vs {sorted(hb)}")
    for host, x in ha.items():
        y = hb.get(host, {})
        for k in exact:
            check(x.get(k) == y.get(k), f"{name} {host} {k}: {x.get(k)} vs {y.get(k)}")
        for k, tol in near.items():
            check(abs(x[k] - y[k]) <= tol, f"{name} {host} {k}: {x[k]} vs {y[k]}")
        check(abs((x["wasted_usd"] or 0) - (y["wasted_usd"] or 0)) <= 0.01,
              f"{name} {host} wasted: {x['wasted_usd']} vs {y['wasted_usd']}")
        check(x["recommendation"]["action"] == y["recommendation"]["action"],
              f"{name} {host} action: {x['recommendation']} vs {y['recommendation']}")
        for g, h in zip(x["gpu_details"], y["gpu_details"]):
            for k in ("samples", "hours_covered", "idle_hours", "mem_used_max_mib"):
                check(g.get(k) == h.get(k), f"{name} {host} GPU {g['index']} {k}: {g.get(k)} vs {h.get(k)}")
            for k in ("mem_used_avg_mib", "avg_power_w", "mem_total_mib"):
                check(abs(g[k] - h[k]) <= 1e-3, f"{name} {host} GPU {g['index']} {k}")
            check(not gpu_p95 or abs(g["p95_util_pct"] - h["p95_util_pct"]) <= 1.0,
                  f"{name} {host} GPU p95: {g['p95_util_pct']} vs {h['p95_util_pct']}")
    check(abs(a["total_wasted_usd"] - b["total_wasted_usd"]) <= 0.05, f"{name}: total wasted")
compare(f, pd, "--pushdown --step 1m vs the file")
compare(f, paged, "paged --pushdown vs the file")
# 5-minute windows: the push-down equals the 5-minute window mode's idle analysis; its GPU
# percentiles are of the readings (the window mode's of window means), its host figures of
# windows unweighted by their readings.
compare(coarse, pd5, "--pushdown --step 5m vs --step 5m",
        near={"avg_util_pct": 0.2, "p95_util_pct": 0.2}, exact=EXACT[:-3], gpu_p95=False)
# The hour-of-week profile: the push-down's idle pieces and its hourly coverage (one series per
# host batch) file the same host-hours as the readings do (JSON rounds to 0.001 h).
for name, a, b in (("--pushdown --step 1m", f, pd), ("paged --pushdown", f, paged),
                   ("--pushdown --step 5m", coarse, pd5)):
    wa, wb = a.get("week_profile"), b.get("week_profile")
    check(wa is not None and wb is not None, f"{name}: no week_profile")
    if not (wa and wb):
        continue
    check(wa["timezone"] == wb["timezone"] == "UTC", f"{name}: zones {wa['timezone']} {wb['timezone']}")
    for k in ("covered_host_hours", "idle_host_hours"):
        d = max(abs(x - y) for x, y in zip(wa[k], wb[k]))
        check(len(wa[k]) == len(wb[k]) == 168 and d <= 2e-3, f"{name}: {k} differ by up to {d}")
    total = sum(h["hours_covered"] for h in a["instances"])
    check(abs(sum(wa["covered_host_hours"]) - total) <= 0.1, f"{name}: covered {total}")
    check(0 < sum(wb["idle_host_hours"]) < sum(wb["covered_host_hours"]), f"{name}: idle hours")
src, psrc = pd["prometheus"], paged["prometheus"]
check(src["pushdown"] and src["hosts"] == 5 and src["gpus"] == 20, f"push-down source: {src}")
# The series list, then per host batch GPU totals, host totals and the hours: one batch for the
# four Hostname hosts, one for the host named by instance; paged, one host per batch.
check(src["requests"] == 1 + 2 * 3 and psrc["requests"] == 1 + 5 * 3, f"requests: {src} / {psrc}")
check(src["response_bytes"] * 20 < load("prom")["prometheus"]["response_bytes"],
      f"push-down moves 20x fewer bytes: {src['response_bytes']} vs "
      f"{load('prom')['prometheus']['response_bytes']}")
sys.exit(0 if ok else 1)
PYEOF
[ $? = 0 ] && ok

"$PY" - "$T" <<'PYEOF' || bad "reports differ (see above)"
import json, sys
t = sys.argv[1]
load = lambda n: json.load(open(f"{t}/{n}.json"))
f, p, paged, coarse, l4, bearer, basic = (
    load(n) for n in ("file", "prom", "paged", "coarse", "l4", "bearer", "basic"))
def strip(d):
    return {k: v for k, v in d.items() if k not in ("files", "prometheus")}
ok = True
def check(cond, msg):
    global ok
    if not cond:
        ok = False
        print("FAIL:", msg)
check(len(f["instances"]) == 5 and f["total_wasted_usd"] > 0, "file report: 5 hosts with waste")
check(strip(p) == strip(f), "--step 1m differs from the file:\n" +
      json.dumps(strip(p), sort_keys=True)[:1500] + "\n" + json.dumps(strip(f), sort_keys=True)[:1500])
check(strip(paged) == strip(f), "paginated result differs from the file")
check(strip(bearer) == strip(f) and strip(basic) == strip(f), "with credentials")
src, psrc = p["prometheus"], paged["prometheus"]
# The series list, one query for the four Hostname hosts, one for the host named by instance.
check(src["hosts"] == 5 and src["gpus"] == 20 and src["requests"] == 3, f"one page: {src}")
check(psrc["requests"] >= 1 + 5 * (36 // 2), f"pages: {psrc}")
check(src["window_samples"] == sum(h["samples"] for h in f["instances"]), "one reading per window")
# 5-minute windows: far fewer values, the same readings and decisions.
check(coarse["prometheus"]["points"] * 4 < src["points"], "5m windows transfer less")
byhost = lambda d: {h["host"]: h for h in d["instances"]}
fh, ch = byhost(f), byhost(coarse)
check(set(fh) == set(ch), "same hosts at 5m")
for name, h in fh.items():
    c = ch.get(name, {})
    check(c.get("samples") == h["samples"], f"{name}: readings at 5m")
    check(c.get("recommendation", {}).get("action") == h["recommendation"]["action"],
          f"{name}: action at 5m {c.get('recommendation')} vs {h['recommendation']}")
    # Phases change on 5-minute boundaries, so the windows find the same idle time but for the
    # last window, which holds one reading and stands for a whole step (5 min, not 1).
    for k in ("idle_hours", "hours_covered"):
        check(0 <= c.get(k, -9) - h[k] <= 4 / 60 + 1e-3, f"{name}: {k} at 5m: {c.get(k)} vs {h[k]}")
    check(abs(c.get("avg_util_pct", -9) - h["avg_util_pct"]) <= 0.5, f"{name}: avg util at 5m")
    check(c.get("gpu_details", [{}])[0].get("mem_used_max_mib") ==
          h["gpu_details"][0]["mem_used_max_mib"], f"{name}: peak memory at 5m")
check(sorted(h["host"] for h in l4["instances"]) == ["10.0.0.5", "host-001"],
      "the selector picks the L4 hosts")
sys.exit(0 if ok else 1)
PYEOF
[ $? = 0 ] && ok

expect_exit "no series" 1 "no DCGM_FI_DEV_GPU_UTIL series match" idle --prometheus "$URL" \
  "${RANGE[@]}" --selector '{Hostname="nope"}'
expect_exit "bad selector" 2 "--selector" idle --prometheus "$URL" --selector 'up{'
expect_exit "query refused" 2 "the server refused the query" idle --prometheus "$URL" \
  "${RANGE[@]}" --selector '{Hostname=~"("}'
expect_exit "bad url" 2 "--prometheus: expected http(s)://" idle --prometheus "localhost:$PORT"
expect_exit "files and url" 2 "one of the two" idle "$T/fleet.prom" --prometheus "$URL"
# The security report's URLs: refused before any request (the admin API and /-/quit are on).
for attack in "$URL/api/v1/admin/tsdb/delete_series?x=" "$URL/-/quit?x=" "$URL/x/../-/quit" \
    "$URL/%2e%2e/-/quit" "$URL/-/quit#" "$URL\\..\\-\\quit" "http://u@127.0.0.1:$PORT"; do
  expect_exit "attack $attack" 2 "--prometheus: expected" idle --prometheus "$attack" "${RANGE[@]}"
done
# POST /v1/idle?prometheus=URL: the same report from `serve`, for allowed URLs only.
GPUADVISOR_PROMETHEUS_URLS="$URL" "$BIN" serve --port 0 --threads 2 > "$T/serve.out" 2>&1 &
spid=$!
API=
for _ in $(seq 100); do
  API=$(grep -o 'http://[^ ]*/' "$T/serve.out" 2>/dev/null | head -1)
  [ -n "$API" ] && break
  sleep 0.05
done
"$PY" - "$API" "$URL" "$END" "$T" <<'PYEOF' && ok || bad "POST /v1/idle?prometheus= (see above)"
import json, sys, urllib.error, urllib.parse, urllib.request
api, url, end, t = sys.argv[1:]
def post(params):
    q = urllib.parse.urlencode(params)
    try:
        with urllib.request.urlopen(urllib.request.Request(f"{api}v1/idle?{q}", data=b"", headers={"Content-Type": "application/json"})) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)
status, d = post({"prometheus": url, "since": "36h", "until": end, "step": "1m"})
f = json.load(open(f"{t}/prom.json"))
strip = lambda d: {k: v for k, v in d.items() if k not in ("files", "prometheus")}
assert status == 200 and strip(d) == strip(f), (status, str(d)[:500])
assert d["prometheus"]["gpus"] == 20
status, d = post({"prometheus": url, "since": "36h", "until": end, "step": "1m", "pushdown": "true"})
pd = json.load(open(f"{t}/pd.json"))
assert status == 200 and strip(d) == strip(pd), (status, str(d)[:500])
status, d = post({"prometheus": "http://169.254.169.254", "since": "1d"})
assert status == 403 and d["error"]["field"] == "prometheus", (status, d)
# The security report's attacks through the allow-list: refused, or (a base path naming the admin
# API, which is within the allowed server) only ever a prefix of the read API's paths.
for attack in ("/api/v1/admin/tsdb/delete_series?x=", "/-/quit?x=", "/x/../-/quit",
               "/%2e%2e/-/quit", "/-/quit#", "\\..\\-\\quit"):
    status, d = post({"prometheus": url + attack, "since": "36h", "until": end, "step": "1m"})
    assert status == 400 and d["error"]["field"] == "prometheus", (attack, status, d)
for path in ("/api/v1/admin/tsdb/delete_series", "/-/quit"):
    status, d = post({"prometheus": url + path, "since": "36h", "until": end, "step": "1m"})
    assert status == 502, (path, status, d)
status, d = post({"max-hosts": "1000000", "prometheus": url})
assert status == 400 and d["error"]["field"] == "max-hosts", (status, d)
# The real prometheus still runs and still holds every series: the same report as before.
status, d = post({"prometheus": url, "since": "36h", "until": end, "step": "1m"})
assert status == 200 and strip(d) == strip(f), (status, str(d)[:500])
PYEOF
kill "$spid"; wait "$spid" 2>/dev/null; spid=
kill "$pid"; wait "$pid" 2>/dev/null; pid=
expect_exit "server down" 3 "$URL/api/v1/series" idle --prometheus "$URL"
finish idle_prometheus_test
