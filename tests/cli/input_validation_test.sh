#!/usr/bin/env bash
# Security issue, input validation, CLI side (findings 1, 4, 5). Finding 1: every whole-file input (--workload,
# --model-config, --catalog, --inventory, --from-plan, --trace, the Prometheus secret files) on
# /dev/zero or an endless standard input is refused at its size cap with exit 2 and a message
# naming the flag, the cap and what was expected; never a 2 GB read ending in std::bad_alloc
# (exit 134). `timeout` keeps a regression from hanging the suite.
# Usage: input_validation_test.sh PATH/TO/gpuadvisor
set -u
BIN=${1:?usage: input_validation_test.sh PATH/TO/gpuadvisor}
PY=${PYTHON:-python3}
source "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
LIMIT_S=60

printf 'timestamp, index, name, utilization.gpu\n2026/07/01 00:00:00, 0, NVIDIA L4, 0\n' \
  >"$T/host.csv"

# check NAME NEEDLE rc out err: exit 2 and stderr containing NEEDLE.
check() {
  local name=$1 needle=$2 rc=$3 err=$4
  if [ "$rc" = 2 ] && [[ "$err" == *"$needle"* ]]; then ok
  else bad "$name: rc=$rc stderr=[$(head -c 400 <<<"$err")], want rc=2 containing [$needle]"; fi
}

# endless FLAG CAP-TEXT ARGS... (ARGS contain @ where the file goes): /dev/zero, then `yes |`.
# FLAG is the prefix of the message: "--workload", or a workload field's name ("model-config",
# as that field's other errors are prefixed).
endless() {
  local flag=$1 needle=$2; shift 2
  local a=() b=() x err rc
  for x in "$@"; do
    if [ "$x" = @ ]; then a+=(/dev/zero); b+=(-); else a+=("$x"); b+=("$x"); fi
  done
  err=$(timeout "$LIMIT_S" "$BIN" "${a[@]}" 2>&1 >/dev/null); rc=$?
  check "$flag /dev/zero" "$flag: /dev/zero: $needle" "$rc" "$err"
  err=$(yes | timeout "$LIMIT_S" "$BIN" "${b[@]}" 2>&1 >/dev/null); rc=$?
  check "$flag endless stdin" "$flag: <stdin>: $needle" "$rc" "$err"
}

endless --workload "larger than 16 MiB; expected a workload file" \
  estimate --workload @ --gpu L4
endless --workload "larger than 16 MiB; expected a workload file" \
  recommend --workload @
endless model-config "larger than 16 MiB; expected a model config.json" \
  estimate --task serve --model-config @ --gpu L4
endless --catalog "larger than 64 MiB; expected a catalog file" \
  instances --catalog @
endless --inventory "larger than 16 MiB; expected an inventory CSV" \
  idle "$T/host.csv" --inventory @
endless --from-plan "larger than 16 MiB; expected a plan file (recommend --json)" \
  launch --from-plan @
endless --trace "larger than 64 MiB; expected a traffic trace CSV" \
  simulate --instance g5.xlarge --capacity-rps 5 --trace @
endless --bearer-token-file "larger than 64 KiB; expected a file holding one secret line" \
  idle --prometheus http://127.0.0.1:9/ --bearer-token-file @

# Files under the caps still read: a plain workload from standard input.
printf 'task: serve\nmodel: llama-3.1-8b\n' >"$T/ok.yaml"
out=$(timeout "$LIMIT_S" "$BIN" estimate --workload - --gpu L4 --json <"$T/ok.yaml" 2>/dev/null) &&
  [[ "$out" == *'"itl_ms"'* ]] && ok || bad "a small workload on stdin"

# --- Finding 4: a price under the floor ($0.0001 per hour) or $0 in a catalog is refused with the
# JSON path, never ranked as a free plan.
DATA=$(cd "$(dirname "$0")/../../data" && pwd)
for price in 1e-320 0; do
  "$PY" - "$DATA/catalog.json" "$T/cat-$price.json" "$price" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["instance_types"]:
    if t["instance_type"] == "p5.48xlarge":
        for r in t["regions"]:
            if r["region"] == "us-east-1":
                r["on_demand"]["usd_per_hour"] = float(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PYEOF
done
grep -q '1e-320' "$T/cat-1e-320.json" && ok || bad "the fixture lost its 1e-320 price"
err=$(timeout "$LIMIT_S" "$BIN" recommend --task serve --model llama-3.1-8b \
  --catalog "$T/cat-1e-320.json" 2>&1 >/dev/null); rc=$?
check "catalog 1e-320 price" \
  'on_demand.usd_per_hour: expected a price of at least $0.0001 per hour (no AWS price is lower), got 1e-320' \
  "$rc" "$err"
err=$(timeout "$LIMIT_S" "$BIN" recommend --task serve --model llama-3.1-8b \
  --catalog "$T/cat-0.json" 2>&1 >/dev/null); rc=$?
check "catalog 0 price" 'on_demand.usd_per_hour: expected a price above $0' "$rc" "$err"

# --- Finding 5: a key given twice is exit 2 naming it (JSON and YAML workloads, a catalog, a
# plan), never the last one silently winning.
dup() {  # NAME NEEDLE ARGS...
  local name=$1 needle=$2; shift 2
  local err rc
  err=$(timeout "$LIMIT_S" "$BIN" "$@" 2>&1 >/dev/null); rc=$?
  check "$name" "$needle" "$rc" "$err"
}
printf '{\n  "task": "serve",\n  "model": "llama-3.1-8b",\n  "model": "llama-3.1-70b"\n}\n' \
  >"$T/dup.json"
dup "workload JSON" 'dup.json:4:10: duplicate key "model"' estimate --workload "$T/dup.json" --gpu L4
printf 'task: serve\nmodel: llama-3.1-8b\nrps: 1\nmodel: llama-3.1-70b\n' >"$T/dup.yaml"
dup "workload YAML" 'dup.yaml:4: duplicate key "model"' estimate --workload "$T/dup.yaml" --gpu L4
"$PY" - "$DATA/catalog.json" "$T/dup-cat.json" <<'PYEOF'
import sys
text = open(sys.argv[1]).read()
# The first instance type's name, given twice.
at = text.index('"instance_type":')
end = text.index(",", at)
open(sys.argv[2], "w").write(text[:end + 1] + " " + text[at:end + 1] + text[end + 1:])
PYEOF
dup "catalog" 'duplicate key "instance_type"' instances --catalog "$T/dup-cat.json"
"$BIN" recommend --task serve --model llama-3.1-8b --top 1 --json >"$T/plan.json" 2>/dev/null
"$PY" - "$T/plan.json" "$T/dup-plan.json" <<'PYEOF'
import sys
text = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(text.replace("{", '{"rank": 1, "rank": 2, ', 1))
PYEOF
dup "plan" 'duplicate key "rank"' launch --from-plan "$T/dup-plan.json"

finish "input validation"
