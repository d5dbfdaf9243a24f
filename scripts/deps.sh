#!/usr/bin/env bash
# Installs the Debian packages gpuadvisor needs, only those that are missing. Run as root.
set -euo pipefail
pkgs=(g++ cmake ninja-build pkg-config nlohmann-json3-dev rapidjson-dev libcli11-dev libgtest-dev libgmock-dev
      libbenchmark-dev libyaml-cpp-dev python3 ccache zlib1g-dev libcpp-httplib-dev libboost-dev
      libssl-dev libcurl4-openssl-dev
      python3-dev pybind11-dev python3-pytest python3-pandas)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Web page browser test (chromium + node/npm for playwright-core) and the HTTP load test (wrk);
# checked by command so that a node from another source (with its own npm) is kept.
command -v chromium >/dev/null || missing+=(chromium)
# A CJK font, so that the Chinese page's screenshots show characters, not boxes.
dpkg-query -W -f='${Status}' fonts-wqy-microhei 2>/dev/null | grep -q "install ok installed" ||
  missing+=(fonts-wqy-microhei)
command -v npm >/dev/null || missing+=(nodejs npm)
command -v wrk >/dev/null || missing+=(wrk)
# The `idle --prometheus` end-to-end test starts a real prometheus 2.x on a loopback port and
# backfills it with promtool (tests/cli/idle_prometheus_test.sh).
command -v promtool >/dev/null || missing+=(prometheus)
# The commitments push-down test runs the CUR SQL on a real PostgreSQL (tests/bill/pushdown_test.sh).
[ -x /usr/lib/postgresql/15/bin/initdb ] || command -v initdb >/dev/null || missing+=(postgresql)
# The message catalogs (doc/i18n.md): msgfmt compiles po/zh_CN.po at build time; xgettext,
# msgmerge and msgattrib run in scripts/i18n.sh.
command -v msgfmt >/dev/null || missing+=(gettext)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
