// `gpuadvisor instances`: filter, sort and list instance types with prices.
#include "app/requests.h"
#include "app/successors.h"
#include "cli/common.h"
#include "gpuadvisor/query.h"

namespace gpuadvisor::cli {
namespace {

struct InstancesOptions {
  CommonOptions common;
  TableOptions table;
};

int Run(const InstancesOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> values = o.table.Values();
  if (!values.ok()) return Fail(values.status());
  Result<InstanceQuery> q = MakeInstanceQuery(*values);
  if (!q.ok()) return Fail(q.status());
  Result<std::vector<InstanceRow>> rows = QueryInstances(*ctx->catalog, *q);
  if (!rows.ok()) return Fail(rows.status());
  std::vector<std::string> warnings = StaleWarnings(*rows, ctx->fresh);
  if (rows->empty()) warnings.push_back(NoMatchWarning(*ctx->catalog, *q));
  for (std::string& line : RetiredNotes(*ctx->catalog, *rows)) warnings.push_back(std::move(line));
  Emit(
      *ctx, [&] { return InstancesJson(*rows, ctx->fresh); }, [&] { return InstancesTable(*rows); },
      warnings);
  return rows->empty() ? kExitNothingFound : kExitOk;
}

}  // namespace

void SetupInstances(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<InstancesOptions>();
  AddCommonOptions(app, &o->common);
  o->table.Add(app, "instances");
  app->footer(R"(Examples:
  gpuadvisor instances --gpu H100 --region all --sort on_demand_usd_per_hour
  gpuadvisor instances --gpu L4 --min-gpus 4 --format json
  gpuadvisor instances --min-gpu-memory 40 --sort usd_per_gpu_hour --limit 10
  gpuadvisor instances --include-retired --family p3)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
