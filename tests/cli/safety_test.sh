#!/usr/bin/env bash
# Issue 16, "Data loss and security", end to end: --out/--plot on devices, symlinks and private
# files; non-UTF-8 names and hostnames under --json (never exit 134); escape sequences in
# hostnames and file names never reach the terminal raw.
# Usage: safety_test.sh PATH/TO/gpuadvisor CATALOG-FIXTURES-DIR
set -u
BIN=${1:?usage: safety_test.sh PATH/TO/gpuadvisor CATALOG-FIXTURES-DIR}
FX=${2:?catalog fixtures dir}
PY=${PYTHON:-python3}
source "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ESC=$'\x1b'

# --- --out / --plot on a device: written through, never replaced; /dev/full is exit 3.
if [ -c /dev/full ]; then
  expect_exit "launch --out /dev/full" 3 "No space left" launch g6.xlarge --out /dev/full
  expect_exit "recommend --plot /dev/full" 3 "No space left" recommend --task serve \
    --model llama-3.1-8b --plot /dev/full
  expect_exit "simulate --plot /dev/full" 3 "No space left" simulate --instance g5.xlarge \
    --capacity-rps 5 --diurnal 60,6 --days 1 --plot /dev/full
  expect_exit "catalog import --out /dev/full" 3 "No space left" catalog import \
    --price-list "$FX/price-list-p5.csv" --out /dev/full
  [ -c /dev/full ] && ok || bad "/dev/full is no longer a character device"
else
  echo "skip: no /dev/full"
fi
if [ -c /dev/null ]; then
  expect_exit "launch --out /dev/null" 0 "wrote /dev/null" launch g6.xlarge --out /dev/null
  [ -c /dev/null ] && ok || bad "/dev/null is no longer a character device"
fi

# --- A symlink is followed and kept; a private file stays private.
mkdir "$T/real"
printf old > "$T/real/launch.sh"
chmod 600 "$T/real/launch.sh"
ln -s real/launch.sh "$T/link.sh"
"$BIN" launch g6.xlarge --out "$T/link.sh" 2>/dev/null || bad "launch --out a symlink: rc=$?"
[ -L "$T/link.sh" ] && ok || bad "the symlink was replaced"
grep -q "aws ec2 run-instances" "$T/real/launch.sh" && ok || bad "the link's target was not written"
[ "$(stat -c %a "$T/real/launch.sh")" = 600 ] && ok || bad "mode: $(stat -c %a "$T/real/launch.sh")"
[ "$(ls -A "$T/real")" = launch.sh ] && ok || bad "left behind: $(ls -A "$T/real")"

# --- Non-UTF-8 bytes: a telemetry hostname and a file name under --json.
"$PY" - "$T" <<'PYEOF'
import sys
out = sys.argv[1]
hdr = b"timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n"
def write(path, host):
    with open(path, "wb") as f:
        f.write(hdr)
        for m in range(0, 2 * 1440, 10):  # two days, every 10 minutes
            f.write(b"2026/07/%02d %02d:%02d:00.000, " % (1 + m // 1440, m // 60 % 24, m % 60) + host +
                    b", 0, NVIDIA L4, 0 %, 0 MiB, 20000 MiB\n")
write(out + "/bad-host.csv", b"gpu\xff\xfehost")
write(out + "/esc-host.csv", b"\x1b]0;pwned\x07\x1b[31mevil")
write(out.encode() + b"/name\xff.csv", b"plain")
PYEOF
utf8_json() {  # NAME PYTHON-EXPR ARGS...: exit 0 and stdout strict UTF-8 JSON satisfying EXPR
  local name=$1 expr=$2; shift 2
  "$BIN" "$@" >"$T/out.json" 2>"$T/err"; local rc=$?
  if [ "$rc" = 0 ] && "$PY" -c "import json,sys
d=json.loads(open(sys.argv[1],'rb').read().decode('utf-8'))
sys.exit(0 if ($expr) else 1)" "$T/out.json"; then ok
  else bad "$name: rc=$rc $(head -c 300 "$T/err")"; fi
}
utf8_json "idle --json, 0xff in a hostname" \
  'd["instances"][0]["host"]=="gpu\ufffd\ufffdhost"' idle "$T/bad-host.csv" --json
utf8_json "idle --json, 0xff in a file name" \
  'd["files"][0]["path"].endswith("name\ufffd.csv")' idle "$T/name"$'\xff'".csv" --json
cp "$FX/price-list-p5.csv" "$T/prices"$'\xff'".csv"
utf8_json "catalog import --json, 0xff in a file name" \
  '"\ufffd" in json.dumps(d, ensure_ascii=False)' catalog import \
  --price-list "$T/prices"$'\xff'".csv" --out "$T/imported.json" --json

# --- Issue 43: an empty file name is refused (exit 2, naming the option), never read as "not
# given" (stdout, or the default file).
expect_exit "launch --out ''" 2 "out: expected a file name" launch g6.xlarge --out ''
expect_exit "account scan --out ''" 2 "out: expected a file name" account scan --out '' \
  --regions us-east-1
expect_exit "catalog import --out ''" 2 "out: expected a file name" catalog import \
  --price-list "$FX/price-list-p5.csv" --out ''
expect_exit "catalog update --out ''" 2 "out: expected a file name" catalog update --out ''
expect_exit "catalog build --out ''" 2 "out: expected a file name" catalog build \
  --manifest "$T/none.json" --root "$T" --out ''
expect_exit "catalog upgrade --out ''" 2 "out: expected a file name" catalog upgrade \
  --catalog "$T/none.json" --out ''
expect_exit "recommend --plot ''" 2 "plot: expected a file name" recommend --task serve \
  --model llama-3.1-8b --plot ''
expect_exit "simulate --plot ''" 2 "plot: expected a file name" simulate --instance g5.xlarge \
  --capacity-rps 5 --diurnal 60,6 --days 1 --plot ''
expect_exit "watch --log ''" 2 "log: expected a file name" watch --log ''

# --- Issue 43, item 7: as root, --out into a sticky world-writable directory does not follow a
# link another user planted there (the kernel's fs.protected_symlinks rule); exit 3.
if [ "$(id -u)" = 0 ]; then
  mkdir -m 1777 "$T/sticky"
  printf 'root only' > "$T/precious"
  ln -s "$T/precious" "$T/sticky/main.tf"
  chown -h 65534:65534 "$T/sticky/main.tf"
  expect_exit "launch --out through another user's link in a sticky dir" 3 \
    "fs.protected_symlinks" launch g6.xlarge --format terraform --out "$T/sticky/main.tf"
  [ "$(cat "$T/precious")" = "root only" ] && ok || bad "the link's target was overwritten"
  chown -h 0:0 "$T/sticky/main.tf"
  "$BIN" launch g6.xlarge --format terraform --out "$T/sticky/main.tf" 2>/dev/null &&
    grep -q 'resource' "$T/precious" && ok || bad "root's own link in a sticky dir not followed"
else
  echo "skip: protected symlinks need root to plant another user's link"
fi

# --- Escape sequences: no ESC byte reaches stdout or stderr.
# An AWS answer (here a fake `aws` for --aws-cli) whose account id holds an escape sequence.
cat > "$T/fake-aws" <<'EOF'
#!/bin/sh
case " $* " in
  *" get-caller-identity "*)
    printf '{"UserId": "AIDX", "Account": "\\u001b[31m123456789012", "Arn": "arn:aws:iam::1:user/x"}\n' ;;
  *) echo "AccessDenied: not in this test" >&2; exit 254 ;;
esac
EOF
chmod +x "$T/fake-aws"

no_esc() {  # NAME ARGS...: whatever the exit code, no ESC in stdout or stderr
  local name=$1; shift
  "$BIN" "$@" >"$T/out" 2>"$T/err"
  if grep -q "$ESC" "$T/out" "$T/err"; then bad "$name: ESC printed"; else ok; fi
}
no_esc "idle table, escape sequences in a hostname" idle "$T/esc-host.csv"
grep -q 'x1b\]0;pwned\\x07\\x1b\[31mevil' "$T/out" && ok || bad "hostname not shown escaped: $(cat "$T/out")"
no_esc "idle csv" idle "$T/esc-host.csv" --format csv
no_esc "idle markdown" idle "$T/esc-host.csv" --format markdown
no_esc "error quoting a file name" idle "$T/missing"$'\x1b[2J'".csv"
grep -q 'missing\\x1b\[2J.csv' "$T/err" && ok || bad "file name not shown escaped: $(cat "$T/err")"
no_esc "unknown command" $'\x1b[2Jx'
no_esc "unknown type" show $'p5\x1b[31m'
no_esc "account scan, an account id with an escape" account scan --regions us-east-1 \
  --aws-cli "$T/fake-aws" --out "$T/account.json"
grep -q 'account \\x1b\[31m123456789012' "$T/out" && ok ||
  bad "account id not shown escaped: $(cat "$T/out" "$T/err")"
GPUADVISOR_ACCOUNT="$T/account.json" no_esc "account show, the same scan" account show
finish safety_test
