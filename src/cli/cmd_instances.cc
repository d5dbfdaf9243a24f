// `gpuadvisor instances`: filter, sort and list instance types with prices.
#include "cli/common.h"
#include "gpuadvisor/query.h"
#include "io/requests.h"

namespace gpuadvisor::cli {
namespace {

struct InstancesOptions {
  CommonOptions common;
  InstancesArgs q;
};

int Run(const InstancesOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<InstanceQuery> q = MakeInstanceQuery(o.q);
  if (!q.ok()) return Fail(q.status());
  Result<std::vector<InstanceRow>> rows = QueryInstances(*ctx->catalog, *q);
  if (!rows.ok()) return Fail(rows.status());
  std::vector<std::string> warnings = StaleWarnings(*rows, ctx->fresh);
  if (rows->empty()) warnings.push_back("no instance type matches these filters");
  Emit(
      *ctx, [&] { return InstancesJson(*rows, ctx->fresh); }, [&] { return InstancesTable(*rows); },
      warnings);
  return rows->empty() ? kExitNothingFound : kExitOk;
}

}  // namespace

void SetupInstances(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<InstancesOptions>();
  AddCommonOptions(app, &o->common);
  app->add_option("--region", o->q.region, "Region code, or `all` for one row per type and region");
  app->add_option("--gpu", o->q.gpus,
                  "Accelerator model or alias (repeatable): H100, A100-80GB, L4 ...");
  app->add_option("--family", o->q.families, "Instance family (repeatable): p5, g6e ...");
  app->add_option("--min-gpus", o->q.min_gpus, "At least N GPUs (whole-device equivalents)");
  app->add_option("--max-gpus", o->q.max_gpus, "At most N GPUs");
  app->add_option("--min-gpu-memory", o->q.min_gpu_memory, "At least GIB of memory per GPU");
  app->add_option("--min-total-gpu-memory", o->q.min_total_gpu_memory,
                  "At least GIB of accelerator memory per instance");
  app->add_option("--max-price", o->q.max_price, "At most USD per instance-hour (at --purchase)");
  app->add_option("--purchase", o->q.purchase, "Price used by --max-price: on-demand or spot");
  app->add_flag("--efa", o->q.efa, "Only types with Elastic Fabric Adapter");
  app->add_flag("--include-retired", o->q.include_retired,
                "Also list retired types (p2, p3, g3 ...)");
  app->add_flag("--gpus-only", o->q.gpus_only, "Only GPU types (no FPGA, media or Neuron)");
  app->add_option(
      "--sort", o->q.sort, "FIELD[:asc|desc]; fields: " + [] {
        std::string s;
        for (const std::string& f : InstanceSortFields()) s += (s.empty() ? "" : ", ") + f;
        return s;
      }());
  app->add_option("--limit", o->q.limit, "Show at most N rows");
  app->footer(R"(Examples:
  gpuadvisor instances --gpu H100 --region all --sort on_demand_usd_per_hour
  gpuadvisor instances --gpu L4 --min-gpus 4 --format json
  gpuadvisor instances --min-gpu-memory 40 --sort usd_per_gpu_hour --limit 10
  gpuadvisor instances --include-retired --family p3)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
