// Workload files (JSON, YAML) and Hugging Face config.json import.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpuadvisor/workload.h"

namespace gpuadvisor {
namespace {

TEST(WorkloadJsonTest, FlatAndNestedKeys) {
  Result<Workload> w = ParseWorkloadJson(R"({
    "task": "pretrain", "model": "llama-3.1-8b", "tokens": "1T", "seq_len": 8192,
    "parallelism": {"tp": 2, "zero": 1}, "precision": "bf16", "mfu": 0.45})",
                                         "w.json");
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ(w->task, TaskKind::kPretrain);
  EXPECT_EQ(w->model.layers, 32);
  EXPECT_EQ(w->seq_len, 8192);
  EXPECT_EQ(w->parallelism.tp, 2);
  EXPECT_EQ(w->parallelism.zero, 1);
  EXPECT_EQ(w->precision, Precision::kBf16);
  EXPECT_DOUBLE_EQ(w->mfu, 0.45);
  EXPECT_DOUBLE_EQ(w->tokens, 1e12);
}

TEST(WorkloadJsonTest, ModelObjectRefinesPreset) {
  Result<Workload> w = ParseWorkloadJson(
      R"({"task": "serve", "model": {"name": "llama-2-7b", "kv_heads": 8}})", "w.json");
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ(w->model.kv_heads, 8);
  EXPECT_EQ(w->model.ffn, 11008);
}

TEST(WorkloadJsonTest, ErrorsNameFileAndField) {
  Result<Workload> w = ParseWorkloadJson(R"({"task": "pretrain", "tokens": -5})", "w.json");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), "w.json: tokens: expected a positive number, got \"-5\"");
  w = ParseWorkloadJson("{\n  \"task\": \"serve\",\n  \"rps\": ,\n}", "w.json");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kParseError);
  EXPECT_EQ(w.status().message().rfind("w.json:3:", 0), 0u) << w.status().message();
}

TEST(WorkloadYamlTest, ParsesMappingWithSections) {
  Result<Workload> w = ParseWorkloadYaml(
      "task: serve\nmodel: mixtral-8x7b\nserving:\n  rps: 4\n  input_tokens: 1000\n"
      "quantization: fp8\nttft_p95: 800ms\n",
      "w.yaml");
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ(w->task, TaskKind::kServe);
  EXPECT_EQ(w->model.experts, 8);
  EXPECT_DOUBLE_EQ(w->rps, 4);
  EXPECT_EQ(w->input_tokens, 1000);
  EXPECT_EQ(w->quantization, Precision::kFp8);
  EXPECT_DOUBLE_EQ(w->ttft_p95_s, 0.8);
}

TEST(WorkloadYamlTest, SyntaxErrorsCarryTheLine) {
  Result<Workload> w = ParseWorkloadYaml("task: serve\nmodel: [llama\nrps: 3\n", "w.yaml");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kParseError);
  EXPECT_EQ(w.status().message().rfind("w.yaml:", 0), 0u) << w.status().message();
  EXPECT_NE(w.status().message().find(":3:"), std::string::npos) << w.status().message();
}

TEST(WorkloadYamlTest, ValueErrorsCarryLineAndField) {
  Result<Workload> w =
      ParseWorkloadYaml("task: pretrain\nmodel: llama-2-7b\ntokens: -5\n", "w.yaml");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), "w.yaml:3: tokens: expected a positive number, got \"-5\"");
  w = ParseWorkloadYaml("task: serve\nmodel: llama-9\n", "w.yaml");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(w.status().message().rfind("w.yaml:2: model: unknown preset", 0), 0u)
      << w.status().message();
}

TEST(WorkloadTextTest, DetectsJsonOrYaml) {
  EXPECT_TRUE(ParseWorkloadText("  {\"task\": \"hpc\"}", "x").ok());
  EXPECT_TRUE(ParseWorkloadText("task: hpc\n", "x").ok());
  EXPECT_FALSE(ParseWorkloadText("- a\n- b\n", "x").ok());
}

// Issue 43: a 16 MB nested workload took 2.3 GB: documents not starting with "{" go to YAML,
// which had no depth check. Both readers refuse nesting deeper than kMaxDocumentDepth (32)
// before building a tree of it.
TEST(WorkloadTextTest, NestingDeeperThanTheLimitIsRefusedOnEitherPath) {
  const auto nested = [](int depth, const char* open, const char* close) {
    std::string s;
    for (int i = 0; i < depth; ++i) s += open;
    for (int i = 0; i < depth; ++i) s += close;
    return s;
  };
  const std::string yaml_deep = "task: serve\nextra: " + nested(33, "[", "]") + "\n";
  Result<Workload> w = ParseWorkloadText(yaml_deep, "w.yaml");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kParseError);
  EXPECT_EQ(w.status().message().rfind("w.yaml:2:", 0), 0u) << w.status().message();
  EXPECT_NE(w.status().message().find(": nested deeper than 32 levels"), std::string::npos);
  EXPECT_EQ(w.status().field(), "workload");
  // 32 levels (the mapping and 31 lists) pass the check and reach the fields' own error.
  w = ParseWorkloadText("task: serve\nextra: " + nested(31, "[", "]") + "\n", "w.yaml");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message().find("nested deeper"), std::string::npos) << w.status().message();
  // A document of brackets (JSON text routed to YAML), and block-style nesting.
  EXPECT_NE(ParseWorkloadText(nested(1 << 20, "[", "]"), "w.json")
                .status()
                .message()
                .find("nested deeper than 32 levels"),
            std::string::npos);
  std::string block = "task: serve\n";
  for (int i = 0; i < 40; ++i) block += std::string(2 * static_cast<size_t>(i), ' ') + "a:\n";
  EXPECT_NE(ParseWorkloadYaml(block, "b.yaml").status().message().find("nested deeper"),
            std::string::npos);
  Result<Workload> json = ParseWorkloadText(
      "{\"task\": \"serve\", \"x\": " + nested(40, "{\"a\":", "}") + "}", "w.json");
  ASSERT_FALSE(json.ok());
  EXPECT_EQ(json.status().message(), "w.json: nested deeper than 32 levels");
}

// Issue 43: two spellings of one field in one document (gpu_count and gpu-count, an alias and
// its name, a section's key and a top-level one) were both applied, the last silently winning.
TEST(WorkloadTextTest, TwoSpellingsOfOneFieldAreRefusedNamingBoth) {
  struct Case {
    std::string text, message;
  };
  // JSON members are read in key order (nlohmann sorts them), YAML's in document order.
  for (
      const Case& c : std::vector<Case>{
          {R"({"task": "serve", "input_tokens": 100, "input-tokens": 200})",
           "w: \"input-tokens\" and \"input_tokens\" both set input-tokens; give it once"},
          {R"({"task": "pretrain", "model": {"name": "llama-2-7b", "num_layers": 4, "layers": 8}})",
           "w: \"model.layers\" and \"model.num_layers\" both set layers; give it once"},
          {R"({"task": "pretrain", "tp": 2, "parallelism": {"tp": 4}})",
           "w: \"parallelism.tp\" and \"tp\" both set tp; give it once"},
          {"task: serve\nrps: 2\nserving:\n  rps: 3\n",
           "w:4: \"rps\" and \"serving.rps\" both set rps; give it once"},
          {"task: pretrain\nseq_length: 2048\nseq-len: 4096\n",
           "w:3: \"seq_length\" and \"seq-len\" both set seq-len; give it once"}}) {
    Result<Workload> w = ParseWorkloadText(c.text, "w");
    ASSERT_FALSE(w.ok()) << c.text;
    EXPECT_EQ(w.status().code(), StatusCode::kInvalidArgument) << c.text;
    EXPECT_EQ(w.status().message(), c.message);
  }
}

// Abridged config.json files as published on the Hugging Face Hub.
constexpr const char* kLlama31Config = R"({
  "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
  "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32,
  "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": false,
  "max_position_embeddings": 131072, "rope_theta": 500000.0})";

TEST(HfConfigTest, LlamaMatchesThePreset) {
  Workload w;
  ASSERT_TRUE(ApplyHfConfigJson(&w, kLlama31Config, "config.json").ok());
  EXPECT_DOUBLE_EQ(ComputeModelParams(w.model).total, 8030261248.0);
  EXPECT_EQ(w.model.max_positions, 0);  // rotary: no position table
}

TEST(HfConfigTest, MixtralGemmaNeoxOptBert) {
  Workload w;
  ASSERT_TRUE(ApplyHfConfigJson(&w, R"({"model_type": "mixtral", "hidden_size": 4096,
      "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32,
      "num_key_value_heads": 8, "vocab_size": 32000, "num_local_experts": 8,
      "num_experts_per_tok": 2, "sliding_window": null})",
                                "mixtral.json")
                  .ok());
  EXPECT_DOUBLE_EQ(ComputeModelParams(w.model).active, 12879925248.0);
  Workload g;
  ASSERT_TRUE(ApplyHfConfigJson(&g, R"({"model_type": "gemma2", "hidden_size": 3584,
      "intermediate_size": 14336, "num_attention_heads": 16, "num_hidden_layers": 42,
      "num_key_value_heads": 8, "head_dim": 256, "vocab_size": 256000,
      "sliding_window": 4096})",
                                "gemma.json")
                  .ok());
  EXPECT_TRUE(g.model.tied_embeddings);
  EXPECT_EQ(g.model.sliding_window, 4096);
  EXPECT_DOUBLE_EQ(g.model.sliding_window_fraction, 0.5);
  EXPECT_NEAR(ComputeModelParams(g.model).total / 1e9, 9.24, 0.05);
  Workload n;
  ASSERT_TRUE(ApplyHfConfigJson(&n, R"({"model_type": "gpt_neox", "hidden_size": 6144,
      "intermediate_size": 24576, "num_attention_heads": 64, "num_hidden_layers": 44,
      "vocab_size": 50432, "tie_word_embeddings": false})",
                                "neox.json")
                  .ok());
  EXPECT_FALSE(n.model.gated_mlp);
  EXPECT_NEAR(ComputeModelParams(n.model).total / 1e9, 20.55, 0.1);  // GPT-NeoX-20B
  Workload o;
  ASSERT_TRUE(ApplyHfConfigJson(&o, R"({"model_type": "opt", "hidden_size": 5120,
      "ffn_dim": 20480, "num_attention_heads": 40, "num_hidden_layers": 40,
      "vocab_size": 50272, "max_position_embeddings": 2048})",
                                "opt.json")
                  .ok());
  EXPECT_NEAR(ComputeModelParams(o.model).total / 1e9, 12.85, 0.05);  // OPT-13B
  Workload b;
  ASSERT_TRUE(ApplyHfConfigJson(&b, R"({"model_type": "bert", "hidden_size": 1024,
      "intermediate_size": 4096, "num_attention_heads": 16, "num_hidden_layers": 24,
      "vocab_size": 30522, "max_position_embeddings": 512, "type_vocab_size": 2,
      "hidden_dropout_prob": 0.1})",
                                "bert.json")
                  .ok());
  EXPECT_EQ(b.model.family, ModelFamily::kEncoder);
  EXPECT_TRUE(b.model.dropout);
  EXPECT_NEAR(ComputeModelParams(b.model).total / 1e6, 335, 3);  // BERT-large
}

TEST(HfConfigTest, MalformedOrIncompleteConfig) {
  Workload w;
  Status st = ApplyHfConfigJson(&w, "{\n \"hidden_size\": 4096,\n \"x\" 1}", "config.json");
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_EQ(st.message().rfind("config.json:3:", 0), 0u) << st.message();
  st = ApplyHfConfigJson(&w, R"({"model_type": "llama", "hidden_size": 4096})", "config.json");
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_EQ(st.message(),
            "config.json: num_hidden_layers: expected a positive integer (field is missing)");
}

TEST(HfConfigTest, WrongTypeOrZeroIsNotAMissingField) {
  // Issue 29: "hidden_size": "4096" and 0 both said "(field is missing)".
  const std::string head = R"({"model_type": "llama", "num_hidden_layers": 32, )"
                           R"("num_attention_heads": 32, "vocab_size": 32000, )";
  const struct {
    const char* hidden;
    const char* message;
  } cases[] = {
      {R"("4096")", "config.json: hidden_size: expected an integer, got the string \"4096\""},
      {"true", "config.json: hidden_size: expected an integer, got a boolean"},
      {"[4096]", "config.json: hidden_size: expected an integer, got an array"},
      {"-1", "config.json: hidden_size: expected an integer between 0 and 1e9, got -1"},
      {"0", "config.json: hidden_size: expected a positive integer, got 0"},
  };
  for (const auto& c : cases) {
    Workload w;
    const Status st = ApplyHfConfigJson(
        &w, head + R"("hidden_size": )" + c.hidden + R"(, "intermediate_size": 11008})",
        "config.json");
    EXPECT_EQ(st.code(), StatusCode::kParseError) << c.hidden;
    EXPECT_EQ(st.message(), c.message);
  }
}

TEST(WorkloadFileTest, NumberBeyondADoubleNamesItsKey) {
  // Issue 29: `rps: 1e999` gave the parser's raw "[json.exception.out_of_range.406]".
  Result<Workload> w = ParseWorkloadJsonInline(
      R"({"task": "serve", "model": "llama-3.1-8b", "rps": 1e999})", "body");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(w.status().field(), "rps");
  EXPECT_EQ(w.status().message().find("json.exception"), std::string::npos);
  EXPECT_NE(w.status().message().find("rps: 1e999 is out of range"), std::string::npos)
      << w.status().message();
  Result<Workload> u = ParseWorkloadJsonInline(R"({"task": "serve", "input_tokens": -1e400})", "w");
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.status().field(), "input-tokens");
}

}  // namespace
}  // namespace gpuadvisor
