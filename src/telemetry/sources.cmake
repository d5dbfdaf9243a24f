# GPU telemetry readers (issue 6; doc/cost-control.md).
set(GPUADVISOR_TELEMETRY_SOURCES
  src/telemetry/reader.cc
  src/telemetry/smi_csv.cc
  src/telemetry/smi_xml.cc
  src/telemetry/prometheus.cc
  src/telemetry/cloudwatch.cc
)
# Window summaries from a Prometheus HTTP API: the library's only HTTP client (cpp-httplib,
# Debian libcpp-httplib-dev, linked privately).
list(APPEND GPUADVISOR_TELEMETRY_SOURCES src/telemetry/prometheus_source.cc
  src/telemetry/prometheus_json.cc)
find_package(PkgConfig REQUIRED)
pkg_check_modules(CPPHTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
