# GPU telemetry readers (issue 6; doc/cost-control.md).
set(GPUADVISOR_TELEMETRY_SOURCES
  src/telemetry/reader.cc
  src/telemetry/smi_csv.cc
  src/telemetry/smi_xml.cc
  src/telemetry/prometheus.cc
  src/telemetry/cloudwatch.cc
)
# CloudWatch agent metrics summarised per hour by CloudWatch: answers read, queries built (the CLI
# runs the AWS CLI).
list(APPEND GPUADVISOR_TELEMETRY_SOURCES src/telemetry/cloudwatch_source.cc)
# Window summaries from a Prometheus HTTP API, over util/http_client (libcurl).
list(APPEND GPUADVISOR_TELEMETRY_SOURCES src/telemetry/prometheus_source.cc
  src/telemetry/prometheus_json.cc)
