// Estimator cost per call: the recommendation engine evaluates candidates with
// EstimateMode::kFast (target, doc/design.md: >= 1 M candidate evaluations per second per core),
// the CLI with kDetailed and the parallelism search when the user leaves it unset.
//   cmake -S . -B build-bench -DGPUADVISOR_BUILD_BENCH=ON && cmake --build build-bench --target
//   estimate_bench build-bench/bench/estimate_bench
#include <benchmark/benchmark.h>

#include "gpuadvisor/estimate.h"
#include "gpuadvisor/query.h"

namespace gpuadvisor {
namespace {

struct Case {
  Workload w;
  Hardware hw;
};

Case MakeCase(std::initializer_list<std::pair<const char*, const char*>> fields,
              const char* instance, int count) {
  static std::shared_ptr<const Catalog> catalog = *EmbeddedCatalog();
  Case c;
  WorkloadFields given;
  for (const auto& [k, v] : fields) {
    if (!given.Give(k, WorkloadValue{.text = v}).ok()) std::abort();
  }
  Result<Workload> bound = given.Bind();
  if (!bound.ok()) std::abort();
  c.w = *bound;
  HardwareRequest r;
  r.instance_type = instance;
  r.instances = count;
  c.hw = *ResolveHardware(*catalog, r);
  return c;
}

const Case& Pretrain(bool fixed) {
  static const Case free_case = MakeCase(
      {{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}}, "p5.48xlarge", 8);
  static const Case fixed_case = MakeCase({{"task", "pretrain"},
                                           {"model", "llama-3.1-70b"},
                                           {"tokens", "1T"},
                                           {"tp", "8"},
                                           {"pp", "2"},
                                           {"dp", "4"},
                                           {"zero", "1"},
                                           {"micro-batch", "1"},
                                           {"recompute", "selective"}},
                                          "p5.48xlarge", 8);
  return fixed ? fixed_case : free_case;
}

const Case& Serve(bool fixed) {
  static const Case free_case = MakeCase(
      {{"task", "serve"}, {"model", "llama-3.1-70b"}, {"quantization", "fp8"}, {"rps", "4"}},
      "p5.48xlarge", 1);
  static const Case fixed_case = MakeCase({{"task", "serve"},
                                           {"model", "llama-3.1-70b"},
                                           {"quantization", "fp8"},
                                           {"concurrency", "64"},
                                           {"tp", "4"}},
                                          "p5.48xlarge", 1);
  return fixed ? fixed_case : free_case;
}

void Run(benchmark::State& state, const Case& c, EstimateMode mode) {
  for (auto _ : state) {
    Result<Estimate> e = EstimateWorkload(c.w, c.hw, {}, mode);
    benchmark::DoNotOptimize(e.ok());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void BM_PretrainFixedFast(benchmark::State& s) { Run(s, Pretrain(true), EstimateMode::kFast); }
void BM_PretrainFixedDetailed(benchmark::State& s) {
  Run(s, Pretrain(true), EstimateMode::kDetailed);
}
void BM_PretrainSearchFast(benchmark::State& s) { Run(s, Pretrain(false), EstimateMode::kFast); }
void BM_ServeFixedFast(benchmark::State& s) { Run(s, Serve(true), EstimateMode::kFast); }
void BM_ServeRateSearchFast(benchmark::State& s) { Run(s, Serve(false), EstimateMode::kFast); }
BENCHMARK(BM_PretrainFixedFast);
BENCHMARK(BM_PretrainFixedDetailed);
BENCHMARK(BM_PretrainSearchFast)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ServeFixedFast);
BENCHMARK(BM_ServeRateSearchFast)->Unit(benchmark::kMicrosecond);
// Real-time vision: the dynamic batcher's operating point and capacity (two bisections).
void BM_VisionRealTimeFast(benchmark::State& state) {
  static const Case c = MakeCase(
      {{"task", "infer-vision"}, {"model", "vit-b16"}, {"rps", "2000"}, {"e2e-p95", "100ms"}},
      "g4dn.xlarge", 3);
  Run(state, c, EstimateMode::kFast);
}
BENCHMARK(BM_VisionRealTimeFast)->Unit(benchmark::kMicrosecond);
// Diffusion counts its UNet and VAE layer by layer (a few hundred GEMMs) and walks their waves
// for every batch size it tries: batch, and real time (two bisections over the batch).
void BM_DiffusionBatchFast(benchmark::State& state) {
  static const Case c =
      MakeCase({{"task", "infer-vision"}, {"model", "stable-diffusion-xl"}, {"images", "10000"}},
               "p5.48xlarge", 1);
  Run(state, c, EstimateMode::kFast);
}
void BM_DiffusionRealTimeFast(benchmark::State& state) {
  static const Case c = MakeCase({{"task", "infer-vision"},
                                  {"model", "stable-diffusion-xl"},
                                  {"rps", "2"},
                                  {"e2e-p95", "30s"}},
                                 "p5.48xlarge", 1);
  Run(state, c, EstimateMode::kFast);
}
BENCHMARK(BM_DiffusionBatchFast)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DiffusionRealTimeFast)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gpuadvisor

BENCHMARK_MAIN();
