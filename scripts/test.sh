#!/usr/bin/env bash
# Install what is missing, build everything with warnings as errors, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUADVISOR_BUILD_TESTS=ON \
  -DGPUADVISOR_WERROR=ON >/dev/null
cmake --build build-test -j2
ctest --test-dir build-test --output-on-failure -j2
