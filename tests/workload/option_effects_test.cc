// Every workload field changes the estimate: one row per field of the field table
// (WorkloadFieldNames), a test that fails for a field without a row, and, for the options whose
// effect has a documented formula, tests of the amount (goodput, offload, LoRA targets, MFU,
// render sessions, analytics scans). A field the estimator ignored would leave the estimate
// unchanged and fail here (tests/mutations.txt disables some on purpose to keep that true).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"
#include "workload/estimate_json.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::Gpus;
using Fields = std::vector<std::pair<std::string, std::string>>;

// Workloads the rows start from, one per kind of task.
const Fields kPretrain = {{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}};
const Fields kLora = {{"task", "lora"}, {"model", "llama-3.1-8b"}, {"tokens", "10M"}};
const Fields kServe = {{"task", "serve"}, {"model", "llama-3.1-8b"}, {"rps", "2"}};
const Fields kLongServe = {{"task", "serve"},
                           {"model", "llama-3.1-8b"},
                           {"input-tokens", "8000"},
                           {"output-tokens", "500"}};
const Fields kCustom = {{"task", "pretrain"}, {"layers", "16"},   {"hidden", "2048"},
                        {"heads", "16"},      {"vocab", "32000"}, {"tokens", "1B"}};
const Fields kMoe = {{"task", "pretrain"}, {"model", "mixtral-8x7b"}, {"tokens", "1B"}};
const Fields kMla = {{"task", "serve"}, {"model", "deepseek-v2-lite"}};
const Fields kTrainVision = {
    {"task", "train-vision"}, {"model", "resnet50"}, {"images", "1M"}, {"epochs", "2"}};
const Fields kInferVision = {{"task", "infer-vision"}, {"model", "vit-b16"}, {"images", "1M"}};
const Fields kDiffusion = {
    {"task", "infer-vision"}, {"model", "stable-diffusion-xl"}, {"images", "1000"}};
const Fields kCustomVision = {{"task", "infer-vision"},
                              {"family", "convnet"},
                              {"fwd-gflop-per-sample", "8"},
                              {"activation-mb-per-sample", "100"},
                              {"images", "1M"}};
const Fields kHpc = {{"task", "hpc"}, {"fp64-flop", "1e18"}, {"working-set-gib", "30"}};
const Fields kHpcRate = {{"task", "hpc"}, {"fp64-flops", "1e15"}, {"runtime", "10h"}};
const Fields kHpc32 = {{"task", "hpc"}, {"fp32-flop", "1e18"}, {"working-set-gib", "30"}};
const Fields kHpcRate32 = {{"task", "hpc"}, {"fp32-flops", "1e15"}, {"runtime", "10h"}};
const Fields kHpcMemory = {{"task", "hpc"},
                           {"hpc-kind", "memory-bound"},
                           {"fp64-flop", "1e18"},
                           {"arithmetic-intensity", "0.1667"}};
const Fields kHpcBytes = {
    {"task", "hpc"}, {"hpc-kind", "memory-bound"}, {"fp64-flop", "1e18"}, {"bytes-moved", "6e18"}};
const Fields kTranscode = {{"task", "transcode"}, {"streams", "10"}};
const Fields kRender = {{"task", "render"}, {"sessions", "4"}};
const Fields kAnalytics = {{"task", "analytics"}, {"dataset-gib", "100"}};

// One row: the field, a valid non-default value, the workload it is added to and the hardware.
struct Row {
  const char* field;
  const char* value;
  const Fields* base;
  const char* gpu = "H100";
  int gpus = 8;
};

std::string HfFixture(const char* name) { return std::string(GPUADVISOR_HF_FIXTURES) + "/" + name; }

// Keep the rows sorted by field, like the table in src/workload/fields.cc.
const std::vector<Row>& Rows() {
  static const std::string kConfig = HfFixture("qwen2.5_7b_instruct_yarn.json");
  static const std::vector<Row> kRows = {
      {"activation-mb-per-sample", "400", &kCustomVision, "A10G", 1},
      {"active-experts", "4", &kMoe},
      {"attention-bias", "true", &kPretrain},
      {"arithmetic-intensity", "1", &kHpcMemory},
      // DeepSeek's MLA cache is one head: under TP it sits whole on every rank.
      {"attention-dp", "true", &kMla, "H100", 8},
      {"batch", "8", &kInferVision, "A10G", 1},
      {"bytes-moved", "1e18", &kHpcBytes},
      {"codec", "av1", &kTranscode, "L4", 1},
      {"concurrency", "64", &kServe, "H100", 1},
      {"context-length", "600", &kServe, "H100", 1},  // the default 512 + 256 shrinks to fit
      {"context-parallel", "2", &kPretrain},
      {"dataset-gib", "300", &kAnalytics, "A100-80GB", 8},
      {"dense-ffn", "4096", &kMla, "H100", 1},
      {"dense-layers", "4", &kMla, "H100", 1},
      {"dp", "2", &kPretrain},
      {"dropout", "true", &kPretrain},
      {"e2e-p95", "50ms", &kServe, "H100", 1},
      {"engine", "fused", &kInferVision, "A10G", 1},
      {"epochs", "3", &kTrainVision, "A100-40GB", 8},
      {"experts", "16", &kMoe},
      {"family", "encoder-decoder", &kCustom},
      {"ffn", "6144", &kCustom},  // the default is 4 x hidden
      {"flash-attention", "false", &kPretrain},
      {"fp32-flop", "1e19", &kHpc32},
      {"fp32-flops", "1e16", &kHpcRate32},
      {"fp64-flop", "1e19", &kHpc},
      {"fp64-flops", "1e16", &kHpcRate},
      {"fps", "60", &kTranscode, "L4", 1},
      {"framework", "megatron-lm", &kPretrain},
      {"fwd-gflop-per-sample", "40", &kCustomVision, "A10G", 1},
      {"gated-mlp", "false", &kPretrain},
      {"global-batch", "64", &kPretrain},
      {"global-batch-tokens", "1M", &kPretrain},
      {"goodput", "0.5", &kPretrain},
      {"guidance", "false", &kDiffusion, "A10G", 1},
      {"head-dim", "64", &kCustom},
      {"heads", "32", &kCustom},  // with kv-heads 4 (below): a narrower KV
      {"hidden", "4096", &kCustom},
      {"hours", "10h", &kTranscode, "L4", 1},
      {"hpc-kind", "dense-la", &kHpc},
      {"images", "5M", &kInferVision, "A10G", 1},
      {"input-tokens", "4000", &kServe, "H100", 1},
      {"itl-p95", "1ms", &kServe, "H100", 1},
      {"kernel-class", "attention", &kCustomVision, "A10G", 1},
      {"kv-heads", "4", &kCustom},
      {"kv-lora-rank", "256", &kMla, "H100", 1},
      {"kv-precision", "fp8", &kServe, "H100", 1},
      {"layers", "24", &kCustom},
      {"lora-rank", "64", &kLora, "H100", 1},
      {"lora-targets", "qv", &kLora, "H100", 1},
      {"max-positions", "4096", &kCustom},
      {"mbu", "0.3", &kServe, "H100", 1},
      {"mfu", "0.2", &kPretrain},
      {"micro-batch", "4", &kPretrain},
      {"model", "llama-2-7b", &kPretrain},
      // Over an explicit architecture (a preset and a config.json together are refused).
      {"model-config", kConfig.c_str(), &kCustom},
      {"offload", "cpu", &kPretrain},
      {"optimizer", "sgd", &kPretrain},
      {"output-tokens", "1000", &kServe, "H100", 1},
      {"params", "10B", &kCustom},
      {"pp", "4", &kPretrain},
      {"precision", "fp8", &kPretrain},
      {"q-lora-rank", "512", &kMla, "H100", 1},
      {"quantization", "int4", &kServe, "H100", 1},
      {"recompute", "full", &kPretrain},
      {"resolution", "448", &kInferVision, "A10G", 1},
      {"rope-head-dim", "128", &kMla, "H100", 1},
      {"rps", "20", &kServe, "H100", 1},
      {"runtime", "1h", &kHpcRate},
      {"scans-per-hour", "1000000", &kAnalytics, "A10G", 1},  // more than the bandwidth allows
      {"seq-len", "8192", &kPretrain},
      {"sequence-parallel", "false", &kPretrain},  // with tp 2 (below), chosen on by default
      {"session-gib", "8", &kRender, "L40S", 1},
      {"sessions", "40", &kRender, "L40S", 1},
      {"shared-ffn", "5632", &kMla, "H100", 1},
      {"sliding-window", "1024", &kLongServe, "H100", 1},
      {"steps", "10", &kDiffusion, "A10G", 1},
      {"stream-resolution", "4k", &kTranscode, "L4", 1},
      {"streaming", "false", &kServe, "H100", 1},
      {"streams", "40", &kTranscode, "L4", 1},
      {"task", "finetune", &kPretrain},
      {"tied-embeddings", "true", &kPretrain},
      {"tokens", "3B", &kPretrain},
      {"torch-compile", "false", &kPretrain},  // fsdp is fused by default: eager is slower
      {"tp", "2", &kPretrain},
      {"ttft-p95", "1ms", &kServe, "H100", 1},
      {"v-head-dim", "64", &kMla, "H100", 1},
      {"virtual-pp", "4", &kPretrain},  // with pp 2, below
      {"vocab", "64000", &kCustom},
      {"working-set-gib", "300", &kHpc},
      {"zero", "0", &kPretrain},
  };
  return kRows;
}

// Fields a row needs next to the base (an option that only acts together with another).
Fields Companions(const std::string& field) {
  if (field == "sequence-parallel") return {{"tp", "2"}};
  if (field == "virtual-pp") return {{"pp", "2"}};
  if (field == "heads") return {{"kv-heads", "4"}};
  return {};
}

// What an estimate says, less the assumption lines (they may echo an option without using it):
// the JSON with its warnings, or the error. Two workloads the estimator treats alike give the
// same text.
std::string Outcome(const Workload& w, const Row& row) {
  if (Status st = Validate(w); !st.ok()) return "invalid: " + st.ToString();
  Result<Estimate> e = EstimateWorkload(w, Gpus(row.gpu, row.gpus));
  if (!e.ok()) return "estimate: " + e.status().ToString();
  nlohmann::ordered_json j = EstimateToJson(*e);
  nlohmann::ordered_json warnings = nlohmann::ordered_json::array();
  for (const auto& a : j["assumptions"]) {
    if (a.get<std::string>().rfind("warning: ", 0) == 0) warnings.push_back(a);
  }
  j["assumptions"] = warnings;
  return j.dump();
}

// The outcome of the fields given to one binder (as the CLI's flags are).
std::string Outcome(const Fields& fields, const Row& row) {
  WorkloadFields given;
  for (const auto& [k, v] : fields) {
    Status st = given.Give(k, {.text = v});
    if (!st.ok()) return "give " + k + ": " + st.ToString();
  }
  Result<Workload> w = given.Bind();
  if (!w.ok()) return "bind: " + w.status().ToString();
  return Outcome(*w, row);
}

// ... and of the same fields in a workload file (as `--workload` and the HTTP body give them).
std::string FileOutcome(const Fields& fields, const Row& row) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [k, v] : fields) j[k] = v;
  Result<Workload> w = ParseWorkloadJson(j.dump(), "w.json");
  if (!w.ok()) return "file: " + w.status().ToString();
  return Outcome(*w, row);
}

TEST(OptionEffectsTest, EveryWorkloadFieldHasARow) {
  std::map<std::string, int> rows;
  for (const Row& r : Rows()) rows[r.field]++;
  for (const std::string& name : WorkloadFieldNames()) {
    EXPECT_EQ(rows[name], 1) << "workload field \"" << name
                             << "\" needs one row in Rows(): a value and a workload on which it "
                                "changes the estimate";
  }
  for (const auto& [name, n] : rows) {
    EXPECT_NE(FindWorkloadFieldInfo(name), nullptr) << name << " is not a workload field";
  }
}

TEST(OptionEffectsTest, EveryWorkloadFieldChangesTheEstimate) {
  for (const Row& r : Rows()) {
    Fields base = *r.base;
    for (const auto& c : Companions(r.field)) base.push_back(c);
    Fields with = base;
    with.emplace_back(r.field, r.value);
    const std::string before = Outcome(base, r), after = Outcome(with, r);
    EXPECT_EQ(before.rfind("{", 0), 0u) << r.field << ": the base workload fails: " << before;
    EXPECT_TRUE(before != after) << "--" << r.field << " " << r.value << " changes nothing on "
                                 << r.gpus << " x " << r.gpu;
  }
}

TEST(OptionEffectsTest, EveryWorkloadFieldReadsTheSameFromAFile) {
  for (const Row& r : Rows()) {
    Fields with = *r.base;
    for (const auto& c : Companions(r.field)) with.push_back(c);
    with.emplace_back(r.field, r.value);
    const std::string flags = Outcome(with, r), file = FileOutcome(with, r);
    EXPECT_TRUE(flags == file) << r.field << " " << r.value
                               << " differs in a workload file: " << file.substr(0, 300);
  }
}

// ---- Amounts, from the formulas in doc/estimation.md ----

Estimate Est(const Fields& fields, const char* gpu = "H100", int gpus = 8) {
  Workload w;
  for (const auto& [k, v] : fields) {
    Status st = GiveField(&w, k, v);
    EXPECT_TRUE(st.ok()) << k << ": " << st.ToString();
  }
  EXPECT_TRUE(Validate(w).ok()) << Validate(w).ToString();
  Result<Estimate> e = EstimateWorkload(w, Gpus(gpu, gpus));
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return e.ok() ? *e : Estimate{};
}

Fields With(Fields f, const Fields& more) {
  f.insert(f.end(), more.begin(), more.end());
  return f;
}

// A fixed layout, so that only the option under test changes between two estimates.
const Fields kLayout = {{"tp", "1"},   {"pp", "1"},          {"dp", "8"},
                        {"zero", "1"}, {"micro-batch", "1"}, {"recompute", "full"}};

TEST(OptionEffectsTest, GoodputStretchesTheWallClockOnly) {
  // hours = tokens / throughput / goodput; the default is 0.9 for pretraining, 0.95 for vision.
  const Estimate def = Est(With(kPretrain, kLayout));
  const Estimate half = Est(With(kPretrain, With(kLayout, {{"goodput", "0.5"}})));
  ASSERT_TRUE(def.hours && half.hours);
  EXPECT_NEAR(*half.hours / *def.hours, 0.9 / 0.5, 1e-9);
  EXPECT_DOUBLE_EQ(*half.performance.tokens_per_s, *def.performance.tokens_per_s);
  const Estimate vdef = Est(kTrainVision, "A100-40GB", 8);
  const Estimate vhalf = Est(With(kTrainVision, {{"goodput", "0.5"}}), "A100-40GB", 8);
  ASSERT_TRUE(vdef.hours && vhalf.hours);
  EXPECT_NEAR(*vhalf.hours / *vdef.hours, 0.95 / 0.5, 1e-9);
}

TEST(OptionEffectsTest, OffloadMovesTheOptimizerStatesOffTheDevice) {
  // AdamW in mixed precision: 12 bytes per parameter, split over dp with ZeRO 1; offloaded they
  // live on the host (0 on the device) and the host step adds time.
  const Estimate def = Est(With(kPretrain, kLayout));
  ASSERT_TRUE(def.memory.optimizer_gib && def.params_total);
  EXPECT_NEAR(*def.memory.optimizer_gib, *def.params_total * 12 / 8 / std::pow(2.0, 30),
              0.01 * *def.memory.optimizer_gib);
  for (const char* where : {"cpu", "nvme"}) {
    const Estimate off = Est(With(kPretrain, With(kLayout, {{"offload", where}})));
    EXPECT_EQ(*off.memory.optimizer_gib, 0) << where;
    EXPECT_NEAR(def.memory.total_gib - off.memory.total_gib, *def.memory.optimizer_gib, 1e-6)
        << where;
    EXPECT_GT(*off.performance.step_time_s, *def.performance.step_time_s) << where;
  }
}

TEST(OptionEffectsTest, LoraTargetsSetTheAdapterSize) {
  // LoRA of rank r on a d_in x d_out matrix trains r (d_in + d_out) parameters; the checkpoint
  // holds them with their AdamW states, 2 + 12 bytes each. Llama-3.1-8B: h 4096, 32 query heads
  // and 8 KV heads of 128, FFN 14336 (gated: 3 matrices), 32 layers.
  const double h = 4096, q = 4096, kv = 1024, f = 14336, layers = 32, r = 16;
  const double qv = (h + q) + (h + kv);
  const double attention = qv + (h + kv) + (q + h);
  const double all = attention + 3 * (h + f);
  for (const auto& [targets, per_layer] :
       {std::pair{"qv", qv}, std::pair{"attention", attention}, std::pair{"all", all}}) {
    const Estimate e = Est(With(kLora, {{"lora-targets", targets}}), "H100", 1);
    ASSERT_TRUE(e.checkpoint_gib) << targets;
    EXPECT_NEAR(*e.checkpoint_gib, r * per_layer * layers * 14 / std::pow(2.0, 30), 1e-9)
        << targets;
  }
}

TEST(OptionEffectsTest, MfuOverrideScalesTheThroughput) {
  // With --mfu the step is model FLOPs / (peak x MFU): throughput proportional to MFU, and the
  // achieved TFLOP/s per GPU is MFU x the dense BF16 peak.
  const Estimate a = Est(With(kPretrain, With(kLayout, {{"mfu", "0.3"}})));
  const Estimate b = Est(With(kPretrain, With(kLayout, {{"mfu", "0.6"}})));
  ASSERT_TRUE(a.performance.tokens_per_s && b.performance.tokens_per_s);
  EXPECT_NEAR(*b.performance.tokens_per_s / *a.performance.tokens_per_s, 2.0, 1e-9);
  EXPECT_NEAR(*a.performance.tflops_per_gpu, 0.3 * *testing::TestGpu("H100").bf16_tflops, 1e-6);
  EXPECT_NEAR(*a.hours / *b.hours, 2.0, 1e-9);
}

TEST(OptionEffectsTest, SessionGibSetsSessionsPerGpu) {
  // Sessions per GPU = floor((device memory - 1 GiB) / memory per session), default 4 GiB.
  for (const auto& [gib, value] :
       {std::pair{4.0, ""}, std::pair{8.0, "8"}, std::pair{3.5, "3.5"}}) {
    Fields f = kRender;
    if (*value) f.emplace_back("session-gib", value);
    const Estimate e = Est(f, "L40S", 1);
    ASSERT_TRUE(e.performance.sessions_per_gpu) << gib;
    EXPECT_DOUBLE_EQ(*e.performance.sessions_per_gpu, std::floor((e.memory.device_gib - 1) / gib))
        << gib;
  }
}

bool Warns(const Estimate& e, const std::string& text) {
  for (const std::string& a : e.assumptions) {
    if (a.rfind("warning: ", 0) == 0 && a.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(OptionEffectsTest, ScansPerHourWarnsPastTheBandwidth) {
  // One scan takes scan_time_s; more than 3600 / scan_time_s scans an hour cannot be served.
  const Fields big = {{"task", "analytics"}, {"dataset-gib", "20"}};
  const Estimate e = Est(big, "A10G", 1);
  ASSERT_TRUE(e.performance.scan_time_s);
  const double limit = 3600 / *e.performance.scan_time_s;
  const std::string kWarning = "scans per hour exceed";
  EXPECT_FALSE(Warns(e, kWarning));
  EXPECT_FALSE(Warns(Est(With(big, {{"scans-per-hour", std::to_string(0.95 * limit)}}), "A10G", 1),
                     kWarning));
  EXPECT_TRUE(Warns(Est(With(big, {{"scans-per-hour", std::to_string(1.05 * limit)}}), "A10G", 1),
                    kWarning));
}

}  // namespace
}  // namespace gpuadvisor
