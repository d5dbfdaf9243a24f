#!/usr/bin/env bash
# The web page in a real browser: Debian's chromium driven by playwright-core (npm). Walks every
# view (catalog, instance, estimate, recommend, compare, pricing, idle), an error, an empty result
# and a 390-px phone; fails if an old answer is on screen after a new request or an error; runs
# axe-core on each view (serious or critical violations fail); then the languages: the EN / 中文
# switch (no reload, the form kept), every view from a ?lang=zh URL, a catalog mixing CNY and USD
# rows; screenshots go to WORKDIR/*.png (<view>-en.png and <view>-zh.png for each view; the
# Chinese ones need a CJK font such as Debian's fonts-wqy-microhei to show glyphs, not boxes).
# Usage: browser_test.sh PATH/TO/gpuadvisor WORKDIR
# Exit 77 (ctest: skipped) with a message when chromium, node/npm or playwright-core is missing.
set -u
BIN=${1:?usage: browser_test.sh PATH/TO/gpuadvisor WORKDIR}
WORK=${2:?usage: browser_test.sh PATH/TO/gpuadvisor WORKDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
skip() { echo "browser_test: SKIPPED: $*"; exit 77; }
[ -x "$CHROMIUM" ] || skip "no chromium at $CHROMIUM (apt-get install chromium)"
command -v node >/dev/null || skip "no node (apt-get install nodejs npm)"
mkdir -p "$WORK"
if [ ! -d "$WORK/node_modules/playwright-core" ] || [ ! -f "$WORK/node_modules/axe-core/axe.min.js" ]; then
  command -v npm >/dev/null || skip "no npm to install playwright-core and axe-core"
  echo "browser_test: installing playwright-core and axe-core into $WORK (npm)"
  (cd "$WORK" && timeout 180 npm install --no-audit --no-fund --silent playwright-core@1 axe-core@4 >/dev/null 2>&1) ||
    skip "npm install playwright-core axe-core failed (offline?)"
fi
out=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$out"' EXIT
"$BIN" serve --port 0 --threads 8 >"$out/serve.log" 2>&1 &
pid=$!
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*/' "$out/serve.log" 2>/dev/null | head -1)
  [ -n "$url" ] && break
  sleep 0.05
done
[ -n "$url" ] || { echo "browser_test: server did not start: $(cat "$out/serve.log")"; exit 1; }
# README's two-day, five-host fleet log (2.8 MB, over the server's 1 MB --max-body as text).
python3 "$HERE/../cli/make_fleet.py" "$out" || { echo "browser_test: make_fleet.py failed"; exit 1; }
NODE_PATH="$WORK/node_modules" CHROMIUM="$CHROMIUM" PROFILE="$out/profile" FLEET="$out/fleet.csv" \
  SHOTS="$WORK" AXE="$WORK/node_modules/axe-core/axe.min.js" TELEMETRY="$HERE/../fixtures/telemetry" \
  timeout 240 node "$HERE/browser_test.js" "$url"
