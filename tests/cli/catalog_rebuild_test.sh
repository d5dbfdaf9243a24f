#!/usr/bin/env bash
# The embedded catalog (data/catalog.json) rebuilds from the public sources it cites: `catalog
# build` over the manifest gives the same records (the generation time aside). The sources are
# not part of the repository (README, "Rebuilding the catalog"): GPUADVISOR_SOURCES_ROOT names
# the folder holding them (the manifest's --root); without it the test is skipped (exit 77).
# Usage: catalog_rebuild_test.sh PATH/TO/gpuadvisor PROJECT_ROOT
set -u
BIN=${1:?usage: catalog_rebuild_test.sh PATH/TO/gpuadvisor PROJECT_ROOT}
ROOT=${2:?project root}
PY=${PYTHON:-python3}
SOURCES=${GPUADVISOR_SOURCES_ROOT:-}
if [ -z "$SOURCES" ] || [ ! -d "$SOURCES" ]; then
  echo "SKIP: GPUADVISOR_SOURCES_ROOT does not name the catalog sources' folder ('$SOURCES')"
  exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if ! "$BIN" catalog build --manifest "$ROOT/data/sources.json" --root "$SOURCES" \
     --out "$T/catalog.json" >"$T/out.txt" 2>&1; then
  echo "FAIL: catalog build: $(cat "$T/out.txt")"
  exit 1
fi
"$PY" - "$ROOT/data/catalog.json" "$T/catalog.json" <<'PYEOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("generated_at", None)
if a != b:
    diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
    print("FAIL: data/catalog.json differs from a rebuild of its sources in", sorted(diff),
          "- run: gpuadvisor catalog build --manifest data/sources.json --root SOURCES --out data/catalog.json")
    sys.exit(1)
print("embedded catalog = rebuild of its sources")
PYEOF
