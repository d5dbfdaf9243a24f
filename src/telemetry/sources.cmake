# GPU telemetry readers (issue 6, PRODUCT.md §7).
set(GPUADVISOR_TELEMETRY_SOURCES
  src/telemetry/reader.cc
  src/telemetry/smi_csv.cc
  src/telemetry/smi_xml.cc
  src/telemetry/prometheus.cc
  src/telemetry/cloudwatch.cc
)
