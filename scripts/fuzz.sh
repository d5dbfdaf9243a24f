#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-19 (ASan + UBSan) and runs each for SECONDS (default 30)
# on its checked-in corpus. A crash fails the script; its input is left in build-fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
bash scripts/deps.sh
for p in clang-19 libclang-rt-19-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null; }
done
# -O1 (as libFuzzer's documentation suggests) with line tables only: a crash still names
# file:line, and the build (the stage's larger part) takes about two thirds of -O2 -g's time.
CXX=clang++-19 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
  -DGPUADVISOR_BUILD_FUZZ=ON -DGPUADVISOR_BUILD_TESTS=OFF >/dev/null
targets=(catalog_json price_csv instance_types_json workload price_list_csv price_list_json aws_json
         telemetry_csv telemetry_xml telemetry_prom telemetry_cloudwatch inventory_csv plan_file url
         prometheus_json aws_names)
# The server's request-head parser has its own CMake block (the parser and the library).
targets+=(http_head)
cmake --build build-fuzz -j2 --target "${targets[@]/#/fuzz_}"
mkdir -p build-fuzz/crashes
# One fuzzer per core at a time: each still runs SECONDS on its own core, and the stage takes
# about targets x SECONDS / cores instead of targets x SECONDS.
jobs=${GPUADVISOR_FUZZ_JOBS:-$(nproc)}
fuzz_one() {
  local t=$1 max_len=8192 dict=()
  [ "$t" = http_head ] && max_len=4096
  [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
  mkdir -p "build-fuzz/corpus-$t"
  ./build-fuzz/fuzz/fuzz_"$t" -max_total_time="$seconds" -max_len="$max_len" "${dict[@]}" \
    -artifact_prefix=build-fuzz/crashes/"$t"- "build-fuzz/corpus-$t" "fuzz/corpus/$t" \
    >"build-fuzz/fuzz-$t.log" 2>&1
  echo $? >"build-fuzz/fuzz-$t.rc"
}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
failed=0
for t in "${targets[@]}"; do
  log=build-fuzz/fuzz-$t.log
  if [ "$(cat "build-fuzz/fuzz-$t.rc")" != 0 ]; then
    tail -30 "$log"
    mkdir -p "fuzz/regressions/$t"
    cp build-fuzz/crashes/"$t"-* "fuzz/regressions/$t/" 2>/dev/null || true
    echo "fuzz: $t FAILED; the input is now in fuzz/regressions/$t/ (replayed by ctest as" \
         "fuzz_replay_$t): fix the bug and commit it"
    failed=1
    continue
  fi
  runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | tail -1 | grep -Eo '[0-9]+')
  echo "fuzz: $t ${runs:-0} executions in ${seconds}s"
  if [ -n "${GPUADVISOR_SUMMARY:-}" ]; then
    echo "fuzz $t: ${runs:-0} executions in ${seconds}s" >>"$GPUADVISOR_SUMMARY"
  fi
done
exit "$failed"
