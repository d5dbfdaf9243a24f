#!/usr/bin/env bash
# `idle --prometheus` vs `idle FILE` on the same backfilled DCGM fleet (issue 17): wall time,
# bytes transferred (response bodies / the file as stored) and peak RSS of gpuadvisor for each;
# with --pushdown (issue 41, item 2) at the scrape interval, and the push-down bytes the formula
# of doc/cost-control.md predicts for this fleet and for 10,000 GPUs x 30 days.
# Not a test. Needs prometheus + promtool (scripts/deps.sh) and a built binary.
#
#   bash bench/idle_prometheus.sh build/gpuadvisor            # 1,000 GPUs x 7 days at 1 min
#   GPUS=1000 HOURS=24 bash bench/idle_prometheus.sh build/gpuadvisor
#
# GPUS (8 per host), HOURS, INTERVAL (s), STEP (the pushed-down window), KEEP=dir (reuse the
# generated fleet and TSDB there between runs), ONLY=pushdown (skip the file and window runs),
# BLOCK (promtool's --max-block-duration). 10,000 GPUs x 30 days at hourly readings (the bytes
# moved do not depend on the reading interval but through the idle masks, see below):
#   GPUS=10000 HOURS=720 INTERVAL=3600 STEP=1h BLOCK=720h ONLY=pushdown bash bench/idle_prometheus.sh …
set -euo pipefail
BIN=$(realpath "${1:?usage: idle_prometheus.sh PATH/TO/gpuadvisor}")
HERE=$(cd "$(dirname "$0")" && pwd)
GPUS=${GPUS:-1000} HOURS=${HOURS:-168} INTERVAL=${INTERVAL:-60} STEP=${STEP:-5m}
# promtool reads the whole input once per block it writes: longer blocks for long ranges.
BLOCK=${BLOCK:-24h}
W=${KEEP:-$(mktemp -d)}
mkdir -p "$W"
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -z "${KEEP:-}" ] && rm -rf "$W"' EXIT
END=$(( $(date +%s) - 3600 )); END=$(( END - END % 300 ))
[ -f "$W/end" ] && END=$(cat "$W/end")
HOSTS=$(( (GPUS + 7) / 8 ))
if [ ! -d "$W/data" ]; then
  echo "$END" > "$W/end"
  start=$(date +%s)
  text=(--text "$W/fleet.prom.gz")
  [ "${ONLY:-}" = pushdown ] && text=()  # the file run is skipped: no text file to write
  python3 "$HERE/../tests/cli/dcgm_fleet.py" --hosts "$HOSTS" --gpus 8 --hours "$HOURS" \
    --interval "$INTERVAL" --end "$END" --openmetrics "$W/fleet.om" "${text[@]}"
  echo "generated in $(( $(date +%s) - start )) s"
  start=$(date +%s)
  promtool tsdb create-blocks-from openmetrics --max-block-duration="$BLOCK" "$W/fleet.om" "$W/data" \
    > "$W/promtool.log"
  echo "backfilled in $(( $(date +%s) - start )) s"
  rm -f "$W/fleet.om"
fi
printf 'global:\n  scrape_interval: 1h\n' > "$W/prometheus.yml"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
prometheus --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/data" \
  --storage.tsdb.retention.time=100y --web.listen-address="127.0.0.1:$PORT" > "$W/prometheus.log" 2>&1 &
pid=$!
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$PORT/-/ready" >/dev/null 2>&1 && break; sleep 0.2; done

# CPU seconds (user + system) prometheus has used so far.
prom_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$pid/stat"; }
# run NAME ARGS...: one timed gpuadvisor run; prints wall s, peak RSS MiB, bytes and the CPU
# seconds the server spent on it (on a shared machine the wall time waits for other work too).
run() {
  local name=$1; shift
  local cpu0; cpu0=$(prom_cpu)
  /usr/bin/time -f '%e %M %U %S' -o "$W/time" "$BIN" idle "$@" --json > "$W/$name.json" 2>/dev/null
  read -r wall rss user sys < "$W/time"
  local server; server=$(awk -v a="$cpu0" -v b="$(prom_cpu)" 'BEGIN { printf "%.1f", b - a }')
  python3 - "$name" "$wall" "$rss" "$W/$name.json" "$server" "$user" "$sys" <<'PY'
import json, sys
name, wall, rss, path = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
cpu = f"server CPU {float(sys.argv[5]):5.1f} s, client CPU {float(sys.argv[6]) + float(sys.argv[7]):4.1f} s"
d = json.load(open(path))
if "prometheus" in d:
    p = d["prometheus"]
    moved = f"{p['response_bytes'] / 2**20:8.1f} MiB in {p['requests']} requests, {p['points']} values"
else:
    moved = f"{d['files'][0]['bytes'] / 2**20:8.1f} MiB file (gzip), {d['files'][0]['samples']} samples"
print(f"{name:24s} {wall:7.1f} s  {cpu}  peak RSS {rss / 1024:7.1f} MiB  {moved}  "
      f"wasted ${d['total_wasted_usd']:.0f}")
PY
}
echo "fleet: $HOSTS hosts x 8 GPUs, $HOURS h at ${INTERVAL}s ($(( HOSTS * 8 * (HOURS * 3600 / INTERVAL + 1) )) readings x 4 metrics)"
P=(--prometheus "http://127.0.0.1:$PORT" --since "${HOURS}h" --until "$END")
if [ "${ONLY:-}" != pushdown ]; then
  run "file" "$W/fleet.prom.gz"
  run "prometheus step=$STEP" "${P[@]}" --step "$STEP"
  run "prometheus step=${INTERVAL}s" "${P[@]}" --step "${INTERVAL}s"
fi
run "pushdown step=${INTERVAL}s" "${P[@]}" --step "${INTERVAL}s" --pushdown
cp "$W/pushdown step=${INTERVAL}s.json" "$W/pushdown.json"
# The push-down bytes (doc/cost-control.md, "Push-down"): fixed bytes per GPU and per host, and
# per host-hour holding idle-stretch time, measured by the run above.
python3 - "$W/pushdown.json" "$HOSTS" "$GPUS" "$HOURS" "$INTERVAL" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
hosts, gpus, hours, step = (int(a) for a in sys.argv[2:6])
masks = math.ceil(3600 // step / 48)  # the hour's windows in masks of at most 48 bits
def predict(gpus, hosts, hours, idle_share, masks):
    # Per GPU 9 totals series (~200 B each with dcgm-exporter's Hostname, UUID, gpu and
    # modelName kept), per host 6 totals series (~100 B) and ~60 B of hourly series, per
    # host-hour with idle-stretch time ~29 B per mask.
    return 1800 * gpus + 780 * hosts + 29 * masks * hosts * hours * idle_share
idle_share = sum(h["idle_hours"] for h in d["instances"]) / max(1e-9, sum(h["hours_covered"] for h in d["instances"]))
got = d["prometheus"]["response_bytes"]
print(f"push-down bytes: measured {got / 2**20:.2f} MiB, formula {predict(gpus, hosts, hours, idle_share, masks) / 2**20:.2f} MiB "
      f"(host idle share {idle_share:.2f}); 10,000 GPUs x 30 days at {step} s windows: "
      f"{predict(10000, 1250, 720, idle_share, masks) / 1e6:.1f} MB at this idle share, "
      f"{predict(10000, 1250, 720, 1.0, masks) / 1e6:.1f} MB at most")
PY
