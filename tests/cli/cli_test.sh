#!/usr/bin/env bash
# End-to-end checks of the gpuadvisor binary against CLI-CONTRACT.md: JSON shapes, figures a
# user would verify, filters, exit codes and error messages. Usage: cli_test.sh PATH/TO/gpuadvisor
set -u
BIN=${1:?usage: cli_test.sh PATH/TO/gpuadvisor}
PY=${PYTHON:-python3}
pass=0 fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }

# expect_json NAME PYTHON-EXPR ARGS...: runs the binary, loads stdout as JSON into `d`, asserts.
expect_json() {
  local name=$1 expr=$2; shift 2
  local out
  out=$("$BIN" "$@" 2>/dev/null)
  if printf '%s' "$out" | "$PY" -c "import json,sys; d=json.load(sys.stdin); sys.exit(0 if ($expr) else 1)"; then ok; else bad "$name: $* -> $expr"; fi
}
# expect_exit NAME CODE STDERR-SUBSTRING ARGS...
expect_exit() {
  local name=$1 code=$2 needle=$3; shift 3
  local err rc
  err=$("$BIN" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" = "$code" ] && [[ "$err" == *"$needle"* ]] && [ "$(printf '%s\n' "$err" | grep -vc warning)" -le 1 ]; then ok
  else bad "$name: $* -> rc=$rc stderr=[$err], want rc=$code containing [$needle]"; fi
}

F='d[0]'
expect_json "instances count" 'len([r for r in d if not r["retired"]]) >= 80' instances --format json
expect_json "contract fields" 'all(k in r for r in d for k in ["instance_type","family","retired","region","accelerator","vcpus","memory_gib","network_gbps","efa","local_nvme_gb","on_demand_usd_per_hour","spot_usd_per_hour","usd_per_gpu_hour","price_source","price_date"]) and all(k in r["accelerator"] for r in d for k in ["kind","vendor","model","count","logical_count","memory_mib_each","memory_gib_total"])' instances --json
expect_json "p5 price" '[r for r in d if r["instance_type"]=="p5.48xlarge"][0]["on_demand_usd_per_hour"]==55.04' instances --json
expect_json "p5 gpus" 'any(r["instance_type"]=="p5.48xlarge" and r["accelerator"]["count"]==8 and r["accelerator"]["memory_mib_each"]==81920 and r["efa"] for r in d)' instances --json
expect_json "g6 price" 'any(r["instance_type"]=="g6.xlarge" and r["on_demand_usd_per_hour"]==0.8048 for r in d)' instances --json
expect_json "g6f fractional" 'any(r["instance_type"]=="g6f.large" and r["accelerator"]["fractional"] and r["accelerator"]["model"]=="L4" and r["accelerator"]["count"]==0.125 and r["accelerator"]["logical_count"]==1 for r in d)' instances --json
expect_json "no retired by default" 'not any(r["retired"] for r in d)' instances --json
expect_json "include retired" 'any(r["instance_type"].startswith("p3.") and r["retired"] for r in d)' instances --json --include-retired
expect_json "L4 min 4" 'len(d)>0 and all(r["accelerator"]["model"]=="L4" and r["accelerator"]["count"] in (4,8) for r in d)' instances --gpu L4 --min-gpus 4 --json
expect_json "efa filter" 'len(d)>0 and all(r["efa"] for r in d)' instances --efa --json
expect_json "sort desc" '[r["vcpus"] for r in d]==sorted([r["vcpus"] for r in d], reverse=True)' instances --sort vcpus:desc --json
expect_json "limit" 'len(d)==3' instances --limit 3 --json
expect_json "region all" 'len({r["region"] for r in d})>=25' instances --region all --json
expect_json "max price" 'len(d)>0 and all(r["on_demand_usd_per_hour"]<=1 for r in d)' instances --max-price 1 --json
expect_json "show regions" 'd["instance_type"]=="p5.48xlarge" and len(d["regions"])>5 and d["gpu_spec"]["bf16_tflops"]==989.5 and all("on_demand_usd_per_hour" in r and "spot_interruption_band" in r for r in d["regions"])' show p5.48xlarge --json
expect_json "show trn2 memory" 'd["accelerator"]["memory_mib_each"]==98304' show trn2.48xlarge --json
expect_json "gpus" 'any(g["model"]=="H100" and g["bf16_tflops"]==989.5 and "p5.48xlarge" in g["instance_types"] and g["cheapest_on_demand"]["usd_per_gpu_hour"]>0 for g in d) and all(k in g for g in d for k in ["model","vendor","memory_gib","bf16_tflops","fp64_tflops","memory_bw_gbps","instance_types","cheapest_on_demand","cheapest_spot"])' gpus --json
expect_json "catalog info" 'd["counts"]["current"]==90 and d["counts"]["retired"]==16 and len(d["sources"])>=5 and all("snapshot_date" in s for s in d["sources"])' catalog info --json
expect_json "stale flag" 'd["prices_stale"] is True' catalog info --json --max-price-age 30
expect_json "fresh flag" 'd["prices_stale"] is False' catalog info --json --max-price-age 100000

expect_exit "bad number" 2 "--min-gpus" instances --min-gpus abc
expect_exit "unknown type" 2 "did you mean p5.48xlarge" show p5.48xlarg
expect_exit "unknown region" 2 "did you mean us-east-1" instances --region us-est-1
expect_exit "unknown gpu" 2 "unknown GPU" instances --gpu H10O
expect_exit "unknown sort" 2 "--sort" instances --sort price
expect_exit "unknown command" 2 "did you mean instances" instanses
expect_exit "nothing found" 1 "no instance type matches" instances --gpu H100 --max-price 1
expect_exit "bad catalog" 3 "cannot open" instances --catalog /nonexistent/catalog.json

# Formats render with units in headers.
"$BIN" instances --format csv 2>/dev/null | head -1 | grep -q '\$/h on-demand' && ok || bad "csv header"
"$BIN" instances --format markdown 2>/dev/null | sed -n 2p | grep -q -- '---:' && ok || bad "markdown"
"$BIN" instances --gpu H100 2>/dev/null | grep -q 'p5.48xlarge' && ok || bad "table"
"$BIN" instances --help | grep -q 'Examples' && ok || bad "help examples"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
