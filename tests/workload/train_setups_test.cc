// Modern training setups (issue 15, item 4): op-level recomputation, optimizer offload, FSDP's
// per-layer overlap, frameworks, and an MLPerf-style LoRA run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"
#include "workload/device.h"
#include "workload/llm_formulas.h"
#include "workload/train_model.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::Gpus;
using testing::MakeWorkload;
using testing::TestGpu;
using workload_internal::MakeShape;
using workload_internal::ModelShape;
using workload_internal::TrainConfig;
using workload_internal::TrainingMemory;
using workload_internal::TrainingStep;
using workload_internal::TrainStep;

ModelShape Llama8b() {
  Result<const ModelPreset*> p = FindModelPreset("llama-3.1-8b");
  EXPECT_TRUE(p.ok());
  return MakeShape((*p)->arch);
}

// Llama-3.1-8B, 8 GPUs, FSDP (ZeRO-3), seq 8192, global batch 64.
TrainConfig Fsdp8(const ModelShape& m) {
  TrainConfig c;
  c.model = &m;
  c.seq = 8192;
  c.global_batch = 64;
  c.gpus = 8;
  c.par.dp = 8;
  c.par.zero = 3;
  c.par.micro_batch = 2;
  c.par.framework = Framework::kFsdp;
  return c;
}

TrainStep Step(const TrainConfig& c, const workload_internal::Topology& topo) {
  const GpuSpec& h100 = TestGpu("H100");
  return TrainingStep(c, h100, topo, *h100.bf16_tflops * 1e12, 0);
}

workload_internal::Topology H100Node() { return workload_internal::MakeTopology(Gpus("H100", 8)); }

TEST(OpRecomputeTest, MemoryAndFlopsLieBetweenNoneAndFull) {
  const ModelShape m = Llama8b();
  TrainConfig c = Fsdp8(m);
  double act[3], flop[3];
  const Recompute order[] = {Recompute::kNone, Recompute::kOp, Recompute::kFull};
  for (int i = 0; i < 3; ++i) {
    c.par.recompute = order[i];
    act[i] = TrainingMemory(c).activations;
    flop[i] = workload_internal::TrainHardwareFlopPerToken(m, c.seq, order[i]);
  }
  EXPECT_LT(act[1], act[0]);
  EXPECT_GT(act[1], act[2]);
  EXPECT_GT(flop[1], flop[0]);
  EXPECT_LT(flop[1], flop[2]);
  // torchtitan's policy keeps the block input and the q, v, w1, w2 and attention outputs:
  // (2 + 2 + 0.5 + 2 + 7 + 2) s·b·h bytes = 15.5 for Llama-3.1-8B (k = h/4, f = 3.5h).
  workload_internal::ActivationOptions o;
  o.recompute = Recompute::kOp;
  const double sbh = 8192.0 * 2 * 4096;
  EXPECT_NEAR(workload_internal::ActivationBytesPerLayer(m, 8192, 2, o) / sbh, 15.5, 1e-9);
  // Recomputed: wk (h x h/4), wo (h x h), w3 (h x 3.5h), forward only.
  EXPECT_NEAR(workload_internal::OpRecomputeFlopPerToken(m),
              2.0 * 4096 * (1024 + 4096 + 14336) * 32, 1);
}

TEST(OpRecomputeTest, IsAFieldValueAndInTheSearch) {
  Workload w;
  ASSERT_TRUE(GiveField(&w, "recompute", "op").ok());
  EXPECT_EQ(*w.parallelism.recompute, Recompute::kOp);
  EXPECT_STREQ(RecomputeName(Recompute::kOp), "op");
  const Status bad = GiveField(&w, "recompute", "ops");
  EXPECT_NE(bad.message().find("none|selective|full|op"), std::string::npos) << bad.message();
  // Llama-3.1-405B on 8192 H100 (TP 8, PP 16): no recompute does not fit 80 GB, op-level does
  // and re-runs less than full recomputation, so the search takes it.
  const Workload big = MakeWorkload({{"model", "llama-3.1-405b"},
                                     {"tokens", "15T"},
                                     {"seq-len", "8192"},
                                     {"tp", "8"},
                                     {"pp", "16"},
                                     {"micro-batch", "1"},
                                     {"global-batch", "2048"}});
  Hardware hw = Gpus("H100", 8192);
  hw.node_network_gbit_s = 3200;
  Result<Estimate> e = EstimateWorkload(big, hw);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->parallelism.recompute, Recompute::kOp);
  EXPECT_TRUE(e->memory.fits);
}

TEST(OffloadTest, CpuOffloadAddsTheTransferAndHostAdam) {
  const ModelShape m = Llama8b();
  TrainConfig c = Fsdp8(m);
  c.par.zero = 2;
  const workload_internal::Topology topo = H100Node();
  const TrainStep on_device = Step(c, topo);
  c.offload = Offload::kCpu;
  const TrainStep cpu = Step(c, topo);
  // The updated bf16 weights of this GPU's shard come back over PCIe Gen5 (50 GB/s x 0.7).
  const double shard = m.params.total / 8;
  const double to_device = shard * 2 / (50e9 * 0.7);
  EXPECT_GE(cpu.offload_s, to_device);
  EXPECT_GT(cpu.step_s - on_device.step_s, to_device - on_device.optimizer_s);
  EXPECT_EQ(cpu.optimizer_s, cpu.offload_s);
  // Fewer host cores per GPU: CPU-Adam takes longer.
  workload_internal::Topology small_host = topo;
  small_host.host_cores_per_device = 2;
  EXPECT_GT(Step(c, small_host).step_s, cpu.step_s);
  // NVMe streams the fp32 states too: slower again.
  c.offload = Offload::kNvme;
  EXPECT_GT(Step(c, topo).step_s, cpu.step_s);
}

TEST(OffloadTest, InstanceVcpusSetTheHostCores) {
  Hardware hw;
  hw.instance = &testing::TestInstance("p5.48xlarge");
  hw.gpu = &TestGpu("H100");
  hw.gpus = 8;
  InstanceType with_cpus = *hw.instance;
  with_cpus.vcpus = 192;
  with_cpus.local_nvme = true;
  with_cpus.local_disk_count = 8;
  hw.instance = &with_cpus;
  const workload_internal::Topology t = workload_internal::MakeTopology(hw);
  EXPECT_DOUBLE_EQ(t.host_cores_per_device, 12);  // 192 vCPUs = 96 cores for 8 GPUs
  EXPECT_FALSE(t.host_assumed);
  EXPECT_DOUBLE_EQ(t.nvme_bps_per_device, 2e9);
  EXPECT_TRUE(workload_internal::MakeTopology(Gpus("H100", 8)).host_assumed);
}

TEST(FsdpOverlapTest, ExposureGrowsAsTheMicroBatchShrinks) {
  const ModelShape m = Llama8b();
  TrainConfig c = Fsdp8(m);
  const workload_internal::Topology topo = H100Node();
  double previous = 0;
  for (int mb : {8, 4, 2, 1}) {
    c.par.micro_batch = mb;
    const TrainStep s = Step(c, topo);
    const double share = s.dp_comm_exposed_s / s.step_s;
    EXPECT_GT(share, previous) << "micro-batch " << mb;
    previous = share;
  }
}

// Exposed FSDP time per micro-batch: fixed (contention, first gather, last reduce-scatter)
// while each layer's compute covers its gathers, growing once it no longer does.
double ExposedPerMicroBatch(TrainConfig c, int micro_batch, double node_gbps) {
  c.par.micro_batch = micro_batch;
  Hardware hw = Gpus("H100", c.gpus);
  hw.node_network_gbit_s = node_gbps;
  return Step(c, workload_internal::MakeTopology(hw)).dp_comm_exposed_s / c.MicroBatches();
}

TEST(FsdpOverlapTest, LayersHideTheirGathersUntilTheComputeIsShorter) {
  const ModelShape m = Llama8b();
  TrainConfig c = Fsdp8(m);
  c.gpus = 64;
  c.par.dp = 64;
  c.global_batch = 512;
  // 3200 Gb/s per node (p5): a layer's gather (218M x 2 B over ~320 GB/s) is ~1.4 ms, its
  // forward at micro-batch 1 ~6 ms: hidden at every size, the same cost per micro-batch.
  EXPECT_NEAR(ExposedPerMicroBatch(c, 1, 3200), ExposedPerMicroBatch(c, 8, 3200),
              0.01 * ExposedPerMicroBatch(c, 8, 3200));
  // 400 Gb/s per node: ~14 ms per gather, longer than micro-batch 1's layer, shorter than 8's.
  EXPECT_GT(ExposedPerMicroBatch(c, 1, 400), 2 * ExposedPerMicroBatch(c, 8, 400));
}

TEST(FrameworkTest, MegatronCoreOverlapsTpCommunicationMegatronLmDoesNot) {
  Result<const ModelPreset*> p = FindModelPreset("llama-3.1-70b");
  ASSERT_TRUE(p.ok());
  const ModelShape m = MakeShape((*p)->arch);
  TrainConfig c;
  c.model = &m;
  c.seq = 4096;
  c.global_batch = 64;
  c.gpus = 64;
  c.par.tp = 8;
  c.par.pp = 4;
  c.par.dp = 2;
  c.par.zero = 1;
  c.par.sequence_parallel = true;
  c.par.recompute = Recompute::kFull;
  Hardware hw = Gpus("H100", 64);
  hw.node_network_gbit_s = 3200;
  const workload_internal::Topology topo = workload_internal::MakeTopology(hw);
  c.par.framework = Framework::kMegatronLm;
  const TrainStep legacy = Step(c, topo);
  c.par.framework = Framework::kMegatronCore;
  const TrainStep core = Step(c, topo);
  EXPECT_LT(core.tp_comm_s, 0.5 * legacy.tp_comm_s);
  EXPECT_LT(core.step_s, legacy.step_s);
  // The default framework follows the layout.
  EXPECT_EQ(workload_internal::DefaultFramework(8, 1, false), Framework::kMegatronCore);
  EXPECT_EQ(workload_internal::DefaultFramework(1, 1, false), Framework::kFsdp);
  EXPECT_EQ(workload_internal::DefaultFramework(8, 1, true), Framework::kNeuronx);
  Workload w;
  ASSERT_TRUE(GiveField(&w, "framework", "nemo").ok());
  EXPECT_EQ(*w.framework, Framework::kMegatronCore);
  EXPECT_FALSE(GiveField(&w, "framework", "jax").ok());
}

// NVFP4 training (TransformerEngine): the Linear GEMMs at the FP4 rate, twice FP8's on
// Blackwell, with each input quantised row- and column-wise; attention, the elementwise work and
// the communication stay as they were, so the step gains less than 2x. Blackwell only, in
// Megatron-Core (the default for it), and for LLM training only.
TEST(FrameworkTest, Nvfp4TrainingRunsTheLinearGemmsAtTheFp4Rate) {
  auto run = [](const char* precision, const char* gpu) {
    const Workload w = MakeWorkload({{"task", "pretrain"},
                                     {"model", "llama-3.1-8b"},
                                     {"seq-len", "8192"},
                                     {"precision", precision},
                                     {"tp", "1"},
                                     {"pp", "1"},
                                     {"zero", "1"},
                                     {"micro-batch", "2"},
                                     {"global-batch", "16"},
                                     {"recompute", "none"},
                                     {"framework", "megatron-core"},
                                     {"tokens", "10B"}});
    EXPECT_TRUE(Validate(w).ok()) << Validate(w).ToString();
    return EstimateWorkload(w, Gpus(gpu, 8));
  };
  Result<Estimate> fp8 = run("fp8", "B200"), fp4 = run("fp4", "B200");
  ASSERT_TRUE(fp8.ok() && fp4.ok());
  const double speedup =
      *fp4->performance.tokens_per_s_per_gpu / *fp8->performance.tokens_per_s_per_gpu;
  EXPECT_GT(speedup, 1.2);
  EXPECT_LT(speedup, 1.8);
  EXPECT_EQ(fp4->precision, Precision::kFp4);
  Result<Estimate> hopper = run("fp4", "H100");
  ASSERT_FALSE(hopper.ok());
  EXPECT_EQ(hopper.status().message().rfind("precision:", 0), 0u);
  EXPECT_EQ(workload_internal::DefaultFramework(1, 1, false, true), Framework::kMegatronCore);
  for (const auto& [task, framework] :
       {std::pair<const char*, const char*>{"serve", ""}, {"pretrain", "fsdp"}}) {
    const bool serve = std::string(task) == "serve";
    Workload w = serve
                     ? MakeWorkload({{"task", task}, {"model", "llama-3.1-8b"}})
                     : MakeWorkload({{"task", task}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}});
    ASSERT_TRUE(GiveField(&w, "precision", "fp4").ok());
    if (!serve) {
      ASSERT_TRUE(GiveField(&w, "framework", framework).ok());
    }
    EXPECT_EQ(Validate(w).message().rfind("precision:", 0), 0u) << task << " " << framework;
  }
}

// --torch-compile fuses torchtitan's eager elementwise ops (less memory traffic, a shorter
// step) and leaves its loss, and so its memory, as it was; it is refused where no PyTorch runs.
TEST(FrameworkTest, TorchCompileFusesTheElementwiseOpsOfPyTorchFrameworksOnly) {
  auto titan = [](const char* compile) {
    return MakeWorkload({{"task", "pretrain"},
                         {"model", "llama-3.1-8b"},
                         {"seq-len", "8192"},
                         {"framework", "torchtitan"},
                         {"torch-compile", compile},
                         {"zero", "3"},
                         {"tp", "1"},
                         {"pp", "1"},
                         {"micro-batch", "2"},
                         {"global-batch", "16"},
                         {"recompute", "op"},
                         {"tokens", "1B"}});
  };
  Result<Estimate> eager = EstimateWorkload(titan("false"), Gpus("H100", 8));
  Result<Estimate> compiled = EstimateWorkload(titan("true"), Gpus("H100", 8));
  ASSERT_TRUE(eager.ok() && compiled.ok());
  EXPECT_LT(*compiled->performance.step_time_s, 0.97 * *eager->performance.step_time_s);
  EXPECT_DOUBLE_EQ(compiled->memory.total_gib, eager->memory.total_gib);
  // Without --framework it picks a PyTorch framework: torchtitan where the layout has TP.
  Workload tp = MakeWorkload({{"task", "pretrain"},
                              {"model", "llama-3.1-8b"},
                              {"tp", "8"},
                              {"torch-compile", "true"},
                              {"tokens", "1B"}});
  Result<Estimate> picked = EstimateWorkload(tp, Gpus("H100", 8));
  ASSERT_TRUE(picked.ok());
  EXPECT_TRUE(
      std::any_of(picked->assumptions.begin(), picked->assumptions.end(), [](const std::string& a) {
        return a.find("framework torchtitan (default") == 0 &&
               a.find("under torch.compile") != std::string::npos;
      }));
  Workload megatron = tp;
  megatron.framework = Framework::kMegatronCore;
  Status st = Validate(megatron);
  EXPECT_EQ(st.field(), "torch-compile");
  EXPECT_NE(st.message().find("megatron-core"), std::string::npos) << st.message();
  Result<Estimate> neuron = EstimateWorkload(titan("true"), Gpus("Trainium", 16));
  ASSERT_FALSE(neuron.ok());
  EXPECT_EQ(neuron.status().field(), "torch-compile");
}

// MLPerf Training v4.0, NVIDIA's Llama-2-70B LoRA on one DGX H100: TP 4, SP, DP 2, FP8 with
// FP8 weights, micro-batch 1, seq 8192, no activation checkpointing, rank 16 on attention.
Workload MlperfLora(const char* precision) {
  return MakeWorkload({{"task", "lora"},
                       {"model", "llama-2-70b"},
                       {"lora-rank", "16"},
                       {"lora-targets", "attention"},
                       {"seq-len", "8192"},
                       {"precision", precision},
                       {"framework", "megatron-core"},
                       {"tp", "4"},
                       {"pp", "1"},
                       {"sequence-parallel", "true"},
                       {"micro-batch", "1"},
                       {"global-batch", "8"},
                       {"recompute", "none"},
                       {"tokens", "10M"}});
}

TEST(LoraTest, MlperfLlama70bLoraFits80GbWithoutRecompute) {
  Result<Estimate> e = EstimateWorkload(MlperfLora("fp8"), Gpus("H100", 8));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_TRUE(e->memory.fits) << e->memory.total_gib;
  EXPECT_LT(e->memory.total_gib, 79.6);
  EXPECT_EQ(e->parallelism.recompute, Recompute::kNone);
  // FP8 base weights: 1 B per Linear weight of the 69B / TP 4.
  EXPECT_LT(*e->memory.weights_gib, 17);
  // Kept in bf16 with the base replicated over the two DP ranks (NeMo's distributed optimizer
  // shards only the optimizer states), the base takes twice the memory.
  Workload replicated = MlperfLora("bf16");
  replicated.parallelism.zero = 1;
  Result<Estimate> bf16 = EstimateWorkload(replicated, Gpus("H100", 8));
  ASSERT_TRUE(bf16.ok());
  EXPECT_GT(*bf16->memory.weights_gib, 1.9 * *e->memory.weights_gib);
  EXPECT_GT(bf16->memory.total_gib, e->memory.total_gib + 15);
  // ZeRO-3 shards the frozen base as well: half of it on each of the two DP ranks.
  Workload sharded = MlperfLora("bf16");
  sharded.parallelism.zero = 3;
  Result<Estimate> zero3 = EstimateWorkload(sharded, Gpus("H100", 8));
  ASSERT_TRUE(zero3.ok());
  EXPECT_TRUE(zero3->memory.fits) << zero3->memory.total_gib;
  EXPECT_NEAR(*zero3->memory.weights_gib, 0.5 * *bf16->memory.weights_gib, 0.1);
}

TEST(LoraTest, FrozenUnadaptedMlpKeepsNoInputs) {
  const ModelShape m = Llama8b();
  workload_internal::ActivationOptions full;
  workload_internal::ActivationOptions attention_only;
  attention_only.frozen_base = LoraTargets::kAttention;
  workload_internal::ActivationOptions all_adapted;
  all_adapted.frozen_base = LoraTargets::kAll;
  const double sbh = 8192.0 * 4096;
  const double none = workload_internal::ActivationBytesPerLayer(m, 8192, 1, full);
  // The second norm's output (2) and the gated product (2 x 3.5) are not kept.
  EXPECT_NEAR((none - workload_internal::ActivationBytesPerLayer(m, 8192, 1, attention_only)) / sbh,
              2 + 7, 1e-9);
  EXPECT_DOUBLE_EQ(workload_internal::ActivationBytesPerLayer(m, 8192, 1, all_adapted), none);
}

}  // namespace
}  // namespace gpuadvisor

namespace gpuadvisor {
namespace {

// The search stops at the first recompute level that fits (recompute only adds work); whatever it
// skips, the plan it picks is as fast as the best plan of every recompute policy searched alone.
TEST(ParallelismSearchTest, RecomputePruningKeepsTheFastestPlan) {
  struct Case {
    const char* model;
    const char* gpu;
    int gpus;
    const char* seq;
  };
  for (const Case& k :
       {Case{"llama-3.1-8b", "H100", 8, "8192"}, Case{"llama-3.1-70b", "H100", 64, "4096"},
        Case{"llama-3.1-8b", "A100-40GB", 8, "4096"},
        Case{"llama-3.1-70b", "A100-80GB", 32, "2048"}, Case{"llama-3.1-8b", "L40S", 4, "4096"}}) {
    SCOPED_TRACE(std::string(k.model) + " on " + k.gpu);
    const Workload w = MakeWorkload(
        {{"task", "pretrain"}, {"model", k.model}, {"tokens", "10B"}, {"seq-len", k.seq}});
    Result<Estimate> searched = EstimateWorkload(w, Gpus(k.gpu, k.gpus), {}, EstimateMode::kFast);
    ASSERT_TRUE(searched.ok()) << searched.status().ToString();
    double best = INFINITY;
    for (Recompute rc :
         {Recompute::kNone, Recompute::kSelective, Recompute::kOp, Recompute::kFull}) {
      ParallelismRequest req;
      req.recompute = rc;
      Result<Estimate> e = EstimateWorkload(w, Gpus(k.gpu, k.gpus), req, EstimateMode::kFast);
      ASSERT_TRUE(e.ok()) << e.status().ToString();
      if (e->memory.fits && e->performance.step_time_s)
        best = std::min(best, *e->performance.step_time_s);
    }
    ASSERT_TRUE(std::isfinite(best));
    ASSERT_TRUE(searched->memory.fits);
    EXPECT_NEAR(*searched->performance.step_time_s, best, 1e-9 * best);
  }
}

// Fine-tuning memory as the common single-GPU stacks allocate it. LitGPT's LoRA table (A100
// 40GB, Llama 2, r 8 on q and v, 1304-token sequences, no checkpointing) publishes the runs that
// fit and the ones that went out of memory: the estimate draws the same line.
Workload LitgptLora(const char* task, const char* model, const char* micro_batch) {
  return MakeWorkload({{"task", task},
                       {"model", model},
                       {"framework", "litgpt"},
                       {"lora-rank", "8"},
                       {"lora-targets", "qv"},
                       {"seq-len", "1304"},
                       {"precision", "bf16"},
                       {"micro-batch", micro_batch},
                       {"global-batch", "128"},
                       {"recompute", "none"},
                       {"tokens", "10M"}});
}

TEST(FineTuneFrameworkTest, LitgptFitsWhereItsTableFitsAndNotWhereItRanOutOfMemory) {
  struct Row {
    const char* task;
    const char* model;
    const char* micro_batch;
    bool fits;
  };
  for (const Row& r :
       {Row{"lora", "llama-2-7b", "2", true}, Row{"lora", "llama-2-7b", "4", false},
        Row{"lora", "llama-2-13b", "1", true}, Row{"lora", "llama-2-13b", "2", false},
        Row{"qlora", "llama-2-13b", "1", true}}) {
    Result<Estimate> e =
        EstimateWorkload(LitgptLora(r.task, r.model, r.micro_batch), Gpus("A100-40GB", 1));
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    EXPECT_EQ(e->memory.fits, r.fits) << r.task << " " << r.model << " mb " << r.micro_batch << ": "
                                      << e->memory.total_gib << " GiB";
  }
}

// What the frameworks keep beyond the fused count: bitsandbytes' QLoRA keeps the frozen 4-bit
// layers' inputs (QLoRA's activations exceed LoRA's), LitGPT quantises the LM head where PEFT
// leaves it 16-bit and casts it (and the embeddings) to fp32, and the Trainer's model loss holds
// 12 B per logit where LitGPT's chunked loss holds 4.
TEST(FineTuneFrameworkTest, PeftAndLitgptKeepWhatTheirCodeKeeps) {
  auto memory = [](const char* framework, const char* task) {
    Workload w = LitgptLora(task, "llama-3.1-8b", "1");
    EXPECT_TRUE(GiveField(&w, "framework", framework).ok());
    Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 1));
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    return e.ok() ? e->memory : MemoryEstimate{};
  };
  const MemoryEstimate lit_lora = memory("litgpt", "lora"), lit_qlora = memory("litgpt", "qlora");
  const MemoryEstimate hf_lora = memory("hf-peft", "lora"), hf_qlora = memory("hf-peft", "qlora");
  EXPECT_GT(*lit_qlora.activations_gib, *lit_lora.activations_gib);
  EXPECT_GT(*hf_qlora.activations_gib, *hf_lora.activations_gib);
  // Llama 3.1 8B's 525M-parameter head: ~0.27 GiB in NF4, ~1.96 GiB in fp32, plus the fp32 table.
  EXPECT_GT(*hf_qlora.weights_gib, *lit_qlora.weights_gib + 2.5);
  // 1304 x 128,256 logits: 8 B per logit more under the Trainer's loss, ~1.25 GiB.
  EXPECT_GT(*hf_lora.activations_gib, *lit_lora.activations_gib + 1.2);
  Workload w;
  for (const char* alias : {"hf", "transformers", "peft", "trl"}) {
    ASSERT_TRUE(GiveField(&w, "framework", alias).ok()) << alias;
    EXPECT_EQ(*w.framework, Framework::kHfPeft) << alias;
  }
  ASSERT_TRUE(GiveField(&w, "framework", "lit-gpt").ok());
  EXPECT_EQ(*w.framework, Framework::kLitgpt);
}

// torch.optim.AdamW (foreach) takes a temporary the size of the parameters at the step, once
// the activations are freed: with short sequences the step, not the backward pass, is the peak.
TEST(FineTuneFrameworkTest, TheForeachOptimizerStepCanBeThePeak) {
  auto overhead = [](const char* framework) {
    const Workload w = MakeWorkload({{"task", "finetune"},
                                     {"model", "llama-3.1-8b"},
                                     {"framework", framework},
                                     {"seq-len", "256"},
                                     {"precision", "bf16"},
                                     {"micro-batch", "1"},
                                     {"global-batch", "1"},
                                     {"recompute", "full"},
                                     {"tokens", "10M"}});
    Result<Estimate> e = EstimateWorkload(w, Gpus("H200", 1));
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    return e.ok() ? *e->memory.overhead_gib : 0.0;
  };
  // Both pure bf16; the temporary is one bf16 moment, 2 B x 8.03B = ~15 GiB.
  EXPECT_GT(overhead("hf-peft"), overhead("torchtune") + 12);
}

}  // namespace
}  // namespace gpuadvisor
