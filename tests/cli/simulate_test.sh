#!/usr/bin/env bash
# End-to-end checks of `gpuadvisor simulate` (issue 6). Usage: simulate_test.sh PATH/TO/gpuadvisor
set -u
BIN=${1:?usage: simulate_test.sh PATH/TO/gpuadvisor}
PY=${PYTHON:-/usr/bin/python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/lib.sh"
printf 'timestamp,requests_per_s\n0,10\n3600,30\n7200,30\n10800,10\n' > "$T/tiny.csv"
# By hand: 1+3+3+1 instance-hours of g5.xlarge at 10 req/s each.
expect_json "tiny trace" 'd["policy"]["instance_hours"]==8 and abs(d["policy"]["cost_usd"]-8*d["on_demand_usd_per_hour"])<0.01 and d["policy"]["violated_requests"]==0' simulate --instance g5.xlarge --capacity-rps 10 --trace "$T/tiny.csv" --target-utilization 1 --boot-time 0 --scale-out-cooldown 0 --scale-in-cooldown 0 --no-search --json
expect_json "tiny boot" 'd["policy"]["violated_requests"]==72000' simulate --instance g5.xlarge --capacity-rps 10 --trace "$T/tiny.csv" --target-utilization 1 --boot-time 1h --scale-out-cooldown 0 --scale-in-cooldown 0 --no-search --json
# Options by their effect on the tiny trace (by hand, as above): a floor of 2 instances adds
# 1 + 1 instance-hours; with half the fleet on spot, part of the 8 hours is spot and cheaper.
TINY=(simulate --instance g5.xlarge --capacity-rps 10 --trace "$T/tiny.csv" --target-utilization 1 --boot-time 0 --scale-out-cooldown 0 --scale-in-cooldown 0 --no-search --json)
expect_json "min-instances" 'd["policy"]["instance_hours"]==10 and d["policy"]["policy"]["min_instances"]==2' "${TINY[@]}" --min-instances 2
expect_json "spot-share" 'd["policy"]["policy"]["spot_share"]==0.5 and 0<d["policy"]["spot_instance_hours"]<d["policy"]["instance_hours"]==8 and d["policy"]["cost_usd"]<8*d["on_demand_usd_per_hour"]' "${TINY[@]}" --spot-share 0.5
expect_json "step" 'd["trace"]["step_s"]==600 and d["trace"]["points"]==144' simulate --instance g5.xlarge --capacity-rps 5 --diurnal 60,6 --days 1 --step 10m --no-search --json
# The seed draws the spot interruptions: two seeds, two histories.
expect_json2 "seed" 'd["policy"]["cost_usd"]!=e["policy"]["cost_usd"]' simulate --instance g5.xlarge --capacity-rps 5 --diurnal 60,6 --days 7 --no-search --spot-share 0.5 --seed 1 --json -- simulate --instance g5.xlarge --capacity-rps 5 --diurnal 60,6 --days 7 --no-search --spot-share 0.5 --seed 2 --json
expect_json "diurnal beats static" 'd["best"]["meets_slo"] and d["best"]["violated_requests"]==0 and d["best"]["cost_usd"]<d["static_peak"]["cost_usd"] and d["savings_vs_static_usd"]>0' simulate --instance g5.xlarge --capacity-rps 5 --diurnal 60,6 --days 3 --json
expect_json "estimator capacity" 'd["capacity_rps_per_instance"]>0 and d["price_source"]' simulate --instance g6e.xlarge --diurnal 20 --days 1 --task serve --model llama-3-8b --itl-p95 50ms --no-search --json
expect_json "spot search" 'd["best"]["policy"]["spot_share"]>0' simulate --instance g5.xlarge --capacity-rps 5 --diurnal 60,6 --days 2 --allow-spot --max-missed 1 --json
"$BIN" simulate --instance g5.xlarge --capacity-rps 5 --diurnal 60,6 --days 1 --plot "$T/f.svg" > "$T/out.txt" 2>&1
if grep -q '<svg' "$T/f.svg" && grep -q 'polyline' "$T/f.svg" && grep -q 'static peak' "$T/out.txt"; then ok; else bad "plot"; fi
printf 'timestamp,requests_per_s\n0,10\n60,lots\n' > "$T/bad.csv"
expect_exit "bad trace" 2 "bad.csv:3: requests_per_s" simulate --instance g5.xlarge --capacity-rps 5 --trace "$T/bad.csv"
expect_exit "no trace" 2 "--diurnal" simulate --instance g5.xlarge --capacity-rps 5
expect_exit "bad target" 2 "--target-utilization" simulate --instance g5.xlarge --capacity-rps 5 --diurnal 10 --target-utilization 2
expect_exit "bad type" 2 "did you mean" simulate --instance g5.xlarg --capacity-rps 5 --diurnal 10
expect_exit "not serve" 2 "--task" simulate --instance g5.xlarge --diurnal 10 --task pretrain --model llama-3-8b --tokens 1e9
finish simulate_test
