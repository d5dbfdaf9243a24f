#!/usr/bin/env bash
# CLI start-to-output time on the embedded catalog: runs each command N times, prints the median
# and p90 wall time and the mean CPU time (user + system, the process's own) in milliseconds.
# Usage: bench/cli_start.sh PATH/TO/gpuadvisor [N]
set -euo pipefail
BIN=${1:?usage: cli_start.sh PATH/TO/gpuadvisor [N]}
N=${2:-50}
run() {
  local label=$1; shift
  python3 - "$N" "$@" <<'PY'
import resource, subprocess, sys, time, statistics
n = int(sys.argv[1]); cmd = sys.argv[2:]
ts = []
before = resource.getrusage(resource.RUSAGE_CHILDREN)
for _ in range(n):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ts.append((time.perf_counter() - t) * 1000)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) / n * 1000
ts.sort()
print(f"{' '.join(cmd[1:]):55s} median {statistics.median(ts):6.2f} ms  p90 {ts[int(0.9*len(ts))-1]:6.2f} ms  "
      f"cpu {cpu:6.2f} ms  (n={n})")
PY
}
run version "$BIN" --version
run list "$BIN" instances
run h100 "$BIN" instances --gpu H100
run json "$BIN" instances --json --region all
run show "$BIN" show p5.48xlarge
run gpus "$BIN" gpus
run help "$BIN" --help
run estimate "$BIN" estimate --task pretrain --model llama-3.1-70b --tokens 1T --instance p5.48xlarge --count 16
run recommend "$BIN" recommend --task pretrain --model llama-3.1-70b --tokens 1T --deadline 30d
run recommend-all "$BIN" recommend --task pretrain --model llama-3.1-70b --tokens 1T --deadline 30d --regions all --json
run recommend-serve "$BIN" recommend --task serve --model llama-3.1-8b --rps 2
