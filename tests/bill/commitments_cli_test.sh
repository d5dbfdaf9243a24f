#!/usr/bin/env bash
# `gpuadvisor commitments` from the command line on the synthetic bill (tests/testutil/
# cur_synth.h): every option changes the answer the way it says, the chart is written, and bad
# input is one line naming the file:line or the option, exit 2, nothing written.
# Usage: commitments_cli_test.sh PATH/TO/gpuadvisor PATH/TO/cur_synth
set -uo pipefail
BIN=$(realpath "${1:?usage: commitments_cli_test.sh PATH/TO/gpuadvisor PATH/TO/cur_synth}")
SYNTH=$(realpath "${2:?usage: commitments_cli_test.sh PATH/TO/gpuadvisor PATH/TO/cur_synth}")
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export GPUADVISOR_TODAY=2026-12-07 HOME=$T XDG_DATA_HOME=$T/xdg
"$SYNTH" 200 | gzip > "$T/cur.csv.gz" || { echo "FAIL: cur_synth"; exit 1; }
run() { "$BIN" commitments "$T/cur.csv.gz" --json "$@"; }
run > "$T/base.json" || bad "the base run failed"
run --burst spot > "$T/spot.json" || bad "--burst spot failed"
run --discount 10 > "$T/disc.json" || bad "--discount failed"
run --term 3y > "$T/3y.json" || bad "--term 3y failed"
run --payment all-upfront > "$T/allup.json" || bad "--payment failed"
run --expiring-days 0 > "$T/exp0.json" || bad "--expiring-days failed"
"$BIN" commitments "$T/cur.csv.gz" --chart "$T/ladder.svg" > "$T/table.txt" || bad "--chart failed"

python3 - "$T" <<'PY' || fails=$((fails + 1))
import json, os, sys
t = sys.argv[1]
def load(n):
    with open(os.path.join(t, n)) as f:
        return json.load(f)
base, spot, disc = load("base.json"), load("spot.json"), load("disc.json")
y3, allup, exp0 = load("3y.json"), load("allup.json"), load("exp0.json")
def fail(msg):
    sys.exit("FAIL: " + msg)
s = base["summary"]
g5 = [g for g in base["groups"] if g["instance_type"] == "g5.xlarge"][0]
if not g5["recommendation"]:
    fail("no commitment for the g5 serving curve")
if g5["recommendation"]["price_source"] in ("", None) or not g5["on_demand_source"]:
    fail("a rate without its source")
# Spot bursts: less is committed (bursts are cheaper than on demand).
if not spot["summary"]["committed_usd_per_hour"] < s["committed_usd_per_hour"]:
    fail(f"--burst spot committed {spot['summary']['committed_usd_per_hour']} vs {s['committed_usd_per_hour']}")
# A negotiated discount scales every amount, not the choice.
if abs(disc["summary"]["with_commitments_usd_per_hour"] - 0.9 * s["with_commitments_usd_per_hour"]) > 1e-6:
    fail("--discount 10 did not take 10% off")
# The embedded catalog prices only 1-year no-upfront RIs: other terms and payments are named as
# missing, not invented.
for r, what in ((y3, "--term 3y"), (allup, "--payment all-upfront")):
    for g in r["groups"]:
        if g["recommendation"]:
            fail(f"{what}: a recommendation from a price the catalog does not have")
    if not any("import the AWS Price List" in n for g in r["groups"] for n in g["notes"]):
        fail(f"{what}: no note that the catalog lacks the term")
# The RI ends 2026-11-30, the bill 2026-06-18: expiring within 365 days (the default 90: no).
ri = base["reservations"][0]
if ri["expiring"] or not 0.99 < ri["utilisation"] < 1:
    fail(f"RI: {ri}")
if base["savings_plans"][0]["utilisation"] >= 1:
    fail("the plan's unused dollars were not counted")
if exp0["reservations"][0]["expiring"]:
    fail("--expiring-days 0 still calls it expiring")
svg = open(os.path.join(t, "ladder.svg")).read()
if not svg.startswith("<svg") or "polyline" not in svg or "standard-ri" not in svg:
    fail("the chart has no usage line or ladder")
table = open(os.path.join(t, "table.txt")).read()
if "g5.xlarge" not in table or "reserved instance" not in table:
    fail("the table or its notes are missing")
print("commitments options: ok")
PY
"$BIN" commitments "$T/cur.csv.gz" --expiring-days 400 --json | python3 -c \
  "import json,sys; sys.exit(0 if json.load(sys.stdin)['reservations'][0]['expiring'] else 1)" ||
  bad "--expiring-days 400 does not reach the RI's end"

# Planned runs (--plan): a year of 4 more g6e.12xlarge makes a commitment pay where the history's
# week a month does not; a plan recommend wrote is read as it is; a spot run is listed, not sized.
cat > "$T/g6e.json" <<'EOF'
{"plans": [{"rank": 1, "instance_type": "g6e.12xlarge", "instances": 4, "region": "us-east-2",
            "purchase": "on-demand", "time_hours": 8760}]}
EOF
cat > "$T/spot.json" <<'EOF'
{"instance_type": "p4d.24xlarge", "instances": 2, "region": "us-east-1", "purchase": "spot",
 "time_hours": 300}
EOF
"$BIN" recommend --task pretrain --model llama-3-8b --tokens 20B --purchase on-demand --json \
  > "$T/rec.json" 2> /dev/null || bad "recommend --json failed"
run --plan "$T/g6e.json" --plan "$T/spot.json" --plan "$T/rec.json" > "$T/planned.json" ||
  bad "--plan failed"
python3 - "$T" <<'PY' || fails=$((fails + 1))
import json, os, sys
t = sys.argv[1]
base = json.load(open(os.path.join(t, "base.json")))
got = json.load(open(os.path.join(t, "planned.json")))
rec = json.load(open(os.path.join(t, "rec.json")))["plans"][0]
def fail(msg):
    sys.exit("FAIL: " + msg)
def g6e(r):
    return [g for g in r["groups"] if g["instance_type"] == "g6e.12xlarge"][0]
if g6e(base)["recommendation"]:
    fail("the base g6e week a month already pays for a commitment: the test proves nothing")
c = g6e(got)["recommendation"]
if not c or c["instances"] < 4:
    fail(f"a year of 4 more g6e.12xlarge: {c}")
if abs(g6e(got)["planned_instance_hours"] - 4 * 8760) > 1e-6:
    fail("planned_instance_hours")
p = got["planned"]
if [x["sized"] for x in p] != [True, False, True] or "spot" not in p[1]["why"]:
    fail(f"planned: {p}")
want = (rec["instance_type"], rec["instances"], rec["region"], round(rec["time_hours"], 6))
if (p[2]["instance_type"], p[2]["instances"], p[2]["region"], round(p[2]["hours"], 6)) != want:
    fail(f"the recommend plan was not read as written: {p[2]} vs {want}")
print("commitments --plan: ok")
PY
echo '{"instance_type": "g6e.12xlarge", "instances": 1, "region": "us-east-2"}' > "$T/nohours.json"
"$BIN" commitments "$T/cur.csv.gz" --plan "$T/nohours.json" > /dev/null 2> "$T/err"
rc=$?
[ $rc = 2 ] && grep -q "time_hours" "$T/err" || bad "a plan without time_hours: exit $rc, $(cat "$T/err")"
"$BIN" commitments --sql --plan "$T/g6e.json" > /dev/null 2> "$T/err" && bad "--plan with --sql was accepted"
grep -q "plan" "$T/err" || bad "the refusal does not name --plan: $(cat "$T/err")"

# Bad input: one line, exit 2, naming the place.
printf 'line_item_line_item_type,line_item_product_code,line_item_usage_type,line_item_usage_start_date,line_item_usage_amount\nUsage,AmazonEC2,USE1-BoxUsage:p4d.24xlarge,2026-01-01T00:00:00Z,lots\n' > "$T/bad.csv"
"$BIN" commitments "$T/bad.csv" > "$T/out" 2> "$T/err"
rc=$?
[ $rc = 2 ] || bad "a bad amount exits $rc, not 2"
grep -q "bad.csv:2" "$T/err" && grep -q "line_item_usage_amount" "$T/err" ||
  bad "the error does not name bad.csv:2 and the column: $(cat "$T/err")"
[ "$(wc -l < "$T/err")" = 1 ] || bad "the error is not one line"
"$BIN" commitments "$T/cur.csv.gz" --athena-timeout 1m > /dev/null 2> "$T/err" &&
  bad "--athena-timeout without --athena-table was accepted"
grep -q "athena-timeout" "$T/err" || bad "the refusal does not name --athena-timeout"
"$BIN" commitments --athena-table 'cur; DROP TABLE x' --sql > /dev/null 2> "$T/err" &&
  bad "a table name with SQL in it was accepted"
"$BIN" commitments --athena-table cur.cur2 --athena-output 'file:///etc/passwd' \
  --endpoint-url http://127.0.0.1:9 --region us-east-1 > /dev/null 2> "$T/err" &&
  bad "--athena-output file:// was accepted"
grep -q "athena-output" "$T/err" || bad "the refusal does not name --athena-output: $(cat "$T/err")"
"$BIN" commitments "$T/cur.csv.gz" --chart "" > /dev/null 2>&1 && bad "--chart '' was accepted"

if [ "$fails" -gt 0 ]; then
  echo "commitments_cli_test: $fails failure(s)"
  exit 1
fi
echo "commitments_cli_test: ok"
