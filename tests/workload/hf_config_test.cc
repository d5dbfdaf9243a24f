// Hugging Face config.json import (issue 15 item 5): architectures beyond the Llama layout
// (multi-head latent attention, DeepSeekMoE and Qwen-MoE shared experts, gpt-oss), configs the
// importer does not understand (refused or warned, never miscounted), Hugging Face ids where a
// preset is expected, and the context window. The fixtures (fixtures/hf/) are abridged by hand
// from the published config.json values; the expected counts are the publishers' own figures.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "gpuadvisor/estimate.h"
#include "gpuadvisor/workload.h"
#include "testutil/test_hardware.h"
#include "workload/llm_formulas.h"

#ifndef GPUADVISOR_HF_FIXTURES
#define GPUADVISOR_HF_FIXTURES "tests/workload/fixtures/hf"
#endif

namespace gpuadvisor {
namespace {

using testing::GiveField;

using workload_internal::MakeShape;
using workload_internal::ModelShape;

constexpr double kGiB = 1024.0 * 1024 * 1024;

std::string Fixture(const std::string& name) {
  return std::string(GPUADVISOR_HF_FIXTURES) + "/" + name;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Workload Import(const std::string& name) {
  Workload w;
  const Status st = ApplyHfConfigJson(&w, ReadText(Fixture(name)), name);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return w;
}

Status ImportStatus(const std::string& name) {
  Workload w;
  return ApplyHfConfigJson(&w, ReadText(Fixture(name)), name);
}

const ModelArch& Preset(const char* name) {
  Result<const ModelPreset*> p = FindModelPreset(name);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return (*p)->arch;
}

bool AnyNoteContains(const std::vector<std::string>& notes, const std::string& part) {
  for (const std::string& n : notes) {
    if (n.find(part) != std::string::npos) return true;
  }
  return false;
}

// Active parameters as the publishers count them: every weight a token multiplies, i.e. without
// the input-embedding lookup table (DeepSeek, OpenAI).
double ActiveWithoutEmbedding(const ModelArch& m) {
  const ModelParams p = ComputeModelParams(m);
  return p.active - p.embedding;
}

Estimate Serve(Workload w, const char* gpu, int gpus) {
  w.task = TaskKind::kServe;
  EXPECT_TRUE(Validate(w).ok()) << Validate(w).ToString();
  Result<Estimate> e = EstimateWorkload(w, testing::Gpus(gpu, gpus));
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return e.ok() ? *e : Estimate{};
}

// ---- Multi-head latent attention and DeepSeekMoE ----

// DeepSeek-V3 technical report (arXiv:2412.19437): 671B total parameters, 37B activated per
// token; the 14B multi-token-prediction module comes on top (685B on the Hub) and is not counted.
TEST(HfConfigMlaTest, DeepSeekV3MatchesThePublishedCounts) {
  const Workload w = Import("deepseek_v3.json");
  const ModelArch& m = w.model;
  EXPECT_EQ(m.kv_lora_rank, 512);
  EXPECT_EQ(m.q_lora_rank, 1536);
  EXPECT_EQ(m.rope_head_dim, 64);
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_EQ(m.v_head_dim, 128);
  EXPECT_EQ(m.experts, 256);
  EXPECT_EQ(m.active_experts, 8);
  EXPECT_EQ(m.shared_ffn, 2048);
  EXPECT_EQ(m.dense_layers, 3);
  EXPECT_EQ(m.dense_ffn, 18432);
  EXPECT_EQ(m.ffn, 2048);
  const ModelParams p = ComputeModelParams(m);
  EXPECT_NEAR(p.total / 1e9, 671.0, 0.5);
  EXPECT_NEAR(ActiveWithoutEmbedding(m) / 1e9, 37.0, 0.5);
  EXPECT_TRUE(AnyNoteContains(w.model_notes, "multi-token-prediction module is not counted"));
  EXPECT_TRUE(AnyNoteContains(w.model_notes, "fp8"));  // the checkpoint's format is stated
  // The preset is the same architecture.
  EXPECT_DOUBLE_EQ(ComputeModelParams(Preset("deepseek-v3")).total, p.total);
}

// DeepSeek-V2 (arXiv:2405.04434): 236B total, 21B activated; V2-Lite: 15.7B total, 2.4B
// activated, no query compression.
TEST(HfConfigMlaTest, DeepSeekV2AndLite) {
  const ModelArch& v2 = Preset("deepseek-v2");
  EXPECT_NEAR(ComputeModelParams(v2).total / 1e9, 236.0, 0.5);
  EXPECT_NEAR(ActiveWithoutEmbedding(v2) / 1e9, 21.0, 0.5);
  const Workload lite = Import("deepseek_v2_lite.json");
  EXPECT_EQ(lite.model.q_lora_rank, 0);
  EXPECT_NEAR(ComputeModelParams(lite.model).total / 1e9, 15.7, 0.05);
  EXPECT_NEAR(ActiveWithoutEmbedding(lite.model) / 1e9, 2.4, 0.1);
  EXPECT_DOUBLE_EQ(ComputeModelParams(Preset("deepseek-v2-lite")).total,
                   ComputeModelParams(lite.model).total);
}

// The MLA cache holds one latent of kv_lora_rank plus the shared rotary key per layer:
// DeepSeek-V3 in bf16 61 x (512 + 64) x 2 B = 70,272 B, the "~70 KB per token" DeepSeek and
// vLLM quote (multi-head attention with the same 128 heads of 128 would cache 4.0 MB).
TEST(HfConfigMlaTest, KvCacheIsTheLatent) {
  const Estimate e = Serve(Import("deepseek_v3.json"), "H200", 8);
  const double bytes = e.memory.kv_cache_kib_per_token.value_or(0) * 1024;
  EXPECT_NEAR(bytes / 70e3, 1.0, 0.1);
  EXPECT_DOUBLE_EQ(bytes, 61.0 * (512 + 64) * 2);
}

// Decode attends in the absorbed form over the cached latent; training and prefill over per-head
// keys (192 = 128 + 64 wide) and values (128). The latent is shared by all heads, so TP cannot
// split it: every rank holds the whole cache.
TEST(HfConfigMlaTest, DecodeAndPrefillAttentionWidths) {
  const ModelShape m = MakeShape(Preset("deepseek-v3"));
  EXPECT_DOUBLE_EQ(m.kv_shard_limit, 1);
  EXPECT_DOUBLE_EQ(workload_internal::KvBytesPerToken(m, 2), 61.0 * 576 * 2);
  const double per_context_decode =
      workload_internal::DecodeFlopPerToken(m, 1000) - workload_internal::DecodeFlopPerToken(m, 0);
  EXPECT_DOUBLE_EQ(per_context_decode, 1000.0 * 2 * 61 * 128 * (576 + 512));
  const double per_context_prefill = workload_internal::ForwardFlopPerToken(m, 1000) -
                                     workload_internal::ForwardFlopPerToken(m, 0);
  EXPECT_DOUBLE_EQ(per_context_prefill, 1000.0 * 2 * 61 * 128 * (192 + 128));
  // Without context both are the weights: 2 x the active non-embedding parameters.
  EXPECT_DOUBLE_EQ(workload_internal::DecodeFlopPerToken(m, 0), 2 * m.matmul_params);
  // KV per request does not shrink with TP (it would for GQA).
  Workload w = Import("deepseek_v3.json");
  w.quantization = Precision::kFp8;
  w.concurrency = 8;
  w.parallelism.tp = 8;
  const Estimate tp8 = Serve(w, "H200", 8);
  EXPECT_NEAR(tp8.memory.kv_cache_gib.value_or(0) * 1024 * 1024,
              8 * (512 + 256) * 61.0 * 576 * 2 / 1024, 1.0);
}

// The same architecture given key by key (the workload file's spelling) counts the same.
TEST(HfConfigMlaTest, ExplicitKeysMatchTheImport) {
  Workload w;
  for (const auto& [k, v] :
       std::vector<std::pair<const char*, const char*>>{{"layers", "27"},
                                                        {"hidden", "2048"},
                                                        {"heads", "16"},
                                                        {"vocab", "102400"},
                                                        {"head-dim", "128"},
                                                        {"kv-lora-rank", "512"},
                                                        {"rope-head-dim", "64"},
                                                        {"v-head-dim", "128"},
                                                        {"experts", "64"},
                                                        {"active-experts", "6"},
                                                        {"ffn", "1408"},
                                                        {"shared-ffn", "2816"},
                                                        {"dense-layers", "1"},
                                                        {"dense-ffn", "10944"}}) {
    ASSERT_TRUE(GiveField(&w, k, v).ok()) << k;
  }
  EXPECT_DOUBLE_EQ(ComputeModelParams(w.model).total,
                   ComputeModelParams(Preset("deepseek-v2-lite")).total);
  w.task = TaskKind::kServe;
  ASSERT_TRUE(Validate(w).ok());
  Workload bad = w;
  bad.model.rope_head_dim = 0;
  EXPECT_EQ(Validate(bad).message().rfind("rope-head-dim:", 0), 0u) << Validate(bad).message();
  bad = w;
  bad.model.experts = 0;
  EXPECT_EQ(Validate(bad).message().rfind("shared-ffn:", 0), 0u) << Validate(bad).message();
  bad = w;
  bad.model.dense_layers = 30;
  EXPECT_EQ(Validate(bad).message().rfind("dense-layers:", 0), 0u) << Validate(bad).message();
}

// ---- Shared experts of Qwen-MoE ----

// Qwen1.5-MoE-A2.7B: 14.3B total, 2.7B activated (Qwen blog, March 2024); ignoring its shared
// expert would lose 0.8B. Qwen3-30B-A3B: 30.5B total, 3.3B activated (Qwen3 model card).
TEST(HfConfigMoeTest, QwenMoeCountsSharedExperts) {
  const Workload q15 = Import("qwen1.5_moe_a2.7b.json");
  EXPECT_EQ(q15.model.shared_ffn, 5632);
  EXPECT_EQ(q15.model.dense_layers, 0);
  const ModelParams p15 = ComputeModelParams(q15.model);
  EXPECT_NEAR(p15.total / 1e9, 14.3, 0.05);
  EXPECT_NEAR(p15.active / 1e9, 2.7, 0.05);
  const ModelParams p3 = ComputeModelParams(Import("qwen3_30b_a3b.json").model);
  EXPECT_NEAR(p3.total / 1e9, 30.5, 0.1);
  EXPECT_NEAR(p3.active / 1e9, 3.3, 0.1);
}

TEST(HfConfigMoeTest, QwenMoeDenseLayersFromMlpOnlyLayers) {
  std::string text = ReadText(Fixture("qwen1.5_moe_a2.7b.json"));
  text.replace(text.find("\"mlp_only_layers\": []"), 21, "\"mlp_only_layers\": [0, 1]");
  Workload w;
  ASSERT_TRUE(ApplyHfConfigJson(&w, text, "q.json").ok());
  EXPECT_EQ(w.model.dense_layers, 2);
  EXPECT_EQ(w.model.dense_ffn, 5632);
}

// ---- gpt-oss ----

// OpenAI's gpt-oss model card (Aug 2025), Table 1: gpt-oss-120b 116.83B total, 5.13B active;
// gpt-oss-20b 20.91B total, 3.61B active (active excludes the embedding table).
TEST(HfConfigGptOssTest, CountsMatchTheModelCard) {
  const Workload big = Import("gpt_oss_120b.json");
  EXPECT_NEAR(ComputeModelParams(big.model).total / 1e9, 116.83, 0.01);
  EXPECT_NEAR(ActiveWithoutEmbedding(big.model) / 1e9, 5.13, 0.01);
  const Workload small = Import("gpt_oss_20b.json");
  EXPECT_NEAR(ComputeModelParams(small.model).total / 1e9, 20.91, 0.01);
  EXPECT_NEAR(ActiveWithoutEmbedding(small.model) / 1e9, 3.61, 0.01);
  EXPECT_DOUBLE_EQ(ComputeModelParams(Preset("gpt-oss-120b")).total,
                   ComputeModelParams(big.model).total);
}

// Alternating 128-token windows, 8 KV heads of 64, MXFP4 experts: the 120b model serves from one
// 80 GB GPU and the 20b within 16 GB (model card), which only holds with 4.25-bit experts.
TEST(HfConfigGptOssTest, WindowsKvAndMxfp4Experts) {
  const Workload w = Import("gpt_oss_120b.json");
  EXPECT_EQ(w.model.sliding_window, 128);
  EXPECT_DOUBLE_EQ(w.model.sliding_window_fraction, 0.5);
  EXPECT_EQ(w.model.context_length, 131072);
  EXPECT_DOUBLE_EQ(w.model.expert_weight_bytes, 4.25 / 8);
  EXPECT_TRUE(AnyNoteContains(w.model_notes, "MXFP4"));
  Workload one = w;
  one.concurrency = 1;
  const Estimate e = Serve(one, "H100", 1);
  EXPECT_DOUBLE_EQ(e.memory.kv_cache_kib_per_token.value_or(0), 36.0 * 2 * 8 * 64 * 2 / 1024);
  EXPECT_TRUE(e.memory.fits);
  EXPECT_LT(e.memory.weights_gib.value_or(0) * kGiB, 80e9);
  EXPECT_GT(e.memory.weights_gib.value_or(0) * kGiB,
            60e9);  // not 16-bit (234 GB), not all-4-bit either
  Workload twenty = Import("gpt_oss_20b.json");
  twenty.concurrency = 1;
  EXPECT_LT(Serve(twenty, "L4", 1).memory.weights_gib.value_or(0) * kGiB, 16e9);
  EXPECT_DOUBLE_EQ(twenty.model.sliding_window_fraction, 0.5);  // no layer_types: alternating
  // An explicit quantization replaces the checkpoint's format for every linear weight.
  Workload fp8 = w;
  fp8.quantization = Precision::kFp8;
  fp8.concurrency = 1;
  EXPECT_GT(Serve(fp8, "H200", 1).memory.weights_gib.value_or(0) * kGiB, 110e9);
}

// ---- Configs the importer does not understand ----

TEST(HfConfigStrictTest, UnknownOrMissingModelTypeIsRefusedWithTheList) {
  for (const char* name : {"falcon_7b.json", "no_model_type.json"}) {
    const Status st = ImportStatus(name);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << name;
    EXPECT_NE(st.message().find(": model_type: "), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("supported: bert, bloom, deepseek_v2"), std::string::npos);
    EXPECT_EQ(st.message().find('\n'), std::string::npos);  // one line
  }
  EXPECT_NE(ImportStatus("falcon_7b.json").message().find("\"falcon\" is not supported"),
            std::string::npos);
  EXPECT_NE(ImportStatus("no_model_type.json").message().find("model_type: missing"),
            std::string::npos);
  EXPECT_EQ(SupportedHfModelTypes().front(), "bert");
}

// MoE keys a type's configuration class does not define would be silently dropped by a lenient
// reader, counting an 8B dense model for a mixture of experts.
TEST(HfConfigStrictTest, UnknownMoeKeysAreRefused) {
  const Status st = ImportStatus("llama_with_experts.json");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message().rfind("llama_with_experts.json: num_experts: not modelled", 0), 0u)
      << st.message();
}

// Other architecture-looking keys are accepted with a warning that names them; the keys read
// are listed among the assumptions.
TEST(HfConfigStrictTest, UnknownSizeKeysAreWarned) {
  const Workload w = Import("llama_unknown_key.json");
  EXPECT_DOUBLE_EQ(ComputeModelParams(w.model).total, 8030261248.0);
  EXPECT_TRUE(AnyNoteContains(w.model_notes,
                              "warning: llama_unknown_key.json: keys not "
                              "understood"));
  EXPECT_TRUE(AnyNoteContains(w.model_notes, "cross_attention_layers"));
  EXPECT_FALSE(AnyNoteContains(w.model_notes, "pad_token_id"));
  EXPECT_NE(w.model_notes.front().find("llama config read from hidden_size"), std::string::npos)
      << w.model_notes.front();
  // The notes reach the estimate: the warning among its assumptions.
  const Estimate e = Serve(w, "H100", 1);
  EXPECT_TRUE(AnyNoteContains(e.assumptions, "warning: llama_unknown_key.json: keys not"));
}

TEST(HfConfigStrictTest, MultimodalConfigsCountTheLanguageModelAndSaySo) {
  const Workload w = Import("gemma3_4b.json");
  EXPECT_TRUE(AnyNoteContains(w.model_notes, "warning: gemma3_4b.json: vision_config is not"));
  // Gemma 3: five local layers per global one; 34 layers hold 29 windowed ones.
  EXPECT_EQ(w.model.sliding_window, 1024);
  EXPECT_DOUBLE_EQ(w.model.sliding_window_fraction, 29.0 / 34);
  EXPECT_EQ(w.model.context_length, 131072);  // linear x8 already in max_position_embeddings
  EXPECT_NEAR(ComputeModelParams(w.model).total / 1e9, 3.88, 0.01);
}

TEST(HfConfigStrictTest, T5StacksOfDifferentDepthsAreRefused) {
  Workload w;
  const Status st = ApplyHfConfigJson(
      &w, R"({"model_type": "t5", "d_model": 512, "d_kv": 64, "num_heads": 8, "num_layers": 8,
              "num_decoder_layers": 4, "d_ff": 1024, "vocab_size": 32128})",
      "t5.json");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message().rfind("t5.json: num_decoder_layers: 4 differs", 0), 0u) << st.message();
}

// ---- Context window ----

TEST(HfConfigContextTest, WindowFromPositionsAndRopeScaling) {
  EXPECT_EQ(Import("deepseek_v3.json").model.context_length, 163840);  // yarn 40 x 4096
  // Qwen2.5-7B-Instruct states 32768; its model card's YaRN block (x4) extends it.
  EXPECT_EQ(Import("qwen2.5_7b_instruct_yarn.json").model.context_length, 131072);
  EXPECT_EQ(Import("qwen3_30b_a3b.json").model.context_length, 40960);
  EXPECT_EQ(Preset("llama-2-7b").context_length, 4096);
  EXPECT_EQ(Preset("llama-3.1-8b").context_length, 131072);
  EXPECT_EQ(Preset("t5-11b").context_length, 0);  // relative positions: unchecked
}

TEST(HfConfigContextTest, ServingBeyondTheWindowIsRefused) {
  Workload w;
  ASSERT_TRUE(GiveField(&w, "model", "llama-2-7b").ok());
  w.task = TaskKind::kServe;
  w.input_tokens = 4000;
  w.output_tokens = 200;
  Status st = Validate(w);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "output-tokens: 4000 input + 200 output tokens exceed the model's context window of "
            "4096 tokens (--context-length overrides it)");
  w.input_tokens = 5000;
  EXPECT_EQ(Validate(w).message().rfind("input-tokens: 5000 exceeds", 0), 0u);
  w.input_tokens = 3840;
  w.output_tokens = 256;
  EXPECT_TRUE(Validate(w).ok());  // exactly the window
  ASSERT_TRUE(GiveField(&w, "context-length", "8192").ok());
  w.input_tokens = 8000;
  w.output_tokens = 192;
  EXPECT_TRUE(Validate(w).ok());
  // Configs alike: the YaRN-extended Qwen window, then one token more.
  Workload q = Import("qwen2.5_7b_instruct_yarn.json");
  q.task = TaskKind::kServe;
  q.input_tokens = 120000;
  q.output_tokens = 11072;
  EXPECT_TRUE(Validate(q).ok());
  q.output_tokens = 11073;
  EXPECT_EQ(Validate(q).message().rfind("output-tokens:", 0), 0u);
}

// Unset request lengths default to 512 + 256, shortened to fit a smaller window (BERT: 512).
TEST(HfConfigContextTest, DefaultsFitTheWindow) {
  Workload w;
  ASSERT_TRUE(GiveField(&w, "model", "bert-base").ok());
  w.task = TaskKind::kServe;
  ASSERT_TRUE(Validate(w).ok());
  const Estimate e = Serve(w, "A10G", 1);
  EXPECT_TRUE(AnyNoteContains(e.assumptions, "requests of 342 input + 170 output tokens"));
  w.input_tokens = 512;  // the whole window for the prompt leaves nothing to generate
  EXPECT_EQ(Validate(w).message().rfind("input-tokens: 512 input + 1 output", 0), 0u)
      << Validate(w).message();
}

// Training past the window is a warning: that is how windows are extended.
TEST(HfConfigContextTest, TrainingBeyondTheWindowWarns) {
  Workload w;
  ASSERT_TRUE(GiveField(&w, "model", "llama-2-7b").ok());
  w.task = TaskKind::kFinetune;
  w.tokens = 1e7;
  w.seq_len = 8192;
  ASSERT_TRUE(Validate(w).ok());
  Result<Estimate> e = EstimateWorkload(w, testing::Gpus("H100", 8));
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(AnyNoteContains(e->assumptions, "warning: seq-len 8192 exceeds the model's 4096"));
  w.seq_len = 4096;
  e = EstimateWorkload(w, testing::Gpus("H100", 8));
  ASSERT_TRUE(e.ok());
  EXPECT_FALSE(AnyNoteContains(e->assumptions, "exceeds the model's"));
}

// ---- Hugging Face ids ----

TEST(HfIdTest, IdsMapToThePresetWithTheirArchitecture) {
  const std::pair<const char*, const char*> cases[] = {
      {"meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b"},
      {"meta-llama/Meta-Llama-3.1-8B", "llama-3.1-8b"},
      {"meta-llama/Meta-Llama-3-8B-Instruct", "llama-3-8b"},
      {"meta-llama/Llama-2-7b-chat-hf", "llama-2-7b"},
      {"mistralai/Mixtral-8x7B-v0.1", "mixtral-8x7b"},
      {"mistralai/Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b"},
      {"mistralai/Mistral-7B-Instruct-v0.1", "mistral-7b"},
      {"Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b"},
      {"google/gemma-2-9b-it", "gemma-2-9b"},
      {"google-bert/bert-base-uncased", "bert-base"},
      {"bigscience/bloom", "bloom-176b"},
      {"deepseek-ai/DeepSeek-V3", "deepseek-v3"},
      {"deepseek-ai/DeepSeek-V2-Lite-Chat", "deepseek-v2-lite"},
      {"openai/gpt-oss-120b", "gpt-oss-120b"},
      // The models Chinese teams run, by their Hugging Face and ModelScope ids.
      {"Qwen/Qwen3-8B", "qwen3-8b"},
      {"Qwen/Qwen3-235B-A22B", "qwen3-235b-a22b"},
      {"deepseek-ai/DeepSeek-R1", "deepseek-r1"},
      {"deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "deepseek-r1-distill-qwen-32b"},
      {"THUDM/glm-4-9b-chat", "glm-4-9b"},
      {"ZhipuAI/glm-4-9b-chat", "glm-4-9b"},  // ModelScope
      {"baichuan-inc/Baichuan2-13B-Chat", "baichuan2-13b"},
      {"01ai/Yi-1.5-34B-Chat", "yi-1.5-34b"},  // ModelScope
      {"internlm/internlm2_5-7b-chat", "internlm2.5-7b"},
      {"Shanghai_AI_Laboratory/internlm2_5-20b-chat", "internlm2.5-20b"},  // ModelScope
      // Newer revisions of known architectures (issue 42): a dated update keeps its base's
      // preset unless its config changed (the 2507 Qwen3 MoEs and K2-0905 read 256k tokens).
      {"deepseek-ai/DeepSeek-R1-0528", "deepseek-r1"},
      {"deepseek-ai/DeepSeek-V3-0324", "deepseek-v3"},
      {"deepseek-ai/DeepSeek-V3.1", "deepseek-v3"},
      {"deepseek-ai/DeepSeek-V3.1-Terminus", "deepseek-v3"},
      {"Qwen/Qwen3-30B-A3B-Instruct-2507", "qwen3-30b-a3b-2507"},
      {"Qwen/Qwen3-30B-A3B-Thinking-2507", "qwen3-30b-a3b-2507"},
      {"Qwen/Qwen3-235B-A22B-Instruct-2507", "qwen3-235b-a22b-2507"},
      {"moonshotai/Kimi-K2-Instruct", "kimi-k2"},
      {"moonshotai/Kimi-K2-Base", "kimi-k2"},
      {"moonshotai/Kimi-K2-Instruct-0905", "kimi-k2-0905"},
      {"zai-org/GLM-4.5", "glm-4.5"},
      {"zai-org/GLM-4.5-Air", "glm-4.5-air"},
      {"Qwen/Qwen2.5-VL-7B-Instruct", "qwen2.5-vl-7b"},
      {"Qwen/Qwen2.5-VL-72B-Instruct", "qwen2.5-vl-72b"},
  };
  for (const auto& [id, preset] : cases) {
    Result<const ModelPreset*> p = FindModelPreset(id);
    ASSERT_TRUE(p.ok()) << id << ": " << p.status().ToString();
    EXPECT_STREQ((*p)->name, preset) << id;
  }
}

// A different architecture behind a similar name is not mapped: Mistral-7B v0.3 has a larger
// vocabulary and no sliding window; bert-base-cased a smaller vocabulary.
TEST(HfIdTest, UnknownIdsSuggestTheClosestPreset) {
  for (const auto& [id, hint] : std::vector<std::pair<const char*, const char*>>{
           {"someone/Llama-3.1-8B-finetuned", "did you mean llama-3.1-8b?"},
           {"mistralai/Mistral-7B-Instruct-v0.3", "did you mean mistral-7b?"},
           {"google-bert/bert-base-cased", "did you mean bert-base?"},
           // the same family's nearest size, not a look-alike name of another family
           {"Qwen/Qwen3-72B", "did you mean qwen3-32b?"},
           // DeepSeek-V3.2's sparse attention is not V3's cost: not mapped.
           {"deepseek-ai/DeepSeek-V3.2-Exp", "did you mean deepseek-v3"}}) {
    Result<const ModelPreset*> p = FindModelPreset(id);
    ASSERT_FALSE(p.ok()) << id;
    EXPECT_EQ(p.status().code(), StatusCode::kNotFound);
    EXPECT_NE(p.status().message().find(hint), std::string::npos) << p.status().message();
  }
  EXPECT_TRUE(LooksLikeHfId("meta-llama/Llama-3.1-8B"));
  EXPECT_FALSE(LooksLikeHfId("models/config.json"));
  EXPECT_FALSE(LooksLikeHfId("/etc/passwd"));
  EXPECT_FALSE(LooksLikeHfId("a/b/c"));
  EXPECT_FALSE(LooksLikeHfId("../x"));
  EXPECT_FALSE(LooksLikeHfId("llama-3.1-8b"));
}

// Where a preset name or --model-config is expected, an id says what it was read as.
TEST(HfIdTest, ModelAndModelConfigAcceptIdsWithAnAssumption) {
  Workload w;
  ASSERT_TRUE(GiveField(&w, "model", "meta-llama/Llama-3.1-8B-Instruct").ok());
  EXPECT_EQ(w.model_name, "llama-3.1-8b");
  ASSERT_EQ(w.model_notes.size(), 1u);
  EXPECT_EQ(w.model_notes[0].rfind("model meta-llama/Llama-3.1-8B-Instruct: Hugging Face id read "
                                   "as preset llama-3.1-8b",
                                   0),
            0u)
      << w.model_notes[0];
  Workload c;
  ASSERT_TRUE(GiveField(&c, "model-config", "mistralai/Mixtral-8x7B-v0.1").ok());
  EXPECT_EQ(c.model_name, "mixtral-8x7b");
  EXPECT_TRUE(AnyNoteContains(c.model_notes, "model-config mistralai/Mixtral-8x7B-v0.1"));
  const Status st = GiveField(&c, "model-config", "nobody/no-such-model");
  EXPECT_EQ(st.code(), StatusCode::kNotFound);
  // A path that is no id stays a file error.
  EXPECT_EQ(GiveField(&c, "model-config", "/nonexistent/config.json").code(), StatusCode::kIOError);
  // A later preset replaces the notes of the earlier model.
  ASSERT_TRUE(GiveField(&w, "model", "mistral-7b").ok());
  EXPECT_TRUE(w.model_notes.empty());
}

}  // namespace
}  // namespace gpuadvisor
