#!/usr/bin/env bash
# End to end: `gpuadvisor watch --execute` with a fake nvidia-smi on PATH, a fake IMDSv2 and a
# moto EC2 endpoint on 127.0.0.1 stops a real (moto) instance after the idle window, and does
# nothing while the keep-alive file exists. Skips (exit 77) without moto/boto3/aws.
# Usage: watch_test.sh PATH/TO/gpuadvisor
set -u
BIN=$(realpath "${1:?usage: watch_test.sh PATH/TO/gpuadvisor}")
PY=${WATCH_TEST_PYTHON:-python3}
if ! "$PY" -c 'import moto, boto3' 2>/dev/null || ! command -v aws >/dev/null || ! command -v moto_server >/dev/null; then
  echo "watch_test: SKIPPED (needs moto_server, boto3 and the aws CLI: the image's pyenv python)"
  exit 77
fi
T=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT
source "$(dirname "$0")/lib.sh"
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_DEFAULT_REGION=us-east-1 AWS_PAGER=""
MOTO_PORT=$(free_port)
moto_server -H 127.0.0.1 -p "$MOTO_PORT" > "$T/moto.log" 2>&1 &
pids+=($!)
EP=http://127.0.0.1:$MOTO_PORT
for _ in $(seq 100); do "$PY" -c "import urllib.request; urllib.request.urlopen('$EP/moto-api/')" 2>/dev/null && break; sleep 0.1; done
ID=$("$PY" - "$EP" <<'PYEOF'
import sys, boto3
ec2 = boto3.client("ec2", endpoint_url=sys.argv[1], region_name="us-east-1")
ami = ec2.describe_images()["Images"][0]["ImageId"]
r = ec2.run_instances(ImageId=ami, MinCount=1, MaxCount=1, InstanceType="g5.xlarge")
print(r["Instances"][0]["InstanceId"])
PYEOF
)
[[ "$ID" == i-* ]] && ok || { bad "could not create a moto instance: $ID"; exit 1; }
state() { aws ec2 describe-instances --instance-ids "$ID" --endpoint-url "$EP" --query 'Reservations[0].Instances[0].State.Name' --output text 2>/dev/null; }

# Fake IMDSv2: a token from PUT, the instance id only with that token.
IMDS_PORT=$(free_port)
"$PY" - "$IMDS_PORT" "$ID" > "$T/imds.log" 2>&1 <<'PYEOF' &
import sys, http.server
port, iid = int(sys.argv[1]), sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def reply(self, code, body):
        self.send_response(code); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def do_PUT(self):
        ok = self.path == "/latest/api/token" and self.headers.get("X-aws-ec2-metadata-token-ttl-seconds")
        self.reply(200 if ok else 400, b"tok-123" if ok else b"")
    def do_GET(self):
        ok = self.path == "/latest/meta-data/instance-id" and self.headers.get("X-aws-ec2-metadata-token") == "tok-123"
        self.reply(200 if ok else 401, iid.encode() if ok else b"")
http.server.HTTPServer(("127.0.0.1", port), H).serve_forever()
PYEOF
pids+=($!)
for _ in $(seq 100); do "$PY" -c "import socket; socket.create_connection(('127.0.0.1',$IMDS_PORT))" 2>/dev/null && break; sleep 0.1; done

# Fake nvidia-smi: two idle GPUs.
mkdir -p "$T/bin"
printf '#!/bin/sh\nprintf "0\\n3\\n"\n' > "$T/bin/nvidia-smi"
chmod +x "$T/bin/nvidia-smi"
run_watch() {
  PATH="$T/bin:$PATH" GPUADVISOR_IMDS_ENDPOINT=http://127.0.0.1:$IMDS_PORT "$BIN" watch \
    --interval 0.2s --idle-minutes 0.01 --boot-grace 0 --keep-alive-file "$T/keep" \
    --aws-endpoint-url "$EP" --region us-east-1 --max-samples 12 "$@"
}

[ "$(state)" = running ] && ok || bad "instance not running at start: $(state)"
touch "$T/keep"
run_watch --execute > "$T/keep.out" 2>&1
[ "$(state)" = running ] && ok || bad "keep-alive: instance state $(state)"
grep -q 'keep-alive' "$T/keep.out" && ! grep -q 'running: aws' "$T/keep.out" && ok || bad "keep-alive log: $(cat "$T/keep.out")"
rm -f "$T/keep"
run_watch > "$T/dry.out" 2>&1
[ "$(state)" = running ] && grep -q 'dry run: would run: aws ec2 stop-instances --instance-ids '"$ID" "$T/dry.out" && ok || bad "dry run: $(state) $(cat "$T/dry.out")"
run_watch --execute --log "$T/watch.log" > "$T/act.out" 2>&1; rc=$?
[ "$rc" = 0 ] && ok || bad "watch exit $rc: $(cat "$T/act.out")"
for _ in $(seq 50); do s=$(state); [ "$s" = stopped ] && break; sleep 0.1; done
[ "$(state)" = stopped ] && ok || bad "instance state $(state) after watch: $(cat "$T/act.out")"
grep -q 'act: gpu util \[0,3\]' "$T/watch.log" && grep -q 'action done' "$T/watch.log" && ok || bad "log: $(cat "$T/watch.log")"
# A busy GPU: nothing happens.
printf '#!/bin/sh\nprintf "0\\n55\\n"\n' > "$T/bin/nvidia-smi"
run_watch --execute > "$T/busy.out" 2>&1
grep -q 'busy: gpu util \[0,55\]' "$T/busy.out" && ! grep -q running: "$T/busy.out" && ok || bad "busy: $(cat "$T/busy.out")"
"$BIN" watch --action reboot 2>/dev/null; [ $? = 2 ] && ok || bad "bad action exit code"
finish watch_test
