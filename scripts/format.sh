#!/usr/bin/env bash
# clang-format-19 (.clang-format: Google style, 100 columns) over the C++ sources.
#   bash scripts/format.sh          check: list the files that are not formatted, exit 1 if any
#   bash scripts/format.sh fix      format them in place
set -euo pipefail
cd "$(dirname "$0")/.."
dpkg-query -W -f='${Status}' clang-format-19 2>/dev/null | grep -q "install ok installed" ||
  { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-format-19 >/dev/null; }
mapfile -t files < <(git ls-files '*.cc' '*.h')
if [ "${1:-check}" = fix ]; then
  clang-format-19 -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format-19 --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  printf 'format: not clang-formatted: %s\n' "${bad[@]}"
  echo "format: run bash scripts/format.sh fix"
  exit 1
fi
echo "format: ${#files[@]} files clang-formatted"
