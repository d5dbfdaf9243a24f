// Memory model: ZeRO arithmetic, fit checks a user would verify by hand.
#include <gtest/gtest.h>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"
#include "workload/llm_formulas.h"
#include "workload/train_model.h"

namespace gpuadvisor {
namespace {

using testing::Gpus;
using testing::MakeWorkload;
using workload_internal::MemoryBytes;
using workload_internal::TrainConfig;

// Rajbhandari et al. 2020, Figure 1: 7.5B parameters, Adam, N_d = 64, GB = 1e9 bytes.
TEST(ZeroTest, ModelStatesPerStageMatchTheZeroPaper) {
  ModelArch arch;
  arch.params = 7.5e9;
  const workload_internal::ModelShape m = workload_internal::MakeShape(arch);
  TrainConfig c;
  c.model = &m;
  c.par.dp = 64;
  c.gpus = 64;
  const double expected_gb[] = {120, 31.4, 16.6, 1.9};
  for (int stage = 0; stage <= 3; ++stage) {
    c.par.zero = stage;
    const MemoryBytes b = workload_internal::TrainingMemory(c);
    const double states_gb = (b.weights + b.gradients + b.optimizer) / 1e9;
    EXPECT_NEAR(states_gb, expected_gb[stage], 0.03 * expected_gb[stage]) << "stage " << stage;
  }
}

TEST(FitTest, Llama70bFp16DoesNotFitOne80GbGpuForInference) {
  const Workload w =
      MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-70b"}, {"concurrency", "1"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 1));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_FALSE(e->memory.fits);
  EXPECT_GT(*e->memory.weights_gib, 130);  // 70.6e9 x 2 B = 131.4 GiB
  Result<Estimate> two = EstimateWorkload(w, Gpus("H100", 2));
  ASSERT_TRUE(two.ok());
  EXPECT_TRUE(two->memory.fits);
  EXPECT_EQ(two->parallelism.tp, 2);
}

TEST(FitTest, QloraOf70bModelFitsIn48Gb) {  // Dettmers et al. 2023: 65B on one 48 GB GPU
  for (const char* model : {"llama-2-70b", "llama-3.1-70b"}) {
    const Workload w = MakeWorkload({{"task", "qlora"},
                                     {"model", model},
                                     {"tokens", "10M"},
                                     {"seq-len", "1024"},
                                     {"lora-rank", "16"}});
    Result<Estimate> e = EstimateWorkload(w, Gpus("L40S", 1));  // 45776 MiB usable
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    EXPECT_TRUE(e->memory.fits) << model << " needs " << e->memory.total_gib;
    EXPECT_LT(*e->memory.weights_gib, 40);
  }
}

TEST(FitTest, FullFinetuneOf7bNeedsSixteenBytesPerParameterOfModelStates) {
  const Workload w = MakeWorkload({{"task", "finetune"},
                                   {"model", "llama-2-7b"},
                                   {"tokens", "1M"},
                                   {"zero", "0"},
                                   {"tp", "1"},
                                   {"pp", "1"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 1));
  ASSERT_TRUE(e.ok());
  const double states =
      *e->memory.weights_gib + *e->memory.gradients_gib + *e->memory.optimizer_gib;
  EXPECT_NEAR(states * (1 << 30), 16 * 6738415616.0, 1e3);
  EXPECT_FALSE(e->memory.fits);  // 100 GiB of states alone
}

TEST(FitTest, ServingKvCacheFollowsConcurrency) {
  const Workload w = MakeWorkload({{"task", "serve"},
                                   {"model", "llama-3.1-8b"},
                                   {"concurrency", "10"},
                                   {"input-tokens", "1000"},
                                   {"output-tokens", "24"},
                                   {"tp", "1"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 1));
  ASSERT_TRUE(e.ok());
  // 10 requests x 1024 tokens x 128 KiB = 1.25 GiB.
  EXPECT_NEAR(*e->memory.kv_cache_gib, 1.25, 1e-9);
  EXPECT_TRUE(e->memory.fits);
}

}  // namespace
}  // namespace gpuadvisor
