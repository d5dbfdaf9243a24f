#!/usr/bin/env bash
# The web page's cost to a user, in Debian's chromium driven by playwright-core (npm, installed
# into WORKDIR as tests/server/browser_test.sh does): total bytes transferred on a first load with
# a fresh profile (gzip, as a browser asks for it), the time to the first paint and to the
# catalog's rows, and the time to the first answer of a form: a recommendation and an estimate,
# submitted -> shown (median of N, each a new request). Prints the figures.
# Usage: bench/web_bench.sh PATH/TO/gpuadvisor [N] [WORKDIR]
set -euo pipefail
BIN=${1:?usage: web_bench.sh PATH/TO/gpuadvisor [N] [WORKDIR]}
N=${2:-5}
WORK=${3:-${TMPDIR:-/tmp}/gpuadvisor-web-bench}
HERE=$(cd "$(dirname "$0")" && pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || { echo "web_bench: no chromium at $CHROMIUM" >&2; exit 1; }
mkdir -p "$WORK"
if [ ! -d "$WORK/node_modules/playwright-core" ]; then
  (cd "$WORK" && timeout 180 npm install --no-audit --no-fund --silent playwright-core@1 >/dev/null)
fi
out=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$out"' EXIT
"$BIN" serve --port 0 >"$out/serve.log" 2>&1 &
pid=$!
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*/' "$out/serve.log" 2>/dev/null | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.05
done
[ -n "$url" ] || { echo "web_bench: server did not start" >&2; exit 1; }
NODE_PATH="$WORK/node_modules" CHROMIUM="$CHROMIUM" PROFILE="$out/profile" N="$N" \
  node "$HERE/web_bench.js" "$url"
