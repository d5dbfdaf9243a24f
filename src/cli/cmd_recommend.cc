// `gpuadvisor recommend`: ranked plans for a workload over the whole catalog.
#include <cstdio>

#include "cli/common.h"
#include "cli/workload_flags.h"
#include "gpuadvisor/recommend.h"
#include "io/recommend_views.h"
#include "util/files.h"

namespace gpuadvisor::cli {
namespace {

struct RecommendOptions {
  CommonOptions common;
  WorkloadArgs workload;
  RecommendArgs search;
  std::string plot;
};

int Run(const RecommendOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  RecommendRequest req;
  Status parsed = ParseRecommendRequest(o.search, &req);
  if (!parsed.ok()) return Fail(parsed);
  Result<Workload> w = BuildWorkload(o.workload);
  if (!w.ok()) return Fail(w.status());
  Result<Recommendation> r = Recommend(*ctx->catalog, *w, req);
  if (!r.ok()) return Fail(r.status());
  if (!o.plot.empty()) {
    Status written = WriteFileAtomic(o.plot, RecommendSvg(*r));
    if (!written.ok()) return Fail(written.WithPrefix("--plot"));
  }
  const std::vector<std::string> warnings = RecommendWarnings(*r, ctx->fresh);
  Emit(*ctx, [&] { return RecommendJson(*r, req); }, [&] { return RecommendTable(*r); }, warnings);
  if (ctx->format == OutputFormat::kTable) {
    PrintText(RecommendDetails(*r, o.search.explain));
  }
  return r->plans.empty() ? kExitNothingFound : kExitOk;
}

}  // namespace

void SetupRecommend(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<RecommendOptions>();
  AddCommonOptions(app, &o->common);
  const std::string g = "Search";
  app->add_option("--deadline", o->search.deadline,
                  "Finish within DUR (36h, 14d; plain number = hours)")
      ->group(g);
  app->add_option("--budget", o->search.budget, "Spend at most USD on the run")->group(g);
  app->add_option("--regions", o->search.regions,
                  "Comma-separated regions or all (default us-east-1)")
      ->group(g);
  app->add_option("--purchase", o->search.purchase,
                  "Comma-separated: on-demand, spot, reserved-1y (default: on-demand, plus spot "
                  "for batch jobs)")
      ->group(g);
  app->add_option("--max-instances", o->search.max_instances, "Instances per plan (default 64)")
      ->group(g);
  app->add_option("--max-gpus", o->search.max_gpus, "GPUs per plan")->group(g);
  app->add_option("--objective", o->search.objective, "cost (default), time or balanced")
      ->check(CLI::IsMember({"cost", "time", "balanced"}))
      ->group(g);
  app->add_option("--top", o->search.top, "Plans to show (default 5)")->group(g);
  app->add_flag("--allow-retired", o->search.allow_retired, "Consider retired instance types")
      ->group(g);
  app->add_flag("--explain", o->search.explain, "Full reasoning: assumptions and every rejection")
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
