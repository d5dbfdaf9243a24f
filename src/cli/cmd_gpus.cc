// `gpuadvisor gpus`: accelerator models, datasheet figures, cheapest offers.
#include <cstdio>

#include "app/requests.h"
#include "cli/common.h"

namespace gpuadvisor::cli {
namespace {

struct GpusOptions {
  CommonOptions common;
  TableOptions table;
};

int Run(const GpusOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> values = o.table.Values();
  if (!values.ok()) return Fail(values.status());
  GpusArgs a;
  if (Status set = SetFromOptions(*values, &a); !set.ok()) return Fail(set);
  const std::vector<GpuSummary> gpus = ListGpus(*ctx->catalog, a.include_retired);
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
  o->table.Add(app, "gpus");
  app->footer("Example:\n  gpuadvisor gpus --format markdown");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
