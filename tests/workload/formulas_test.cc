// Unit tests of the closed-form formulas with hand-computed values.
#include <gtest/gtest.h>

#include "gpuadvisor/workload.h"
#include "workload/llm_formulas.h"
#include "workload/serve_model.h"
#include "workload/train_model.h"

namespace gpuadvisor {
namespace {

using workload_internal::ActivationBytesPerLayer;
using workload_internal::ActivationOptions;
using workload_internal::MakeShape;
using workload_internal::ModelShape;

ModelArch Preset(const char* name) {
  Result<const ModelPreset*> p = FindModelPreset(name);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return (*p)->arch;
}

// Exact counts published with the checkpoints (Hugging Face model cards / num_parameters()).
TEST(ModelParamsTest, MatchesPublishedCounts) {
  EXPECT_DOUBLE_EQ(ComputeModelParams(Preset("llama-2-7b")).total, 6738415616.0);
  EXPECT_DOUBLE_EQ(ComputeModelParams(Preset("llama-3.1-8b")).total, 8030261248.0);
  const ModelParams mixtral = ComputeModelParams(Preset("mixtral-8x7b"));
  EXPECT_DOUBLE_EQ(mixtral.total, 46702792704.0);
  EXPECT_DOUBLE_EQ(mixtral.active, 12879925248.0);  // 2 of 8 experts per token
}

TEST(ModelParamsTest, PresetsAreWithinTwoPercentOfTheirNames) {
  struct Case {
    const char* name;
    double billions;
  } cases[] = {{"llama-2-13b", 13.0},
               {"llama-2-70b", 69.0},
               {"llama-3.1-70b", 70.6},
               {"llama-3.1-405b", 405.9},
               {"mistral-7b", 7.24},
               {"qwen2.5-7b", 7.62},
               {"qwen2.5-72b", 72.7},
               {"gemma-2-9b", 9.24},
               {"gemma-2-27b", 27.2},
               {"gpt3-175b", 175.0},
               {"bert-large", 0.335},
               {"t5-11b", 11.3},
               {"mpt-7b", 6.65},
               {"bloom-176b", 176.2},
               {"opt-13b", 12.9},
               // model cards (Qwen: "Number of Parameters"; the others' safetensors totals)
               {"qwen2.5-1.5b", 1.54},
               {"qwen2.5-3b", 3.09},
               {"qwen3-0.6b", 0.6},
               {"qwen3-1.7b", 1.7},
               {"qwen3-4b", 4.0},
               {"qwen3-8b", 8.2},
               {"qwen3-14b", 14.8},
               {"qwen3-32b", 32.8},
               {"qwen3-30b-a3b", 30.5},
               {"qwen3-235b-a22b", 235.0},
               {"deepseek-r1", 671.0},
               {"deepseek-r1-distill-qwen-1.5b", 1.78},
               {"deepseek-r1-distill-qwen-7b", 7.62},
               {"deepseek-r1-distill-qwen-14b", 14.8},
               {"deepseek-r1-distill-qwen-32b", 32.8},
               {"deepseek-r1-distill-llama-8b", 8.03},
               {"deepseek-r1-distill-llama-70b", 70.6},
               {"glm-4-9b", 9.4},
               {"baichuan2-7b", 7.5},
               {"baichuan2-13b", 13.9},
               {"yi-1.5-6b", 6.06},
               {"yi-1.5-9b", 8.83},
               {"yi-1.5-34b", 34.4},
               {"internlm2.5-7b", 7.74},
               {"internlm2.5-20b", 19.9}};
  for (const Case& c : cases) {
    EXPECT_NEAR(ComputeModelParams(Preset(c.name)).total / 1e9, c.billions, 0.02 * c.billions)
        << c.name;
  }
}

// Activated parameters of the MoE presets, as their model cards state them.
TEST(ModelParamsTest, MoeActiveCountsMatchTheirCards) {
  EXPECT_NEAR(ComputeModelParams(Preset("qwen3-30b-a3b")).active / 1e9, 3.3, 0.1);
  EXPECT_NEAR(ComputeModelParams(Preset("qwen3-235b-a22b")).active / 1e9, 22.0, 0.5);
  EXPECT_NEAR(ComputeModelParams(Preset("deepseek-r1")).active / 1e9, 37.0, 1.0);
}

TEST(ModelParamsTest, TiedEmbeddingsAreCountedOnce) {
  ModelArch m = Preset("llama-3.1-8b");
  const double untied = ComputeModelParams(m).total;
  m.tied_embeddings = true;
  EXPECT_DOUBLE_EQ(untied - ComputeModelParams(m).total, 128256.0 * 4096);
}

TEST(ModelParamsTest, ExplicitParamsOverrideTheDerivedTotal) {
  ModelArch m = Preset("llama-2-7b");
  m.params = 7e9;
  EXPECT_DOUBLE_EQ(ComputeModelParams(m).total, 7e9);
}

TEST(KvCacheTest, Llama31With8KvHeadsIs128KiBPerTokenInFp16) {
  const ModelShape m = MakeShape(Preset("llama-3.1-8b"));
  EXPECT_DOUBLE_EQ(workload_internal::KvBytesPerToken(m, 2), 128.0 * 1024);  // 2·32·8·128·2
  EXPECT_DOUBLE_EQ(workload_internal::KvBytesPerToken(m, 1), 64.0 * 1024);   // fp8 KV
}

TEST(KvCacheTest, Opt13bIs800KiBPerToken) {  // Kwon et al. 2023 §3
  const ModelShape m = MakeShape(Preset("opt-13b"));
  EXPECT_DOUBLE_EQ(workload_internal::KvBytesPerToken(m, 2), 819200.0);
}

TEST(KvCacheTest, SlidingWindowCapsTheCache) {
  const ModelShape m = MakeShape(Preset("mistral-7b"));  // window 4096 on every layer
  const double per_token = workload_internal::KvBytesPerToken(m, 2);
  EXPECT_DOUBLE_EQ(workload_internal::KvBytesPerSequence(m, 2000, 2), 2000 * per_token);
  EXPECT_DOUBLE_EQ(workload_internal::KvBytesPerSequence(m, 32768, 2), 4096 * per_token);
  const ModelShape g = MakeShape(Preset("gemma-2-9b"));  // window on half of the layers
  const double g_token = workload_internal::KvBytesPerToken(g, 2);
  EXPECT_DOUBLE_EQ(workload_internal::KvBytesPerSequence(g, 8192, 2),
                   (0.5 * 4096 + 0.5 * 8192) * g_token);
}

// A tiny GPT: L=2, h=64, a=4, f=256, V=100, GELU, tied, no biases.
ModelArch TinyGpt() {
  ModelArch m;
  m.layers = 2;
  m.hidden = 64;
  m.heads = 4;
  m.ffn = 256;
  m.vocab = 100;
  m.gated_mlp = false;
  m.tied_embeddings = true;
  m.dropout = true;
  return m;
}

TEST(FlopsTest, SixNPlusAttentionTerm) {
  const ModelShape m = MakeShape(TinyGpt());
  // Params: 2·(4·64² + 2·64·256 + 2·64) + 100·64 + 64 = 105024, all multiplied per token.
  EXPECT_DOUBLE_EQ(m.params.total, 105024);
  EXPECT_DOUBLE_EQ(m.matmul_params, 105024);
  // Forward: 2N + 4·L·s·h = 210048 + 4·2·32·64 = 226432; training 3x.
  EXPECT_DOUBLE_EQ(workload_internal::ForwardFlopPerToken(m, 32), 226432);
  EXPECT_DOUBLE_EQ(workload_internal::TrainFlopPerToken(m, 32), 679296);
  EXPECT_DOUBLE_EQ(workload_internal::TrainHardwareFlopPerToken(m, 32, Recompute::kFull),
                   4 * 226432.0);
}

TEST(FlopsTest, Gpt3TrainingComputeIs3p14e23) {  // Brown et al. 2020 Table D.1, 6ND
  const ModelShape m = MakeShape(Preset("gpt3-175b"));
  const double total = workload_internal::TrainFlopPerToken(m, 2048) * 300e9;
  EXPECT_NEAR(total / 3.14e23, 1.0, 0.05);
}

TEST(ActivationTest, KorthikantiTable2) {
  const ModelShape m = MakeShape(TinyGpt());
  const double s = 32, b = 2, sbh = s * b * 64;  // 4096
  ActivationOptions o;
  o.flash_attention = false;
  EXPECT_DOUBLE_EQ(ActivationBytesPerLayer(m, s, b, o), 34 * sbh + 5 * 4 * s * s * b);
  o.flash_attention = true;
  EXPECT_DOUBLE_EQ(ActivationBytesPerLayer(m, s, b, o), 34 * sbh);
  o = {2, false, false, Recompute::kNone, {}};  // TP 2, no SP: 10 + 24/t
  EXPECT_DOUBLE_EQ(ActivationBytesPerLayer(m, s, b, o), (10 + 12) * sbh + 5 * 4 * s * s * b / 2);
  o = {2, true, true, Recompute::kNone, {}};  // TP + SP: 34/t
  EXPECT_DOUBLE_EQ(ActivationBytesPerLayer(m, s, b, o), 34 * sbh / 2);
  o = {2, true, false, Recompute::kSelective, {}};  // selective = scores dropped
  EXPECT_DOUBLE_EQ(ActivationBytesPerLayer(m, s, b, o), 34 * sbh / 2);
  o = {1, false, true, Recompute::kFull, {}};
  EXPECT_DOUBLE_EQ(ActivationBytesPerLayer(m, s, b, o), 2 * sbh);
}

TEST(OptimizerTest, MixedPrecisionAdamIsSixteenBytesPerParameter) {
  // 2 (16-bit weights) + 2 (16-bit grads) + K = 12 (fp32 master, m, v) [ZeRO §3.1].
  EXPECT_EQ(2 + 2 + workload_internal::OptimizerBytesPerParam(Optimizer::kAdamW, Precision::kBf16),
            16);
  EXPECT_EQ(workload_internal::OptimizerBytesPerParam(Optimizer::kAdam8bit, Precision::kBf16), 6);
  EXPECT_EQ(workload_internal::OptimizerBytesPerParam(Optimizer::kSgd, Precision::kBf16), 8);
  EXPECT_EQ(workload_internal::OptimizerBytesPerParam(Optimizer::kAdamW, Precision::kFp32), 8);
}

TEST(LoraTest, Llama2With8RankOnQvHas4194304Adapters) {  // PEFT's printed trainable count
  const ModelShape m = MakeShape(Preset("llama-2-7b"));
  EXPECT_DOUBLE_EQ(workload_internal::LoraAdapterParams(m, 8, LoraTargets::kQv), 4194304);
}

TEST(QuantizationTest, BytesPerWeight) {
  EXPECT_DOUBLE_EQ(workload_internal::WeightBytes(std::nullopt), 2);
  EXPECT_DOUBLE_EQ(workload_internal::WeightBytes(Precision::kInt8), 1);
  EXPECT_DOUBLE_EQ(workload_internal::WeightBytes(Precision::kFp8), 1);
  EXPECT_DOUBLE_EQ(workload_internal::WeightBytes(Precision::kInt4), 0.53125);
}

}  // namespace
}  // namespace gpuadvisor
