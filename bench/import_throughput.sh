#!/usr/bin/env bash
# End-to-end `catalog import` throughput and peak memory on a synthetic AWS Price List offer file
# (real 91-column header), side by side with a straightforward Python csv / json reader on the
# same file. Needs a build with -DGPUADVISOR_BUILD_BENCH=ON (for gen_price_list).
#   bash bench/import_throughput.sh BUILD_DIR [CSV_MB=600] [JSON_MB=150]
# JSON_MB is smaller by default because Python's json.load holds the whole document (~10x the
# file size in memory); gpuadvisor streams it with RapidJSON SAX.
set -euo pipefail
BUILD=${1:?usage: import_throughput.sh BUILD_DIR [CSV_MB] [JSON_MB]}
CSV_MB=${2:-600}
JSON_MB=${3:-150}
BIN=$BUILD/gpuadvisor
GEN=$BUILD/bench/gen_price_list
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

measure() {  # measure LABEL BYTES CMD...: wall s, user+sys s, MB/s (wall and CPU), peak RSS MiB
  local label=$1 bytes=$2; shift 2
  /usr/bin/time -v "$@" >/dev/null 2>"$T/time.txt"
  python3 "$(dirname "$0")/time_report.py" "$label" "$bytes" "$T/time.txt"
}

"$GEN" csv "$T/offer.csv" "$CSV_MB"
"$GEN" json "$T/offer.json" "$JSON_MB"
"$GEN" csv "$T/small.csv" "$JSON_MB"
csv_bytes=$(stat -c %s "$T/offer.csv")
json_bytes=$(stat -c %s "$T/offer.json")
small_bytes=$(stat -c %s "$T/small.csv")
cat "$T/offer.csv" "$T/offer.json" >/dev/null  # warm the page cache

cat >"$T/py_csv.py" <<'PY'
# Straightforward Python: csv.reader, header lookup by name, the same canonical-row filter.
import csv, sys
prices = {}
with open(sys.argv[1], newline="") as f:
    r = csv.reader(f)
    for _ in range(5):
        next(r)
    h = {n: i for i, n in enumerate(next(r))}
    tt, os_, ten, cap, sw, fam, cur, typ, reg, unit, price = (h[k] for k in (
        "TermType", "Operating System", "Tenancy", "CapacityStatus", "Pre Installed S/W",
        "Product Family", "Currency", "Instance Type", "Region Code", "Unit", "PricePerUnit"))
    for row in r:
        if (row[tt] in ("OnDemand", "Reserved") and row[os_] == "Linux" and row[ten] == "Shared"
                and row[cap] == "Used" and row[sw] == "NA"
                and row[fam].startswith("Compute Instance") and row[cur] == "USD"):
            prices[(row[typ], row[reg], row[tt], row[unit])] = float(row[price])
print(len(prices))
PY
cat >"$T/py_json.py" <<'PY'
# Straightforward Python: json.load, then the same canonical filter over products and terms.
import json, sys
d = json.load(open(sys.argv[1]))
keep = {s for s, p in d["products"].items()
        if p["productFamily"].startswith("Compute Instance")
        and p["attributes"].get("operatingSystem") == "Linux"
        and p["attributes"].get("tenancy") == "Shared"
        and p["attributes"].get("capacitystatus") == "Used"
        and p["attributes"].get("preInstalledSw") == "NA"}
n = 0
for kind in ("OnDemand", "Reserved"):
    for sku, terms in d["terms"][kind].items():
        if sku in keep:
            for t in terms.values():
                for dim in t["priceDimensions"].values():
                    float(dim["pricePerUnit"]["USD"]); n += 1
print(n)
PY

echo "gpuadvisor catalog import vs Python, $(nproc) cores, $(date -u +%F)"
measure "gpuadvisor import (CSV)" "$csv_bytes" \
  "$BIN" catalog import --price-list "$T/offer.csv" --out "$T/cat.json" --no-progress
measure "python3 csv.reader (CSV)" "$csv_bytes" python3 "$T/py_csv.py" "$T/offer.csv"
measure "gpuadvisor import (JSON, SAX)" "$json_bytes" \
  "$BIN" catalog import --price-list "$T/offer.json" --out "$T/cat.json" --no-progress
measure "python3 json.load (JSON)" "$json_bytes" python3 "$T/py_json.py" "$T/offer.json"
measure "gpuadvisor import (CSV, JSON size)" "$small_bytes" \
  "$BIN" catalog import --price-list "$T/small.csv" --out "$T/cat.json" --no-progress
gzip -1 -c "$T/small.csv" >"$T/small.csv.gz"
measure "gpuadvisor import (CSV.gz)" "$small_bytes" \
  "$BIN" catalog import --price-list "$T/small.csv.gz" --out "$T/cat.json" --no-progress
