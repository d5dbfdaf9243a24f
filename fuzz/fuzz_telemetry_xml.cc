// libFuzzer target: the nvidia-smi -q -x XML reader and the idle analysis behind it.
#include "telemetry_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  TelemetryOptions to;
  to.format = TelemetryFormat::kNvidiaSmiXml;
  fuzz::FuzzTelemetry(data, size, to);
  return 0;
}
