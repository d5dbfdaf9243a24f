// Shared body of the telemetry fuzz targets: one reader over the input, every sample folded into
// an idle analysis (so the analysis sees whatever hosts, GPUs, times and values the reader lets
// through), then the report and its JSON view.
#ifndef GPUADVISOR_FUZZ_TELEMETRY_FUZZ_H_
#define GPUADVISOR_FUZZ_TELEMETRY_FUZZ_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "app/views.h"
#include "gpuadvisor/idle.h"
#include "gpuadvisor/telemetry.h"

namespace gpuadvisor::fuzz {

inline void FuzzTelemetry(const uint8_t* data, size_t size, const TelemetryOptions& to) {
  static const std::shared_ptr<const Catalog> catalog = *EmbeddedCatalog();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  IdleOptions o;
  o.max_hosts = 64;  // small caps: the fuzzer also reaches the limit paths
  o.max_gpus_per_host = 16;
  o.max_series = 256;
  IdleAnalyzer analyzer(catalog, o);
  Result<TelemetryFileInfo> info = ReadTelemetryText(
      text, "fuzz", to, [&analyzer](const TelemetrySample& s) { return analyzer.Add(s); });
  if (!info.ok()) return;
  Result<IdleReport> report = analyzer.Finish({});
  // The text POST /v1/idle sends (non-UTF-8 host names are replaced, not thrown).
  if (report.ok()) (void)IdleReportJsonText(*report, Freshness{"2026-12-01", 90});
}

}  // namespace gpuadvisor::fuzz

#endif  // GPUADVISOR_FUZZ_TELEMETRY_FUZZ_H_
