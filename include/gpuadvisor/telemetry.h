// GPU telemetry readers (doc/cost-control.md): every format users collect GPU utilisation in, read
// into one stream of samples (host, GPU, time, utilisation, memory, power).
//
// Formats (detected from the content unless given):
//  - nvidia-smi --query-gpu=... --format=csv[,nounits][,noheader]: any subset and order of
//    columns; the values may carry units ("35 %", "81559 MiB", "69.85 W") or not; "[N/A]" and
//    other bracketed values are unknown. A file without a header needs the column list
//    (TelemetryOptions::columns, the same list given to --query-gpu). A "hostname" column names
//    the host of each row; otherwise the whole file is one host (TelemetryOptions::host, else the
//    file name without directories and extensions).
//  - nvidia-smi -q -x XML: one or more <nvidia_smi_log> snapshots (as `-q -x -l N` appends them).
//  - Prometheus text exposition: dcgm-exporter (DCGM_FI_DEV_GPU_UTIL,
//    DCGM_FI_PROF_GR_ENGINE_ACTIVE, DCGM_FI_DEV_FB_USED/FREE, DCGM_FI_DEV_POWER_USAGE) and
//    nvidia_gpu_exporter (nvidia_smi_utilization_gpu_ratio, nvidia_smi_memory_used_bytes, ...);
//    optional millisecond timestamps after the value.
//  - CloudWatch GetMetricData JSON with CloudWatch agent nvidia_gpu metrics
//    (nvidia_smi_utilization_gpu, nvidia_smi_memory_used, nvidia_smi_memory_total,
//    nvidia_smi_power_draw).
// Any file may be gzip-compressed. Text formats are streamed in fixed-size blocks (memory does
// not grow with the file); CloudWatch JSON responses are parsed whole (they are per-request).
//
// Errors: ParseError "file:line: ..." naming what was expected; IOError when a file cannot be
// read. Timestamps without a zone (nvidia-smi writes the host's local time) are taken as UTC.
#ifndef GPUADVISOR_TELEMETRY_H_
#define GPUADVISOR_TELEMETRY_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuadvisor/fields.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

// One reading of one GPU. The views are valid only during the callback that receives it.
struct TelemetrySample {
  std::string_view host;
  int gpu_index = -1;     // -1 when the source does not say
  std::string_view uuid;  // "" when unknown
  std::string_view gpu_name;
  std::optional<double> time_s;    // Unix seconds (UTC); null when the source carries no time
  std::optional<double> util_pct;  // 0..100
  std::optional<double> mem_used_mib, mem_total_mib, power_w;
  size_t line = 0;  // where the sample came from, for messages
  // A sample may summarise several readings of one window (prometheus_source.h): then the
  // fields above are their means, `readings` their count and these their maxima (null: the
  // sample is one reading).
  uint32_t readings = 1;
  std::optional<double> util_max_pct, mem_used_max_mib;
};

enum class TelemetryFormat { kAuto, kNvidiaSmiCsv, kNvidiaSmiXml, kPrometheus, kCloudWatch };
const char* TelemetryFormatName(TelemetryFormat f);  // "nvidia-smi-csv", ...
std::optional<TelemetryFormat> ParseTelemetryFormat(std::string_view name);
// ParseTelemetryFormat for an option: any case; InvalidArgument naming "telemetry-format".
Result<TelemetryFormat> ParseTelemetryFormatOption(std::string_view text);

struct TelemetryOptions {
  TelemetryFormat format = TelemetryFormat::kAuto;
  std::string host;                  // host of samples without one; "" = the file's stem
  std::vector<std::string> columns;  // for header-less nvidia-smi CSV
  // Called now and then with bytes consumed (of the file as stored) and the file size.
  std::function<void(uint64_t done, uint64_t total)> progress;
};

// The `idle` options that fill these (fields.h); columns come from idle's comma-separated
// columns text (IdleArgs, requests.h).
template <typename V>
void DeclareOptions(V& v, TelemetryOptions& t) {
  v.Enum("telemetry-format", t.format, TelemetryFormatName, ParseTelemetryFormatOption,
         {.help = "Format of the telemetry",
          .choices = {TelemetryFormatName(TelemetryFormat::kAuto),
                      TelemetryFormatName(TelemetryFormat::kNvidiaSmiCsv),
                      TelemetryFormatName(TelemetryFormat::kNvidiaSmiXml),
                      TelemetryFormatName(TelemetryFormat::kPrometheus),
                      TelemetryFormatName(TelemetryFormat::kCloudWatch)},
          .aliases = {"format"}});
  v.Text(
      "host", t.host,
      {.help = "Host name of telemetry without one (CLI default: each file's name; HTTP: upload)",
       .metavar = "NAME"});
  v.NotAnOption(t.columns);
  v.NotAnOption(t.progress);  // set by the front end
}

// Return a non-OK Status from the sink to stop reading (it is passed through).
using SampleSink = std::function<Status(const TelemetrySample&)>;

// Push-down (prometheus_source.h, PrometheusOptions::pushdown): what a metrics server computed
// for one GPU over the whole analysed range, on a grid of windows of `window_s` (the scrape
// interval reproduces the file analysis). IdleAnalyzer::AddAggregate takes it instead of the
// GPU's samples.
struct GpuAggregate {
  std::string host, uuid, gpu_name;
  int gpu_index = -1;
  uint64_t readings = 0;  // raw readings in the range
  double covered_s = 0;   // windows holding a reading x window_s
  double idle_s = 0;      // covered time inside idle stretches of at least the idle window
  std::optional<double> util_avg_pct, util_p95_pct;  // over the readings
  std::optional<double> mem_used_avg_mib, mem_used_max_mib, mem_total_mib, power_avg_w;
};

// The same for a host: its windows are idle when every GPU's is (the busiest GPU's reading
// at or under the threshold), so host idleness cannot be derived from the GPUs' totals.
struct HostAggregate {
  std::string host;
  double first_s = 0, last_s = 0;  // start of the first and last covered window, Unix s
  double covered_s = 0;            // windows where any GPU reported x window_s
  // Tick figures: the mean over the host's GPUs per window, its mean and 95th percentile over
  // the windows; the 99th percentile of GPUs busy at once.
  std::optional<double> util_avg_pct, util_p95_pct;
  int gpus_busy = 0;
  // Idle-stretch time in time order, one piece per hour at least (start, end) in Unix s; pieces
  // that touch are one stretch.
  std::vector<std::pair<double, double>> idle_pieces;
};

struct AggregateSink {
  std::function<Status(const GpuAggregate&)> gpu;
  std::function<Status(const HostAggregate&)> host;
  // Optional: host time covered in each UTC hour (start, Unix s), summed over a batch of hosts;
  // the hour-of-week profile's denominator, one value per batch and hour.
  std::function<Status(double hour_start_s, double covered_s)> coverage;
};

struct TelemetryFileInfo {
  std::string path;
  TelemetryFormat format = TelemetryFormat::kAuto;
  uint64_t bytes = 0;  // as stored (compressed size for .gz)
  uint64_t samples = 0;
  bool gzip = false;
};

// Reads one file ("-" = standard input) and passes every sample to `sink`, in file order.
Result<TelemetryFileInfo> ReadTelemetryFile(const std::string& path,
                                            const TelemetryOptions& options,
                                            const SampleSink& sink);
// The same over text already in memory; `origin` names it in errors (and is the default host).
Result<TelemetryFileInfo> ReadTelemetryText(std::string_view text, const std::string& origin,
                                            const TelemetryOptions& options,
                                            const SampleSink& sink);

// "2026/07/14 08:12:38.696", "2026-07-14T08:12:38Z", "2026-07-14 08:12:38+02:00",
// "Mon Apr 24 16:11:51 2023", or Unix seconds. Null when not a timestamp.
std::optional<double> ParseTelemetryTime(std::string_view text);
// ISO 8601 UTC with seconds: "2026-07-14T08:12:38Z".
std::string FormatUtc(double unix_s);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_TELEMETRY_H_
