// WorkloadFields (through GiveField): every key, both spellings, error messages naming the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gpuadvisor/workload.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

TEST(FieldsTest, TableIsSortedForBinarySearch) {
  const std::vector<std::string>& names = WorkloadFieldNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_GT(names.size(), 60u);
}

TEST(FieldsTest, EveryContractFlagIsAcceptedAndLandsInItsField) {
  // Each flag with the field it must set: a flag accepted but stored elsewhere (or nowhere)
  // fails its own line.
  using Check = bool (*)(const Workload&);
  const struct {
    const char* key;
    const char* value;
    Check check;
  } flags[] = {
      {"task", "pretrain", [](const Workload& w) { return w.task == TaskKind::kPretrain; }},
      {"params", "7B", [](const Workload& w) { return w.model.params == 7e9; }},
      {"layers", "32", [](const Workload& w) { return w.model.layers == 32; }},
      {"hidden", "4096", [](const Workload& w) { return w.model.hidden == 4096; }},
      {"heads", "32", [](const Workload& w) { return w.model.heads == 32; }},
      {"kv-heads", "8", [](const Workload& w) { return w.model.kv_heads == 8; }},
      {"ffn", "14336", [](const Workload& w) { return w.model.ffn == 14336; }},
      {"vocab", "32000", [](const Workload& w) { return w.model.vocab == 32000; }},
      {"experts", "8", [](const Workload& w) { return w.model.experts == 8; }},
      {"active-experts", "2", [](const Workload& w) { return w.model.active_experts == 2; }},
      {"tokens", "2T", [](const Workload& w) { return w.tokens == 2e12; }},
      {"seq-len", "4096", [](const Workload& w) { return w.seq_len == 4096; }},
      {"global-batch-tokens", "4M", [](const Workload& w) { return w.global_batch_tokens == 4e6; }},
      {"global-batch", "1024", [](const Workload& w) { return w.global_batch == 1024; }},
      {"micro-batch", "2", [](const Workload& w) { return w.parallelism.micro_batch == 2; }},
      {"precision", "bf16", [](const Workload& w) { return w.precision == Precision::kBf16; }},
      {"optimizer", "adam8bit",
       [](const Workload& w) { return w.optimizer == Optimizer::kAdam8bit; }},
      {"recompute", "selective",
       [](const Workload& w) { return w.parallelism.recompute == Recompute::kSelective; }},
      {"zero", "3", [](const Workload& w) { return w.parallelism.zero == 3; }},
      {"lora-rank", "64", [](const Workload& w) { return w.lora_rank == 64; }},
      {"lora-targets", "qv", [](const Workload& w) { return w.lora_targets == LoraTargets::kQv; }},
      {"rps", "5", [](const Workload& w) { return w.rps == 5; }},
      {"input-tokens", "512", [](const Workload& w) { return w.input_tokens == 512; }},
      {"output-tokens", "128", [](const Workload& w) { return w.output_tokens == 128; }},
      {"concurrency", "16", [](const Workload& w) { return w.concurrency == 16; }},
      {"quantization", "int4",
       [](const Workload& w) { return w.quantization == Precision::kInt4; }},
      {"kv-precision", "fp8", [](const Workload& w) { return w.kv_precision == Precision::kFp8; }},
      {"ttft-p95", "500ms", [](const Workload& w) { return w.ttft_p95_s == 0.5; }},
      {"itl-p95", "50ms", [](const Workload& w) { return std::abs(w.itl_p95_s - 0.05) < 1e-12; }},
      {"e2e-p95", "2s", [](const Workload& w) { return w.e2e_p95_s == 2; }},
      {"images", "1.28M", [](const Workload& w) { return w.images == 1.28e6; }},
      {"epochs", "90", [](const Workload& w) { return w.epochs == 90; }},
      {"resolution", "224", [](const Workload& w) { return w.resolution == 224; }},
      {"batch", "32", [](const Workload& w) { return w.batch == 32; }},
      {"fp64-flop", "1e18", [](const Workload& w) { return w.fp64_flop == 1e18; }},
      {"fp32-flop", "2e18", [](const Workload& w) { return w.fp32_flop == 2e18; }},
      {"fp64-flops", "1e15", [](const Workload& w) { return w.fp64_flops_needed == 1e15; }},
      {"fp32-flops", "2e15", [](const Workload& w) { return w.fp32_flops_needed == 2e15; }},
      {"working-set-gib", "40", [](const Workload& w) { return w.working_set_gib == 40; }},
      {"runtime", "36h", [](const Workload& w) { return w.runtime_target_s == 36 * 3600; }},
      {"streams", "16", [](const Workload& w) { return w.streams == 16; }},
      {"stream-resolution", "4k",
       [](const Workload& w) { return w.stream_resolution_lines == 2160; }},
      {"fps", "60", [](const Workload& w) { return w.fps == 60; }},
      {"codec", "hevc", [](const Workload& w) { return w.codec == Codec::kHevc; }},
      {"hours", "90m", [](const Workload& w) { return w.hours == 1.5; }},
      {"dataset-gib", "100", [](const Workload& w) { return w.dataset_gib == 100; }},
      {"scans-per-hour", "12", [](const Workload& w) { return w.scans_per_hour == 12; }},
      {"mfu", "0.4", [](const Workload& w) { return w.mfu == 0.4; }},
      {"mbu", "0.6", [](const Workload& w) { return w.mbu == 0.6; }},
      {"goodput", "0.9", [](const Workload& w) { return w.goodput == 0.9; }},
      {"sessions", "4", [](const Workload& w) { return w.sessions == 4; }},
      {"session-gib", "6", [](const Workload& w) { return w.session_gib == 6; }},
      {"tp", "2", [](const Workload& w) { return w.parallelism.tp == 2; }},
      {"pp", "3", [](const Workload& w) { return w.parallelism.pp == 3; }},
      {"dp", "4", [](const Workload& w) { return w.parallelism.dp == 4; }},
      {"context-parallel", "5",
       [](const Workload& w) { return w.parallelism.context_parallel == 5; }},
      {"virtual-pp", "6", [](const Workload& w) { return w.parallelism.virtual_pp == 6; }},
      {"sequence-parallel", "true",
       [](const Workload& w) { return w.parallelism.sequence_parallel == true; }},
      {"offload", "cpu", [](const Workload& w) { return w.parallelism.offload == Offload::kCpu; }},
  };
  for (const auto& f : flags) {
    // On a workload of the first task the field applies to (another task's is refused).
    Workload w;
    Status st;
    for (TaskKind t : kAllTaskKinds) {
      w = Workload();
      w.task = t;
      if ((st = GiveField(&w, f.key, f.value)).ok()) break;
    }
    ASSERT_TRUE(st.ok()) << f.key << "=" << f.value << ": " << st.ToString();
    EXPECT_TRUE(f.check(w)) << f.key << "=" << f.value << " did not land in its field";
  }
}

TEST(FieldsTest, UnderscoresDashesAndCaseAreEquivalent) {
  Workload w;
  ASSERT_TRUE(GiveField(&w, "kv_heads", "4").ok());
  EXPECT_EQ(w.model.kv_heads, 4);
  ASSERT_TRUE(GiveField(&w, "--Seq-Len", "1024").ok());
  EXPECT_EQ(w.seq_len, 1024);
  ASSERT_TRUE(GiveField(&w, "global_batch_tokens", "2M").ok());
  EXPECT_DOUBLE_EQ(w.global_batch_tokens, 2e6);
}

TEST(FieldsTest, BadValuesNameTheField) {
  Workload w;
  Status st = GiveField(&w, "tokens", "-5");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "tokens: expected a positive number, got \"-5\"");
  st = GiveField(&w, "heads", "3.5");
  EXPECT_EQ(st.message(), "heads: expected a positive integer, got \"3.5\"");
  st = GiveField(&w, "precision", "fp12");
  EXPECT_NE(st.message().find("precision: expected one of fp32|tf32|bf16|fp16|fp8"),
            std::string::npos)
      << st.message();
  st = GiveField(&w, "zero", "4");
  EXPECT_EQ(st.message(), "zero: expected 0, 1, 2 or 3, got \"4\"");
  st = GiveField(&w, "mfu", "1.5");
  EXPECT_EQ(st.message(), "mfu: expected a fraction in (0, 1], got \"1.5\"");
  st = GiveField(&w, "task", "trian");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
}

TEST(FieldsTest, UnknownPresetSuggestsNames) {
  Workload w;
  Status st = GiveField(&w, "model", "llama-3.1-8");
  EXPECT_EQ(st.code(), StatusCode::kNotFound);
  EXPECT_NE(st.message().find("did you mean"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("llama-3.1-8b"), std::string::npos) << st.message();
}

TEST(FieldsTest, UnknownKeySuggestsNames) {
  Workload w;
  Status st = GiveField(&w, "seq-lenght", "4");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("seq-len"), std::string::npos) << st.message();
}

TEST(FieldsTest, ExplicitArchitectureWinsOverPresetInAnyOrder) {
  WorkloadFields a;
  ASSERT_TRUE(a.Give("kv-heads", {.text = "32"}).ok());
  ASSERT_TRUE(a.Give("model", {.text = "llama-3.1-8b"}).ok());
  WorkloadFields b;
  ASSERT_TRUE(b.Give("model", {.text = "llama-3.1-8b"}).ok());
  ASSERT_TRUE(b.Give("kv-heads", {.text = "32"}).ok());
  for (const WorkloadFields* given : {&a, &b}) {
    Result<Workload> w = given->Bind();
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    EXPECT_EQ(w->model.kv_heads, 32);
    EXPECT_EQ(w->model.layers, 32);
    EXPECT_EQ(w->model_name, "llama-3.1-8b");
  }
  // The flags of a command line over a workload file's: a later value for a field wins.
  ASSERT_TRUE(b.Give("kv_heads", {.text = "16"}).ok());
  EXPECT_EQ(b.Bind()->model.kv_heads, 16);
  // A preset and a config.json both name the architecture: one is refused, never ignored.
  ASSERT_TRUE(
      b.Give("model-config", {.text = std::string(GPUADVISOR_TESTS_DIR) +
                                      "/workload/fixtures/hf/qwen2.5_7b_instruct_yarn.json"})
          .ok());
  Result<Workload> both = b.Bind();
  EXPECT_EQ(both.status().field(), "model-config");
  EXPECT_NE(both.status().message().find("not both"), std::string::npos)
      << both.status().ToString();
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

TEST(FieldsTest, TasksForModelAreTheTasksValidateAccepts) {
  // Every preset against every model task: TasksForModel (what `gpuadvisor models` lists) must
  // be exactly the tasks whose model check passes, so the listing cannot promise a task that
  // estimate refuses, nor hide one it takes.
  const TaskKind kModelTasks[] = {
      TaskKind::kPretrain, TaskKind::kFinetune,    TaskKind::kLora,       TaskKind::kQlora,
      TaskKind::kServe,    TaskKind::kTrainVision, TaskKind::kInferVision};
  ASSERT_EQ(ModelPresets().size(), ModelPresetNames().size());
  for (const ModelPreset& p : ModelPresets()) {
    const std::vector<TaskKind> tasks = TasksForModel(p.arch);
    EXPECT_FALSE(tasks.empty()) << p.name;
    for (TaskKind t : kModelTasks) {
      Workload w;
      ASSERT_TRUE(GiveField(&w, "task", TaskKindName(t)).ok());
      ASSERT_TRUE(GiveField(&w, "model", p.name).ok()) << p.name;
      w.tokens = 1e9;
      w.images = 1000;
      w.input_tokens = 64;
      w.output_tokens = 16;
      const Status st = Validate(w);
      const bool listed = std::find(tasks.begin(), tasks.end(), t) != tasks.end();
      EXPECT_EQ(st.ok(), listed) << p.name << " " << TaskKindName(t) << ": " << st.message();
    }
  }
  Result<const ModelPreset*> llama = FindModelPreset("llama-3.1-8b");
  ASSERT_TRUE(llama.ok());
  EXPECT_EQ(TasksForModel((*llama)->arch).back(), TaskKind::kServe);
  Result<const ModelPreset*> unet = FindModelPreset("unet3d");
  ASSERT_TRUE(unet.ok());
  EXPECT_EQ(TasksForModel((*unet)->arch),
            (std::vector<TaskKind>{TaskKind::kTrainVision, TaskKind::kInferVision}));
}

TEST(FieldsTest, UnknownPresetPointsToTheModelsCommand) {
  for (const char* name : {"llama-3.1-8", "no-such-model-at-all"}) {
    Result<const ModelPreset*> p = FindModelPreset(name);
    ASSERT_FALSE(p.ok());
    EXPECT_NE(p.status().message().find("`gpuadvisor models` lists the presets"), std::string::npos)
        << p.status().message();
    EXPECT_EQ(p.status().message().find("doc/estimation.md"), std::string::npos);
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
  ASSERT_TRUE(GiveField(&w, "model", "llama-2-7b").ok());
  EXPECT_EQ(Validate(w).message().rfind("model:", 0), 0u);
}

}  // namespace
}  // namespace gpuadvisor
