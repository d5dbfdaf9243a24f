#!/usr/bin/env bash
# `idle --prometheus` vs `idle FILE` on the same backfilled DCGM fleet (issue 17): wall time,
# bytes transferred (response bodies / the file as stored) and peak RSS of gpuadvisor for each.
# Not a test. Needs prometheus + promtool (scripts/deps.sh) and a built binary.
#
#   bash bench/idle_prometheus.sh build/gpuadvisor            # 1,000 GPUs x 7 days at 1 min
#   GPUS=1000 HOURS=24 bash bench/idle_prometheus.sh build/gpuadvisor
#
# GPUS (8 per host), HOURS, INTERVAL (s), STEP (the pushed-down window), KEEP=dir (reuse the
# generated fleet and TSDB there between runs).
set -euo pipefail
BIN=$(realpath "${1:?usage: idle_prometheus.sh PATH/TO/gpuadvisor}")
HERE=$(cd "$(dirname "$0")" && pwd)
GPUS=${GPUS:-1000} HOURS=${HOURS:-168} INTERVAL=${INTERVAL:-60} STEP=${STEP:-5m}
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
  python3 "$HERE/../tests/cli/dcgm_fleet.py" --hosts "$HOSTS" --gpus 8 --hours "$HOURS" \
    --interval "$INTERVAL" --end "$END" --openmetrics "$W/fleet.om" --text "$W/fleet.prom.gz"
  echo "generated in $(( $(date +%s) - start )) s"
  start=$(date +%s)
  promtool tsdb create-blocks-from openmetrics --max-block-duration=24h "$W/fleet.om" "$W/data" \
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

# run NAME ARGS...: one timed gpuadvisor run; prints wall s, peak RSS MiB and bytes.
run() {
  local name=$1; shift
  /usr/bin/time -f '%e %M' -o "$W/time" "$BIN" idle "$@" --json > "$W/$name.json" 2>/dev/null
  read -r wall rss < "$W/time"
  python3 - "$name" "$wall" "$rss" "$W/$name.json" <<'PY'
import json, sys
name, wall, rss, path = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
d = json.load(open(path))
if "prometheus" in d:
    p = d["prometheus"]
    moved = f"{p['response_bytes'] / 2**20:8.1f} MiB in {p['requests']} requests, {p['points']} values"
else:
    moved = f"{d['files'][0]['bytes'] / 2**20:8.1f} MiB file (gzip), {d['files'][0]['samples']} samples"
print(f"{name:24s} {wall:7.1f} s  peak RSS {rss / 1024:7.1f} MiB  {moved}  "
      f"wasted ${d['total_wasted_usd']:.0f}")
PY
}
echo "fleet: $HOSTS hosts x 8 GPUs, $HOURS h at ${INTERVAL}s ($(( HOSTS * 8 * (HOURS * 3600 / INTERVAL + 1) )) readings x 4 metrics)"
run "file" "$W/fleet.prom.gz"
run "prometheus step=$STEP" --prometheus "http://127.0.0.1:$PORT" --since "${HOURS}h" --until "$END" --step "$STEP"
run "prometheus step=${INTERVAL}s" --prometheus "http://127.0.0.1:$PORT" --since "${HOURS}h" --until "$END" --step "${INTERVAL}s"
