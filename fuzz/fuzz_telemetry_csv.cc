// libFuzzer target: the nvidia-smi --query-gpu CSV reader (with and without a header) and the
// idle analysis behind it.
#include "telemetry_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  TelemetryOptions to;
  to.format = TelemetryFormat::kNvidiaSmiCsv;
  fuzz::FuzzTelemetry(data, size, to);
  to.columns = {"timestamp",       "hostname",    "index",        "name",
                "utilization.gpu", "memory.used", "memory.total", "power.draw"};
  fuzz::FuzzTelemetry(data, size, to);
  return 0;
}
