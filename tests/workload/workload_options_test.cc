// The workload's one declaration (workload/workload_options.h, issue 40 item 1): what reads it
// (WorkloadFields' binding of text and of typed values, the help, the preset merge) agrees with it.
// That every field of Workload, ModelArch and ParallelismRequest is declared is Declarations.*'s.
#include "workload/workload_options.h"

#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <string>

#include "gpuadvisor/workload.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

// Every declared option's name and aliases, in declaration order.
struct Names {
  std::vector<std::string> names;
  std::set<std::string> aliases;
  void Add(std::string_view n, const FieldInfo& i) {
    names.emplace_back(n);
    for (std::string_view a : i.aliases) aliases.emplace(a);
  }
  template <typename T>
  void Text(std::string_view n, T&, const FieldInfo& i) {
    Add(n, i);
  }
  template <typename T>
  void Bool(std::string_view n, T&, const FieldInfo& i) {
    Add(n, i);
  }
  template <typename T>
  void Number(std::string_view n, T&, const FieldInfo& i) {
    Add(n, i);
  }
  template <typename T>
  void Integer(std::string_view n, T&, const FieldInfo& i) {
    Add(n, i);
  }
  template <typename T>
  void Duration(std::string_view n, T&, const FieldInfo& i) {
    Add(n, i);
  }
  template <typename E, typename N, typename P>
  void Enum(std::string_view n, E&, N&&, P&&, const FieldInfo& i) {
    Add(n, i);
  }
  template <typename S>
  void Nested(S& s) {
    DeclareOptions(*this, s);
  }
  template <typename T>
  void NotAnOption(const T&) {}
};

TEST(WorkloadOptionsTest, TheKeysAreTheDeclaredOptions) {
  Names n;
  Workload w;
  DeclareOptions(n, w);
  std::set<std::string> declared(n.names.begin(), n.names.end());
  EXPECT_EQ(declared.size(), n.names.size()) << "an option declared twice";
  const std::vector<std::string>& keys = WorkloadFieldNames();
  EXPECT_EQ(declared, std::set<std::string>(keys.begin(), keys.end()));
  for (const std::string& name : n.names) {
    const WorkloadFieldInfo* info = FindWorkloadFieldInfo(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_NE(info->tasks, 0u) << name << " applies to no task";
    EXPECT_NE(std::string(info->help), "") << name;
  }
  for (const std::string& alias : n.aliases) {
    EXPECT_EQ(declared.count(alias), 0u) << alias;
    Workload x;
    // An alias sets its field (a value every field refuses: the error names the alias).
    Status st = GiveField(&x, alias, "\x01");
    EXPECT_EQ(st.field(), alias);
  }
}

TEST(WorkloadOptionsTest, TypedValuesAreBoundAsTheyAre) {
  Workload w;
  // The number is taken; the text is only what messages show.
  ASSERT_TRUE(GiveField(&w, "tokens", {.text = "unused", .number = 5e9}).ok());
  EXPECT_EQ(w.tokens, 5e9);
  ASSERT_TRUE(GiveField(&w, "dropout", {.text = "unused", .boolean = true}).ok());
  EXPECT_TRUE(w.model.dropout);
  ASSERT_TRUE(GiveField(&w, "runtime", {.text = "36", .number = 36}).ok());
  EXPECT_EQ(w.runtime_target_s, 36 * 3600.0);  // a bare run length counts hours
  w.task = TaskKind::kServe;                   // the fields below apply to other tasks
  ASSERT_TRUE(GiveField(&w, "ttft_p95", {.text = "0.2", .number = 0.2}).ok());
  EXPECT_EQ(w.ttft_p95_s, 0.2);  // a bare latency counts seconds
  w.task = TaskKind::kTrainVision;
  ASSERT_TRUE(GiveField(&w, "fwd-gflop-per-sample", {.text = "4", .number = 4}).ok());
  EXPECT_EQ(w.model.fwd_flop_per_image, 4e9);  // FieldInfo::scale
  // Refused with the text path's message, showing the value as given.
  Status st = GiveField(&w, "tokens", {.text = "-5", .number = -5});
  EXPECT_EQ(st.message(), "tokens: expected a positive number, got \"-5\"");
  EXPECT_EQ(st.field(), "tokens");
  st = GiveField(&w, "zero", {.text = "1.5", .number = 1.5});
  EXPECT_EQ(st.message(), "zero: expected 0, 1, 2 or 3, got \"1.5\"");
  st = GiveField(&w, "layers", {.text = "true", .boolean = true});
  EXPECT_EQ(st.message(), "layers: expected a positive integer, got \"true\"");
  // Non-finite numbers are read as their text.
  st = GiveField(&w, "images", {.text = "inf", .number = std::numeric_limits<double>::infinity()});
  EXPECT_FALSE(st.ok());
}

TEST(WorkloadOptionsTest, JsonNumbersAndBooleansAreTyped) {
  Result<Workload> w = ParseWorkloadJsonInline(
      R"({"task": "pretrain", "tokens": 1e12, "dropout": 1, "zero": 3, "mfu": 0.5})", "body");
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w->tokens, 1e12);
  EXPECT_TRUE(w->model.dropout);
  EXPECT_EQ(w->parallelism.zero, 3);
  EXPECT_EQ(w->mfu, 0.5);
  w = ParseWorkloadJsonInline(R"({"task": "transcode", "hours": 2, "stream_resolution": 1080})",
                              "body");
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w->hours, 2);
  EXPECT_EQ(w->stream_resolution_lines, 1080);
  Result<Workload> bad = ParseWorkloadJsonInline(R"({"num_layers": -1})", "body");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "body: num-layers: expected a positive integer, got \"-1\"");
}

TEST(WorkloadOptionsTest, APresetKeepsTheArchitectureGiven) {
  // Whatever the order: the fields given win over a preset given after them.
  WorkloadFields llm;
  ASSERT_TRUE(llm.Give("layers", {.text = "7"}).ok());
  ASSERT_TRUE(llm.Give("tied_embeddings", {.text = "true"}).ok());
  ASSERT_TRUE(llm.Give("model", {.text = "llama-3.1-8b"}).ok());
  Result<Workload> w = llm.Bind();
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ(w->model.layers, 7);
  EXPECT_TRUE(w->model.tied_embeddings);
  EXPECT_EQ(w->model.hidden, 4096);  // the preset's
  WorkloadFields vision;
  ASSERT_TRUE(vision.Give("kernel-class", {.text = "gemm"}).ok());
  ASSERT_TRUE(vision.Give("model", {.text = "resnet50"}).ok());
  ASSERT_TRUE(vision.Give("task", {.text = "train-vision"}).ok());
  w = vision.Bind();
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ(w->model.kernel_class, KernelClass::kGemm);
  EXPECT_EQ(w->model.dominant_kernel, KernelClass::kConv);  // the preset's, overridden
}

}  // namespace
}  // namespace gpuadvisor
