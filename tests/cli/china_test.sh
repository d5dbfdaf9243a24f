#!/usr/bin/env bash
# Issue 26: AWS China through the CLI. Its prices are CNY, named as such in tables and JSON keys;
# a GPU not sold in one China region points to the other; USD and CNY are ranked together only
# with a dated rate; a USD limit is never applied to yuan; launch specs know the partition.
# Usage: china_test.sh PATH/TO/gpuadvisor
set -u
BIN=${1:?usage: china_test.sh PATH/TO/gpuadvisor}
PY=${PYTHON:-/usr/bin/python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/lib.sh"

expect_json "p4d in Ningxia in CNY, dated" \
  'len(d)==1 and d[0]["instance_type"]=="p4d.24xlarge" and d[0]["currency"]=="CNY" and abs(d[0]["on_demand_cny_per_hour"]-172.873412)<1e-6 and "on_demand_usd_per_hour" not in d[0] and d[0]["price_date"]=="2026-08-26"' \
  instances --region cn-northwest-1 --gpu A100 --json
"$BIN" instances --region cn-northwest-1 --gpu A100 >"$T/table" 2>/dev/null
if grep -q '¥/h on-demand' "$T/table" && ! grep -q '\$/h' "$T/table"; then ok
else bad "the CNY table is headed in yuan: $(cat "$T/table")"; fi
expect_exit "A100 not in Beijing: where it is" 1 \
  "p4d.24xlarge matches in cn-northwest-1 (try --region cn-northwest-1)" \
  instances --region cn-north-1 --gpu A100
# Issue 42: in an AWS China region --max-price is in CNY per hour, as the region's prices are.
expect_json "a China region's price limit is in CNY" \
  'len(d)>0 and all(r["currency"]=="CNY" and r["on_demand_cny_per_hour"]<=60 for r in d)' \
  instances --region cn-north-1 --max-price 60 --json

W=(--task train-vision --model unet3d --images 168 --epochs 2000 --batch 2 --precision bf16)
expect_json "China plans in CNY" \
  'd["currency"]=="CNY" and d["plans"] and all(p["region"]=="cn-north-1" and p["currency"]=="CNY" and "cost_cny" in p and "cost_usd" not in p for p in d["plans"])' \
  recommend "${W[@]}" --regions cn-north-1 --json
expect_json "no rate: each currency ranked on its own" \
  'd["currency"]=="USD" and all(p["region"]=="us-east-1" for p in d["plans"]) and len(d["other_currencies"])==1 and d["other_currencies"][0]["currency"]=="CNY" and d["other_currencies"][0]["plans"][0]["rank"]==1 and "never ranked" in d["currency_note"]' \
  recommend "${W[@]}" --regions us-east-1,cn-north-1 --json
expect_json "a dated rate ranks them together" \
  'd["exchange_rates"]==["CNY=7.1@2026-12-01"] and not d["other_currencies"] and d["currency"]=="USD" and all(p["currency"]=="USD" and "cost_usd" in p for p in d["plans"])' \
  recommend "${W[@]}" --regions us-east-1,cn-north-1 --fx CNY=7.1@2026-12-01 --json
expect_json "a converted plan keeps what AWS bills" \
  'd["plans"] and all(p["region"]=="cn-north-1" and p["local_price"]["currency"]=="CNY" and abs(p["local_price"]["cost"]/7.1-p["cost_usd"])<1e-6*p["cost_usd"] for p in d["plans"])' \
  recommend "${W[@]}" --regions cn-north-1 --fx CNY=7.1@2026-12-01 --json
expect_exit "a USD budget needs a rate for yuan" 2 "budget: is in USD" \
  recommend "${W[@]}" --regions cn-north-1 --budget 1000
expect_exit "a rate needs its date" 2 "fx: expected CURRENCY=UNITS_PER_USD@YYYY-MM-DD" \
  recommend "${W[@]}" --regions cn-north-1 --fx CNY=7.1

"$BIN" launch g5.xlarge --region cn-north-1 --format cloudformation >"$T/cfn" 2>/dev/null
if grep -q 'AWS China' "$T/cfn" && grep -q 'ICP' "$T/cfn" && grep -q 'ec2.${AWS::URLSuffix}' "$T/cfn"; then ok
else bad "launch in China: partition notes and URLSuffix: $(head -c 2000 "$T/cfn")"; fi
"$BIN" launch g5.xlarge --region cn-north-1 --format aws-cli >"$T/cli" 2>/dev/null
if grep -q 'amazoncloudwatch-agent-cn-north-1.s3.cn-north-1.amazonaws.com.cn' "$T/cli"; then ok
else bad "launch in China: the CloudWatch agent from the region's bucket"; fi
finish china_test
