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
CXX=clang++-19 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGPUADVISOR_BUILD_FUZZ=ON -DGPUADVISOR_BUILD_TESTS=OFF >/dev/null
targets=(catalog_json price_csv instance_types_json workload price_list_csv price_list_json aws_json
         telemetry_csv telemetry_xml telemetry_prom telemetry_cloudwatch inventory_csv plan_file url
         prometheus_json aws_names)
cmake --build build-fuzz -j2 --target "${targets[@]/#/fuzz_}"
mkdir -p build-fuzz/crashes
for t in "${targets[@]}"; do
  work=build-fuzz/corpus-$t
  mkdir -p "$work"
  log=build-fuzz/fuzz-$t.log
  dict=(); [ -f fuzz/$t.dict ] && dict=(-dict=fuzz/$t.dict)
  if ! ./build-fuzz/fuzz/fuzz_$t -max_total_time="$seconds" -max_len=8192 "${dict[@]}" \
       -artifact_prefix=build-fuzz/crashes/$t- "$work" fuzz/corpus/$t >"$log" 2>&1; then
    tail -30 "$log"
    mkdir -p "fuzz/regressions/$t"
    cp build-fuzz/crashes/"$t"-* "fuzz/regressions/$t/" 2>/dev/null || true
    echo "fuzz: $t FAILED; the input is now in fuzz/regressions/$t/ (replayed by ctest as" \
         "fuzz_replay_$t): fix the bug and commit it"
    exit 1
  fi
  runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | tail -1 | grep -Eo '[0-9]+')
  echo "fuzz: $t ${runs:-0} executions in ${seconds}s"
  if [ -n "${GPUADVISOR_SUMMARY:-}" ]; then
    echo "fuzz $t: ${runs:-0} executions in ${seconds}s" >>"$GPUADVISOR_SUMMARY"
  fi
done
# The server's request-head parser (its own CMake block: the parser and the library).
cmake --build build-fuzz -j2 --target fuzz_http_head
mkdir -p build-fuzz/corpus-http_head
if ! ./build-fuzz/fuzz/fuzz_http_head -max_total_time="$seconds" -max_len=4096 \
     -artifact_prefix=build-fuzz/crashes/http_head- build-fuzz/corpus-http_head \
     fuzz/corpus/http_head >build-fuzz/fuzz-http_head.log 2>&1; then
  tail -30 build-fuzz/fuzz-http_head.log
  mkdir -p fuzz/regressions/http_head
  cp build-fuzz/crashes/http_head-* fuzz/regressions/http_head/ 2>/dev/null || true
  echo "fuzz: http_head FAILED; the input is now in fuzz/regressions/http_head/"
  exit 1
fi
runs=$(grep -Eo 'Done [0-9]+ runs' build-fuzz/fuzz-http_head.log | tail -1 | grep -Eo '[0-9]+')
echo "fuzz: http_head ${runs:-0} executions in ${seconds}s"
[ -z "${GPUADVISOR_SUMMARY:-}" ] ||
  echo "fuzz http_head: ${runs:-0} executions in ${seconds}s" >>"$GPUADVISOR_SUMMARY"
