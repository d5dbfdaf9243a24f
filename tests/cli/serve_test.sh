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
  --max-write-bytes 64M --allow-host gpu.internal >"$work/out" 2>"$work/err" &
pid=$!
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*/' "$work/out" 2>/dev/null | head -1)
  [ -n "$url" ] && break
  sleep 0.05
done
[[ "$url" == http://127.0.0.1:*/ ]] && ok || bad "start-up line names a loopback URL: [$(cat "$work/out")]"
grep -q "loopback only" "$work/out" && ok || bad "start-up line says loopback only"
# `gpuadvisor serve` runs gpuadvisor-serve in its own place: the process started is the server.
exe=$(readlink "/proc/$pid/exe" 2>/dev/null)
[[ "$exe" == */gpuadvisor-serve ]] && ok || bad "serve runs as gpuadvisor-serve, same pid: /proc/$pid/exe -> [$exe]"

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
err=$("$BIN" serve --max-write-bytes 1k 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && [[ "$err" == *"--max-write-bytes"* ]] && ok || bad "--max-write-bytes 1k (under 1M) -> exit 2: rc=$rc [$err]"
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
err=$("$BIN" serve --cors $'https://a.example\r\nSet-Cookie: x=1' 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && [[ "$err" == *"--cors"* ]] && ok || bad "--cors with CR/LF -> exit 2 naming --cors: rc=$rc [$err]"

# Transport: localhost on both families, a chunked upload (curl -T), the access log, and SIGTERM
# with an answer stuck in flight exits 0 within the drain deadline.
"$BIN" serve --host localhost --port 0 --threads 2 --drain-timeout 1 --timeout 30 \
  --cors http://localhost:3000 --access-log "$work/access.log" >"$work/out2" 2>"$work/err2" &
pid=$!
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*/' "$work/out2" 2>/dev/null | head -1)
  [ -n "$url" ] && break
  sleep 0.05
done
port=${url##*:}; port=${port%/}
[[ "$url" == http://localhost:*/ ]] && ok || bad "localhost start-up line: [$(cat "$work/out2")]"
csv="$(dirname "$0")/../fixtures/telemetry/smi-nvidia-l40s-idle.csv"
if command -v curl >/dev/null; then
  code=$(curl -s -o "$work/idle.json" -w '%{http_code}' -T - \
    "http://127.0.0.1:$port/v1/idle?instance-type=g6e.xlarge" <"$csv")
  [ "$code" = 200 ] && grep -q '"instances"' "$work/idle.json" && ok || bad "curl -T - (chunked PUT) /v1/idle: $code"
  code=$(curl -s -o /dev/null -w '%{http_code}' -g "http://[::1]:$port/healthz")
  [ "$code" = 200 ] && ok || bad "::1 answers with --host localhost: $code"
  curl -sI "http://127.0.0.1:$port/healthz" | tr -d '\r' >"$work/headers"
  grep -qx 'Access-Control-Allow-Origin: http://localhost:3000' "$work/headers" && ok \
    || bad "--cors ORIGIN sends Access-Control-Allow-Origin: [$(cat "$work/headers")]"
else
  echo "serve_test: curl not installed, chunked upload and ::1 checks skipped"
fi
"$PY" - "$port" >"$work/stuck" 2>&1 <<'PY' &
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /v1/instances?region=all HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 30)
time.sleep(8)  # never reads: the server's answer stays in flight
PY
stuck=$!
sleep 1.5
start=$(date +%s%N)
kill -TERM "$pid"; wait "$pid"; rc=$?; pid=
ms=$(( ($(date +%s%N) - start) / 1000000 ))
kill "$stuck" 2>/dev/null; wait "$stuck" 2>/dev/null
[ "$rc" = 0 ] && [ "$ms" -lt 4000 ] && ok || bad "SIGTERM with an answer in flight: exit 0 within the 1 s drain (rc=$rc, ${ms} ms)"
grep -Eq '^[0-9T:Z-]+ (127\.0\.0\.1|::1) (GET|PUT) /[^ ]* 200 [0-9]+ [0-9.]+$' "$work/access.log" \
  && ok || bad "access log line: [$(head -3 "$work/access.log")]"

# HTTPS with a self-signed certificate made here (skipped without openssl or curl).
if command -v openssl >/dev/null && command -v curl >/dev/null; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
    -keyout "$work/key.pem" -out "$work/cert.pem" >/dev/null 2>&1
  "$BIN" serve --port 0 --threads 2 --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" \
    --body-timeout 5s --request-timeout 30s --max-connections-per-client 8 \
    >"$work/out3" 2>"$work/err3" &
  pid=$!
  url=
  for _ in $(seq 1 100); do
    url=$(grep -o 'https://[^ ]*/' "$work/out3" 2>/dev/null | head -1)
    [ -n "$url" ] && break
    sleep 0.05
  done
  [[ "$url" == https://127.0.0.1:*/ ]] && ok || bad "--tls-cert: start-up line names https: [$(cat "$work/out3" "$work/err3")]"
  code=$(curl -sk -o /dev/null -w '%{http_code}' "${url}healthz")
  [ "$code" = 200 ] && ok || bad "HTTPS /healthz: $code"
  kill -TERM "$pid"; wait "$pid"; rc=$?; pid=
  [ "$rc" = 0 ] && ok || bad "HTTPS server stops on SIGTERM with 0 (got $rc)"
  err=$("$BIN" serve --tls-cert "$work/cert.pem" 2>&1 >/dev/null); rc=$?
  [ "$rc" = 2 ] && [[ "$err" == *"--tls-key"* ]] && ok || bad "--tls-cert without --tls-key -> exit 2: rc=$rc [$err]"
else
  echo "serve_test: openssl or curl not installed, HTTPS checks skipped"
fi

err=$("$BIN" serve --catalog /nonexistent.json 2>&1 >/dev/null); rc=$?
[ "$rc" = 3 ] && ok || bad "--catalog missing -> exit 3: rc=$rc [$err]"
# A malformed Prometheus allow-list stops serve before it listens (it would allow nothing).
err=$(GPUADVISOR_PROMETHEUS_URLS='http://prom:9090, http://prom:9090/api/v1/admin?x=' \
      timeout 10 "$BIN" serve --port 0 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && [[ "$err" == *"GPUADVISOR_PROMETHEUS_URLS: expected"* ]] && ok ||
  bad "malformed GPUADVISOR_PROMETHEUS_URLS -> exit 2: rc=$rc [$err]"

# Without gpuadvisor-serve next to it, `gpuadvisor serve` says so (exit 3), and nothing else changes.
mkdir "$work/alone" && cp "$BIN" "$work/alone/gpuadvisor"
err=$("$work/alone/gpuadvisor" serve --port 0 2>&1 >/dev/null); rc=$?
[ "$rc" = 3 ] && [[ "$err" == *"cannot run $work/alone/gpuadvisor-serve"* ]] && ok ||
  bad "serve without gpuadvisor-serve -> exit 3 naming it: rc=$rc [$err]"
"$work/alone/gpuadvisor" instances --gpu H100 >/dev/null && ok || bad "the CLI alone runs instances"

finish serve_test
