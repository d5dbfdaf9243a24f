// SetWorkloadField: every key, both spellings, error messages naming the field.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpuadvisor/workload.h"

namespace gpuadvisor {
namespace {

TEST(FieldsTest, TableIsSortedForBinarySearch) {
  const std::vector<std::string>& names = WorkloadFieldNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_GT(names.size(), 60u);
}

TEST(FieldsTest, EveryContractFlagIsAccepted) {
  const std::pair<const char*, const char*> flags[] = {{"task", "pretrain"},
                                                       {"params", "7B"},
                                                       {"layers", "32"},
                                                       {"hidden", "4096"},
                                                       {"heads", "32"},
                                                       {"kv-heads", "8"},
                                                       {"ffn", "14336"},
                                                       {"vocab", "32000"},
                                                       {"experts", "8"},
                                                       {"active-experts", "2"},
                                                       {"tokens", "2T"},
                                                       {"seq-len", "4096"},
                                                       {"global-batch-tokens", "4M"},
                                                       {"global-batch", "1024"},
                                                       {"micro-batch", "2"},
                                                       {"precision", "bf16"},
                                                       {"optimizer", "adam8bit"},
                                                       {"recompute", "selective"},
                                                       {"zero", "3"},
                                                       {"lora-rank", "64"},
                                                       {"rps", "5"},
                                                       {"input-tokens", "512"},
                                                       {"output-tokens", "128"},
                                                       {"concurrency", "16"},
                                                       {"quantization", "int4"},
                                                       {"kv-precision", "fp8"},
                                                       {"ttft-p95", "500ms"},
                                                       {"itl-p95", "50ms"},
                                                       {"images", "1.28M"},
                                                       {"epochs", "90"},
                                                       {"resolution", "224"},
                                                       {"batch", "32"},
                                                       {"fp64-flop", "1e18"},
                                                       {"fp32-flop", "1e18"},
                                                       {"working-set-gib", "40"},
                                                       {"streams", "16"},
                                                       {"stream-resolution", "1080p"},
                                                       {"fps", "30"},
                                                       {"codec", "hevc"},
                                                       {"dataset-gib", "100"},
                                                       {"mfu", "0.4"},
                                                       {"mbu", "0.6"},
                                                       {"goodput", "0.9"},
                                                       {"sessions", "4"},
                                                       {"tp", "2"},
                                                       {"pp", "2"},
                                                       {"dp", "4"},
                                                       {"context-parallel", "2"},
                                                       {"virtual-pp", "2"},
                                                       {"sequence-parallel", "true"},
                                                       {"offload", "cpu"}};
  Workload w;
  for (const auto& [k, v] : flags) {
    EXPECT_TRUE(SetWorkloadField(&w, k, v).ok()) << k << "=" << v;
  }
  EXPECT_EQ(w.model.kv_heads, 8);
  EXPECT_DOUBLE_EQ(w.tokens, 2e12);
  EXPECT_DOUBLE_EQ(w.ttft_p95_s, 0.5);
  EXPECT_EQ(w.parallelism.zero, 3);
  EXPECT_EQ(w.quantization, Precision::kInt4);
  EXPECT_EQ(w.codec, Codec::kHevc);
  EXPECT_EQ(w.stream_resolution_lines, 1080);
}

TEST(FieldsTest, UnderscoresDashesAndCaseAreEquivalent) {
  Workload w;
  ASSERT_TRUE(SetWorkloadField(&w, "kv_heads", "4").ok());
  EXPECT_EQ(w.model.kv_heads, 4);
  ASSERT_TRUE(SetWorkloadField(&w, "--Seq-Len", "1024").ok());
  EXPECT_EQ(w.seq_len, 1024);
  ASSERT_TRUE(SetWorkloadField(&w, "global_batch_tokens", "2M").ok());
  EXPECT_DOUBLE_EQ(w.global_batch_tokens, 2e6);
}

TEST(FieldsTest, BadValuesNameTheField) {
  Workload w;
  Status st = SetWorkloadField(&w, "tokens", "-5");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "tokens: expected a positive number, got \"-5\"");
  st = SetWorkloadField(&w, "heads", "3.5");
  EXPECT_EQ(st.message(), "heads: expected a positive integer, got \"3.5\"");
  st = SetWorkloadField(&w, "precision", "fp12");
  EXPECT_NE(st.message().find("precision: expected one of fp32|tf32|bf16|fp16|fp8"),
            std::string::npos)
      << st.message();
  st = SetWorkloadField(&w, "zero", "4");
  EXPECT_EQ(st.message(), "zero: expected 0, 1, 2 or 3, got \"4\"");
  st = SetWorkloadField(&w, "mfu", "1.5");
  EXPECT_EQ(st.message(), "mfu: expected a fraction in (0, 1], got \"1.5\"");
  st = SetWorkloadField(&w, "task", "trian");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
}

TEST(FieldsTest, UnknownPresetSuggestsNames) {
  Workload w;
  Status st = SetWorkloadField(&w, "model", "llama-3.1-8");
  EXPECT_EQ(st.code(), StatusCode::kNotFound);
  EXPECT_NE(st.message().find("did you mean"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("llama-3.1-8b"), std::string::npos) << st.message();
}

TEST(FieldsTest, UnknownKeySuggestsNames) {
  Workload w;
  Status st = SetWorkloadField(&w, "seq-lenght", "4");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("seq-len"), std::string::npos) << st.message();
}

TEST(FieldsTest, ExplicitArchitectureWinsOverPresetInAnyOrder) {
  Workload a;
  ASSERT_TRUE(SetWorkloadField(&a, "kv-heads", "32").ok());
  ASSERT_TRUE(SetWorkloadField(&a, "model", "llama-3.1-8b").ok());
  Workload b;
  ASSERT_TRUE(SetWorkloadField(&b, "model", "llama-3.1-8b").ok());
  ASSERT_TRUE(SetWorkloadField(&b, "kv-heads", "32").ok());
  EXPECT_EQ(a.model.kv_heads, 32);
  EXPECT_EQ(b.model.kv_heads, 32);
  EXPECT_EQ(a.model.layers, 32);
  EXPECT_EQ(a.model_name, "llama-3.1-8b");
}

TEST(FieldsTest, PresetNamesAreCaseInsensitive) {
  Result<const ModelPreset*> p = FindModelPreset("Llama-3.1-70B");
  ASSERT_TRUE(p.ok());
  EXPECT_STREQ((*p)->name, "llama-3.1-70b");
  for (const char* name : {"llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b",
                           "llama-3.1-70b", "llama-3.1-405b", "mistral-7b", "mixtral-8x7b",
                           "qwen2.5-7b", "qwen2.5-72b", "gemma-2-9b", "gemma-2-27b", "gpt3-175b",
                           "bert-large", "t5-11b", "resnet50", "vit-b16", "stable-diffusion-xl"}) {
    EXPECT_TRUE(FindModelPreset(name).ok()) << name;
  }
}

TEST(ValidateTest, CrossFieldChecksNameTheField) {
  Workload w;
  w.task = TaskKind::kPretrain;
  w.tokens = 1e9;
  w.model.layers = 2;
  w.model.hidden = 100;
  w.model.heads = 3;
  w.model.vocab = 10;
  Status st = Validate(w);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "heads: 3 does not divide hidden 100");
  w.model.heads = 4;
  w.model.kv_heads = 3;
  EXPECT_EQ(Validate(w).message(), "kv-heads: 3 does not divide heads 4");
  w.model.kv_heads = 2;
  EXPECT_TRUE(Validate(w).ok());
  w.tokens = 0;
  EXPECT_EQ(Validate(w).message().rfind("tokens:", 0), 0u) << Validate(w).message();
}

TEST(ValidateTest, TasksNeedTheirInputs) {
  Workload w;
  w.task = TaskKind::kTranscode;
  EXPECT_EQ(Validate(w).message().rfind("streams:", 0), 0u);
  w.task = TaskKind::kServe;
  EXPECT_EQ(Validate(w).message().rfind("model:", 0), 0u);
  w.task = TaskKind::kTrainVision;
  ASSERT_TRUE(SetWorkloadField(&w, "model", "llama-2-7b").ok());
  EXPECT_EQ(Validate(w).message().rfind("model:", 0), 0u);
}

}  // namespace
}  // namespace gpuadvisor
