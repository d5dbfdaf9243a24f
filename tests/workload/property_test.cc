// Monotonicity properties that must hold whatever the efficiency constants are.
#include <gtest/gtest.h>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::Gpus;

Workload Train(const char* model, double tokens) {
  Workload w;
  EXPECT_TRUE(GiveField(&w, "task", "pretrain").ok());
  EXPECT_TRUE(GiveField(&w, "model", model).ok());
  w.tokens = tokens;
  return w;
}

TEST(PropertyTest, MoreGpusNeverIncreasePerGpuMemoryUnderZero3) {
  for (const char* model : {"llama-2-7b", "llama-3.1-70b", "mixtral-8x7b"}) {
    Workload w = Train(model, 1e9);
    ParallelismRequest r;
    r.tp = 1;
    r.pp = 1;
    r.zero = 3;
    r.micro_batch = 1;
    r.recompute = Recompute::kFull;
    double previous = 1e30;
    for (int gpus = 1; gpus <= 512; gpus *= 2) {
      Result<Estimate> e = EstimateWorkload(w, Gpus("H100", gpus), r, EstimateMode::kFast);
      ASSERT_TRUE(e.ok()) << e.status().ToString();
      EXPECT_LE(e->memory.total_gib, previous + 1e-9) << model << " at " << gpus;
      previous = e->memory.total_gib;
    }
  }
}

TEST(PropertyTest, MoreTokensNeverShortenTime) {
  for (const char* model : {"llama-3.1-8b", "gpt3-175b"}) {
    double previous = 0;
    for (double tokens = 1e6; tokens <= 1e13; tokens *= 10) {
      Result<Estimate> e =
          EstimateWorkload(Train(model, tokens), Gpus("A100-80GB", 64), {}, EstimateMode::kFast);
      ASSERT_TRUE(e.ok());
      EXPECT_GE(*e->hours, previous) << model << " " << tokens;
      previous = *e->hours;
    }
  }
}

TEST(PropertyTest, LongerOutputsNeverRaiseServingRequestRate) {
  double previous = 1e30;
  for (int out = 16; out <= 4096; out *= 2) {
    Workload w;
    ASSERT_TRUE(GiveField(&w, "task", "serve").ok());
    ASSERT_TRUE(GiveField(&w, "model", "llama-3.1-8b").ok());
    w.output_tokens = out;
    Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 1), {}, EstimateMode::kFast);
    ASSERT_TRUE(e.ok());
    EXPECT_LE(*e->performance.requests_per_s, previous * (1 + 1e-9)) << out;
    previous = *e->performance.requests_per_s;
  }
}

TEST(PropertyTest, QuantizedWeightsAreSmallerAndDecodeFaster) {
  double weights = 1e30, itl = 1e30;
  for (const char* q : {"none", "int8", "int4"}) {
    Workload w;
    ASSERT_TRUE(GiveField(&w, "task", "serve").ok());
    ASSERT_TRUE(GiveField(&w, "model", "llama-2-7b").ok());
    ASSERT_TRUE(GiveField(&w, "quantization", q).ok());
    ASSERT_TRUE(GiveField(&w, "concurrency", "1").ok());
    Result<Estimate> e = EstimateWorkload(w, Gpus("A100-80GB", 1));
    ASSERT_TRUE(e.ok());
    EXPECT_LT(*e->memory.weights_gib, weights) << q;
    EXPECT_LT(*e->performance.itl_ms, itl) << q;
    weights = *e->memory.weights_gib;
    itl = *e->performance.itl_ms;
  }
}

}  // namespace
}  // namespace gpuadvisor

namespace gpuadvisor {
namespace {

// The search prunes with MemoryLowerBoundGib: it must never exceed what the estimator says.
TEST(PropertyTest, MemoryLowerBoundNeverExceedsTheEstimate) {
  const std::vector<std::vector<std::pair<const char*, const char*>>> workloads = {
      {{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}},
      {{"task", "pretrain"}, {"model", "mixtral-8x7b"}, {"tokens", "1T"}, {"optimizer", "sgd"}},
      {{"task", "finetune"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}, {"precision", "fp32"}},
      {{"task", "lora"}, {"model", "llama-2-70b"}, {"tokens", "1B"}},
      {{"task", "qlora"}, {"model", "llama-2-70b"}, {"tokens", "1B"}},
      {{"task", "serve"}, {"model", "llama-3.1-70b"}, {"quantization", "int4"}},
      {{"task", "serve"}, {"model", "qwen2.5-72b"}},
  };
  for (const auto& fields : workloads) {
    Workload w;
    for (const auto& [k, v] : fields) ASSERT_TRUE(GiveField(&w, k, v).ok());
    ASSERT_TRUE(Validate(w).ok());
    for (const char* gpu : {"A100-40GB", "H100", "L4"}) {
      for (int gpus : {1, 2, 8, 16, 64}) {
        Result<Estimate> e = EstimateWorkload(w, testing::Gpus(gpu, gpus));
        if (!e.ok()) continue;
        EXPECT_LE(MemoryLowerBoundGib(w, gpus), e->memory.total_gib * (1 + 1e-9))
            << fields[1].second << " " << gpu << " x" << gpus;
      }
    }
  }
}

}  // namespace
}  // namespace gpuadvisor
