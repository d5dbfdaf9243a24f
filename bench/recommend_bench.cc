// The recommendation engine over the embedded catalog (targets, doc/design.md: a CLI run < 50 ms;
// >= 1 M candidate evaluations per second per core). Reports configurations estimated and options
// priced per second alongside the wall time of one Recommend() call.
//   cmake -S . -B build-bench -DGPUADVISOR_BUILD_BENCH=ON && cmake --build build-bench --target
//   recommend_bench build-bench/bench/recommend_bench
#include <benchmark/benchmark.h>

#include "gpuadvisor/recommend.h"

namespace gpuadvisor {
namespace {

Workload Make(std::initializer_list<std::pair<const char*, const char*>> fields) {
  WorkloadFields given;
  for (const auto& [k, v] : fields) {
    if (!given.Give(k, WorkloadValue{.text = v}).ok()) std::abort();
  }
  Result<Workload> w = given.Bind();
  if (!w.ok()) std::abort();
  return *w;
}

void Run(benchmark::State& state, const Workload& w, RecommendRequest req) {
  static std::shared_ptr<const Catalog> catalog = *EmbeddedCatalog();
  int64_t candidates = 0, layouts = 0, priced = 0;
  for (auto _ : state) {
    Result<Recommendation> r = Recommend(*catalog, w, req);
    candidates += r->candidates;
    layouts += r->layouts;
    priced += r->priced;
    benchmark::DoNotOptimize(r->plans.size());
  }
  state.counters["configs/s"] = benchmark::Counter(double(candidates), benchmark::Counter::kIsRate);
  state.counters["layouts/s"] = benchmark::Counter(double(layouts), benchmark::Counter::kIsRate);
  state.counters["priced/s"] = benchmark::Counter(double(priced), benchmark::Counter::kIsRate);
}

void BM_Pretrain70bOneRegion(benchmark::State& s) {
  RecommendRequest r;
  r.deadline_hours = 720;
  Run(s, Make({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}}), r);
}
void BM_Pretrain70bAllRegions(benchmark::State& s) {
  RecommendRequest r;
  r.deadline_hours = 720;
  r.regions = {"all"};
  Run(s, Make({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}}), r);
}
void BM_Serve8b(benchmark::State& s) {
  Run(s, Make({{"task", "serve"}, {"model", "llama-3.1-8b"}, {"rps", "2"}}), {});
}
// Issue 15's checks: the most common jobs (fine-tune / serve an 8B model) and the non-LLM
// scenarios, each over the whole catalog with the confidence grading and the high-confidence
// alternative (--explain keeps the assumption texts of the top plans).
void BM_Lora8bExplain(benchmark::State& s) {
  RecommendRequest r;
  r.explain = true;
  Run(s, Make({{"task", "lora"}, {"model", "llama-3.1-8b"}, {"tokens", "20M"}}), r);
}
void BM_HpcFp64(benchmark::State& s) { Run(s, Make({{"task", "hpc"}, {"fp64-flop", "1e18"}}), {}); }
// The finance example: its runtime is the deadline.
void BM_HpcFinanceRuntime(benchmark::State& s) {
  Run(s,
      Make({{"task", "hpc"}, {"fp64-flop", "2e18"}, {"working-set-gib", "60"}, {"runtime", "6h"}}),
      {});
}
// Real-time vision: a dynamic batcher per candidate.
void BM_VisionRealTime(benchmark::State& s) {
  Run(s,
      Make({{"task", "infer-vision"}, {"model", "vit-b16"}, {"rps", "200"}, {"e2e-p95", "100ms"}}),
      {});
}
void BM_TrainResnet50(benchmark::State& s) {
  Run(s,
      Make(
          {{"task", "train-vision"}, {"model", "resnet50"}, {"images", "1.28M"}, {"epochs", "90"}}),
      {});
}
BENCHMARK(BM_Lora8bExplain)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HpcFp64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HpcFinanceRuntime)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VisionRealTime)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TrainResnet50)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pretrain70bOneRegion)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pretrain70bAllRegions)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Serve8b)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpuadvisor

BENCHMARK_MAIN();
