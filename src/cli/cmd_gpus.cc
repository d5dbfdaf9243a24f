// `gpuadvisor gpus`: accelerator models, datasheet figures, cheapest offers.
#include <cstdio>

#include "cli/common.h"
#include "io/requests.h"

namespace gpuadvisor::cli {
namespace {

struct GpusOptions {
  CommonOptions common;
  bool include_retired = false;
};

int Run(const GpusOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  const std::vector<GpuSummary> gpus = ListGpus(*ctx->catalog, o.include_retired);
  Emit(*ctx, [&] { return GpusJson(gpus); }, [&] { return GpusTable(gpus); });
  if (ctx->format == OutputFormat::kTable || ctx->format == OutputFormat::kMarkdown) {
    PrintText(GpusTableFootnote(gpus));
  }
  return kExitOk;
}

}  // namespace

void SetupGpus(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<GpusOptions>();
  AddCommonOptions(app, &o->common);
  app->add_flag("--include-retired", o->include_retired,
                "Also models only on retired types, and models on no listed type");
  app->footer("Example:\n  gpuadvisor gpus --format markdown");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
