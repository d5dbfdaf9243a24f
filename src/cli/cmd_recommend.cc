// `gpuadvisor recommend`: ranked plans for a workload over the whole catalog.
#include <cstdio>

#include "app/views.h"
#include "cli/common.h"
#include "cli/workload_flags.h"
#include "gpuadvisor/recommend.h"
#include "util/files.h"

namespace gpuadvisor::cli {
namespace {

struct RecommendOptions {
  CommonOptions common;
  WorkloadArgs workload;
  TableOptions search;  // the "recommend" table, --plot included
};

int Run(const RecommendOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> values = o.search.Values();
  if (!values.ok()) return Fail(values.status());
  Result<RecommendRequest> parsed = MakeRecommendRequest(*values);
  if (!parsed.ok()) return Fail(parsed.status());
  RecommendRequest& req = *parsed;
  RecommendArgs args;
  if (Status st = SetFromOptions(*values, &args); !st.ok()) return Fail(st);
  Result<std::optional<AccountScan>> account = LoadAccountScan(args.account);
  if (!account.ok()) return Fail(account.status());
  if (const std::optional<AccountScan>& scan = *account; scan.has_value()) req.account = &*scan;
  Result<Workload> w = BuildWorkload(o.workload);
  if (!w.ok()) return Fail(w.status());
  Result<Recommendation> r = Recommend(*ctx->catalog, *w, req);
  if (!r.ok()) return Fail(r.status());
  if (const std::string& plot = args.plot; !plot.empty()) {
    Status written = WriteFileAtomic(plot, RecommendSvg(*r));
    if (!written.ok()) return Fail(written.WithPrefix("--plot"));
  }
  if (ctx->format == OutputFormat::kTable && !r->filters.emptied_by.empty()) {
    PrintText(RecommendDetails(*r, req.explain));  // says which list left nothing; no empty table
    return kExitNothingFound;
  }
  const std::vector<std::string> warnings = RecommendWarnings(*r, ctx->fresh);
  Emit(*ctx, [&] { return RecommendJson(*r, req); }, [&] { return RecommendTable(*r); }, warnings);
  if (ctx->format == OutputFormat::kTable) {
    PrintText(RecommendDetails(*r, req.explain));
  }
  return r->plans.empty() ? kExitNothingFound : kExitOk;
}

}  // namespace

void SetupRecommend(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<RecommendOptions>();
  AddCommonOptions(app, &o->common);
  const std::string g = "Search";
  o->search.Add(app, "recommend", g);
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
