// `gpuadvisor recommend`: ranked plans for a workload over the whole catalog.
#include <cstdio>

#include "cli/common.h"
#include "cli/workload_flags.h"
#include "gpuadvisor/recommend.h"
#include "io/recommend_views.h"
#include "util/files.h"
#include "util/numbers.h"
#include "util/strings.h"

namespace gpuadvisor::cli {
namespace {

struct RecommendOptions {
  CommonOptions common;
  WorkloadOptions workload;
  std::string deadline, budget, regions, purchase, max_instances = "64", max_gpus, top = "5";
  std::string objective = "cost";
  bool allow_retired = false, explain = false;
  std::string plot;
};

// "a, b,,c" -> {"a", "b", "c"}.
std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  for (std::string_view item : Split(text, ',')) {
    if (!Trim(item).empty()) out.emplace_back(Trim(item));
  }
  return out;
}

Status ParseInteger(const std::string& text, const char* flag, int* out) {
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

Status ParseRequest(const RecommendOptions& o, RecommendRequest* r) {
  if (!o.deadline.empty()) {
    double seconds = 0;
    GPUADVISOR_RETURN_IF_ERROR(ParseOptDuration(o.deadline, "--deadline", &seconds));
    r->deadline_hours = seconds / 3600;
  }
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.budget, "--budget", &r->budget_usd));
  r->regions = SplitList(o.regions);
  for (const std::string& p : SplitList(o.purchase)) {
    const std::string name = ToLower(p);
    if (name == "on-demand" || name == "ondemand")
      r->purchase.push_back(PurchaseKind::kOnDemand);
    else if (name == "spot")
      r->purchase.push_back(PurchaseKind::kSpot);
    else if (name == "reserved" || name == "reserved-1y" || name == "reserved-1y-no-upfront")
      r->purchase.push_back(PurchaseKind::kReserved1y);
    else
      return Status::InvalidArgument("--purchase: expected on-demand, spot or reserved-1y, got \"" +
                                     p + "\"");
  }
  GPUADVISOR_RETURN_IF_ERROR(ParseInteger(o.max_instances, "--max-instances", &r->max_instances));
  GPUADVISOR_RETURN_IF_ERROR(ParseInteger(o.max_gpus, "--max-gpus", &r->max_gpus));
  GPUADVISOR_RETURN_IF_ERROR(ParseInteger(o.top, "--top", &r->top));
  r->objective = o.objective == "time"       ? Objective::kTime
                 : o.objective == "balanced" ? Objective::kBalanced
                                             : Objective::kCost;
  r->allow_retired = o.allow_retired;
  r->explain = o.explain;
  return Status::OK();
}

int Run(const RecommendOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  RecommendRequest req;
  Status parsed = ParseRequest(o, &req);
  if (!parsed.ok()) return Fail(parsed);
  Result<Workload> w = BuildWorkload(o.workload);
  if (!w.ok()) return Fail(w.status());
  Result<Recommendation> r = Recommend(*ctx->catalog, *w, req);
  if (!r.ok()) return Fail(r.status());
  if (!o.plot.empty()) {
    Status written = WriteFileAtomic(o.plot, RecommendSvg(*r));
    if (!written.ok()) return Fail(written.WithPrefix("--plot"));
  }
  std::vector<std::string> warnings;
  if (ctx->fresh.Stale(r->catalog_date)) {
    warnings.push_back("newest prices are from " + r->catalog_date + ", older than " +
                       std::to_string(ctx->fresh.max_price_age_days) + " days");
  }
  if (r->plans.empty()) warnings.push_back("no feasible plan; see the reasons below");
  Emit(*ctx, [&] { return RecommendJson(*r, req); }, [&] { return RecommendTable(*r); }, warnings);
  if (ctx->format == OutputFormat::kTable) {
    const std::string details = RecommendDetails(*r, o.explain);
    std::fwrite(details.data(), 1, details.size(), stdout);
  }
  return r->plans.empty() ? kExitNothingFound : kExitOk;
}

}  // namespace

void SetupRecommend(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<RecommendOptions>();
  AddCommonOptions(app, &o->common);
  const std::string g = "Search";
  app->add_option("--deadline", o->deadline, "Finish within DUR (36h, 14d; plain number = hours)")
      ->group(g);
  app->add_option("--budget", o->budget, "Spend at most USD on the run")->group(g);
  app->add_option("--regions", o->regions, "Comma-separated regions or all (default us-east-1)")
      ->group(g);
  app->add_option("--purchase", o->purchase,
                  "Comma-separated: on-demand, spot, reserved-1y (default: on-demand, plus spot "
                  "for batch jobs)")
      ->group(g);
  app->add_option("--max-instances", o->max_instances, "Instances per plan (default 64)")->group(g);
  app->add_option("--max-gpus", o->max_gpus, "GPUs per plan")->group(g);
  app->add_option("--objective", o->objective, "cost (default), time or balanced")
      ->check(CLI::IsMember({"cost", "time", "balanced"}))
      ->group(g);
  app->add_option("--top", o->top, "Plans to show (default 5)")->group(g);
  app->add_flag("--allow-retired", o->allow_retired, "Consider retired instance types")->group(g);
  app->add_flag("--explain", o->explain, "Full reasoning: assumptions and every rejection")
      ->group(g);
  app->add_option("--plot", o->plot, "Write cost vs time with the Pareto front as SVG")->group(g);
  AddWorkloadOptions(app, &o->workload);
  app->footer(
      R"(Searches instance type x count (powers of two) x region x purchase option; the estimator
chooses the parallelism of each. Exit 1 when no plan is feasible (the reasons are still printed).

Examples:
  gpuadvisor recommend --task serve --model llama-3.1-8b --rps 2 --input-tokens 1000 --output-tokens 200
  gpuadvisor recommend --task pretrain --model llama-3.1-70b --tokens 1T --deadline 30d --regions all
  gpuadvisor recommend --task qlora --model llama-2-70b --tokens 50M --max-instances 1 --json
  gpuadvisor recommend --workload job.yaml --budget 5000 --objective balanced --plot plans.svg)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
