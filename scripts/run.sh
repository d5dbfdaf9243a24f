#!/usr/bin/env bash
# Quick start: install what is missing, build (Release), run gpuadvisor with the given arguments
# (default: the H100 instances in us-east-1 from the embedded catalog).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUADVISOR_BUILD_TESTS=OFF >/dev/null
cmake --build build --target gpuadvisor -j2 >/dev/null
if [ $# -eq 0 ]; then set -- instances --gpu H100; fi
exec ./build/gpuadvisor "$@"
