// Idle and rightsizing analysis of GPU telemetry (doc/cost-control.md, `gpuadvisor idle`).
//
// Samples (see telemetry.h) are folded per host and per GPU as they stream in: memory does not
// grow with the number of samples (utilisation percentiles come from 0.1 %-wide histograms).
//
// Idleness. A GPU is idle at a sample when its utilisation is at or under the threshold; a host
// when all its GPUs are. Each sample stands for the time until the next one, its sampling
// interval; missing data is not time: an interval over ten sampling intervals and over 10
// minutes, or over a day, is a gap, and a first interval over 10 minutes counts only once the
// next interval confirms it (two samples a month or an hour apart cover nothing). So the time
// covered never exceeds last - first + one sampling interval (the last sample's own). Only a
// stretch of idle samples lasting at least the window is an idle period: brief dips between
// bursts of work are not idleness.
//
// Values. Add() refuses, whatever the source, a sample with a time outside 2000-2099, a
// utilisation outside 0-100 %, NaN or an infinity, memory outside 0-4 TiB or used above total,
// or power outside 0-10 kW: a ParseError naming origin:line (or the host and GPU for samples
// without a line) and the field, as the CSV reader does for a bad cell.
//
// Enough data. A host observed for less than the idle window gets no idle verdict (its
// idle_fraction and wasted are null, its status "insufficient-data"); one observed for less
// than IdleOptions::min_rightsizing_span_s (default a day) may be told to stop or to schedule, but
// is never told to move to a smaller or cheaper type (status "collect-more").
//
// Bounded memory. State is a fixed-size summary per host and per GPU (a few hundred bytes; the
// utilisation histograms are sparse until they need 4 KiB), and IdleOptions caps hosts and GPU
// series per analysis: the next new host or GPU past a cap is an InvalidArgument error naming the
// limit, so one request cannot grow memory without bound.
//
// Feeding the analysis. Any source (the file readers of telemetry.h, or a metrics API) passes
// per-GPU samples to IdleAnalyzer::Add. REQUIRES: the timed samples of each GPU arrive in time
// order (several files of one host: in order); a sample older than the GPU's previous one is a
// ParseError naming origin:line. Samples of different GPUs and hosts may interleave freely.
//
// Money. The hourly price is the catalog's for the host's instance type, region and purchase
// option (from an inventory, or guessed from the GPU name and count, which the report says).
// Wasted money = price × idle hours of the whole host + price per GPU × hours single GPUs sat
// idle while others worked. Savings per month assume the observed pattern continues (730 h).
// Every amount is in the host's region's currency (Money): a CNY host is never summed into a
// USD total, and the report keeps one total per currency.
#ifndef GPUADVISOR_IDLE_H_
#define GPUADVISOR_IDLE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/money.h"
#include "gpuadvisor/purchase.h"
#include "gpuadvisor/result.h"
#include "gpuadvisor/telemetry.h"

namespace gpuadvisor {

struct IdleOptions {
  double idle_threshold_pct = 5;     // at or under: idle
  double idle_window_s = 30 * 60;    // shortest stretch that counts as an idle period
  std::string region = "us-east-1";  // for hosts the inventory does not place
  // The zone stop/start schedules are read in (util/timezone.h); "" = each host's region's:
  // Asia/Shanghai in AWS China, UTC elsewhere.
  std::string timezone;
  PurchaseKind purchase = PurchaseKind::kOnDemand;
  size_t max_periods = 20;  // idle periods listed per host (all are counted)
  // Shortest observed time (hours covered, gaps excluded) for a rightsizing recommendation
  // (fewer-gpus, smaller-gpu, spot): hours of data say nothing about next week's peak.
  double min_rightsizing_span_s = 24 * 3600;
  // Caps per analysis (one CLI run, one HTTP request): more distinct hosts, GPUs of one host, or
  // (host, GPU) series in all is an InvalidArgument error naming the limit.
  size_t max_hosts = 10000;
  size_t max_gpus_per_host = 64;
  size_t max_series = 100000;
};

// The `idle` options that fill these (fields.h); the caps past max_hosts are set by code (the
// HTTP server lowers them to its own ceilings).
template <typename V>
void DeclareOptions(V& v, IdleOptions& o) {
  v.Number("idle-threshold", o.idle_threshold_pct,
           {.help = "Utilisation at or under this is idle",
            .unit = "%",
            .lo = 0,
            .hi = 100,
            .aliases = {"threshold"}});
  v.Duration("idle-window", o.idle_window_s,
             {.help = "Shortest idle stretch that counts",
              .lo = 1,
              .hi = 30 * 86400.0,
              .aliases = {"window"}});
  v.Duration("min-rightsizing-span", o.min_rightsizing_span_s,
             {.help = "Observed time needed before a smaller or cheaper type is suggested; under "
                      "the idle window no idle verdict at all",
              .lo = 0,
              .hi = 3650 * 86400.0,
              .shown_default = "24h"});
  v.Integer(
      "max-hosts", o.max_hosts,
      {.help = "Most distinct hosts in one run (memory is bounded by it)", .lo = 1, .hi = 1000000});
  v.Text("region", o.region, {.help = "Region of hosts not in the inventory", .metavar = "REGION"});
  v.Text("timezone", o.timezone,
         {.help = "Time zone of the stop/start schedules: a zone without daylight saving "
                  "(Asia/Shanghai, Asia/Tokyo, UTC) or an offset (UTC+08:00); default: "
                  "Asia/Shanghai for hosts in AWS China, UTC elsewhere",
          .aliases = {"tz"},
          .metavar = "TZ"});
  v.Enum(
      "purchase", o.purchase, PurchaseKindName, ParsePurchaseOption("purchase"),
      {.help = "Purchase option of hosts not in the inventory",
       .choices = {PurchaseKindName(PurchaseKind::kOnDemand), PurchaseKindName(PurchaseKind::kSpot),
                   PurchaseKindName(PurchaseKind::kReserved1y),
                   PurchaseKindName(PurchaseKind::kCapacityBlock)}});
  v.NotAnOption(o.max_periods);
  v.NotAnOption(o.max_gpus_per_host);
  v.NotAnOption(o.max_series);
}

// One line of an inventory CSV: hostname,instance_type[,region][,purchase].
struct InventoryEntry {
  std::string host, instance_type, region;
  std::optional<PurchaseKind> purchase;  // null: the default
  size_t line = 0;
  // Where the type came from when not an inventory file ("the InstanceType dimension of
  // CloudWatch"): the host's type_note says it.
  std::string from;
};
// Columns by header name; region and purchase may be absent or empty (then the defaults apply).
// purchase: any ParsePurchaseKind name (on-demand, spot, reserved-1y-no-upfront, capacity-block).
// Unknown types and regions are errors naming origin:line with "did you mean"; every error
// carries the field "inventory".
Result<std::vector<InventoryEntry>> ParseInventoryCsv(const Catalog& catalog, std::string_view text,
                                                      const std::string& origin);

struct IdlePeriod {
  double start_s = 0, end_s = 0;  // Unix seconds
};

struct GpuUsage {
  int index = -1;
  std::string uuid, name;
  uint64_t samples = 0;
  double hours_covered = 0;
  std::optional<double> avg_util_pct, p95_util_pct;
  std::optional<double> mem_used_avg_mib, mem_used_max_mib, mem_total_mib, avg_power_w;
  double idle_hours = 0;
  std::optional<double> idle_fraction;  // null without timed samples
};

struct IdleRecommendation {
  // "stop", "schedule", "fewer-gpus", "smaller-gpu", "spot", "keep", "collect-more": stable names.
  std::string action;
  std::string summary;               // one line, for people
  std::string target_instance_type;  // fewer-gpus, smaller-gpu, spot: the type to move to
  // In the host's currency (its region's: CNY in AWS China), as every amount of the host.
  std::optional<Money> target_per_hour;
  std::optional<Money> savings_per_month;  // if the observed pattern continues
};

// Whether a host had enough data for each kind of verdict. Stable names in the JSON `status`.
enum class DataStatus {
  kOk,                // observed for at least min_rightsizing_span_s: every recommendation
  kCollectMore,       // at least the idle window, less than min_rightsizing_span_s: no rightsizing
  kInsufficientData,  // less than the idle window: no idle verdict either
};
const char* DataStatusName(DataStatus s);  // "ok", "collect-more", "insufficient-data"

struct HostUsage {
  std::string host;
  DataStatus status = DataStatus::kOk;
  std::string status_reason;  // why not kOk, for people ("" when kOk)
  std::string instance_type;  // "" when neither the inventory nor a guess gives one
  bool type_guessed = false;
  std::string type_note;  // how it was guessed, or why not
  std::string region;
  PurchaseKind purchase = PurchaseKind::kOnDemand;
  std::optional<Price> price;  // per instance-hour for that purchase option, in currency()
  std::string gpu_name;
  int gpus = 0;
  uint64_t samples = 0;
  std::optional<double> first_s, last_s;
  double hours_covered = 0;
  std::optional<double> avg_util_pct, p95_util_pct;  // mean over the host's GPUs at each time
  int gpus_busy = 0;  // GPUs over the threshold at the same time (99th percentile of ticks)
  std::optional<double> mem_used_max_mib, mem_total_mib;  // busiest GPU; per GPU
  double idle_hours = 0;
  std::optional<double> idle_fraction;   // null below the idle window (kInsufficientData)
  std::vector<IdlePeriod> idle_periods;  // the first IdleOptions::max_periods
  size_t idle_period_count = 0;
  double longest_idle_hours = 0;
  double gpu_idle_hours = 0;    // GPU-hours single GPUs idled while the host worked
  std::optional<Money> wasted;  // null without a price or an idle verdict
  IdleRecommendation recommendation;
  std::vector<IdleRecommendation> alternatives;  // other levers that also apply
  std::vector<GpuUsage> gpu_usage;               // by index

  // The currency of the host's amounts: its region's.
  Currency currency() const { return PartitionOf(region).currency; }
  // The hourly price as Money, or null.
  std::optional<Money> price_per_hour() const {
    if (!price) return std::nullopt;
    return Money(price->usd_per_hour, currency());
  }
};

// Host-hours by hour of the week in one time zone, Monday 00:00 first (index = day * 24 + hour,
// Monday = 0): the time hosts were observed, and the time they sat in idle stretches (every GPU
// idle for at least the idle window: the hosts' idle_hours, by when they fell). Their ratio per
// hour is the share of the fleet's observed time wasted then: nights and weekends show up here.
struct WeekProfile {
  std::string timezone;  // "UTC", "Asia/Shanghai", "UTC+05:30"
  // Why this zone: the option's, the zone all hosts' regions share, or UTC for a fleet whose
  // regions differ ("" for the option's).
  std::string basis;
  std::array<double, 168> covered_hours{}, idle_hours{};
};

struct IdleReport {
  IdleOptions options;
  std::vector<TelemetryFileInfo> files;
  std::vector<HostUsage> hosts;  // by currency (USD first), then largest saving first
  // One total per currency of the hosts: a fleet in Virginia and Beijing has a USD and a CNY
  // total, never one sum.
  MoneyTotals total_wasted;
  MoneyTotals total_savings_per_month;
  double hours_covered = 0;  // longest host span
  // Null when nothing was observed, or when a push-down caller passed no hourly coverage
  // (AggregateSink::coverage).
  std::optional<WeekProfile> week_profile;
  std::vector<std::string> warnings;
};

// Folds samples one at a time; Finish() prices and recommends. Not thread-safe; independent
// analyzers may run on different threads.
class IdleAnalyzer {
 public:
  IdleAnalyzer(std::shared_ptr<const Catalog> catalog, IdleOptions options);
  ~IdleAnalyzer();
  IdleAnalyzer(const IdleAnalyzer&) = delete;
  IdleAnalyzer& operator=(const IdleAnalyzer&) = delete;

  // Errors: ParseError when a GPU's time goes backwards or a value is out of range (see "Values"
  // above; origin:line and the field); InvalidArgument when the sample's host or GPU would pass
  // a cap of IdleOptions (the message names the limit).
  Status Add(const TelemetrySample& s);
  // Push-down (telemetry.h): what a metrics server computed over the whole range for one GPU
  // or one host, instead of their samples; the report is then made as from samples (one
  // analysis from here on). A host's GPUs and the host itself each come once; a host that
  // also had samples is an InvalidArgument. Values are checked as Add() checks samples
  // (ParseError naming the host and GPU and the field); the caps as in Add().
  Status AddAggregate(const GpuAggregate& g);
  Status AddAggregate(const HostAggregate& h);
  // Push-down: host time covered in the UTC hour starting at `hour_start_s`, over the hosts of
  // one batch (for the hour-of-week profile; the hosts' own totals come with their aggregates).
  // ParseError for a time outside 2000-2099, or covered time that is negative or not finite.
  Status AddCoverage(double hour_start_s, double covered_s);
  // Names the input in Add()'s messages ("file.csv"); AddFile sets it to the path.
  void set_origin(std::string origin);
  // Reads a file through Add(). IOError / ParseError naming file:line.
  Status AddFile(const std::string& path, const TelemetryOptions& options);
  // Errors: InvalidArgument for a bad option; NoResult when no samples were added.
  Result<IdleReport> Finish(const std::vector<InventoryEntry>& inventory);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// All of the above in one call.
Result<IdleReport> AnalyzeIdle(std::shared_ptr<const Catalog> catalog,
                               const std::vector<std::string>& paths,
                               const TelemetryOptions& telemetry, const IdleOptions& options,
                               const std::vector<InventoryEntry>& inventory);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IDLE_H_
