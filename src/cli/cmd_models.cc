// `gpuadvisor models`: the built-in model presets (the values --model takes).
#include "cli/common.h"

namespace gpuadvisor::cli {
namespace {

struct ModelsOptions {
  CommonOptions common;
};

int Run(const ModelsOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Emit(*ctx, [] { return ModelsJson(); }, [] { return ModelsTable(); });
  return kExitOk;
}

}  // namespace

void SetupModels(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<ModelsOptions>();
  AddCommonOptions(app, &o->common, {"format", "json", "no-color"});
  app->footer(
      "A preset is the --model of estimate and recommend; `tasks` lists the --task values it\n"
      "takes. The source column is cut at its first clause; --json has it in full.\n"
      "Examples:\n  gpuadvisor models\n  gpuadvisor models --format csv");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
