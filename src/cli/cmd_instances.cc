// `gpuadvisor instances`: filter, sort and list instance types with prices.
#include "cli/common.h"
#include "gpuadvisor/query.h"
#include "util/numbers.h"
#include "util/strings.h"

namespace gpuadvisor::cli {
namespace {

struct InstancesOptions {
  CommonOptions common;
  std::string region = "us-east-1";
  std::vector<std::string> gpus, families;
  std::string min_gpus, max_gpus, min_gpu_memory, min_total_gpu_memory, max_price, limit;
  std::string purchase = "on-demand";
  std::string sort;
  bool efa = false, include_retired = false, gpus_only = false;
};

Result<InstanceQuery> MakeQuery(const InstancesOptions& o) {
  InstanceQuery q;
  q.region = o.region;
  q.gpus = o.gpus;
  q.families = o.families;
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.min_gpus, "--min-gpus", &q.min_gpus));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.max_gpus, "--max-gpus", &q.max_gpus));
  GPUADVISOR_RETURN_IF_ERROR(
      ParseOptNumber(o.min_gpu_memory, "--min-gpu-memory", &q.min_gpu_memory_gib));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.min_total_gpu_memory, "--min-total-gpu-memory",
                                            &q.min_total_gpu_memory_gib));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.max_price, "--max-price", &q.max_price_usd));
  if (o.purchase != "on-demand" && o.purchase != "spot") {
    return Status::InvalidArgument("--purchase: expected on-demand or spot, got \"" + o.purchase +
                                   "\"");
  }
  q.purchase = o.purchase == "spot" ? Purchase::kSpot : Purchase::kOnDemand;
  q.efa_only = o.efa;
  q.include_retired = o.include_retired;
  q.gpus_only = o.gpus_only;
  if (!o.sort.empty()) {
    std::string s = o.sort;
    size_t colon = s.find(':');
    if (colon != std::string::npos) {
      std::string dir = s.substr(colon + 1);
      if (dir != "asc" && dir != "desc") {
        return Status::InvalidArgument("--sort: expected FIELD[:asc|desc], got \"" + o.sort + "\"");
      }
      q.sort_descending = dir == "desc";
      s = s.substr(0, colon);
    }
    q.sort = s;
  }
  if (!o.limit.empty()) {
    Result<int64_t> n = ParseInt(o.limit, "--limit");
    if (!n.ok()) return n.status();
    if (*n < 0) return Status::InvalidArgument("--limit: expected a non-negative integer");
    q.limit = static_cast<size_t>(*n);
  }
  return q;
}

int Run(const InstancesOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<InstanceQuery> q = MakeQuery(o);
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
  app->add_option("--region", o->region, "Region code, or `all` for one row per type and region");
  app->add_option("--gpu", o->gpus,
                  "Accelerator model or alias (repeatable): H100, A100-80GB, L4 ...");
  app->add_option("--family", o->families, "Instance family (repeatable): p5, g6e ...");
  app->add_option("--min-gpus", o->min_gpus, "At least N GPUs (whole-device equivalents)");
  app->add_option("--max-gpus", o->max_gpus, "At most N GPUs");
  app->add_option("--min-gpu-memory", o->min_gpu_memory, "At least GIB of memory per GPU");
  app->add_option("--min-total-gpu-memory", o->min_total_gpu_memory,
                  "At least GIB of accelerator memory per instance");
  app->add_option("--max-price", o->max_price, "At most USD per instance-hour (at --purchase)");
  app->add_option("--purchase", o->purchase, "Price used by --max-price: on-demand or spot");
  app->add_flag("--efa", o->efa, "Only types with Elastic Fabric Adapter");
  app->add_flag("--include-retired", o->include_retired,
                "Also list retired types (p2, p3, g3 ...)");
  app->add_flag("--gpus-only", o->gpus_only, "Only GPU types (no FPGA, media or Neuron)");
  app->add_option(
      "--sort", o->sort, "FIELD[:asc|desc]; fields: " + [] {
        std::string s;
        for (const std::string& f : InstanceSortFields()) s += (s.empty() ? "" : ", ") + f;
        return s;
      }());
  app->add_option("--limit", o->limit, "Show at most N rows");
  app->footer(R"(Examples:
  gpuadvisor instances --gpu H100 --region all --sort on_demand_usd_per_hour
  gpuadvisor instances --gpu L4 --min-gpus 4 --format json
  gpuadvisor instances --min-gpu-memory 40 --sort usd_per_gpu_hour --limit 10
  gpuadvisor instances --include-retired --family p3)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
