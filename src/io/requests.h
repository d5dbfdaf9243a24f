// Command requests from their options as text: the one parser behind the CLI flags, the HTTP
// API and the Python module, so every front end accepts the same values, reports the same
// one-line errors (naming the flag, e.g. `--min-gpus: expected a number, got "x"`) and emits the
// same JSON objects. Each *Args struct holds what a user typed; "" means "not given".
#ifndef GPUADVISOR_IO_REQUESTS_H_
#define GPUADVISOR_IO_REQUESTS_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/cost.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/idle.h"
#include "gpuadvisor/prometheus_source.h"
#include "gpuadvisor/query.h"
#include "gpuadvisor/recommend.h"
#include "gpuadvisor/workload.h"
#include "io/catalog_views.h"

namespace gpuadvisor {

// `max_price_age` in days (text, >= 0); today is UTC, or $GPUADVISOR_TODAY (tests).
Result<Freshness> MakeFreshness(const std::string& max_price_age);
// "" = the embedded catalog; otherwise the file (errors prefixed "--catalog").
Result<std::shared_ptr<const Catalog>> OpenCatalog(const std::string& path);

// List options (--gpu, --family, --regions, --purchase) hold at most this many items; repeats
// count once (a list of 60k copies of one region is one region, not 60k searches).
inline constexpr size_t kMaxListItems = 1000;
// `items` without repeats (first occurrence kept, case-insensitive), or InvalidArgument naming
// `flag` when there are more than kMaxListItems of them (repeats included).
Result<std::vector<std::string>> DistinctListItems(const std::vector<std::string>& items,
                                                   std::string_view flag);

// `instances` filters.
struct InstancesArgs {
  std::string region = "us-east-1";
  std::vector<std::string> gpus, families;
  std::string min_gpus, max_gpus, min_gpu_memory, min_total_gpu_memory, max_price, limit;
  std::string purchase = "on-demand";
  std::string sort;  // FIELD[:asc|desc]
  bool efa = false, include_retired = false, gpus_only = false;
};
Result<InstanceQuery> MakeInstanceQuery(const InstancesArgs& a);

// `gpus`: one summary per model; models on no listed type only with `include_retired`.
std::vector<GpuSummary> ListGpus(const Catalog& c, bool include_retired);

// `show TYPE`: NotFound (with "did you mean") for the type or the region.
Result<ojson> ShowTypeJson(const Catalog& c, const std::string& type, const std::string& region,
                           const Freshness& fresh);

// Workload: a YAML/JSON file ("-" = stdin), then SetWorkloadField per value (presets first, so
// fields that refine them apply on top), then Validate(). Keys are SetWorkloadField keys.
struct WorkloadArgs {
  std::string file;
  std::map<std::string, std::string> values;
};
Result<Workload> BuildWorkload(const WorkloadArgs& a);

// `estimate`: the contract's JSON (EstimateToJson plus provenance) and the warning lines.
ojson EstimateReportJson(const Hardware& hw, const Estimate& e, const Catalog& c,
                         const Freshness& fresh);
std::vector<std::string> EstimateWarnings(const Hardware& hw, const Estimate& e,
                                          const Freshness& fresh, const std::string& region);

// `pricing TYPE`: usage pattern flags.
struct UsageArgs {
  std::string hours_per_month = "730", months = "1", count = "1";
  bool interruptible = false;
  std::string checkpoint_interval, checkpoint_gib, storage_gbps, restart;
};
Status ParseUsage(const UsageArgs& a, UsagePattern* u);
// Resolves the type and region, prices the usage. A type not sold in the region is NoResult.
Result<PricingResult> PriceType(const Catalog& c, const std::string& type,
                                const std::string& region, const UsageArgs& a);
std::vector<std::string> PricingWarnings(const PricingResult& r, const Freshness& fresh);

// `recommend` search flags.
struct RecommendArgs {
  std::string deadline, budget, regions, purchase, max_instances = "64", max_gpus, top = "5";
  std::string objective = "cost";
  bool allow_retired = false, explain = false;
};
Status ParseRecommendRequest(const RecommendArgs& a, RecommendRequest* r);
std::vector<std::string> RecommendWarnings(const Recommendation& r, const Freshness& fresh);

// `idle FILE...` options. The inventory CSV is read and checked against the catalog.
struct IdleArgs {
  std::string inventory;  // CSV path; "" = none
  std::string threshold = "5", window = "30m";
  std::string region = "us-east-1", purchase = "on-demand";
  std::string telemetry_format = "auto", columns, host;
  // --prometheus URL instead of files (prometheus_source.h). until: ISO time or Unix seconds
  // ("" = now); the token and password are read from files so they stay off command lines.
  std::string prometheus, since = "7d", until, selector, step = "5m", max_points;
  std::string bearer_token_file, basic_auth_file;  // basic: "user:password" in the file
  std::vector<std::string> headers;                // "Name: value"
  std::string min_rightsizing_span;                // duration; "" = IdleOptions' default (24h)
  std::string max_hosts;                           // "" = IdleOptions' default (10000)
};
struct IdleSetup {
  IdleOptions options;
  TelemetryOptions telemetry;  // no progress callback
  std::vector<InventoryEntry> inventory;
  std::optional<PrometheusOptions> prometheus;  // set when IdleArgs::prometheus is
};
Result<IdleSetup> ParseIdleArgs(const Catalog& c, const IdleArgs& a);
// The Prometheus part of IdleArgs (a.prometheus set). InvalidArgument naming the flag; IOError
// when a secret file cannot be read.
Result<PrometheusOptions> ParsePrometheusArgs(const IdleArgs& a);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_REQUESTS_H_
