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
measure() {  # measure LABEL FILE: wall, CPU, MB/s of CSV (decompressed), peak RSS
  /usr/bin/time -v "$BIN" commitments "$2" --json > "$T/out.json" 2> "$T/time.txt"
  python3 "$(dirname "$0")/time_report.py" "$1" "$csv_bytes" "$T/time.txt"
}
measure "commitments (CSV)" "$T/cur.csv"
measure "commitments (CSV, gzip -1)" "$T/cur.csv.gz"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('rows read', d['source']['rows_read'], 'types', len(d['groups']))" "$T/out.json"
