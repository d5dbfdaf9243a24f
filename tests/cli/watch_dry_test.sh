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
smi 'printf "0\n"'; out=$(w --execute); rc=$?; [ $rc = 3 ] && [[ "$out" == *"cannot act: IMDS"* ]] && ok || bad "no IMDS with --execute: rc=$rc $out"
out=$(w --boot-grace 100000d); [[ "$out" == *"boot-grace"* && "$out" != *"would run"* ]] && ok || bad "grace: $out"
"$BIN" watch --action reboot >/dev/null 2>&1; [ $? = 2 ] && ok || bad "bad action"
"$BIN" watch --interval soon >/dev/null 2>&1; [ $? = 2 ] && ok || bad "bad interval"
finish watch_dry_test
