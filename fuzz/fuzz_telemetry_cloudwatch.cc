// libFuzzer target: the CloudWatch GetMetricData JSON reader and the idle analysis behind it;
// also format detection on the same bytes.
#include "telemetry_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  TelemetryOptions to;
  to.format = TelemetryFormat::kCloudWatch;
  fuzz::FuzzTelemetry(data, size, to);
  to.format = TelemetryFormat::kAuto;
  fuzz::FuzzTelemetry(data, size, to);
  return 0;
}
