#!/usr/bin/env bash
# Load test of `gpuadvisor serve` with wrk, on 127.0.0.1 only, bounded in time:
#   GET /v1/instances?gpu=H100   (catalog query)
#   POST /v1/recommend           (serving Llama-3.1-8B, whole-catalog search), every body
#                                different (a fresh search each time), then one body repeated
#                                (answered by the server's response cache)
# and the server's resident memory sampled every second over the run (3 x SECONDS).
# Usage: bench/http_load.sh PATH/TO/gpuadvisor [SECONDS per phase, default 10] [THREADS, default 16]
# Not a ctest: timings belong in bench/, never in assertions.
set -euo pipefail
BIN=${1:?usage: bench/http_load.sh PATH/TO/gpuadvisor [SECONDS] [THREADS]}
DUR=${2:-10}
THREADS=${3:-16}
command -v wrk >/dev/null || { echo "http_load: wrk is not installed (apt-get install wrk)"; exit 1; }
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
"$BIN" serve --host 127.0.0.1 --port 0 --threads "$THREADS" >"$work/serve.log" 2>&1 &
pid=$!
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" 2>/dev/null | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.05
done
[ -n "$url" ] || { echo "http_load: server did not start"; cat "$work/serve.log"; exit 1; }
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
# Server CPU time (user + system) in clock ticks: CPU per request tells what the server would do
# on otherwise idle cores, whatever else runs on this (shared) machine.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
# phase NAME WRK-ARGS...: runs wrk, prints its figures and the server's CPU per request.
phase() {
  local name=$1; shift
  echo "== $name (${DUR}s, 2 wrk threads, $conns connections)"
  local before after out n
  before=$(cpu_ticks)
  out=$(wrk -t2 -c"$conns" -d"${DUR}s" --latency "$@")
  after=$(cpu_ticks)
  echo "$out" | grep -E "Requests/sec|Latency|50%|90%|99%|requests in|Non-2xx|Socket errors"
  n=$(echo "$out" | awk '/requests in/ {print $1}')
  awk -v t=$((after - before)) -v hz="$hz" -v n="$n" 'BEGIN {
    ms = t * 1000 / hz / n;
    printf "  server CPU %.3f ms per request -> %.0f requests/s on 2 otherwise idle cores\n", ms, 2000 / ms }'
}
sample() {  # RSS in KiB once a second into $work/rss while wrk runs
  while kill -0 "$pid" 2>/dev/null; do rss >>"$work/rss"; sleep 1; done
}
cat >"$work/recommend.lua" <<'LUA'
-- A different arrival rate in every request: no two bodies alike, so no cache hits.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  local rps = math.random(1, 1000000) / 100000
  return wrk.format(nil, nil, nil, string.format(
    '{"task":"serve","model":"llama-3.1-8b","rps":%.5f,"input-tokens":1000,"output-tokens":200,"top":3}', rps))
end
LUA
cat >"$work/recommend_same.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"task":"serve","model":"llama-3.1-8b","rps":2,"input-tokens":1000,"output-tokens":200,"top":3}'
wrk.headers["Content-Type"] = "application/json"
LUA
echo "server: $url, $THREADS worker threads; $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "RSS at start: $(rss) KiB"
# 16 connections whatever the pool size: connections no longer hold workers (issue 16), but
# keep the figures comparable with earlier runs. bench/http_idle.py measures idle connections.
conns=16
sample & sampler=$!
phase "GET /v1/instances?gpu=H100" "$url/v1/instances?gpu=H100"
phase "POST /v1/recommend, every body different: a search per request" -s "$work/recommend.lua" "$url/v1/recommend"
phase "POST /v1/recommend, one body repeated: response cache" -s "$work/recommend_same.lua" "$url/v1/recommend"
kill "$sampler" 2>/dev/null || true
echo "RSS samples (KiB): first $(head -1 "$work/rss"), max $(sort -n "$work/rss" | tail -1), last $(tail -1 "$work/rss") over $(wc -l <"$work/rss") s"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
