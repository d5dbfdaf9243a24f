// libFuzzer target: the launch plan-file reader (a `recommend --json` output or one plan), then
// planning from what it accepted.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "gpuadvisor/launch.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  static const std::shared_ptr<const Catalog> catalog = *EmbeddedCatalog();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (int rank : {1, 2}) {
    LaunchRequest r;
    if (!ReadPlanJson(text, "fuzz.json", rank, &r).ok()) continue;
    Result<LaunchPlan> plan = PlanLaunch(*catalog, r);
    if (plan.ok()) (void)RenderLaunch(*plan, LaunchFormat::kAwsCli);
  }
  return 0;
}
