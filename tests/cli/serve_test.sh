#!/usr/bin/env bash
# `gpuadvisor serve` end to end: the start-up line (loopback URL), the API returning the same JSON
# as the CLI, SIGHUP reload, bad options, and a clean stop on SIGTERM.
# Usage: serve_test.sh PATH/TO/gpuadvisor   (bash + python3 standard library only)
set -u
BIN=${1:?usage: serve_test.sh PATH/TO/gpuadvisor}
PY=${PYTHON:-python3}
work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
source "$(dirname "$0")/lib.sh"

"$BIN" serve --port 0 --threads 4 --header-timeout 5s --timeout 3 --cache-bytes 32M --max-connections 256 \
  --allow-host gpu.internal >"$work/out" 2>"$work/err" &
pid=$!
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*/' "$work/out" 2>/dev/null | head -1)
  [ -n "$url" ] && break
  sleep 0.05
done
[[ "$url" == http://127.0.0.1:*/ ]] && ok || bad "start-up line names a loopback URL: [$(cat "$work/out")]"
grep -q "loopback only" "$work/out" && ok || bad "start-up line says loopback only"

# get PATH -> body on stdout, status in $work/status
get() {
  "$PY" - "$url" "$@" >"$work/body" <<'PY'
import sys, urllib.request, urllib.error
url, path = sys.argv[1], sys.argv[2]
data = sys.argv[3].encode() if len(sys.argv) > 3 else None
req = urllib.request.Request(url.rstrip("/") + path, data=data, headers={"Content-Type": "application/json"})
try:
    with urllib.request.urlopen(req, timeout=20) as r:
        code, body = r.status, r.read()
except urllib.error.HTTPError as e:
    code, body = e.code, e.read()
sys.stdout.buffer.write(body)
open(sys.argv[0] if False else "/dev/stderr", "w").write(str(code))
PY
}
status_of() { get "$@" 2>"$work/status"; cat "$work/status"; }

[ "$(status_of /healthz)" = 200 ] && ok || bad "/healthz"
[ "$(status_of '/v1/instances?gpu=H100')" = 200 ] && ok || bad "/v1/instances?gpu=H100"
"$BIN" instances --gpu H100 --json 2>/dev/null >"$work/cli.json"
"$PY" -c "import json,sys; a=json.load(open('$work/body')); b=json.load(open('$work/cli.json')); sys.exit(0 if a==b else 1)" \
  && ok || bad "API /v1/instances?gpu=H100 equals CLI instances --gpu H100 --json"
[ "$(status_of /v1/instances/p5.48xlarg)" = 404 ] && ok || bad "unknown type -> 404"
grep -q 'did you mean' "$work/body" && ok || bad "404 suggests names"
[ "$(status_of /v1/recommend '{"task":"serve","model":"llama-3.1-8b","rps":0.5,"top":1}')" = 200 ] && ok || bad "POST /v1/recommend"
"$BIN" recommend --task serve --model llama-3.1-8b --rps 0.5 --top 1 --json 2>/dev/null >"$work/cli.json"
"$PY" -c "import json,sys; a=json.load(open('$work/body')); b=json.load(open('$work/cli.json')); sys.exit(0 if a==b else 1)" \
  && ok || bad "API /v1/recommend equals CLI recommend --json"
[ "$(status_of /v1/estimate '{"task":"serve","model-config":"/etc/passwd","gpu":"H100"}')" = 400 ] && ok || bad "model-config path refused"
[ "$(status_of /nope)" = 404 ] && ok || bad "unknown path 404"

kill -HUP "$pid"
for _ in $(seq 1 50); do grep -q "reloaded" "$work/err" && break; sleep 0.05; done
grep -q "catalog reloaded (generation 2)" "$work/err" && ok || bad "SIGHUP reloads: [$(cat "$work/err")]"
status_of /healthz >/dev/null
grep -q '"catalog_generation":2' "$work/body" && ok || bad "healthz shows generation 2"

kill -TERM "$pid"; wait "$pid"; rc=$?; pid=
[ "$rc" = 0 ] && ok || bad "SIGTERM stops with exit 0 (got $rc)"

err=$("$BIN" serve --threads 0 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && [[ "$err" == *"--threads"* ]] && ok || bad "--threads 0 -> exit 2 naming --threads: rc=$rc [$err]"
err=$("$BIN" serve --max-body abc 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && [[ "$err" == *"--max-body"* ]] && ok || bad "--max-body abc -> exit 2: rc=$rc [$err]"
err=$("$BIN" serve --header-timeout 0 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && [[ "$err" == *"--header-timeout"* ]] && ok || bad "--header-timeout 0 -> exit 2: rc=$rc [$err]"
err=$("$BIN" serve --cache-bytes lots 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && [[ "$err" == *"--cache-bytes"* ]] && ok || bad "--cache-bytes lots -> exit 2: rc=$rc [$err]"
err=$("$BIN" serve --allow-host evil.example:80 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && [[ "$err" == *"--allow-host"* ]] && ok || bad "--allow-host with a port -> exit 2: rc=$rc [$err]"
# The serve table's ranges, in the uniform message; a plain --timeout number is seconds.
for args in "--port 70000|--port: expected a whole number from 0 to 65535, got \"70000\"" \
            "--max-body 10|--max-body: expected a number from 1024 to 1e+09" \
            "--timeout 5000|--timeout: expected a duration from 1s to 1h" \
            "--max-price-age -1|--max-price-age: expected a whole number from 0 to 100000" \
            "--cache 1.5|--cache: expected a whole number from 0 to 1e+09"; do
  flags=${args%%|*} want=${args#*|}
  # shellcheck disable=SC2086
  err=$("$BIN" serve $flags 2>&1 >/dev/null); rc=$?
  [ "$rc" = 2 ] && [[ "$err" == *"$want"* ]] && ok || bad "serve $flags: rc=$rc [$err]"
done
err=$("$BIN" serve --catalog /nonexistent.json 2>&1 >/dev/null); rc=$?
[ "$rc" = 3 ] && ok || bad "--catalog missing -> exit 3: rc=$rc [$err]"
# A malformed Prometheus allow-list stops serve before it listens (it would allow nothing).
err=$(GPUADVISOR_PROMETHEUS_URLS='http://prom:9090, http://prom:9090/api/v1/admin?x=' \
      timeout 10 "$BIN" serve --port 0 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && [[ "$err" == *"GPUADVISOR_PROMETHEUS_URLS: expected"* ]] && ok ||
  bad "malformed GPUADVISOR_PROMETHEUS_URLS -> exit 2: rc=$rc [$err]"

finish serve_test
