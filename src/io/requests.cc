#include "io/requests.h"

#include <cmath>
#include <cstdlib>
#include <unordered_set>
#include <utility>

#include "util/files.h"
#include "util/numbers.h"
#include "util/strings.h"

namespace gpuadvisor {
namespace {

Status OptNumber(const std::string& text, const char* flag, std::optional<double>* out) {
  if (text.empty()) return Status::OK();
  Result<double> v = ParseSiNumber(text, flag);
  if (!v.ok()) return v.status();
  *out = *v;
  return Status::OK();
}

Status OptNumber(const std::string& text, const char* flag, double* out) {
  std::optional<double> v;
  GPUADVISOR_RETURN_IF_ERROR(OptNumber(text, flag, &v));
  if (v) *out = *v;
  return Status::OK();
}

Status OptDuration(const std::string& text, const char* flag, double* out_seconds) {
  if (text.empty()) return Status::OK();
  Result<double> v = ParseDurationSeconds(text, flag);
  if (!v.ok()) return v.status();
  *out_seconds = *v;
  return Status::OK();
}

Status PositiveInteger(const std::string& text, const char* flag, int* out) {
  if (text.empty()) return Status::OK();
  Result<int64_t> v = ParseInt(text, flag);
  if (!v.ok()) return v.status();
  if (*v < 1 || *v > 1000000) {
    return Status::InvalidArgument(std::string(flag) + ": expected a positive integer, got \"" +
                                   text + "\"");
  }
  *out = static_cast<int>(*v);
  return Status::OK();
}

// The usage bounds keep every figure finite; a figure past any real bill (the spot overhead of a
// petabyte checkpoint at 1 MB/s) is refused rather than printed as "inf" or 17 digits.
Status CheckPricedFigures(const PricingResult& r) {
  constexpr double kMaxUsd = 1e15;
  for (const PurchaseOptionCost& c : r.options) {
    for (const std::optional<double>& usd : {c.usd_per_hour, c.upfront_usd, c.total_usd,
                                             c.usd_per_used_hour, c.break_even_utilization}) {
      if (usd && !(std::abs(*usd) <= kMaxUsd)) {
        return Status::InvalidArgument(
            c.option + ": the usage prices beyond $1e15; check --count, --months, " +
            "--checkpoint-gib and --storage-gbps");
      }
    }
  }
  return Status::OK();
}

// "a, b,,c" -> {"a", "b", "c"}.
std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  for (std::string_view item : Split(text, ',')) {
    if (!Trim(item).empty()) out.emplace_back(Trim(item));
  }
  return out;
}

}  // namespace

Result<Freshness> MakeFreshness(const std::string& max_price_age) {
  Freshness fresh;
  Result<int64_t> age = ParseInt(max_price_age, "--max-price-age");
  if (!age.ok()) return age.status();
  if (*age < 0 || *age > 1000000) {
    return Status::InvalidArgument("--max-price-age: expected a non-negative number of days");
  }
  fresh.max_price_age_days = static_cast<int>(*age);
  fresh.today = TodayUtc();
  if (const char* today = std::getenv("GPUADVISOR_TODAY")) fresh.today = today;  // tests
  return fresh;
}

Result<std::shared_ptr<const Catalog>> OpenCatalog(const std::string& path) {
  if (path.empty()) return EmbeddedCatalog();
  Result<Catalog> c = LoadCatalogFile(path);
  if (!c.ok()) return c.status().WithPrefix("--catalog");
  return std::shared_ptr<const Catalog>(std::make_shared<const Catalog>(std::move(c).value()));
}

Result<std::vector<std::string>> DistinctListItems(const std::vector<std::string>& items,
                                                   std::string_view flag) {
  if (items.size() > kMaxListItems) {
    return Status::InvalidArgument(std::string(flag) + ": at most " +
                                   std::to_string(kMaxListItems) + " items, got " +
                                   std::to_string(items.size()));
  }
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (const std::string& item : items) {
    if (seen.insert(ToLower(item)).second) out.push_back(item);
  }
  return out;
}

Result<InstanceQuery> MakeInstanceQuery(const InstancesArgs& a) {
  InstanceQuery q;
  q.region = a.region;
  Result<std::vector<std::string>> gpus = DistinctListItems(a.gpus, "--gpu");
  if (!gpus.ok()) return gpus.status();
  q.gpus = *std::move(gpus);
  Result<std::vector<std::string>> families = DistinctListItems(a.families, "--family");
  if (!families.ok()) return families.status();
  q.families = *std::move(families);
  GPUADVISOR_RETURN_IF_ERROR(OptNumber(a.min_gpus, "--min-gpus", &q.min_gpus));
  GPUADVISOR_RETURN_IF_ERROR(OptNumber(a.max_gpus, "--max-gpus", &q.max_gpus));
  GPUADVISOR_RETURN_IF_ERROR(
      OptNumber(a.min_gpu_memory, "--min-gpu-memory", &q.min_gpu_memory_gib));
  GPUADVISOR_RETURN_IF_ERROR(
      OptNumber(a.min_total_gpu_memory, "--min-total-gpu-memory", &q.min_total_gpu_memory_gib));
  GPUADVISOR_RETURN_IF_ERROR(OptNumber(a.max_price, "--max-price", &q.max_price_usd));
  Result<PurchaseKind> purchase =
      ParsePurchaseKind(a.purchase, "--purchase", {PurchaseKind::kOnDemand, PurchaseKind::kSpot});
  if (!purchase.ok()) return purchase.status();
  q.purchase = *purchase;
  q.efa_only = a.efa;
  q.include_retired = a.include_retired;
  q.gpus_only = a.gpus_only;
  if (!a.sort.empty()) {
    std::string s = a.sort;
    size_t colon = s.find(':');
    if (colon != std::string::npos) {
      std::string dir = s.substr(colon + 1);
      if (dir != "asc" && dir != "desc") {
        return Status::InvalidArgument("--sort: expected FIELD[:asc|desc], got \"" + a.sort + "\"");
      }
      q.sort_descending = dir == "desc";
      s = s.substr(0, colon);
    }
    q.sort = s;
  }
  if (!a.limit.empty()) {
    Result<int64_t> n = ParseInt(a.limit, "--limit");
    if (!n.ok()) return n.status();
    if (*n < 0) return Status::InvalidArgument("--limit: expected a non-negative integer");
    q.limit = static_cast<size_t>(*n);
  }
  return q;
}

std::vector<GpuSummary> ListGpus(const Catalog& c, bool include_retired) {
  std::vector<GpuSummary> gpus = SummarizeGpus(c, include_retired);
  if (!include_retired) {
    std::erase_if(gpus, [](const GpuSummary& s) { return s.types.empty(); });
  }
  return gpus;
}

Result<ojson> ShowTypeJson(const Catalog& c, const std::string& type, const std::string& region,
                           const Freshness& fresh) {
  Result<const InstanceType*> t = ResolveInstanceType(c, type);
  if (!t.ok()) return t.status();
  GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, region, "--region"));
  return ShowJson(c, **t, region, fresh);
}

Result<Workload> BuildWorkload(const WorkloadArgs& a) {
  Workload w;
  if (!a.file.empty()) {
    Result<std::string> text = ReadFile(a.file);  // "-" reads stdin
    if (!text.ok()) return text.status();
    Result<Workload> parsed = ParseWorkloadText(*text, a.file == "-" ? "<stdin>" : a.file);
    if (!parsed.ok()) return parsed.status();
    w = std::move(parsed).value();
  }
  // Presets first so that flags which refine them apply on top, whatever the order given.
  for (const char* first : {"model-config", "model"}) {
    auto it = a.values.find(first);
    if (it != a.values.end() && !it->second.empty()) {
      GPUADVISOR_RETURN_IF_ERROR(SetWorkloadField(&w, it->first, it->second));
    }
  }
  for (const auto& [name, text] : a.values) {
    if (text.empty() || name == "model" || name == "model-config") continue;
    GPUADVISOR_RETURN_IF_ERROR(SetWorkloadField(&w, name, text));
  }
  GPUADVISOR_RETURN_IF_ERROR(Validate(w));
  return w;
}

ojson EstimateReportJson(const Hardware& hw, const Estimate& e, const Catalog& c,
                         const Freshness& fresh) {
  ojson j = EstimateToJson(e);
  ojson p;
  p["gpu_spec_source"] = hw.gpu->source_note.empty() ? ojson(nullptr) : ojson(hw.gpu->source_note);
  p["gpu_spec_catalog_source"] = hw.gpu->from.source;
  p["price_date"] =
      e.cost.on_demand_from.date.empty() ? ojson(nullptr) : ojson(e.cost.on_demand_from.date);
  p["price_stale"] = !e.cost.on_demand_from.date.empty() && fresh.Stale(e.cost.on_demand_from.date);
  p["catalog_generated_at"] = c.generated_at;
  j["provenance"] = std::move(p);
  return j;
}

std::vector<std::string> EstimateWarnings(const Hardware& hw, const Estimate& e,
                                          const Freshness& fresh, const std::string& region) {
  std::vector<std::string> out;
  if (hw.instance != nullptr && (hw.offer == nullptr || !e.cost.on_demand_usd_per_hour)) {
    out.push_back(RegionHint(*hw.instance, region) + ": cost not shown");
  }
  std::vector<Provenance> used;
  for (const Provenance* p : {&e.cost.on_demand_from, &e.cost.spot_from}) {
    if (!p->source.empty()) used.push_back(*p);
  }
  if (auto line = StalePricesWarning(used, fresh)) out.push_back(*line);
  for (const std::string& line : e.assumptions) {
    if (StartsWith(line, "warning: ")) out.push_back(line.substr(9));
  }
  return out;
}

Status ParseUsage(const UsageArgs& a, UsagePattern* u) {
  double count = 1;
  GPUADVISOR_RETURN_IF_ERROR(
      OptNumber(a.hours_per_month, "--hours-per-month", &u->hours_per_month));
  GPUADVISOR_RETURN_IF_ERROR(OptNumber(a.months, "--months", &u->months));
  GPUADVISOR_RETURN_IF_ERROR(OptNumber(a.count, "--count", &count));
  if (!a.hours.empty()) {
    if (a.hours_per_month != UsageArgs().hours_per_month || a.months != UsageArgs().months) {
      return Status::InvalidArgument("--hours: conflicts with --hours-per-month / --months");
    }
    double hours = 0;
    GPUADVISOR_RETURN_IF_ERROR(OptNumber(a.hours, "--hours", &hours));
    if (!(hours > 0 && hours <= 600 * kHoursPerMonth)) {
      return Status::InvalidArgument("--hours: expected a number of hours in (0, 438000], got \"" +
                                     a.hours + "\"");
    }
    // Always on for `hours`: the months the run spans.
    u->hours_per_month = kHoursPerMonth;
    u->months = hours / kHoursPerMonth;
  }
  if (!(count >= 1 && count <= 100000) || count != std::floor(count)) {  // range before the cast
    return Status::InvalidArgument("--count: expected a whole number of instances, 1 to 100000");
  }
  u->instances = static_cast<int>(count);
  u->interruptible = a.interruptible;
  GPUADVISOR_RETURN_IF_ERROR(
      OptDuration(a.checkpoint_interval, "--checkpoint-interval", &u->checkpoint_interval_s));
  GPUADVISOR_RETURN_IF_ERROR(OptNumber(a.checkpoint_gib, "--checkpoint-gib", &u->checkpoint_gib));
  GPUADVISOR_RETURN_IF_ERROR(OptNumber(a.storage_gbps, "--storage-gbps", &u->storage_gbyte_s));
  GPUADVISOR_RETURN_IF_ERROR(OptDuration(a.restart, "--restart", &u->restart_s));
  return Status::OK();
}

Result<PricingResult> PriceType(const Catalog& c, const std::string& type,
                                const std::string& region, const UsageArgs& a) {
  Result<const InstanceType*> t = ResolveInstanceType(c, type);
  if (!t.ok()) return t.status();
  GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, region, "--region"));
  UsagePattern u;
  GPUADVISOR_RETURN_IF_ERROR(ParseUsage(a, &u));
  // Name the regions that do price the type rather than just "no entry here".
  const std::string hint = RegionHint(**t, region);
  Result<PricingResult> r = PriceUsage(**t, region, u);
  if (!r.ok() && r.status().code() == StatusCode::kNotFound) {
    return Status::NoResult(hint.empty() ? r.status().message() : hint);
  }
  if (r.ok()) GPUADVISOR_RETURN_IF_ERROR(CheckPricedFigures(*r));
  if (r.ok() && !hint.empty()) r->notes.push_back(hint);
  return r;
}

std::vector<std::string> PricingWarnings(const PricingResult& r, const Freshness& fresh) {
  std::vector<Provenance> used;
  for (const PurchaseOptionCost& c : r.options) {
    if (c.priced) used.push_back(c.from);
  }
  std::optional<std::string> line = StalePricesWarning(used, fresh);
  return line ? std::vector<std::string>{*line} : std::vector<std::string>{};
}

Status ParseRecommendRequest(const RecommendArgs& a, RecommendRequest* r) {
  if (!a.deadline.empty()) {
    double seconds = 0;
    GPUADVISOR_RETURN_IF_ERROR(OptDuration(a.deadline, "--deadline", &seconds));
    r->deadline_hours = seconds / 3600;
  }
  GPUADVISOR_RETURN_IF_ERROR(OptNumber(a.budget, "--budget", &r->budget_usd));
  Result<std::vector<std::string>> regions = DistinctListItems(SplitList(a.regions), "--regions");
  if (!regions.ok()) return regions.status();
  r->regions = *std::move(regions);
  Result<std::vector<std::string>> names = DistinctListItems(SplitList(a.purchase), "--purchase");
  if (!names.ok()) return names.status();
  for (const std::string& name : *names) {
    Result<PurchaseKind> p = ParsePurchaseKind(name, "--purchase", AllPurchaseKinds());
    if (!p.ok()) return p.status();
    r->purchase.push_back(*p);
  }
  GPUADVISOR_RETURN_IF_ERROR(
      PositiveInteger(a.max_instances, "--max-instances", &r->max_instances));
  GPUADVISOR_RETURN_IF_ERROR(PositiveInteger(a.max_gpus, "--max-gpus", &r->max_gpus));
  GPUADVISOR_RETURN_IF_ERROR(PositiveInteger(a.top, "--top", &r->top));
  if (a.objective == "cost") {
    r->objective = Objective::kCost;
  } else if (a.objective == "time") {
    r->objective = Objective::kTime;
  } else if (a.objective == "balanced") {
    r->objective = Objective::kBalanced;
  } else {
    return Status::InvalidArgument("--objective: expected cost, time or balanced, got \"" +
                                   a.objective + "\"");
  }
  r->allow_retired = a.allow_retired;
  r->explain = a.explain;
  return Status::OK();
}

std::vector<std::string> RecommendWarnings(const Recommendation& r, const Freshness& fresh) {
  std::vector<std::string> warnings;
  std::vector<Provenance> used;
  used.reserve(r.plans.size());
  for (const Plan& p : r.plans) used.push_back(p.price_from);
  if (auto line = StalePricesWarning(used, fresh)) warnings.push_back(*line);
  if (r.plans.empty()) warnings.emplace_back("no feasible plan; see the reasons below");
  return warnings;
}

namespace {

// The first line of a secret file, without its line end.
Result<std::string> ReadSecret(const std::string& path, const char* flag) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return Status::IOError(std::string(flag) + ": " + text.status().message());
  std::string line = text->substr(0, text->find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.empty()) return Status::InvalidArgument(std::string(flag) + ": " + path + " is empty");
  return line;
}

}  // namespace

Result<PrometheusOptions> ParsePrometheusArgs(const IdleArgs& a) {
  PrometheusOptions p;
  p.url = a.prometheus;
  p.selector = a.selector;
  p.headers = a.headers;
  GPUADVISOR_RETURN_IF_ERROR(OptDuration(a.since, "--since", &p.since_s));
  GPUADVISOR_RETURN_IF_ERROR(OptDuration(a.step, "--step", &p.step_s));
  if (!a.until.empty()) {
    p.end_s = ParseTelemetryTime(a.until);
    if (!p.end_s) {
      return Status::InvalidArgument(
          R"(--until: expected an ISO 8601 time or Unix seconds, got ")" + a.until + "\"");
    }
  }
  if (!a.max_points.empty()) {
    Result<double> n = ParseSiNumber(a.max_points, "--prometheus-max-points");
    if (!n.ok()) return n.status();
    if (!(*n >= 7 && *n <= 1e9)) {
      return Status::InvalidArgument("--prometheus-max-points: expected 7 to 1e9");
    }
    p.max_points_per_query = static_cast<size_t>(*n);
  }
  if (!a.bearer_token_file.empty()) {
    Result<std::string> t = ReadSecret(a.bearer_token_file, "--bearer-token-file");
    if (!t.ok()) return t.status();
    p.bearer_token = *t;
  }
  if (!a.basic_auth_file.empty()) {
    Result<std::string> t = ReadSecret(a.basic_auth_file, "--basic-auth-file");
    if (!t.ok()) return t.status();
    const size_t colon = t->find(':');
    if (colon == std::string::npos) {
      return Status::InvalidArgument("--basic-auth-file: expected user:password in " +
                                     a.basic_auth_file);
    }
    p.basic_user = t->substr(0, colon);
    p.basic_password = t->substr(colon + 1);
  }
  return p;
}

Result<IdleSetup> ParseIdleArgs(const Catalog& c, const IdleArgs& a) {
  IdleSetup out;
  IdleOptions& io = out.options;
  GPUADVISOR_RETURN_IF_ERROR(OptNumber(a.threshold, "--idle-threshold", &io.idle_threshold_pct));
  GPUADVISOR_RETURN_IF_ERROR(OptDuration(a.window, "--idle-window", &io.idle_window_s));
  GPUADVISOR_RETURN_IF_ERROR(
      OptDuration(a.min_rightsizing_span, "--min-rightsizing-span", &io.min_rightsizing_span_s));
  int max_hosts = static_cast<int>(io.max_hosts);
  GPUADVISOR_RETURN_IF_ERROR(PositiveInteger(a.max_hosts, "--max-hosts", &max_hosts));
  io.max_hosts = static_cast<size_t>(max_hosts);
  if (io.idle_threshold_pct < 0 || io.idle_threshold_pct > 100) {
    return Status::InvalidArgument("--idle-threshold: expected a percentage, 0 to 100");
  }
  GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, a.region, "--region"));
  Result<PurchaseKind> purchase = ParsePurchaseKind(a.purchase, "--purchase", AllPurchaseKinds());
  if (!purchase.ok()) return purchase.status();
  io.region = a.region;
  io.purchase = *purchase;
  TelemetryOptions& to = out.telemetry;
  std::optional<TelemetryFormat> f = ParseTelemetryFormat(a.telemetry_format);
  if (!f) {
    return Status::InvalidArgument(
        "--telemetry-format: expected auto, nvidia-smi-csv, nvidia-smi-xml, prometheus or "
        "cloudwatch, got \"" +
        a.telemetry_format + "\"");
  }
  to.format = *f;
  to.host = a.host;
  for (std::string_view col : Split(a.columns, ',')) {
    if (!Trim(col).empty()) to.columns.emplace_back(Trim(col));
  }
  if (!a.inventory.empty()) {
    Result<std::string> text = ReadFile(a.inventory);
    if (!text.ok()) return text.status();
    Result<std::vector<InventoryEntry>> inv = ParseInventoryCsv(c, *text, a.inventory);
    if (!inv.ok()) return inv.status();
    out.inventory = std::move(inv).value();
  }
  if (!a.prometheus.empty()) {
    Result<PrometheusOptions> prom = ParsePrometheusArgs(a);
    if (!prom.ok()) return prom.status();
    out.prometheus = std::move(prom).value();
  }
  return out;
}

}  // namespace gpuadvisor
