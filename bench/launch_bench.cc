// Launch specs: PlanLaunch + RenderLaunch for the largest document (p5.48xlarge x 4 spot, 33
// network interfaces per instance) in each format. A CLI run is dominated by start-up and
// catalog parsing; this measures what the library adds.
//   cmake -S . -B build-bench -DGPUADVISOR_BUILD_BENCH=ON && cmake --build build-bench --target
//   launch_bench && build-bench/bench/launch_bench
#include <benchmark/benchmark.h>

#include "gpuadvisor/launch.h"

namespace gpuadvisor {
namespace {

void BM_PlanAndRender(benchmark::State& state) {
  static std::shared_ptr<const Catalog> catalog = *EmbeddedCatalog();
  const auto format = static_cast<LaunchFormat>(state.range(0));
  LaunchRequest r;
  r.instance_type = "p5.48xlarge";
  r.count = 4;
  r.purchase = PurchaseKind::kSpot;
  r.dataset_gib = 500;
  r.checkpoint_gib = 120;
  size_t bytes = 0;
  for (auto _ : state) {
    Result<LaunchPlan> plan = PlanLaunch(*catalog, r);
    const LaunchSpec spec = RenderLaunch(*plan, format);
    bytes += spec.document.size();
    benchmark::DoNotOptimize(spec.document.data());
  }
  state.SetLabel(LaunchFormatName(format));
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_PlanAndRender)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gpuadvisor

BENCHMARK_MAIN();
