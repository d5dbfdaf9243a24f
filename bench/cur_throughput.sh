#!/usr/bin/env bash
# `gpuadvisor commitments` on a local Cost and Usage Report (issue 41: >= 300 MB/s of CSV, memory
# bounded): wall and CPU time, MB/s and peak RSS on the synthetic bill of tests/testutil/
# cur_synth.h (a year of a mixed fleet, 37 CUR 2.0 columns, one line item per instance-hour),
# repeated COPIES times, plain and gzip. Not a test.
#   bash bench/cur_throughput.sh BUILD_DIR [COPIES=24]      # 24 copies: ~1.05 GB of CSV
set -euo pipefail
BUILD=${1:?usage: cur_throughput.sh BUILD_DIR [COPIES]}
COPIES=${2:-24}
BIN=$BUILD/gpuadvisor
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$BUILD/tests/cur_synth" 365 "$COPIES" > "$T/cur.csv"
gzip -1 -c "$T/cur.csv" > "$T/cur.csv.gz"
csv_bytes=$(stat -c %s "$T/cur.csv")
measure() {  # measure LABEL FILE: wall, CPU, MB/s of CSV, peak RSS
  /usr/bin/time -v "$BIN" commitments "$2" --json > "$T/out.json" 2> "$T/time.txt"
  python3 - "$1" "$csv_bytes" "$(stat -c %s "$2")" "$T/time.txt" <<'PY'
import re, sys
label, csv_bytes, file_bytes, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
t = open(path).read()
def get(key):
    return re.search(re.escape(key) + r":\s*(\S+)", t).group(1)
wall = get("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
wall = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
cpu = float(get("User time (seconds)")) + float(get("System time (seconds)"))
rss = int(get("Maximum resident set size (kbytes)")) / 1024
print(f"{label:<28} {file_bytes / 1e6:8.0f} MB file  {csv_bytes / 1e6:6.0f} MB CSV  wall {wall:6.2f} s"
      f"  cpu {cpu:6.2f} s  {csv_bytes / 1e6 / wall:6.0f} MB/s of CSV  peak RSS {rss:6.1f} MiB")
PY
}
measure "commitments (CSV)" "$T/cur.csv"
measure "commitments (CSV, gzip -1)" "$T/cur.csv.gz"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('rows read', d['source']['rows_read'], 'types', len(d['groups']))" "$T/out.json"
