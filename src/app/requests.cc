#include "app/requests.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <unordered_set>
#include <utility>

#include "app/body.h"
#include "app/catalog_views.h"
#include "app/successors.h"
#include "gpuadvisor/cloudwatch_source.h"
#include "gpuadvisor/i18n.h"
#include "util/dates.h"
#include "util/files.h"
#include "util/numbers.h"
#include "util/text.h"
#include "util/url.h"
#include "workload/estimate_json.h"
#include "workload/json_text.h"

namespace gpuadvisor {
namespace {

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
  if (path.empty() || path == "embedded") return EmbeddedCatalog();
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

Result<Workload> WorkloadFromBody(const nlohmann::json& members, std::string_view origin) {
  return workload_internal::WorkloadFromInlineJson(members, origin);
}

Result<Workload> BuildWorkload(const WorkloadArgs& a) {
  WorkloadFields fields;
  if (!a.file.empty()) {
    Result<std::string> text = ReadFile(a.file, kWorkloadFile);  // "-" reads stdin
    if (!text.ok()) return text.status().WithPrefix("workload").WithField("workload");
    Result<WorkloadFields> read = ReadWorkloadFields(*text, a.file == "-" ? "<stdin>" : a.file);
    if (!read.ok()) return read.status();
    fields = std::move(read).value();
  }
  // The CLI's text and Python's typed values, each given as it came, over the file's.
  for (const auto& [name, value] : a.typed) {
    if (!value.text.empty()) GPUADVISOR_RETURN_IF_ERROR(fields.Give(name, value));
  }
  for (const auto& [name, text] : a.values) {
    if (!text.empty()) GPUADVISOR_RETURN_IF_ERROR(fields.Give(name, WorkloadValue{.text = text}));
  }
  Result<Workload> w = fields.Bind();
  if (!w.ok()) return w.status();
  GPUADVISOR_RETURN_IF_ERROR(Validate(*w));
  return w;
}

JsonDoc EstimateReportJson(const Hardware& hw, const Estimate& e, const Catalog& c,
                           const Freshness& fresh, const std::vector<std::string>& warnings) {
  ojson j = EstimateToJson(e);
  ojson p;
  p["gpu_spec_source"] = hw.gpu->source_note.empty() ? ojson(nullptr) : ojson(hw.gpu->source_note);
  p["gpu_spec_catalog_source"] = hw.gpu->from.source;
  p["price_date"] =
      e.cost.on_demand_from.date.empty() ? ojson(nullptr) : ojson(e.cost.on_demand_from.date);
  p["price_stale"] = !e.cost.on_demand_from.date.empty() && fresh.Stale(e.cost.on_demand_from.date);
  p["catalog_generated_at"] = c.generated_at;
  j["provenance"] = std::move(p);
  j["warnings"] = warnings;
  return MakeJsonDoc(std::move(j));
}

std::string NoMatchWarning(const Catalog& c, const InstanceQuery& q) {
  std::string line = Tr("no instance type matches these filters");
  if (q.region == "all") return line;
  InstanceQuery everywhere = q;
  everywhere.region = "all";
  everywhere.limit.reset();
  Result<std::vector<InstanceRow>> rows = QueryInstances(c, everywhere);
  if (!rows.ok() || rows->empty()) return line;
  // Matches in the region's own partition come first: a team in AWS China needs a China
  // region (another partition is another account, currency and set of endpoints).
  const Partition& home = PartitionOf(q.region);
  const bool in_partition = std::any_of(rows->begin(), rows->end(), [&](const InstanceRow& r) {
    return PartitionOf(r.region).id == home.id;
  });
  std::map<std::string, int> by_region;  // region -> matching types
  std::set<std::string> types;
  for (const InstanceRow& r : *rows) {
    if (in_partition && PartitionOf(r.region).id != home.id) continue;
    ++by_region[r.region];
    types.insert(r.type->name);
  }
  std::string best = by_region.begin()->first, regions;
  for (const auto& [region, n] : by_region) {
    if (n > by_region[best]) best = region;
  }
  constexpr size_t kShown = 6;
  size_t i = 0;
  for (const auto& [region, n] : by_region) {
    if (i++ < kShown) regions += (regions.empty() ? "" : ", ") + region;
  }
  if (by_region.size() > kShown) {
    regions += Trf(" and {0} more", by_region.size() - kShown);
  }
  std::string names;
  i = 0;
  for (const std::string& t : types) {
    if (i++ < 3) names += (names.empty() ? "" : ", ") + t;
  }
  if (types.size() > 3) names += Trf(" and {0} more", types.size() - 3);
  // TRANSLATORS: {0} the region asked for; {1} "" or "outside AWS China, "; {2} instance types;
  // {3} regions; {4} the region to try.
  const std::string outside = in_partition ? std::string() : Trf("outside {0}, ", home.name);
  if (types.size() == 1) {
    return Trf(
        "no instance type matches these filters in {0}; {1}{2} matches in {3} (try --region "
        "{4})",
        q.region, outside, names, regions, best);
  }
  return Trf(
      "no instance type matches these filters in {0}; {1}{2} match in {3} (try --region "
      "{4})",
      q.region, outside, names, regions, best);
}

std::vector<std::string> EstimateWarnings(const Catalog& c, const Hardware& hw, const Estimate& e,
                                          const Freshness& fresh, const std::string& region) {
  std::vector<std::string> out;
  if (hw.instance != nullptr) {
    const std::string hint = RegionHint(*hw.instance, region);
    for (std::string& line : InstanceTypeWarnings(c, *hw.instance, region)) {
      // A type not offered in the region may still carry its last listed price there.
      if (line == hint) {
        line += e.cost.on_demand_usd_per_hour
                    ? "; the cost shown is its last listed price in " + region
                    : ": cost not shown";
      }
      out.push_back(std::move(line));
    }
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
  std::vector<std::string> notes = InstanceTypeWarnings(c, **t, region);
  Result<PricingResult> r = PriceUsage(**t, region, *u);
  if (!r.ok() && r.status().code() == StatusCode::kNotFound) {
    return Status::NoResult(hint.empty() ? r.status().message() : hint).WithField("region");
  }
  if (r.ok()) GPUADVISOR_RETURN_IF_ERROR(CheckPricedFigures(*r));
  if (r.ok()) r->notes.insert(r->notes.end(), notes.begin(), notes.end());
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

Result<LaunchPlan> PlanLaunchWarned(const Catalog& c, const LaunchRequest& r,
                                    const AccountScan* account) {
  Result<LaunchPlan> plan = PlanLaunch(c, r);
  if (!plan.ok() || plan->type == nullptr) return plan;
  std::vector<std::string> lines = InstanceTypeWarnings(c, *plan->type, plan->region);
  plan->warnings.insert(plan->warnings.begin(), lines.begin(), lines.end());
  if (account != nullptr) {
    std::string line =
        AccountWarningFor(*account, c, r.instance_type, r.count, r.region, r.purchase);
    if (!line.empty()) plan->warnings.push_back(std::move(line));
  } else if (std::string line = UncheckedQuotaWarning(*plan); !line.empty()) {
    plan->warnings.push_back(std::move(line));
  }
  return plan;
}

Status ApplyLaunchOptions(const OptionValues& v, LaunchRequest* r) {
  LaunchArgs a;
  a.request = *r;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &a));
  // The instances stay those of *r.
  LaunchRequest& o = a.request;
  o.instance_type = r->instance_type;
  o.count = r->count;
  o.region = r->region;
  o.purchase = r->purchase;
  *r = std::move(o);
  return Status::OK();
}

namespace {

// The plan's instances onto a->request, which holds the options given; the type and count
// options conflict with it, region and purchase options must say what the plan says (a silently
// different launch would be worse).
Status LaunchFromPlan(const OptionValues& v, const std::string& plan_json,
                      std::string_view plan_origin, LaunchArgs* a) {
  if (v.Given("type")) {
    return Status::InvalidArgument("type \"" + a->type +
                                   "\": conflicts with the plan (the plan names the type)")
        .WithField("type");
  }
  if (a->count) {
    return Status::InvalidArgument("count: conflicts with the plan (the plan sets the count)")
        .WithField("count");
  }
  LaunchRequest& r = a->request;
  const LaunchRequest given = r;
  Status read = ReadPlanJson(plan_json, plan_origin, a->rank, &r);
  if (!read.ok()) return read.WithField(StartsWith(read.message(), "rank:") ? "rank" : "plan");
  if (v.Given("region") && given.region != r.region) {
    return Status::InvalidArgument("region: " + given.region +
                                   " conflicts with the plan's region " + r.region)
        .WithField("region");
  }
  if (v.Given("purchase") && given.purchase != r.purchase) {
    return Status::InvalidArgument("purchase: " + v.Text("purchase") +
                                   " conflicts with the plan's purchase option " +
                                   PurchaseKindName(r.purchase))
        .WithField("purchase");
  }
  if (v.Given("checkpoint-gib")) r.checkpoint_gib = given.checkpoint_gib;  // over the plan's
  return Status::OK();
}

}  // namespace

Result<LaunchArgs> MakeLaunchRequest(const OptionValues& v, const std::string* plan_json,
                                     std::string_view plan_origin) {
  LaunchArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &a));
  if (plan_json != nullptr) {
    GPUADVISOR_RETURN_IF_ERROR(LaunchFromPlan(v, *plan_json, plan_origin, &a));
    return a;
  }
  if (a.type.empty()) {
    return Status::InvalidArgument("type: required, e.g. p5.48xlarge (or a plan from recommend)")
        .WithField("type");
  }
  if (v.Given("rank")) {
    return Status::InvalidArgument("rank: only with a plan").WithField("rank");
  }
  a.request.instance_type = a.type;
  if (a.count) a.request.count = *a.count;
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
  RecommendArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &a));
  return a.request;
}

Result<RecommendRequest> MakeLaunchSearch(const OptionValues& v) {
  LaunchArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &a));
  RecommendRequest r = a.search.request;
  // The region and purchase option given restrict the search.
  if (v.Given("region")) {
    r.regions.clear();
    for (std::string_view region : Split(a.request.region, ',')) {
      if (!Trim(region).empty()) r.regions.emplace_back(Trim(region));
    }
  }
  if (v.Given("purchase")) r.purchase = {a.request.purchase};
  r.top = 1;
  r.savings_levers = false;
  return r;
}

std::vector<std::string> RecommendWarnings(const Recommendation& r, const Freshness& fresh) {
  std::vector<std::string> warnings;
  std::vector<Provenance> used;
  // Every figure the plans rest on (a spot plan's interruption band too), so the warning names
  // the oldest of them.
  for (const Plan& p : r.plans) {
    for (const Plan::Figure& f : p.price_figures) used.push_back(f.from);
  }
  if (auto line = StalePricesWarning(used, fresh)) warnings.push_back(*line);
  if (!r.filters.emptied_by.empty()) {
    warnings.push_back(Trf("no plan: {0}", r.filters.note));
  } else if (r.plans.empty()) {
    warnings.emplace_back(Tr("no feasible plan; see the reasons below"));
  }
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

// The Prometheus part of `a` (its prometheus option set).
Result<PrometheusOptions> PrometheusOf(const IdleArgs& a) {
  PrometheusOptions p = a.prometheus;
  p.idle_threshold_pct = a.options.idle_threshold_pct;  // push-down computes idleness itself
  p.idle_window_s = a.options.idle_window_s;
  Result<HttpUrl> url = ParseHttpUrl(p.url, "prometheus");
  if (!url.ok()) return url.status();
  p.url = url->ToString();  // canonical: what is checked is what is requested
  if (!a.until.empty()) {
    p.end_s = ParseTelemetryTime(a.until);
    if (!p.end_s) {
      return Status::InvalidArgument(
                 R"(--until: expected an ISO 8601 time or Unix seconds, got ")" + a.until + "\"")
          .WithField("until");
    }
  }
  if (const std::string& file = a.bearer_token_file; !file.empty()) {
    Result<std::string> t = ReadSecret(file, "bearer-token-file");
    if (!t.ok()) return t.status().WithField("bearer-token-file");
    p.bearer_token = *t;
  }
  if (const std::string& file = a.basic_auth_file; !file.empty()) {
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

// An EC2 instance id: i- and 8 or 17 lowercase hex digits.
bool IsInstanceId(std::string_view id) {
  if (!StartsWith(id, "i-") || (id.size() != 10 && id.size() != 19)) return false;
  return std::all_of(id.begin() + 2, id.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A CloudWatch namespace (1-255 of letters, digits and . - _ / # : and space) or an Auto Scaling
// group name (1-255 printable characters).
bool IsCloudWatchName(std::string_view s, bool group) {
  if (s.empty() || s.size() > 255) return false;
  return std::all_of(s.begin(), s.end(), [group](char c) {
    const auto u = static_cast<unsigned char>(c);
    if (group) return u >= 0x20 && u < 0x7f;
    return std::isalnum(u) != 0 || std::string_view(".-_/#: ").find(c) != std::string_view::npos;
  });
}

// The CloudWatch part of `a` (its cloudwatch option set): the options checked, the range fixed.
Result<IdleCloudWatch> CloudWatchOf(const IdleArgs& a) {
  IdleCloudWatch c;
  if (!IsCloudWatchName(a.cloudwatch_namespace, false)) {
    return Status::InvalidArgument(
               "cloudwatch-namespace: expected 1-255 letters, digits and . - _ "
               "/ # : or space, got \"" +
               TerminalSafe(a.cloudwatch_namespace.substr(0, 60)) + "\"")
        .WithField("cloudwatch-namespace");
  }
  for (const std::string& id : a.instance_ids) {
    if (!IsInstanceId(id)) {
      return Status::InvalidArgument(
                 "instance-ids: expected instance ids such as "
                 "i-0123456789abcdef0, got \"" +
                 TerminalSafe(id.substr(0, 40)) + "\"")
          .WithField("instance-ids");
    }
  }
  if (!a.asg.empty() && !IsCloudWatchName(a.asg, true)) {
    return Status::InvalidArgument(R"(asg: expected an Auto Scaling group name, got ")" +
                                   TerminalSafe(a.asg.substr(0, 60)) + "\"")
        .WithField("asg");
  }
  if (a.prometheus.since_s > kCloudWatchMaxRangeS) {
    return Status::InvalidArgument(
               "since: at most 455d with cloudwatch (CloudWatch keeps hourly data 455 days)")
        .WithField("since");
  }
  double end = std::floor(
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count());
  if (!a.until.empty()) {
    const std::optional<double> until = ParseTelemetryTime(a.until);
    if (!until) {
      return Status::InvalidArgument(
                 R"(--until: expected an ISO 8601 time or Unix seconds, got ")" +
                 TerminalSafe(a.until.substr(0, 40)) + "\"")
          .WithField("until");
    }
    end = *until;
  }
  c.end_s = std::floor(end / 3600) * 3600;  // whole hours: CloudWatch's periods
  c.start_s = c.end_s - std::ceil(a.prometheus.since_s / 3600) * 3600;
  c.metric_namespace = a.cloudwatch_namespace;
  c.instance_ids = a.instance_ids;
  c.asg = a.asg;
  c.region = a.options.region;
  c.aws_cli = a.aws_cli;
  return c;
}

// The option among the CloudWatch-only ones that is set although cloudwatch is not; "" if none.
const char* CloudWatchOnlyOptionSet(const IdleArgs& a) {
  const IdleArgs defaults;
  if (a.cloudwatch_namespace != defaults.cloudwatch_namespace) return "cloudwatch-namespace";
  if (!a.instance_ids.empty()) return "instance-ids";
  if (!a.asg.empty()) return "asg";
  if (a.aws_cli.profile != defaults.aws_cli.profile) return "profile";
  if (a.aws_cli.endpoint_url != defaults.aws_cli.endpoint_url) return "endpoint-url";
  if (a.aws_cli.program != defaults.aws_cli.program) return "aws-cli";
  return "";
}

// The CloudWatch part of `a` into *out, with the rules between the sources.
Status SetCloudWatch(const IdleArgs& a, IdleSetup* out) {
  if (!a.cloudwatch) {
    const std::string only = CloudWatchOnlyOptionSet(a);
    if (only.empty()) return Status::OK();
    return Status::InvalidArgument(only + ": only with cloudwatch (it names what CloudWatch reads)")
        .WithField(only);
  }
  if (!a.prometheus.url.empty() || !a.files.empty()) {
    return Status::InvalidArgument(
               "cloudwatch: one source at a time: telemetry files, prometheus or cloudwatch")
        .WithField("cloudwatch");
  }
  Result<IdleCloudWatch> c = CloudWatchOf(a);
  if (!c.ok()) return c.status();
  out->cloudwatch = std::move(c).value();
  return Status::OK();
}

}  // namespace

Result<PrometheusOptions> ParsePrometheusArgs(const OptionValues& v) {
  IdleArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &a));
  return PrometheusOf(a);
}

Result<PrometheusSourceInfo> AddPrometheus(const PrometheusOptions& p, IdleAnalyzer* analyzer) {
  AggregateSink aggregates;
  aggregates.gpu = [analyzer](const GpuAggregate& g) { return analyzer->AddAggregate(g); };
  aggregates.host = [analyzer](const HostAggregate& h) { return analyzer->AddAggregate(h); };
  aggregates.coverage = [analyzer](double hour_s, double covered_s) {
    return analyzer->AddCoverage(hour_s, covered_s);
  };
  Result<PrometheusSourceInfo> info = ReadPrometheus(
      p, [analyzer](const TelemetrySample& s) { return analyzer->Add(s); }, aggregates);
  // The option a run-size error names (since, selector, ...) is kept; the rest is the server's.
  if (!info.ok() && info.status().field().empty()) return info.status().WithField("prometheus");
  return info;
}

Result<IdleSetup> ParseIdleArgs(const Catalog& c, const OptionValues& v) {
  IdleArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &a));
  IdleSetup out;
  out.options = a.options;
  GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, out.options.region, "region"));
  out.telemetry = a.telemetry;
  out.files = a.files;
  out.no_progress = a.no_progress;
  for (std::string_view col : Split(a.columns, ',')) {
    if (!Trim(col).empty()) out.telemetry.columns.emplace_back(Trim(col));
  }
  if (const std::string& file = a.inventory; !file.empty()) {
    Result<std::string> text = ReadFile(file, kInventoryFile);
    if (!text.ok()) return text.status().WithPrefix("inventory").WithField("inventory");
    Result<std::vector<InventoryEntry>> inv = ParseInventoryCsv(c, *text, file);
    if (!inv.ok()) return inv.status().WithField("inventory");
    out.inventory = std::move(inv).value();
  }
  if (a.prometheus.url.empty() && a.prometheus.pushdown) {
    return Status::InvalidArgument("pushdown: only with prometheus (a server computes it)")
        .WithField("pushdown");
  }
  if (!a.prometheus.url.empty()) {
    Result<PrometheusOptions> prom = PrometheusOf(a);
    if (!prom.ok()) return prom.status();
    out.prometheus = std::move(prom).value();
  }
  GPUADVISOR_RETURN_IF_ERROR(SetCloudWatch(a, &out));
  return out;
}

Result<std::pair<int64_t, int64_t>> CommitmentsRange(const CommitmentsArgs& a) {
  int64_t start = 0, end = 0;
  for (const auto& [name, text, day] :
       {std::tuple{"since", &a.since, &start}, std::tuple{"until", &a.until, &end}}) {
    if (text->empty()) continue;
    const std::optional<int64_t> d = ParseIsoDate(*text);
    if (!d) {
      return Status::InvalidArgument(std::string(name) + ": expected a date YYYY-MM-DD, got \"" +
                                     TerminalSafe(text->substr(0, 40)) + "\"")
          .WithField(name);
    }
    *day = *d;
  }
  if (a.since.empty() != a.until.empty()) {
    const char* given = a.since.empty() ? "until" : "since";
    return Status::InvalidArgument(std::string(given) +
                                   ": give since and until together (the range has two ends)")
        .WithField(given);
  }
  if (!a.since.empty() && end <= start) {
    return Status::InvalidArgument("until: expected a day after since").WithField("until");
  }
  return std::make_pair(start, end);
}

Status AddPlannedRun(std::string_view plan_json, const std::string& origin,
                     CommitOptions* options) {
  LaunchRequest r;
  double hours = 0;
  GPUADVISOR_RETURN_IF_ERROR(ReadPlanJson(plan_json, origin, 1, &r, &hours).WithField("plan"));
  PlannedRun run;
  run.source = origin;
  run.instance_type = r.instance_type;
  run.instances = r.count;
  run.region = r.region;
  run.hours = hours;
  run.purchase = PurchaseKindName(r.purchase);
  options->planned.push_back(std::move(run));
  return Status::OK();
}

Result<CommitmentsArgs> ParseCommitmentsArgs(const OptionValues& v) {
  CommitmentsArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &a));
  GPUADVISOR_RETURN_IF_ERROR(CommitmentsRange(a).status());
  if (a.sql && !a.plans.empty()) {
    return Status::InvalidArgument("plan: does not apply to --sql (it prints the query and stops)")
        .WithField("plan");
  }
  if (!a.athena_table.empty() || a.sql) {
    if (!a.files.empty()) {
      const char* name = a.athena_table.empty() ? "sql" : "athena-table";
      return Status::InvalidArgument(std::string(name) +
                                     ": give bill files or an Athena table, not both")
          .WithField(name);
    }
    return a;
  }
  for (const char* name : {"athena-workgroup", "athena-output", "region", "athena-timeout", "since",
                           "until", "profile", "endpoint-url", "aws-cli"}) {
    if (v.Given(name)) {
      return Status::InvalidArgument(std::string(name) +
                                     ": applies to athena-table only (a bill's files are read "
                                     "whole)")
          .WithField(name);
    }
  }
  return a;
}

}  // namespace gpuadvisor
