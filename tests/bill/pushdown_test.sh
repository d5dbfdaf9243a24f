#!/usr/bin/env bash
# End to end (issue 41, item 3): the push-down SQL of `gpuadvisor commitments` runs on a real
# PostgreSQL (Debian's, a stand-in with the CUR 2.0 columns, loaded with the synthetic bill of
# tests/testutil/cur_synth.h), and the report from its result equals the report from reading the
# same bill locally; then the Athena path, through the real AWS CLI against a local Athena
# (tests/bill/fake_athena.py) that runs the query it receives on that PostgreSQL and pages the
# result back, gives the same report again. A failed query is reported, not taken as no usage.
# Exit 77 = skipped (no PostgreSQL; scripts/deps.sh installs it).
# Usage: pushdown_test.sh PATH/TO/gpuadvisor PATH/TO/cur_synth
set -uo pipefail
BIN=$(realpath "${1:?usage: pushdown_test.sh PATH/TO/gpuadvisor PATH/TO/cur_synth}")
SYNTH=$(realpath "${2:?usage: pushdown_test.sh PATH/TO/gpuadvisor PATH/TO/cur_synth}")
HERE=$(cd "$(dirname "$0")" && pwd)
PGBIN=/usr/lib/postgresql/15/bin
[ -x "$PGBIN/initdb" ] || PGBIN=$(dirname "$(command -v initdb 2>/dev/null || echo /none/x)")
if [ ! -x "$PGBIN/initdb" ] || ! command -v psql >/dev/null; then
  echo "pushdown_test: SKIPPED (needs PostgreSQL: apt-get install postgresql)"
  exit 77
fi
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
T=$(mktemp -d)
chmod 755 "$T"
fake=
cleanup() {
  [ -n "$fake" ] && kill "$fake" 2>/dev/null
  as_pg "$PGBIN/pg_ctl" -D "$T/pg/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$T"
}
# initdb refuses to run as root: the server runs as the postgres user where we are root.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
trap cleanup EXIT
export GPUADVISOR_TODAY=2026-12-07 HOME=$T XDG_DATA_HOME=$T/xdg

"$SYNTH" 75 > "$T/cur.csv" || { bad "cur_synth failed"; exit 1; }
gzip -k "$T/cur.csv"

mkdir -p "$T/pg"
[ "$(id -u)" = 0 ] && chown postgres "$T/pg"
as_pg "$PGBIN/initdb" -D "$T/pg/data" -U postgres -A trust > "$T/initdb.log" 2>&1 ||
  { bad "initdb failed: $(tail -3 "$T/initdb.log")"; exit 1; }
# Unix socket only (no TCP port opened), in the test's directory.
as_pg "$PGBIN/pg_ctl" -D "$T/pg/data" -l "$T/pg/server.log" -w \
  -o "-k $T/pg -c listen_addresses= -p 5433" start > /dev/null ||
  { bad "postgres did not start: $(tail -5 "$T/pg/server.log")"; exit 1; }
PSQL=(psql -h "$T/pg" -p 5433 -U postgres -d postgres -X -q -v ON_ERROR_STOP=1)

# The CUR 2.0 columns the synthetic bill has, with Athena's types for them.
num="double precision"
"${PSQL[@]}" > "$T/ddl.log" 2>&1 <<SQL || bad "CREATE TABLE failed: $(cat "$T/ddl.log")"
CREATE SCHEMA cur;
CREATE TABLE cur.cur2 (
  bill_billing_period_start_date timestamp, line_item_usage_account_id text,
  line_item_line_item_type text, line_item_usage_start_date timestamp,
  line_item_usage_end_date timestamp, line_item_product_code text, line_item_usage_type text,
  line_item_operation text, line_item_availability_zone text, line_item_resource_id text,
  line_item_usage_amount $num, line_item_currency_code text, line_item_unblended_rate $num,
  line_item_unblended_cost $num, line_item_line_item_description text, product_region_code text,
  product_instance_type text, pricing_term text, pricing_unit text,
  pricing_public_on_demand_rate $num, pricing_public_on_demand_cost $num,
  reservation_reservation_a_r_n text, reservation_end_time text,
  reservation_total_reserved_units $num, reservation_unused_quantity $num,
  reservation_amortized_upfront_fee_for_billing_period $num, reservation_effective_cost $num,
  savings_plan_savings_plan_a_r_n text, savings_plan_end_time text,
  savings_plan_offering_type text, savings_plan_region text,
  savings_plan_instance_type_family text, savings_plan_total_commitment_to_date $num,
  savings_plan_used_commitment $num, savings_plan_savings_plan_rate $num,
  savings_plan_savings_plan_effective_cost $num, resource_tags text);
\copy cur.cur2 FROM '$T/cur.csv' WITH (FORMAT csv, HEADER true)
SQL

# 1. Locally, from the gzip file.
"$BIN" commitments "$T/cur.csv.gz" --json > "$T/local.json" 2> "$T/local.err" ||
  bad "local read failed: $(cat "$T/local.err")"
# 2. The push-down SQL on PostgreSQL; its result read back.
"$BIN" commitments --sql --athena-table cur.cur2 > "$T/query.sql" || bad "--sql failed"
"${PSQL[@]}" --csv -f "$T/query.sql" > "$T/hourly.csv" 2> "$T/psql.err" ||
  bad "the push-down SQL failed on PostgreSQL: $(head -5 "$T/psql.err")"
"$BIN" commitments "$T/hourly.csv" --json > "$T/pg.json" 2> "$T/pg.err" ||
  bad "reading the push-down's result failed: $(cat "$T/pg.err")"
# 3. Through the AWS CLI and a local Athena running the query on the same PostgreSQL.
if command -v aws >/dev/null; then
  python3 "$HERE/fake_athena.py" "$T/athena.port" --psql "$(command -v psql)" --pg-host "$T/pg" \
    --pg-port 5433 --db postgres --log "$T/athena.log" 2> "$T/athena.err" &
  fake=$!
  for _ in $(seq 100); do [ -s "$T/athena.port" ] && break; sleep 0.1; done
  URL="http://127.0.0.1:$(cat "$T/athena.port")"
  AWSENV=(env -u AWS_PROFILE -u AWS_REGION -u AWS_DEFAULT_REGION -u AWS_SESSION_TOKEN
          AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_CONFIG_FILE=$T/none
          AWS_SHARED_CREDENTIALS_FILE=$T/none AWS_MAX_ATTEMPTS=1)
  "${AWSENV[@]}" "$BIN" commitments --athena-table cur.cur2 --athena-workgroup finops \
    --athena-output s3://finops-results/gpuadvisor/ --athena-timeout 2m \
    --endpoint-url "$URL" --region us-east-1 --json > "$T/athena.json" 2> "$T/athena-cli.err" ||
    bad "--athena-table failed: $(cat "$T/athena-cli.err")"
  # A query Athena fails is an error naming it, exit non-zero, no report.
  if "${AWSENV[@]}" "$BIN" commitments --athena-table cur.nosuch --endpoint-url "$URL" \
    --region us-east-1 --json > "$T/failed.json" 2> "$T/failed.err"; then
    bad "a failed Athena query exited 0"
  fi
  grep -q "FAILED" "$T/failed.err" || bad "a failed query's error does not say FAILED: $(cat "$T/failed.err")"
else
  echo "pushdown_test: no AWS CLI: the Athena path is not run"
fi

python3 - "$T" <<'PY' || fails=$((fails + 1))
import json, math, os, sys
t = sys.argv[1]
def load(name):
    with open(os.path.join(t, name)) as f:
        d = json.load(f)
    d.pop("source")
    return d
def same(a, b, path="$"):
    if isinstance(a, float) or isinstance(b, float):
        if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9):
            sys.exit(f"FAIL: {path}: {a} != {b}")
    elif isinstance(a, dict):
        if list(a) != list(b):
            sys.exit(f"FAIL: {path}: keys {list(a)} != {list(b)}")
        for k in a:
            same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        if len(a) != len(b):
            sys.exit(f"FAIL: {path}: {len(a)} items != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]")
    elif a != b:
        sys.exit(f"FAIL: {path}: {a!r} != {b!r}")
local = load("local.json")
assert local["groups"] and local["reservations"] and local["savings_plans"], "an empty report"
same(local, load("pg.json"))
print("push-down on PostgreSQL: the same report as the local reader "
      f"({len(local['groups'])} types, {local['period']['hours']} hours)")
if os.path.exists(os.path.join(t, "athena.json")) and os.path.getsize(os.path.join(t, "athena.json")):
    same(local, load("athena.json"))
    with open(os.path.join(t, "athena.log")) as f:
        ops = [json.loads(l) for l in f]
    pages = sum(1 for o in ops if o["op"] == "GetQueryResults")
    polls = sum(1 for o in ops if o["op"] == "GetQueryExecution")
    start = [o for o in ops if o["op"] == "StartQueryExecution"][0]["params"]
    if pages < 2:
        sys.exit(f"FAIL: the result came in {pages} page(s): paging not exercised")
    if polls < 3:
        sys.exit(f"FAIL: {polls} polls: QUEUED and RUNNING not waited through")
    if start.get("ResultConfiguration") != {"OutputLocation": "s3://finops-results/gpuadvisor/"}:
        sys.exit(f"FAIL: the result location sent was {start.get('ResultConfiguration')!r}")
    if start.get("WorkGroup") != "finops":
        sys.exit(f"FAIL: the workgroup sent was {start.get('WorkGroup')!r}")
    print(f"Athena path: the same report ({pages} result pages, {polls} polls)")
PY

"$BIN" commitments "$T/cur.csv" --athena-workgroup x > /dev/null 2> "$T/na.err" &&
  bad "--athena-workgroup with files was accepted"
grep -q "athena-workgroup" "$T/na.err" || bad "the refusal does not name --athena-workgroup"

if [ "$fails" -gt 0 ]; then
  echo "pushdown_test: $fails failure(s)"
  exit 1
fi
echo "pushdown_test: ok"
