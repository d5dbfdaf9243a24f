#!/usr/bin/env bash
# End-to-end checks of `gpuadvisor idle` (issue 6): the five-host fleet, every telemetry format,
# gzip, inventories, and bad input naming file:line with exit 2.
# Usage: idle_test.sh PATH/TO/gpuadvisor FIXTURE-DIR
set -u
BIN=${1:?usage: idle_test.sh PATH/TO/gpuadvisor FIXTURE-DIR}
FIX=${2:?fixture dir}
PY=${PYTHON:-/usr/bin/python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
JSON_PRELUDE="H={h['host']:h for h in d.get('instances',[])}"
source "$(dirname "$0")/lib.sh"

# The fleet: two days, one sample a minute (see tests/idle/fleet.h for the same in C++).
"$PY" "$(dirname "$0")/make_fleet.py" "$T"
F=$T/fleet.csv
expect_json "fields" 'all(k in h for h in d["instances"] for k in ["host","instance_type","gpus","samples","avg_util_pct","p95_util_pct","idle_hours","idle_fraction","wasted_usd","recommendation"]) and "total_wasted_usd" in d' idle "$F" --json
expect_json "idle ~1" 'abs(H["always-idle"]["idle_fraction"]-1)<0.01' idle "$F" --json
expect_json "busy ~0" 'H["busy"]["idle_fraction"]<0.01' idle "$F" --json
expect_json "half ~0.5" 'abs(H["half"]["idle_fraction"]-0.5)<0.01' idle "$F" --json
expect_json "dips ~0" 'H["dips"]["idle_fraction"]<0.01 and H["dips"]["idle_period_count"]==0' idle "$F" --json
expect_json "idle host wasted at catalog price" 'abs(H["always-idle"]["wasted_usd"]-48*H["always-idle"]["usd_per_hour"])<0.01 and H["always-idle"]["price_source"] and H["always-idle"]["recommendation"]["action"]=="stop"' idle "$F" --json
expect_json "fewer gpus" 'H["one-of-eight"]["instance_type"]=="p5.48xlarge" and H["one-of-eight"]["recommendation"]["action"]=="fewer-gpus" and H["one-of-eight"]["recommendation"]["target_instance_type"]=="p5.4xlarge"' idle "$F" --json
expect_json "top savings first" '[h["host"] for h in d["instances"]][0]=="one-of-eight"' idle "$F" --json
expect_json "totals" 'abs(d["total_wasted_usd"]-sum(h["wasted_usd"] or 0 for h in d["instances"]))<0.05' idle "$F" --json
expect_json "threshold+window" 'H["dips"]["idle_period_count"]==48' idle "$F" --json --idle-window 1m --idle-threshold 1
gzip -c "$F" > "$T/fleet.csv.gz"
expect_json "gzip" 'd["files"][0]["gzip"] and abs(H["half"]["idle_fraction"]-0.5)<0.01' idle "$T/fleet.csv.gz" --json
printf 'hostname,instance_type,region,purchase\nalways-idle,g6e.4xlarge,us-west-2,on-demand\n' > "$T/inv.csv"
expect_json "inventory" 'H["always-idle"]["instance_type"]=="g6e.4xlarge" and not H["always-idle"]["type_guessed"] and H["always-idle"]["region"]=="us-west-2"' idle "$F" --inventory "$T/inv.csv" --json
out=$("$BIN" idle "$F" 2>/dev/null)
if [[ "$out" == *"TOTAL (5 hosts)"* && "$out" == *"fewer-gpus -> p5.4xlarge"* && "$out" == *"prices: "* ]]; then ok; else bad "table: $out"; fi
expect_json "csv format" 'True' idle "$F" --json
# --max-hosts: the five-host fleet fits in 5 and not in 4 (exit 2 naming the limit).
expect_json "max-hosts fits" 'len(d["instances"])==5' idle "$F" --max-hosts 5 --json
"$BIN" idle "$F" --max-hosts 4 --json >/dev/null 2>"$T/err"; rc=$?
[ "$rc" = 2 ] && grep -q -- "--max-hosts" "$T/err" && ok || bad "--max-hosts 4: rc=$rc $(cat "$T/err")"
"$BIN" idle "$F" --format csv > "$T/out.csv" 2>/dev/null && head -1 "$T/out.csv" | grep -q '^host,type' && ok || bad "csv output"

# Every trimmed real capture parses.
for f in "$FIX"/*; do
  "$BIN" idle "$f" --json > /dev/null 2>"$T/err" && ok || bad "fixture $f: $(cat "$T/err")"
done
expect_json "many files at once" 'len(d["files"])>=15' idle "$FIX"/* --json

# Issue 16: 13 minutes of 8x H100 get no verdict (not "move to a g4dn"); under a day no
# rightsizing; the two-day fleet above is rightsized (status ok).
SHORT=$(dirname "$0")/../idle/fixtures/h100x8-13min.csv
expect_json "13 min: no verdict" 'd["instances"][0]["status"]=="insufficient-data" and d["instances"][0]["recommendation"]["action"]=="collect-more" and d["instances"][0]["recommendation"]["target_instance_type"] is None and d["instances"][0]["idle_fraction"] is None and "need at least the idle window" in d["instances"][0]["status_reason"]' idle "$SHORT" --json
expect_json "13 min, 5m window: collect more" 'd["instances"][0]["status"]=="collect-more" and d["instances"][0]["recommendation"]["action"]=="collect-more" and "rightsizing needs >= 24 h" in d["instances"][0]["status_reason"]' idle "$SHORT" --json --idle-window 5m
expect_json "span is an option" 'd["instances"][0]["status"]=="ok" and d["instances"][0]["recommendation"]["target_instance_type"] is not None and d["settings"]["min_rightsizing_span_s"]==600' idle "$SHORT" --json --idle-window 5m --min-rightsizing-span 10m
expect_json "2 days: ok" 'all(h["status"]=="ok" and h["status_reason"] is None for h in d["instances"])' idle "$F" --json
out=$("$BIN" idle "$SHORT" 2>/dev/null)
if [[ "$out" == *"insufficient-data"* && "$out" == *"insufficient data: observed 13 min"* && "$out" != *"g4dn"* ]]; then ok; else bad "13 min table: $out"; fi
expect_exit "host cap" 2 "more than 2 hosts in one analysis (limit max_hosts, --max-hosts)" idle "$F" --max-hosts 2
expect_exit "bad span" 2 "--min-rightsizing-span" idle "$F" --min-rightsizing-span soon

# Bad input: exit 2 naming file:line.
printf 'timestamp, index, utilization.gpu [%%]\n2026/07/01 00:00:00, 0, 5 %%\n2026/07/01 00:01:00, 0, lots\n' > "$T/bad.csv"
expect_exit "bad value" 2 "bad.csv:3: utilization.gpu" idle "$T/bad.csv"
printf 'timestamp, index, utilization.gpu\n2026/07/01 00:00:00, 0\n' > "$T/short.csv"
expect_exit "short row" 2 "short.csv:2: expected 3" idle "$T/short.csv"
printf '<nvidia_smi_log>\n<gpu>\n</nvidia_smi_log>\n' > "$T/bad.xml"
expect_exit "bad xml" 2 "bad.xml:3:" idle "$T/bad.xml"
printf 'DCGM_FI_DEV_GPU_UTIL{gpu="0" 5\n' > "$T/bad.prom"
expect_exit "bad prom" 2 "bad.prom:1:" idle "$T/bad.prom"
printf 'hostname,instance_type\nx,p5.48xlarg\n' > "$T/badinv.csv"
expect_exit "bad inventory" 2 "badinv.csv:2" idle "$F" --inventory "$T/badinv.csv"
expect_exit "missing file" 3 "cannot open" idle "$T/nope.csv"
expect_exit "bad threshold" 2 "--idle-threshold" idle "$F" --idle-threshold 120
expect_exit "bad window" 2 "--idle-window" idle "$F" --idle-window soon
# One purchase-option parser (issue 18): the same message as HTTP and Python, never on-demand.
expect_exit "bad purchase" 2 '--purchase: expected one of on-demand, spot, reserved-1y-no-upfront, capacity-block, got "bogus"' idle "$F" --purchase bogus
printf 'hostname,instance_type,region,purchase\nalways-idle,g6e.4xlarge,us-west-2,lease\n' > "$T/badbuy.csv"
expect_exit "bad inventory purchase" 2 'badbuy.csv:2: purchase: expected one of on-demand' idle "$F" --inventory "$T/badbuy.csv"
expect_json "reserved inventory priced as reserved" 'H["always-idle"]["purchase"]=="reserved-1y-no-upfront" and H["always-idle"]["price_source"]' idle "$F" --inventory <(printf 'hostname,instance_type,region,purchase\nalways-idle,g6e.4xlarge,us-east-1,reserved\n') --json
expect_exit "noheader" 2 "--columns" idle "$T/short.csv" --telemetry-format nvidia-smi-csv --columns x,y
tail -n +2 "$F" | head -100 > "$T/noheader.csv"
expect_exit "noheader needs columns" 2 "noheader.csv:1" idle "$T/noheader.csv"
expect_json "noheader with columns" 'len(d["instances"])==5' idle "$T/noheader.csv" --json --columns timestamp,hostname,index,name,utilization.gpu,memory.used,memory.total

finish idle_test
