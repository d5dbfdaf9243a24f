// Catalog load and query costs behind every CLI start (target, doc/design.md: < 20 ms start to
// first output).
//   cmake -S . -B build-bench -DGPUADVISOR_BUILD_BENCH=ON && cmake --build build-bench --target
//   catalog_bench build-bench/bench/catalog_bench
#include <benchmark/benchmark.h>

#include "gpuadvisor/query.h"
#include "util/files.h"

namespace gpuadvisor {
namespace {

const std::string& CatalogText() {
  static const std::string text = *ReadFile(GPUADVISOR_CATALOG_FILE, kCatalogFile);
  return text;
}

void BM_ParseCatalog(benchmark::State& state) {
  for (auto _ : state) {
    Result<Catalog> c = ParseCatalogJson(CatalogText(), "catalog.json");
    benchmark::DoNotOptimize(c.ok());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * CatalogText().size()));
}
BENCHMARK(BM_ParseCatalog)->Unit(benchmark::kMillisecond);

void BM_QueryInstancesAllRegions(benchmark::State& state) {
  std::shared_ptr<const Catalog> c = *EmbeddedCatalog();
  InstanceQuery q;
  q.region = "all";
  q.sort = "usd_per_gpu_hour";
  for (auto _ : state) {
    auto rows = QueryInstances(*c, q);
    benchmark::DoNotOptimize(rows->size());
  }
}
BENCHMARK(BM_QueryInstancesAllRegions)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gpuadvisor

BENCHMARK_MAIN();
