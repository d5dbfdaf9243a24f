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

constexpr double kGiB = 1024.0 * 1024 * 1024;

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

// Issue 23: training memory term by term, as the frameworks allocate it.
workload_internal::ModelShape PresetShape(const char* name) {
  Result<const ModelPreset*> p = FindModelPreset(name);
  EXPECT_TRUE(p.ok());
  return workload_internal::MakeShape((*p)->arch);
}

// FSDP / ZeRO-3 shards every parameter it wraps, frozen ones included: a LoRA base over 8 ranks
// is 1/8 per device (torchtune: Llama 3.1 70B LoRA on 8 A100, 27.6 GiB peak).
TEST(TrainMemoryTest, ZeroThreeShardsTheFrozenLoraBase) {
  const workload_internal::ModelShape m = PresetShape("llama-3.1-70b");
  TrainConfig c;
  c.model = &m;
  c.task = TaskKind::kLora;
  c.seq = 2048;
  c.global_batch = 16;
  c.par.dp = 8;
  c.par.micro_batch = 2;
  c.par.recompute = Recompute::kFull;
  c.gpus = 8;
  c.par.zero = 1;
  const MemoryBytes replicated = workload_internal::TrainingMemory(c);
  c.par.zero = 3;
  const MemoryBytes sharded = workload_internal::TrainingMemory(c);
  EXPECT_NEAR(sharded.weights, replicated.weights / 8, 1e6);
  EXPECT_NEAR(sharded.weights, m.params.total * 2 / 8, 0.01 * sharded.weights);
  // ZeRO-3 holds two gathered layers of the base at a time (current + prefetched).
  EXPECT_GT(sharded.overhead, replicated.overhead + 1.5 * m.params.per_layer * 2);
  EXPECT_LT(sharded.Allocated() / kGiB, 32);
}

TEST(TrainMemoryTest, AllocatedBelowReservedBelowTotal) {
  Workload w = MakeWorkload({{"task", "pretrain"},
                             {"model", "llama-3.1-8b"},
                             {"tokens", "1B"},
                             {"zero", "1"},
                             {"tp", "1"},
                             {"pp", "1"},
                             {"recompute", "none"}});
  // Without recomputation, ZeRO-3, offload or LoRA every step requests the same blocks: no
  // allocator slack.
  Result<Estimate> regular = EstimateWorkload(w, Gpus("H100", 8));
  ASSERT_TRUE(regular.ok()) << regular.status().ToString();
  EXPECT_DOUBLE_EQ(*regular->memory.allocated_gib, *regular->memory.reserved_gib);
  w.parallelism.recompute = Recompute::kFull;
  Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 8));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  const MemoryEstimate& mem = e->memory;
  ASSERT_TRUE(mem.allocated_gib && mem.reserved_gib);
  EXPECT_LT(*mem.allocated_gib, *mem.reserved_gib);
  // Beside the allocator: the CUDA context (1 GiB) and NCCL's buffers (0.5 GiB).
  EXPECT_NEAR(mem.total_gib - *mem.reserved_gib, 1.5, 1e-9);
  EXPECT_GE(*mem.allocated_gib,
            *mem.weights_gib + *mem.gradients_gib + *mem.optimizer_gib + *mem.activations_gib);
  // Serving has no training allocator split.
  Result<Estimate> serve = EstimateWorkload(
      MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}}), Gpus("H100", 1));
  ASSERT_TRUE(serve.ok());
  EXPECT_FALSE(serve->memory.allocated_gib);
}

// Megatron's distributed optimizer shards over data x context parallel ranks.
TEST(TrainMemoryTest, OptimizerShardsOverDataTimesContextParallel) {
  const workload_internal::ModelShape m = PresetShape("llama-3.1-8b");
  TrainConfig c;
  c.model = &m;
  c.par.dp = 4;
  c.par.zero = 1;
  c.gpus = 8;
  const double dp_only = workload_internal::TrainingMemory(c).optimizer;
  c.par.cp = 2;
  EXPECT_NEAR(workload_internal::TrainingMemory(c).optimizer, dp_only / 2, 1);
}

// FP8 with TransformerEngine (Megatron-Core): FP8 Linear weights with the distributed optimizer,
// GEMM inputs saved in FP8; PyTorch FSDP keeps 16-bit weights and activations.
TEST(TrainMemoryTest, Fp8WeightsAndActivationsOnlyWhereTheFrameworkKeepsThem) {
  const workload_internal::ModelShape m = PresetShape("llama-3.1-8b");
  TrainConfig c;
  c.model = &m;
  c.seq = 8192;
  c.par.dp = 8;
  c.par.zero = 1;
  c.gpus = 8;
  c.par.framework = Framework::kMegatronCore;
  c.precision = Precision::kBf16;
  const MemoryBytes bf16 = workload_internal::TrainingMemory(c);
  c.precision = Precision::kFp8;
  const MemoryBytes fp8 = workload_internal::TrainingMemory(c);
  const double linear_share = m.params.linear / m.params.total;
  EXPECT_NEAR(fp8.weights / bf16.weights, linear_share / 2 + (1 - linear_share), 1e-9);
  EXPECT_LT(fp8.activations, 0.9 * bf16.activations);
  // Megatron accumulates gradients in an fp32 buffer; FSDP in the training precision.
  EXPECT_NEAR(bf16.gradients, 4 * m.params.total, 0.01 * bf16.gradients);
  c.par.framework = Framework::kFsdp;
  const MemoryBytes fsdp_fp8 = workload_internal::TrainingMemory(c);
  c.precision = Precision::kBf16;
  const MemoryBytes fsdp_bf16 = workload_internal::TrainingMemory(c);
  EXPECT_DOUBLE_EQ(fsdp_fp8.weights, fsdp_bf16.weights);
  EXPECT_DOUBLE_EQ(fsdp_fp8.activations, fsdp_bf16.activations);
  EXPECT_NEAR(fsdp_bf16.gradients, 2 * m.params.total, 0.01 * fsdp_bf16.gradients);
}

// torchtune: pure bf16 (AdamW moments in bf16, no master copy) and a chunked loss that never
// holds the fp32 logits whole.
TEST(TrainMemoryTest, TorchtunePureBf16AndChunkedLoss) {
  Workload w = MakeWorkload({{"task", "finetune"},
                             {"model", "llama-3.1-8b"},
                             {"tokens", "10M"},
                             {"zero", "3"},
                             {"tp", "1"},
                             {"pp", "1"},
                             {"micro-batch", "2"},
                             {"recompute", "full"},
                             {"framework", "fsdp"}});
  Result<Estimate> fsdp = EstimateWorkload(w, Gpus("A100-80GB", 8));
  w.framework = Framework::kTorchtune;
  Result<Estimate> tune = EstimateWorkload(w, Gpus("A100-80GB", 8));
  ASSERT_TRUE(fsdp.ok() && tune.ok());
  EXPECT_NEAR(*tune->memory.optimizer_gib, *fsdp->memory.optimizer_gib * 4 / 12, 1e-6);
  EXPECT_LT(*tune->memory.activations_gib, *fsdp->memory.activations_gib);
  EXPECT_STREQ(FrameworkName(tune->parallelism.framework), "torchtune");
}

}  // namespace
}  // namespace gpuadvisor
