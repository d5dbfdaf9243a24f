#!/usr/bin/env bash
# Issue 16: numeric options of pricing, simulate and recommend have documented ranges; a
# magnitude outside one (or not finite) is exit 2 naming the option and the range, never a
# table of "inf", "nan" or 60-digit numbers. (watch: watch_dry_test.sh; launch: launch_test.sh.)
# Usage: bounds_test.sh PATH/TO/gpuadvisor
set -u
BIN=${1:?usage: bounds_test.sh PATH/TO/gpuadvisor}
PY=${PYTHON:-/usr/bin/python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/lib.sh"

# refuse NAME STDERR-SUBSTRING ARGS...: exit 2, the message, and no inf/nan/huge number anywhere.
refuse() {
  local name=$1 needle=$2; shift 2
  "$BIN" "$@" >"$T/out" 2>"$T/err"; local rc=$?
  if [ "$rc" = 2 ] && grep -qF -- "$needle" "$T/err" && [ ! -s "$T/out" ] &&
     ! grep -qiwE 'inf|infinity|nan|-?nan' "$T/err" && ! grep -qE '[0-9]{20}' "$T/err"; then ok
  else bad "$name: $* -> rc=$rc stderr=[$(cat "$T/err")] stdout=[$(head -c 300 "$T/out")]"; fi
}

P=(pricing p5.48xlarge)
refuse "pricing hours" "--hours-per-month: expected a number from 0.001 to 730" "${P[@]}" --hours-per-month 1e308
refuse "pricing months" "--months: expected a number from 0.001 to 600" "${P[@]}" --months 1e300
refuse "pricing count" "--count: expected a whole number from 1 to 100000" "${P[@]}" --count 1e300
refuse "pricing restart" "--restart: expected a duration from 0s to 7d" "${P[@]}" --interruptible --restart 1e300d
refuse "pricing restart overflow" "--restart: expected a duration" "${P[@]}" --interruptible --restart 1e305
refuse "pricing checkpoint" "--checkpoint-gib: expected a number from 0 to 1000000" "${P[@]}" --interruptible --checkpoint-gib 1e300
refuse "pricing storage" "--storage-gbps: expected 0 (EBS) or 0.001 to 1000 GB/s" "${P[@]}" --interruptible --checkpoint-gib 10 --storage-gbps 1e-300
refuse "pricing interval" "--checkpoint-interval: expected a duration from 0s to 30d" "${P[@]}" --interruptible --checkpoint-interval 1e300
refuse "pricing suffix" "--checkpoint-gib: expected a number" "${P[@]}" --checkpoint-gib 1e300P
# Inside every range, but a petabyte checkpoint at 1 MB/s on 100000 nodes: the figure is refused.
refuse "pricing overflow" "spot: the usage prices beyond \$1e15" "${P[@]}" --interruptible --count 100000 --months 600 --checkpoint-gib 1e6 --storage-gbps 0.001
# The ends of the ranges still answer, with finite numbers.
"$BIN" "${P[@]}" --interruptible --count 2 --checkpoint-gib 1e6 --storage-gbps 1000 --restart 7d >"$T/out" 2>/dev/null &&
  ! grep -qiwE 'inf|nan' "$T/out" && ok || bad "pricing at the range ends: $(cat "$T/out")"

S=(simulate --instance g5.xlarge)
refuse "simulate peak" "--diurnal: expected PEAK 0 to 1e9 req/s" "${S[@]}" --capacity-rps 10 --diurnal 1e300
refuse "simulate trough" "--diurnal: expected TROUGH 0 to 1e9 req/s" "${S[@]}" --capacity-rps 10 --diurnal 10,1e300
refuse "simulate capacity" "--capacity-rps: expected a number from 0 to 1e+09, got \"1e300\"" "${S[@]}" --capacity-rps 1e300 --diurnal 10
refuse "simulate zero capacity" "--capacity-rps: expected over 0, up to 1e9 req/s" "${S[@]}" --capacity-rps 0 --diurnal 10
refuse "simulate tiny capacity" "--capacity-rps: the trace's peak of 10 req/s needs over 100000 instances" "${S[@]}" --capacity-rps 1e-300 --diurnal 10 --days 1
refuse "simulate days" "--days: expected a number from 0 to 366" "${S[@]}" --capacity-rps 10 --diurnal 10 --days 1e300
refuse "simulate step" "--step: expected a duration from 1s to 1d" "${S[@]}" --capacity-rps 10 --diurnal 10 --step 1e300s
refuse "simulate target" "--target-utilization: expected a number from 0.01 to 1" "${S[@]}" --capacity-rps 10 --diurnal 10 --target-utilization 1e300
refuse "simulate boot" "--boot-time: expected a duration from 0s to 1d" "${S[@]}" --capacity-rps 10 --diurnal 10 --boot-time 1e300s
refuse "simulate cooldown" "--scale-in-cooldown: expected a duration from 0s to 7d" "${S[@]}" --capacity-rps 10 --diurnal 10 --scale-in-cooldown 1e300
refuse "simulate spot" "--spot-share: expected a number from 0 to 1" "${S[@]}" --capacity-rps 10 --diurnal 10 --spot-share 1e300
refuse "simulate slo" "--max-missed: expected a number from 0 to 100" "${S[@]}" --capacity-rps 10 --diurnal 10 --max-missed 1e300
refuse "simulate max" "--max-instances: expected a whole number from 0 to 100000" "${S[@]}" --capacity-rps 10 --diurnal 10 --max-instances 1000000000000
# The simulate table's errors carry the option as the JSON error's field, like every front end.
out=$("$BIN" "${S[@]}" --capacity-rps 10 --diurnal 10 --spot-share 2 --json 2>/dev/null)
[[ "$out" == *'"field":"spot-share"'* ]] && ok || bad "simulate --spot-share field: $out"
printf 'timestamp,requests_per_s\n0,10\n60,1e300\n' >"$T/huge.csv"
refuse "simulate trace rate" "huge.csv:3: requests_per_s: expected a rate 0 to 1e9" "${S[@]}" --capacity-rps 10 --trace "$T/huge.csv"
printf 'timestamp,requests_per_s\n0,10\n1e300,10\n' >"$T/long.csv"
refuse "simulate trace span" "long.csv:3: timestamp: the trace spans over 366 days" "${S[@]}" --capacity-rps 10 --trace "$T/long.csv"
refuse "simulate rps" "rps: 1e+300 is beyond any real workload" "${S[@]}" --diurnal 10 --task serve --model llama-3-8b --rps 1e300

W=(recommend --task finetune --model llama-3.1-8b --tokens 50M)
refuse "recommend budget" "--budget: expected a number from 0.01 to 1e+12" "${W[@]}" --budget 1e300
refuse "recommend deadline" "--deadline: expected a duration from 1m to 3650d" "${W[@]}" --deadline 1e300
refuse "recommend deadline overflow" "--deadline: expected a duration" "${W[@]}" --deadline 1e307w
finish bounds_test
