// `gpuadvisor estimate`: memory, time and cost of one workload on one hardware configuration.
#include <cstdio>

#include "app/views.h"
#include "cli/common.h"
#include "cli/workload_flags.h"
#include "gpuadvisor/estimate.h"

namespace gpuadvisor::cli {
namespace {

struct EstimateOptions {
  CommonOptions common;
  WorkloadArgs workload;
  TableOptions hardware;
};

void PrintAssumptions(const Estimate& e) { PrintText(AssumptionsText(e)); }

int Run(const EstimateOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<Workload> w = BuildWorkload(o.workload);
  if (!w.ok()) return Fail(w.status());
  Result<OptionValues> values = o.hardware.Values();
  if (!values.ok()) return Fail(values.status());
  Result<HardwareRequest> req = MakeHardwareRequest(*values);
  if (!req.ok()) return Fail(req.status());
  Result<Hardware> hw = ResolveHardware(*ctx->catalog, *req);
  if (!hw.ok()) return Fail(hw.status());
  Result<Estimate> e = EstimateWorkload(*w, *hw);
  if (!e.ok()) return Fail(e.status());
  const std::vector<std::string> warnings =
      EstimateWarnings(*ctx->catalog, *hw, *e, ctx->fresh, req->region);
  if (ctx->format == OutputFormat::kJson) {
    Emit(
        *ctx, [&] { return EstimateReportJson(*hw, *e, *ctx->catalog, ctx->fresh, warnings); },
        [] { return Table(); }, warnings);
    return kExitOk;
  }
  const bool inline_assumptions = ctx->format != OutputFormat::kTable;
  Emit(
      *ctx, [] { return JsonDoc(); }, [&] { return EstimateTable(*e, inline_assumptions); },
      warnings);
  if (!inline_assumptions) PrintAssumptions(*e);
  return kExitOk;
}

}  // namespace

void SetupEstimate(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<EstimateOptions>();
  AddCommonOptions(app, &o->common);
  const std::string hw = "Hardware";
  o->hardware.Add(app, "estimate", hw);
  AddWorkloadOptions(app, &o->workload);
  app->footer(R"(Unset parallelism (--tp/--pp/--dp/--zero/--micro-batch/--recompute) is chosen: the
fastest layout that fits. Every figure carries a low/high band and its assumptions.

Examples:
  gpuadvisor estimate --task pretrain --model llama-3.1-8b --tokens 1T --instance p5.48xlarge --count 4
  gpuadvisor estimate --task serve --model llama-3.1-70b --quantization fp8 --gpu H100 --gpus 4 \
      --input-tokens 1000 --output-tokens 500 --concurrency 64
  gpuadvisor estimate --task qlora --model llama-2-70b --tokens 50M --instance g6e.xlarge --json
  gpuadvisor estimate --workload job.yaml --instance p4d.24xlarge --count 2 --region eu-west-1
  gpuadvisor estimate --task transcode --streams 200 --codec hevc --instance g6.12xlarge)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
