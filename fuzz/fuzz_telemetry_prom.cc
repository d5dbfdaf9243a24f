// libFuzzer target: the Prometheus text reader (dcgm-exporter, nvidia_gpu_exporter) and the idle
// analysis behind it.
#include "telemetry_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  TelemetryOptions to;
  to.format = TelemetryFormat::kPrometheus;
  fuzz::FuzzTelemetry(data, size, to);
  return 0;
}
