#!/usr/bin/env bash
# End-to-end checks of `gpuadvisor catalog import` / `catalog diff` / `show --history` on the
# checked-in fixtures: the canonical-row rule with decoys, JSON/gzip/stdin inputs, exit 2 with
# file:line on malformed input leaving --out byte-for-byte unchanged, and kill -9 mid-import.
# Usage: import_test.sh PATH/TO/gpuadvisor FIXTURES_DIR
set -u
BIN=${1:?usage: import_test.sh PATH/TO/gpuadvisor FIXTURES_DIR}
FX=${2:?fixtures dir}
PY=${PYTHON:-python3}
source "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

CSV=$FX/price-list-p5.csv
NEW=$T/new.json
# --- Must show: the canonical p5.48xlarge row wins over Windows/dedicated/reservation/SQL decoys.
"$BIN" catalog import --price-list "$CSV" --out "$NEW" >"$T/summary.txt" 2>"$T/err.txt" || bad "import rc=$?"
grep -q "rows read" "$T/summary.txt" && grep -q "prices set" "$T/summary.txt" && ok || bad "summary: $(cat "$T/summary.txt")"
grep -q "p7.48xlarge" "$T/err.txt" && ok || bad "unknown type warning: $(cat "$T/err.txt")"
grep -q $'\r' "$T/err.txt" && bad "progress bar on a non-TTY" || ok
P5='[r for r in d["regions"] if r["region"]=="us-east-1"][0]'
expect_json "p5 on-demand imported" "$P5[\"on_demand_usd_per_hour\"]==61.77 and $P5[\"price_source\"]==\"aws-price-list-20261120180000\"" show p5.48xlarge --catalog "$NEW" --json
expect_json "p5 1y RI imported" "$P5[\"reserved_1y_no_upfront_usd_per_hour\"]==38.91" show p5.48xlarge --catalog "$NEW" --json
expect_json "p5 RI terms" "len($P5[\"reserved\"])==6 and any(t[\"term\"]==\"1y-standard-partial-upfront\" and t[\"upfront_usd\"]==162231 for t in $P5[\"reserved\"])" show p5.48xlarge --catalog "$NEW" --json
"$BIN" show p5.48xlarge --catalog "$NEW" 2>/dev/null | grep -E "^us-east-1 " | grep -q "61.770.*38.910" && ok || bad "show table p5 us-east-1"
"$BIN" show p5.48xlarge --catalog "$NEW" 2>/dev/null | grep -q "RI 1y-standard-partial-upfront *162231" && ok || bad "show RI table"
"$BIN" show p5.48xlarge --catalog "$NEW" --history 2>/dev/null | grep -q "on-demand *2026-11-20 *61.7700 *+12.2%" && ok || bad "show --history"
# The embedded catalog carries Capacity Block history only (p5 has it, g6 has none).
expect_exit "no history in the embedded catalog" 1 "no price history" show g6.xlarge --history
# Every other command accepts the new catalog.
expect_json "instances on new catalog" 'any(r["instance_type"]=="p5.48xlarge" and r["on_demand_usd_per_hour"]==61.77 for r in d)' instances --catalog "$NEW" --gpu H100 --json
expect_json "pricing uses imported RI terms" 'any(o["option"]=="reserved-1y-partial-upfront" and o["priced"] and abs(o["usd_per_hour"]-(18.52+162231/8760))<1e-6 for o in d["options"])' pricing p5.48xlarge --catalog "$NEW" --months 12 --json
# A progress bar (file, %, bytes, rate) on stderr when it is a terminal (script(1) gives a pty).
if command -v script >/dev/null 2>&1; then
  out=$(script -qec "'$BIN' catalog import --price-list '$CSV' --out '$T/tty.json'" /dev/null 2>&1)
  [[ "$out" == *"price-list-p5.csv ["*"%"*"kB"* ]] && ok || bad "progress bar on a TTY: [$out]"
fi
# --- JSON offer file, gzip on stdin: the same catalog.
gzip -c "$FX/price-list-p5.json" | "$BIN" catalog import --price-list - --out "$T/from-json.json" --json >"$T/sum.json" 2>/dev/null || bad "json import"
expect_json "json via stdin+gzip" "$P5[\"on_demand_usd_per_hour\"]==61.77 and $P5[\"reserved_1y_no_upfront_usd_per_hour\"]==38.91" show p5.48xlarge --catalog "$T/from-json.json" --json
"$PY" -c "import json; d=json.load(open('$T/sum.json')); assert d['inputs'][0]['format']=='price-list-json' and d['prices_changed']>=2" && ok || bad "import --json summary"
# --- catalog diff
expect_json "diff" 'any(c["instance_type"]=="p5.48xlarge" and c["region"]=="us-east-1" and c["price"]=="on-demand" and c["old_usd_per_hour"]==55.04 and c["new_usd_per_hour"]==61.77 for c in d["price_changes"]) and d["added_types"]==[]' catalog diff embedded "$NEW" --json
"$BIN" catalog diff embedded "$NEW" | grep -q "p5.48xlarge.*us-east-1.*on-demand.*55.0400.*61.7700.*+12.2%" && ok || bad "diff table"
# --- DescribeInstanceTypes: a new type appears in `instances`.
sed 's/p7\.48xlarge/p5z.48xlarge/g' "$CSV" >"$T/p5z.csv"
"$BIN" catalog import --instance-types "$FX/describe-instance-types-new-type.json" --price-list "$T/p5z.csv" --out "$T/newtype.json" >/dev/null 2>&1 || bad "new type import"
expect_json "new type in instances" 'any(r["instance_type"]=="p5z.48xlarge" and r["accelerator"]["model"]=="H100" for r in d)' instances --catalog "$T/newtype.json" --json
expect_json "diff added type" '"p5z.48xlarge" in d["added_types"]' catalog diff embedded "$T/newtype.json" --json
# --- Savings plans, offerings, spot history, spot advisor.
"$BIN" catalog import --savings-plans "$FX/savings-plans-p5.csv" --offerings "$FX/offerings-az-id.json" \
  --spot-history "$FX/spot-history-p5.json" --spot-advisor "$FX/spot-advisor-trimmed.json" \
  --snapshot-date 2026-12-01 --catalog "$NEW" --out "$T/all.json" >/dev/null 2>&1 || bad "all-sources import"
expect_json "savings plans + spot" "len($P5[\"savings_plans\"])==3 and $P5[\"spot_usd_per_hour\"]==18.12 and \"use1-az9\" in $P5[\"az_ids\"] and $P5[\"on_demand_usd_per_hour\"]==61.77" show p5.48xlarge --catalog "$T/all.json" --json
"$BIN" show p5.48xlarge --catalog "$T/all.json" 2>/dev/null | grep -q "SP compute-1y-no-upfront" && ok || bad "show SP rows"

# --- The AWS API answers read with credentials (what `catalog update --aws` merges), saved as
# AWS CLI output: the Query API's products, EC2's RI and Capacity Block offerings, SP rates.
"$BIN" catalog import --price-list-query "$FX/get-products-p5.json" \
  --reserved-offerings "us-east-1=$FX/reserved-offerings-p5.json" \
  --savings-plan-rates "$FX/savings-plan-rates-p5.json" --capacity-blocks "$FX/capacity-blocks-p5.json" \
  --snapshot-date 2026-12-05 --out "$T/api.json" >/dev/null 2>&1 || bad "AWS API answers import"
expect_json "query API on-demand" "$P5[\"on_demand_usd_per_hour\"]==61.77 and $P5[\"price_source\"]==\"aws-price-list-query-2026-11-20\"" show p5.48xlarge --catalog "$T/api.json" --json
expect_json "EC2 RI offerings win" "$P5[\"reserved_1y_no_upfront_usd_per_hour\"]==36.52 and any(t[\"term\"]==\"1y-standard-all-upfront\" and t[\"upfront_usd\"]==309470 for t in $P5[\"reserved\"])" show p5.48xlarge --catalog "$T/api.json" --json
expect_json "SP rates" "any(s[\"term\"]==\"compute-1y-no-upfront\" and s[\"usd_per_hour\"]==41.23 for s in $P5[\"savings_plans\"])" show p5.48xlarge --catalog "$T/api.json" --json
expect_json "capacity block offer" "abs($P5[\"capacity_block_usd_per_hour\"]-33.44)<1e-9 and $P5[\"capacity_block_date\"]==\"2026-12-05\" and \"from 2026-12-08T11:30:00+00:00 in us-east-1b\" in $P5[\"capacity_block_note\"]" show p5.48xlarge --catalog "$T/api.json" --json
expect_exit "RI offerings need their region" 2 "reserved-offerings: expected REGION=FILE" catalog import --reserved-offerings "$FX/reserved-offerings-p5.json" --out "$T/x.json"

# --- Malformed input: exit 2, file:line, --out byte-for-byte unchanged.
cp "$NEW" "$T/keep.json"
sed 's/"PricePerUnit"/"Price"/' "$CSV" >"$T/nocol.csv"
expect_exit "missing PricePerUnit" 2 "nocol.csv:6: missing column \"PricePerUnit\"" catalog import --price-list "$T/nocol.csv" --out "$T/keep.json"
cmp -s "$NEW" "$T/keep.json" && ok || bad "out changed after missing column"
{ cat "$CSV"; printf '\x00\x01\xff\xfegarbage,,\n'; } >"$T/garbage.csv"
expect_exit "garbage bytes" 2 "garbage.csv:31: expected 91 fields" catalog import --price-list "$T/garbage.csv" --out "$T/keep.json"
cmp -s "$NEW" "$T/keep.json" && ok || bad "out changed after garbage"
head -c 5000 "$FX/price-list-p5.json" >"$T/trunc.json"
expect_exit "truncated JSON" 2 "trunc.json:" catalog import --price-list "$T/trunc.json" --out "$T/keep.json"
cmp -s "$NEW" "$T/keep.json" && ok || bad "out changed after truncated JSON"
gzip -c "$CSV" | head -c 1000 >"$T/trunc.csv.gz"
expect_exit "truncated gzip" 2 "truncated gzip" catalog import --price-list "$T/trunc.csv.gz" --out "$T/keep.json"
cmp -s "$NEW" "$T/keep.json" && ok || bad "out changed after truncated gzip"
expect_exit "no inputs" 2 "expected at least one input" catalog import --out "$T/keep.json"
expect_exit "unreadable input" 3 "cannot open" catalog import --price-list "$T/missing.csv" --out "$T/keep.json"
[ -z "$(ls -A "$T" | grep -E '\.tmp\.|gpuadvisor-tmp')" ] && ok || bad "temporary files left: $(ls -A "$T")"

# --- Issue 16: validation policy, summary counts from the diff, where a type is sold, GPU names.
sed 's/"61\.7700000000"/"1e308"/' "$CSV" >"$T/huge.csv"
expect_exit "1e308 price" 2 "huge.csv:20: column \"PricePerUnit\": expected a price above \$0" catalog import --price-list "$T/huge.csv" --out "$T/keep.json"
cmp -s "$NEW" "$T/keep.json" && ok || bad "out changed after a 1e308 price"
sed 's/"61\.7700000000"/"0.0000000000"/' "$CSV" >"$T/zero.csv"
"$BIN" catalog import --price-list "$T/zero.csv" --out "$T/zero.json" >"$T/zero.txt" 2>/dev/null || bad "import with a \$0 row"
grep -q "skipped 1 rows of $T/zero.csv: \$0 price" "$T/zero.txt" && ok || bad "\$0 row not counted: $(cat "$T/zero.txt")"
"$PY" -c "import json; d=json.load(open('$T/sum.json')); assert d['prices_changed']==len(d['diff']['price_changes'])" && ok || bad "summary count != diff"
grep -q "vs the previous catalog: 8 price changes in 1 types" "$T/summary.txt" && ok || bad "summary: $(cat "$T/summary.txt")"
"$BIN" show dl2q.24xlarge 2>&1 >/dev/null | grep -q "not offered in us-east-1; it is offered in eu-central-1, us-west-2" && ok || bad "show: where dl2q is sold"
expect_exit "pricing outside the type's regions" 1 "it is offered in eu-central-1" pricing dl2q.24xlarge
expect_exit "--gpu A10" 2 "did you mean A10G?" instances --gpu A10
expect_json "--gpu V100 finds p3dn" 'any(r["instance_type"]=="p3dn.24xlarge" for r in d) and any(r["instance_type"]=="p3.2xlarge" for r in d)' instances --gpu V100 --include-retired --region all --json

# --- kill -9 during an import (input still streaming): --out unchanged, no partial file.
mkfifo "$T/fifo"
"$BIN" catalog import --price-list "$T/fifo" --out "$T/keep.json" >/dev/null 2>&1 &
pid=$!
exec 3>"$T/fifo"          # the writer stays open: the import waits for more input
cat "$CSV" >&3
sleep 0.5
if kill -0 "$pid" 2>/dev/null; then ok; else bad "import ended before kill"; fi
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
exec 3>&-
cmp -s "$NEW" "$T/keep.json" && ok || bad "out changed after kill -9"
"$BIN" show p5.48xlarge --catalog "$T/keep.json" >/dev/null 2>&1 && ok || bad "catalog unreadable after kill -9"

finish import_test
