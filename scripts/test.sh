#!/usr/bin/env bash
# Install what is missing, build everything with warnings as errors, run the whole test suite.
#   bash scripts/test.sh            Release build in build-test/
#   bash scripts/test.sh sanitize   AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-release}
bash scripts/deps.sh
case "$mode" in
  release) dir=build-test; flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  sanitize) dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUADVISOR_SANITIZE=ON)
            export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 ;;
  *) echo "usage: scripts/test.sh [release|sanitize]" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" -G Ninja "${flags[@]}" -DGPUADVISOR_BUILD_TESTS=ON -DGPUADVISOR_WERROR=ON >/dev/null
cmake --build "$dir" -j2
ctest --test-dir "$dir" --output-on-failure -j2
