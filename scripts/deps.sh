#!/usr/bin/env bash
# Installs the Debian packages gpuadvisor needs, only those that are missing. Run as root.
set -euo pipefail
pkgs=(g++ cmake ninja-build pkg-config nlohmann-json3-dev rapidjson-dev libcli11-dev libgtest-dev libgmock-dev
      libbenchmark-dev libyaml-cpp-dev python3 ccache zlib1g-dev
      python3-dev pybind11-dev python3-pytest python3-pandas)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
