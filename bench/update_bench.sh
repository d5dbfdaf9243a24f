#!/usr/bin/env bash
# `gpuadvisor catalog update` against the local stand-in for AWS (tests/cli/fake_aws_pricing.py)
# with padded regional offer files: bytes, wall seconds and peak RSS (/usr/bin/time -v) for one
# region and for all the fake's regions, uncached (a fresh XDG_DATA_HOME) and cached (the run
# again: one 304 per file). The offer files are streamed into the importer, so peak RSS should
# not grow with their size.
# Usage: bench/update_bench.sh PATH/TO/gpuadvisor [PAD_ROWS_PER_REGION] [REGIONS]
#   PAD_ROWS_PER_REGION  decoy rows added to each regional CSV (default 200000, ~75 MB each)
#   REGIONS              the fake's regions (default us-east-1,eu-west-1,us-west-2)
set -eu
BIN=$(realpath "${1:?usage: update_bench.sh PATH/TO/gpuadvisor [PAD_ROWS] [REGIONS]}")
PAD=${2:-200000}
REGIONS=${3:-us-east-1,eu-west-1,us-west-2}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
fake=
cleanup() { [ -n "$fake" ] && kill "$fake" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
python3 "$HERE/../tests/cli/fake_aws_pricing.py" --port-file "$T/port" --regions "$REGIONS" \
  --pad-rows "$PAD" &
fake=$!
for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.1; done
URL=http://127.0.0.1:$(cat "$T/port")
export GPUADVISOR_TODAY=2026-12-04
# Build each padded file once in the fake, so the timed runs measure the client.
XDG_DATA_HOME=$T/warm "$BIN" catalog update --endpoint "$URL" --regions all --json >/dev/null

run() {  # NAME XDG ARGS...
  local name=$1 xdg=$2; shift 2
  XDG_DATA_HOME=$xdg /usr/bin/time -v "$BIN" catalog update --endpoint "$URL" --json "$@" \
    >"$T/out.json" 2>"$T/time.txt"
  python3 - "$name" "$T/out.json" "$T/time.txt" <<'EOF'
import json, re, sys
name, out, tim = sys.argv[1:]
d = json.load(open(out))
t = open(tim).read()
wall = t.split("Elapsed (wall clock) time (h:mm:ss or m:ss): ")[1].split("\n")[0]
parts = [float(x) for x in wall.split(":")]
secs = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
cpu = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1)) + \
      float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
print("%-28s %9.1f MB  %3d requests  %3d x 304  wall %6.2f s  cpu %6.2f s  peak RSS %6.1f MiB"
      % (name, d["bytes"] / 1e6, d["requests"], d["not_modified"], secs, cpu, rss))
EOF
}
echo "gpuadvisor catalog update, fake AWS on loopback, $PAD padding rows per region ($(date -u +%F))"
FIRST=${REGIONS%%,*}
run "one region, uncached" "$T/one" --regions "$FIRST"
run "one region, cached (304)" "$T/one" --regions "$FIRST"
run "all regions, uncached" "$T/all" --regions all
run "all regions, cached (304)" "$T/all" --regions all
