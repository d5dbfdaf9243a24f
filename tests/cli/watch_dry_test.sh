#!/usr/bin/env bash
# `gpuadvisor watch` without AWS: dry run with a fake nvidia-smi, keep-alive, busy GPUs, a failing
# nvidia-smi, a command action and bad flags (no network; fast). Usage: watch_dry_test.sh BIN
set -u
BIN=$(realpath "${1:?usage: watch_dry_test.sh PATH/TO/gpuadvisor}")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/lib.sh"
mkdir -p "$T/bin"
smi() { printf '#!/bin/sh\n%s\n' "$1" > "$T/bin/nvidia-smi"; chmod +x "$T/bin/nvidia-smi"; }
w() { PATH="$T/bin:$PATH" "$BIN" watch --interval 0.1s --idle-minutes 0.005 --boot-grace 0 \
        --imds-endpoint http://127.0.0.1:9 --keep-alive-file "$T/keep" --max-samples 8 "$@" 2>&1; }
smi 'printf "0\n1\n"'
out=$(w); [[ "$out" == *"act: gpu util [0,1]"* && "$out" == *"would run: aws ec2 stop-instances --instance-ids <instance-id>"* ]] && ok || bad "dry run: $out"
out=$(w --action hibernate --region eu-west-1); [[ "$out" == *"--hibernate --region eu-west-1"* ]] && ok || bad "hibernate: $out"
out=$(w --action "command:touch $T/done" --execute --log "$T/log"); [ -e "$T/done" ] && grep -q 'action done' "$T/log" && ok || bad "command: $out"
touch "$T/keep"; out=$(w); [[ "$out" == *"keep-alive"* && "$out" != *"would run"* ]] && ok || bad "keep-alive: $out"; rm -f "$T/keep"
smi 'printf "0\n90\n"'; out=$(w); [[ "$out" == *"busy: gpu util [0,90]"* && "$out" != *"would run"* ]] && ok || bad "busy: $out"
smi 'exit 9'; out=$(w); [[ "$out" == *"no-data"* && "$out" != *"would run"* ]] && ok || bad "no data: $out"
smi 'echo "No devices were found"'; out=$(w); [[ "$out" == *"no-data"* ]] && ok || bad "garbage: $out"
# Issue 43: what nvidia-smi prints is quoted in the log escaped, never as raw escape sequences.
smi 'printf "\033[31mpwned\n"'; out=$(w --log "$T/esc.log")
[[ "$out" == *'\x1b[31mpwned'* ]] && ! grep -q $'\x1b' <<<"$out" && ! grep -q $'\x1b' "$T/esc.log" &&
  ok || bad "escape sequences from nvidia-smi reached the log raw: $out"
# Issue 43, item 7: as root, --log into a sticky world-writable directory refuses a link another
# user planted there (the target is left as it was).
if [ "$(id -u)" = 0 ]; then
  mkdir -m 1777 "$T/shared"; echo "root's own" >"$T/precious"
  ln -s "$T/precious" "$T/shared/w.log"; chown -h 65534 "$T/shared/w.log"
  out=$(w --log "$T/shared/w.log"); rc=$?
  [ $rc = 3 ] && [[ "$out" == *"--log: "*"fs.protected_symlinks"* ]] && [ "$(cat "$T/precious")" = "root's own" ] &&
    ok || bad "--log through another user's link: rc=$rc $out"
fi
smi 'printf "0\n"'; out=$(w --execute); rc=$?; [ $rc = 3 ] && [[ "$out" == *"cannot act: IMDS"* ]] && ok || bad "no IMDS with --execute: rc=$rc $out"
out=$(w --boot-grace 365d); [[ "$out" == *"boot-grace"* && "$out" != *"would run"* ]] && ok || bad "grace: $out"
# Issue 16: a hung nvidia-smi is killed at --sample-timeout and logged as no-data; the loop goes
# on. (It used to block forever: `timeout` turns a regression into a failure, not a hang.)
# A duration unique to this run, so a concurrent run's sleeper is not taken for ours.
NAP=$(( 80000 + $$ % 10000 ))
smi "exec sleep $NAP"
out=$(timeout 60 env PATH="$T/bin:$PATH" "$BIN" watch --interval 0.1s --idle-minutes 0.005 \
  --boot-grace 0 --imds-endpoint http://127.0.0.1:9 --keep-alive-file "$T/keep" --max-samples 3 \
  --sample-timeout 0.3s 2>&1); rc=$?
n=$(grep -c 'no-data: gpu util \[\] idle 0.0 min (.*timed out after 0.3 s (killed))' <<<"$out")
[ $rc = 0 ] && [ "$n" = 3 ] && [[ "$out" == *"stopping after --max-samples"* ]] && ok || bad "hung nvidia-smi: rc=$rc $out"
# SIGKILL is delivered at once but the kernel may take a moment to tear the process down on a
# loaded machine: give it up to 5 s before calling it left running.
for _ in $(seq 50); do left=$(pgrep -f "sleep $NAP\$"); [ -z "$left" ] && break; sleep 0.1; done
[ -z "$left" ] && ok || { bad "hung nvidia-smi left running: $left"; kill $left; }
# A wedged driver: keep-alive (default) never acts and says so once; stop runs the action.
smi 'exit 9'
out=$(w --wedged-after 3); [ "$(grep -c 'wedged: no GPU reading for 3 samples in a row; --on-wedged keep-alive' <<<"$out")" = 1 ] && [[ "$out" != *"would run"* ]] && ok || bad "wedged keep-alive: $out"
out=$(w --wedged-after 2 --on-wedged stop); [[ "$out" == *"--on-wedged stop: the wedged instance counts as idle"* && "$out" == *"would run: aws ec2 stop-instances"* ]] && ok || bad "wedged stop: $out"
out=$(w --wedged-after 2 --on-wedged stop --boot-grace 365d); [[ "$out" == *"boot-grace"* && "$out" != *"would run"* ]] && ok || bad "wedged stop in grace: $out"
# Fails its first 3 runs, then reads one idle GPU.
cat > "$T/bin/nvidia-smi" <<SH
#!/bin/sh
n=\$(cat "$T/runs" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > "$T/runs"
[ \$n -le 3 ] && exit 9
printf '0\\n'
SH
out=$(w --wedged-after 2)
[[ "$out" == *"wedged: no GPU reading"* && "$out" == *"recovered: GPU readings are back after 3 failed samples"* && "$out" == *"idle: gpu util [0]"* ]] && ok || bad "recovery: $out"
# Issue 16: every numeric flag has a range; outside it (or not finite) is exit 2 naming the flag.
for args in "--idle-minutes 1e300|--idle-minutes: expected a number from 0 to 43200, got \"1e300\"" \
            "--idle-minutes -1|--idle-minutes: expected a number from 0 to 43200" \
            "--interval 1e308h|--interval: expected a duration" \
            "--interval 1e300h|--interval: expected a duration from 0.01s to 1d, got \"1e300h\"" \
            "--interval 2d|--interval: expected a duration from 0.01s to 1d" \
            "--idle-threshold 101|--idle-threshold: expected a number from 0 to 100" \
            "--boot-grace 100000d|--boot-grace: expected a duration from 0s to 365d" \
            "--max-samples 1.5|--max-samples: expected a whole number" \
            "--max-samples 1e300|--max-samples: expected a whole number from 0 to 1e+09" \
            "--sample-timeout 0|--sample-timeout: expected a duration from 0.01s to 1h" \
            "--wedged-after 0|--wedged-after: expected a whole number from 1 to 10000" \
            "--on-wedged reboot|--on-wedged: expected one of keep-alive, stop, got \"reboot\""; do
  flags=${args%%|*} want=${args#*|}
  # shellcheck disable=SC2086
  err=$(timeout 20 "$BIN" watch $flags 2>&1 >/dev/null); rc=$?
  [ $rc = 2 ] && [[ "$err" == *"$want"* ]] && ! grep -qiwE 'inf|nan' <<<"$err" && ok || bad "watch $flags: rc=$rc $err"
done
"$BIN" watch --action reboot >/dev/null 2>&1; [ $? = 2 ] && ok || bad "bad action"
"$BIN" watch --interval soon >/dev/null 2>&1; [ $? = 2 ] && ok || bad "bad interval"
finish watch_dry_test
