#include "gpuadvisor/requests.h"

#include <cmath>
#include <cstdlib>
#include <unordered_set>
#include <utility>

#include "gpuadvisor/files.h"
#include "gpuadvisor/numbers.h"
#include "gpuadvisor/text.h"
#include "gpuadvisor/url.h"
#include "io/catalog_views.h"
#include "workload/estimate_json.h"

namespace gpuadvisor {
namespace {

// Sets *out from a number option when it is given or defaulted.
template <typename T>
Status AssignNumber(const OptionValues& v, std::string_view name, T* out) {
  Result<std::optional<double>> n = v.Number(name);
  if (!n.ok()) return n.status();
  if (const std::optional<double> value = *n) *out = static_cast<T>(*value);
  return Status::OK();
}

Status AssignNumber(const OptionValues& v, std::string_view name, std::optional<double>* out) {
  Result<std::optional<double>> n = v.Number(name);
  if (!n.ok()) return n.status();
  if (*n) *out = *n;
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
        return Status::InvalidArgument(c.option +
                                       ": the usage prices beyond $1e15; check count, months, " +
                                       "checkpoint-gib and storage-gbps");
      }
    }
  }
  return Status::OK();
}

}  // namespace

Freshness MakeFreshness(int max_price_age_days, std::string today) {
  Freshness fresh;
  fresh.max_price_age_days = max_price_age_days;
  fresh.today = std::move(today);
  return fresh;
}

Result<std::shared_ptr<const Catalog>> OpenCatalog(const std::string& path) {
  if (path.empty()) return EmbeddedCatalog();
  Result<Catalog> c = LoadCatalogFile(path);
  if (!c.ok()) return c.status().WithPrefix("catalog").WithField("catalog");
  return std::shared_ptr<const Catalog>(std::make_shared<const Catalog>(std::move(c).value()));
}

Result<InstanceQuery> MakeInstanceQuery(const OptionValues& v) {
  InstanceQuery q;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &q));
  return q;
}

std::vector<GpuSummary> ListGpus(const Catalog& c, bool include_retired) {
  std::vector<GpuSummary> gpus = SummarizeGpus(c, include_retired);
  if (!include_retired) {
    std::erase_if(gpus, [](const GpuSummary& s) { return s.types.empty(); });
  }
  return gpus;
}

Result<JsonDoc> ShowTypeJson(const Catalog& c, const OptionValues& v, const Freshness& fresh) {
  ShowArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &a));
  Result<const InstanceType*> t = ResolveInstanceType(c, a.type);
  if (!t.ok()) return t.status().WithField("type");
  GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, a.region, "region"));
  if (!a.history) return MakeJsonDoc(ShowJson(c, **t, a.region, fresh));
  const RegionOffer* offer = (*t)->FindRegion(a.region);
  return MakeJsonDoc(ojson{{"instance_type", (*t)->name},
                           {"region", a.region},
                           {"history", offer ? HistoryJson(*offer) : ojson::array()}});
}

Result<HardwareRequest> MakeHardwareRequest(const OptionValues& v) {
  HardwareRequest h;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &h));
  return h;
}

Result<Workload> BuildWorkload(const WorkloadArgs& a) {
  Workload w;
  if (!a.file.empty()) {
    Result<std::string> text = ReadFile(a.file, kWorkloadFile);  // "-" reads stdin
    if (!text.ok()) return text.status().WithPrefix("workload").WithField("workload");
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

JsonDoc EstimateReportJson(const Hardware& hw, const Estimate& e, const Catalog& c,
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
  return MakeJsonDoc(std::move(j));
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

Result<UsagePattern> MakeUsage(const OptionValues& v) {
  PricingArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &a));
  return UsageOf(a);
}

Result<UsagePattern> UsageOf(const PricingArgs& a) {
  UsagePattern u = a.usage;
  if (a.hours) {
    if (a.hours_per_month || a.months) {
      return Status::InvalidArgument("hours: conflicts with hours-per-month and months")
          .WithField("hours");
    }
    // Always on for `hours`: the months the run spans.
    u.hours_per_month = kHoursPerMonth;
    u.months = *a.hours / kHoursPerMonth;
  }
  if (a.hours_per_month) u.hours_per_month = *a.hours_per_month;
  if (a.months) u.months = *a.months;
  return u;
}

Result<PricingResult> PriceType(const Catalog& c, const OptionValues& v) {
  PricingArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &a));
  if (a.type.empty()) {
    return Status::InvalidArgument("type: required, e.g. p5.48xlarge").WithField("type");
  }
  Result<const InstanceType*> t = ResolveInstanceType(c, a.type);
  if (!t.ok()) return t.status().WithField("type");
  const std::string& region = a.region;
  GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, region, "region"));
  Result<UsagePattern> u = UsageOf(a);
  if (!u.ok()) return u.status();
  // Name the regions that do price the type rather than just "no entry here".
  const std::string hint = RegionHint(**t, region);
  Result<PricingResult> r = PriceUsage(**t, region, *u);
  if (!r.ok() && r.status().code() == StatusCode::kNotFound) {
    return Status::NoResult(hint.empty() ? r.status().message() : hint).WithField("region");
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

Status ApplyLaunchOptions(const OptionValues& v, LaunchRequest* r) {
  GPUADVISOR_RETURN_IF_ERROR(v.Check());
  r->capacity_reservation_id = v.Text("capacity-reservation-id");
  r->key_name = v.Text("key-name");
  r->subnet_id = v.Text("subnet-id");
  Result<std::vector<std::string>> groups = v.List("security-group-ids");
  if (!groups.ok()) return groups.status();
  r->security_group_ids = *groups;
  r->instance_profile = v.Text("instance-profile");
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "ebs-gib", &r->ebs_gib));
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "checkpoint-gib", &r->checkpoint_gib));
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "idle-stop-minutes", &r->idle_stop_minutes));
  r->name = v.Text("name");
  return Status::OK();
}

namespace {

// The plan's instances; the type and count options conflict with it, region and purchase
// options must say what the plan says (a silently different launch would be worse).
Status LaunchFromPlan(const OptionValues& v, const std::string& plan_json,
                      std::string_view plan_origin, LaunchRequest* r) {
  if (v.Given("type")) {
    return Status::InvalidArgument("type \"" + v.Text("type") +
                                   "\": conflicts with the plan (the plan names the type)")
        .WithField("type");
  }
  if (v.Given("count")) {
    return Status::InvalidArgument("count: conflicts with the plan (the plan sets the count)")
        .WithField("count");
  }
  int rank = 1;
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "rank", &rank));
  Status read = ReadPlanJson(plan_json, plan_origin, rank, r);
  if (!read.ok()) return read.WithField(StartsWith(read.message(), "rank:") ? "rank" : "plan");
  if (v.Given("region") && v.Text("region") != r->region) {
    return Status::InvalidArgument("region: " + v.Text("region") +
                                   " conflicts with the plan's region " + r->region)
        .WithField("region");
  }
  if (v.Given("purchase")) {
    Result<PurchaseKind> p = ParsePurchaseKind(v.Text("purchase"), "purchase", AllPurchaseKinds());
    if (!p.ok()) return p.status().WithField("purchase");
    if (*p != r->purchase) {
      return Status::InvalidArgument("purchase: " + v.Text("purchase") +
                                     " conflicts with the plan's purchase option " +
                                     PurchaseKindName(r->purchase))
          .WithField("purchase");
    }
  }
  return Status::OK();
}

}  // namespace

Result<LaunchArgs> MakeLaunchRequest(const OptionValues& v, const std::string* plan_json,
                                     std::string_view plan_origin) {
  GPUADVISOR_RETURN_IF_ERROR(v.Check());
  LaunchArgs a;
  const std::optional<LaunchFormat> format = ParseLaunchFormat(v.Text("format"));
  if (!format) {  // the table's choices are the formats: only a table out of step gets here
    return Status::InvalidArgument("format: unknown format " + v.Text("format"))
        .WithField("format");
  }
  a.format = *format;
  LaunchRequest& r = a.request;
  if (plan_json != nullptr) {
    GPUADVISOR_RETURN_IF_ERROR(LaunchFromPlan(v, *plan_json, plan_origin, &r));
  } else {
    if (v.Text("type").empty()) {
      return Status::InvalidArgument("type: required, e.g. p5.48xlarge (or a plan from recommend)")
          .WithField("type");
    }
    if (v.Given("rank")) {
      return Status::InvalidArgument("rank: only with a plan").WithField("rank");
    }
    r.instance_type = v.Text("type");
    GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "count", &r.count));
    if (v.Given("region")) r.region = v.Text("region");
    if (v.Given("purchase")) {
      Result<PurchaseKind> p =
          ParsePurchaseKind(v.Text("purchase"), "purchase", AllPurchaseKinds());
      if (!p.ok()) return p.status().WithField("purchase");
      r.purchase = *p;
    }
  }
  GPUADVISOR_RETURN_IF_ERROR(ApplyLaunchOptions(v, &r));
  return a;
}

JsonDoc LaunchAnswerJson(const LaunchPlan& plan, const LaunchSpec& spec) {
  ojson j;
  j["format"] = LaunchFormatName(spec.format);
  j["file_name"] = spec.file_name;
  j["instance_type"] = plan.type->name;
  j["count"] = plan.count;
  j["region"] = plan.region;
  j["spot"] = plan.spot;
  j["reasons"] = plan.reasons;
  j["warnings"] = plan.warnings;
  j["document"] = spec.document;
  j["cli_input_json"] = spec.cli_input_json.empty() ? ojson(nullptr) : ojson(spec.cli_input_json);
  return MakeJsonDoc(std::move(j));
}

Result<RecommendRequest> MakeRecommendRequest(const OptionValues& v) {
  GPUADVISOR_RETURN_IF_ERROR(v.Check());
  RecommendRequest r;
  if (v.Given("deadline")) {
    double seconds = 0;
    GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "deadline", &seconds));
    r.deadline_hours = seconds / 3600;
  }
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "budget", &r.budget_usd));
  Result<std::vector<std::string>> regions = v.List("regions");
  if (!regions.ok()) return regions.status();
  r.regions = *std::move(regions);
  Result<std::vector<std::string>> names = v.List("purchase");
  if (!names.ok()) return names.status();
  for (const std::string& name : *names) {
    Result<PurchaseKind> p = ParsePurchaseKind(name, "purchase", AllPurchaseKinds());
    if (!p.ok()) return p.status();
    if (std::find(r.purchase.begin(), r.purchase.end(), *p) == r.purchase.end()) {
      r.purchase.push_back(*p);
    }
  }
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "max-instances", &r.max_instances));
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "max-gpus", &r.max_gpus));
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "top", &r.top));
  const std::string objective = ToLower(v.Text("objective"));
  r.objective = objective == "time"       ? Objective::kTime
                : objective == "balanced" ? Objective::kBalanced
                                          : Objective::kCost;
  r.allow_retired = v.Bool("allow-retired");
  r.explain = v.Bool("explain");
  return r;
}

Result<RecommendRequest> MakeLaunchSearch(const OptionValues& v) {
  GPUADVISOR_RETURN_IF_ERROR(v.Check());
  Result<const CommandSpec*> spec = FindCommandSpec("recommend");
  if (!spec.ok()) return spec.status();
  OptionValues search(**spec);
  // launch's option -> recommend's: the region and purchase option given restrict the search.
  for (const auto& [from, to] : {std::pair{"deadline", "deadline"},
                                 {"budget", "budget"},
                                 {"max-instances", "max-instances"},
                                 {"objective", "objective"},
                                 {"region", "regions"},
                                 {"purchase", "purchase"}}) {
    if (v.Given(from)) GPUADVISOR_RETURN_IF_ERROR(search.Set(to, v.Text(from), kCli));
  }
  Result<RecommendRequest> r = MakeRecommendRequest(search);
  if (!r.ok()) return r.status();
  r->top = 1;
  r->savings_levers = false;
  return r;
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
  Result<std::string> text = ReadFile(path, kSecretFile);
  if (!text.ok() && text.status().code() != StatusCode::kIOError) {
    return text.status().WithPrefix(flag);
  }
  if (!text.ok()) return Status::IOError(std::string(flag) + ": " + text.status().message());
  std::string line = text->substr(0, text->find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.empty()) return Status::InvalidArgument(std::string(flag) + ": " + path + " is empty");
  return line;
}

}  // namespace

Result<PrometheusOptions> ParsePrometheusArgs(const OptionValues& v) {
  GPUADVISOR_RETURN_IF_ERROR(v.Check());
  PrometheusOptions p;
  Result<HttpUrl> url = ParseHttpUrl(v.Text("prometheus"), "prometheus");
  if (!url.ok()) return url.status();
  p.url = url->ToString();  // canonical: what is checked is what is requested
  p.selector = v.Text("selector");
  Result<std::vector<std::string>> headers = v.List("prometheus-header");
  if (!headers.ok()) return headers.status();
  p.headers = *std::move(headers);
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "since", &p.since_s));
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "step", &p.step_s));
  if (const std::string until = v.Text("until"); !until.empty()) {
    p.end_s = ParseTelemetryTime(until);
    if (!p.end_s) {
      return Status::InvalidArgument(
                 R"(--until: expected an ISO 8601 time or Unix seconds, got ")" + until + "\"")
          .WithField("until");
    }
  }
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "prometheus-max-points", &p.max_points_per_query));
  if (const std::string file = v.Text("bearer-token-file"); !file.empty()) {
    Result<std::string> t = ReadSecret(file, "bearer-token-file");
    if (!t.ok()) return t.status().WithField("bearer-token-file");
    p.bearer_token = *t;
  }
  if (const std::string file = v.Text("basic-auth-file"); !file.empty()) {
    Result<std::string> t = ReadSecret(file, "basic-auth-file");
    if (!t.ok()) return t.status().WithField("basic-auth-file");
    const size_t colon = t->find(':');
    if (colon == std::string::npos) {
      return Status::InvalidArgument("basic-auth-file: expected user:password in " + file)
          .WithField("basic-auth-file");
    }
    p.basic_user = t->substr(0, colon);
    p.basic_password = t->substr(colon + 1);
  }
  return p;
}

Result<PrometheusSourceInfo> AddPrometheus(const PrometheusOptions& p, IdleAnalyzer* analyzer) {
  Result<PrometheusSourceInfo> info =
      ReadPrometheus(p, [analyzer](const TelemetrySample& s) { return analyzer->Add(s); });
  // The option a run-size error names (since, selector, ...) is kept; the rest is the server's.
  if (!info.ok() && info.status().field().empty()) return info.status().WithField("prometheus");
  return info;
}

Result<IdleSetup> ParseIdleArgs(const Catalog& c, const OptionValues& v) {
  GPUADVISOR_RETURN_IF_ERROR(v.Check());
  IdleSetup out;
  IdleOptions& io = out.options;
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "idle-threshold", &io.idle_threshold_pct));
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "idle-window", &io.idle_window_s));
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "min-rightsizing-span", &io.min_rightsizing_span_s));
  GPUADVISOR_RETURN_IF_ERROR(AssignNumber(v, "max-hosts", &io.max_hosts));
  io.region = v.Text("region");
  GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, io.region, "region"));
  Result<PurchaseKind> purchase =
      ParsePurchaseKind(v.Text("purchase"), "purchase", AllPurchaseKinds());
  if (!purchase.ok()) return purchase.status();
  io.purchase = *purchase;
  TelemetryOptions& to = out.telemetry;
  to.format = ParseTelemetryFormat(ToLower(v.Text("telemetry-format"))).value_or(to.format);
  to.host = v.Text("host");
  const std::string columns = v.Text("columns");  // Split returns views into it
  for (std::string_view col : Split(columns, ',')) {
    if (!Trim(col).empty()) to.columns.emplace_back(Trim(col));
  }
  if (const std::string file = v.Text("inventory"); !file.empty()) {
    Result<std::string> text = ReadFile(file, kInventoryFile);
    if (!text.ok()) return text.status().WithPrefix("inventory").WithField("inventory");
    Result<std::vector<InventoryEntry>> inv = ParseInventoryCsv(c, *text, file);
    if (!inv.ok()) return inv.status().WithField("inventory");
    out.inventory = std::move(inv).value();
  }
  if (!v.Text("prometheus").empty()) {
    Result<PrometheusOptions> prom = ParsePrometheusArgs(v);
    if (!prom.ok()) return prom.status();
    out.prometheus = std::move(prom).value();
  }
  return out;
}

}  // namespace gpuadvisor
