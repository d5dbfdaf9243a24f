// AWS Neuron devices: NeuronLink topology (never PCIe), TP in chips, the per-generation
// efficiencies, and behaviour against the AWS Neuron benchmark tables that would move if the
// Neuron model regressed.
#include "workload/neuron.h"

#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"
#include "workload/device.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::Gpus;
using testing::MakeWorkload;
using testing::Mentions;
using testing::TestGpu;
using workload_internal::ChipsForNeuronCores;
using workload_internal::EfficiencyFor;
using workload_internal::IntraLink;
using workload_internal::IsNeuronDevice;
using workload_internal::MakeTopology;
using workload_internal::NeuronCoresPerChip;
using workload_internal::NeuronLinkGbyteS;
using workload_internal::NeuronLogicalCoresPerChip;
using workload_internal::PeakFlops;
using workload_internal::Topology;

InstanceType NeuronInstance(const char* name, const char* family, int chips, double gbps) {
  InstanceType t;
  t.name = name;
  t.family = family;
  t.accelerator.kind = AcceleratorKind::kNeuron;
  t.accelerator.count = t.accelerator.logical_count = chips;
  t.network_gbit_s = gbps;
  t.efa = true;
  return t;
}

TEST(NeuronTopologyTest, ChipsTalkOverNeuronLinkNotPcie) {
  const Topology trn = MakeTopology(Gpus("Trainium", 16));
  EXPECT_EQ(trn.link, IntraLink::kNeuronLink);
  EXPECT_FALSE(trn.nvlink);
  EXPECT_EQ(trn.link_topology, "2d-torus");
  // 384 GiB/s (412.317 GB/s) per chip, rings send one way on half the links, x 0.7.
  EXPECT_NEAR(trn.intra_bps, 412.317e9 / 4 * 0.7, 1e6);
  EXPECT_EQ(trn.LinkName(), "NeuronLink (2d-torus)");
  const Topology inf2 = MakeTopology(Gpus("Inferentia2", 12));
  EXPECT_EQ(inf2.link, IntraLink::kNeuronLink);
  EXPECT_EQ(inf2.link_topology, "ring");
  EXPECT_NEAR(inf2.intra_bps, 206.158e9 / 4 * 0.7, 1e6);
  // A PCIe GPU node for contrast: NeuronLink is several times faster than the host link.
  const Topology l4 = MakeTopology(Gpus("L4", 8));
  EXPECT_EQ(l4.link, IntraLink::kPcie);
  EXPECT_GT(trn.intra_bps, 3 * l4.intra_bps);
}

// The NeuronLink and core figures are the catalog's, the instance type's own figure first
// (trn1n.32xlarge: 768 GiB/s per chip, twice trn1.32xlarge's); a spec without them has none: no
// chip table stands behind the catalog.
TEST(NeuronTopologyTest, CatalogFiguresOnly) {
  GpuSpec bare = TestGpu("Trainium");  // a catalog written before the NeuronLink fields
  bare.neuron_cores = 0;
  bare.neuronlink_gbyte_s.reset();
  bare.neuronlink_topology.clear();
  EXPECT_EQ(NeuronCoresPerChip(bare), 1);
  EXPECT_EQ(NeuronLinkGbyteS(bare), 0);
  GpuSpec wider = TestGpu("Trainium");
  wider.neuronlink_gbyte_s = 500;
  EXPECT_EQ(NeuronLinkGbyteS(wider), 500);
  const InstanceType trn1 = NeuronInstance("trn1.32xlarge", "trn1", 16, 800);
  InstanceType trn1n = NeuronInstance("trn1n.32xlarge", "trn1n", 16, 1600);
  EXPECT_NEAR(NeuronLinkGbyteS(TestGpu("Trainium"), &trn1), 412.317, 1e-9);
  trn1n.accelerator.neuronlink_gbyte_s = 824.634;  // the catalog's per-type figure (issue 37)
  EXPECT_NEAR(NeuronLinkGbyteS(TestGpu("Trainium"), &trn1n), 824.634, 1e-9);
  Hardware hw = Gpus("Trainium", 32);
  hw.instance = &trn1n;
  const Topology t = MakeTopology(hw);
  EXPECT_EQ(t.gpus_per_node, 16);
  EXPECT_EQ(t.nodes, 2);
  EXPECT_NEAR(t.intra_bps, 824.634e9 / 4 * 0.7, 1e6);
  EXPECT_NEAR(t.inter_bps_node, 1600e9 / 8 * 0.8, 1e6);  // EFA between trn1n instances
  // The embedded catalog carries the per-type figure.
  const InstanceType* real = testing::EmbeddedForTests().FindInstanceType("trn1n.32xlarge");
  ASSERT_NE(real, nullptr);
  EXPECT_NEAR(NeuronLinkGbyteS(TestGpu("Trainium"), real), 824.634, 1e-3);
}

// A bare count of Neuron devices (`--gpu Trainium --gpus 512`): the node is the largest catalog
// instance that carries the device, as ResolveHardware names it; no table of nodes in the
// estimator. Without a catalog node a bare count is 8 per node, as for any device.
TEST(NeuronTopologyTest, BareCountAssumesTheLargestInstance) {
  const auto topology = [](const char* gpu, int gpus) {
    HardwareRequest r;
    r.gpu = gpu;
    r.gpus = gpus;
    Result<Hardware> hw = ResolveHardware(testing::EmbeddedForTests(), r);
    EXPECT_TRUE(hw.ok()) << hw.status().ToString();
    EXPECT_NE(hw->assumed_node, nullptr);
    return MakeTopology(*hw);
  };
  const Topology t = topology("Trainium", 512);
  EXPECT_EQ(t.gpus_per_node, 16);  // trn1n.32xlarge, not 8 devices per node
  EXPECT_EQ(t.nodes, 32);
  EXPECT_DOUBLE_EQ(t.node_network_gbit_s, 1600);             // its EFA
  EXPECT_EQ(topology("Inferentia2", 24).gpus_per_node, 12);  // inf2.48xlarge
  EXPECT_DOUBLE_EQ(topology("Trainium2", 64).node_network_gbit_s, 3200);
  EXPECT_EQ(topology("H100", 64).gpus_per_node, 8);
  Hardware bare;
  bare.gpu = &TestGpu("Trainium");
  bare.gpus = 512;
  const Topology no_node = MakeTopology(bare);
  EXPECT_EQ(no_node.gpus_per_node, 8);
  EXPECT_TRUE(no_node.node_assumed);
  EXPECT_TRUE(no_node.network_assumed);
}

TEST(NeuronTopologyTest, SmallAllReduceLatencyFlatOnNeuronGrowingOnNvlink) {
  const Topology trn = MakeTopology(Gpus("Trainium", 16));
  EXPECT_DOUBLE_EQ(trn.SmallAllReduceLatency(2), trn.SmallAllReduceLatency(16));  // Mesh: O(1)
  EXPECT_DOUBLE_EQ(trn.SmallAllReduceLatency(1), 0);
  const Topology h100 = MakeTopology(Gpus("H100", 8));
  EXPECT_GT(h100.SmallAllReduceLatency(8), 1.5 * h100.SmallAllReduceLatency(2));
}

TEST(NeuronChipTest, TensorParallelDegreesInNeuronCoresBecomeChips) {
  EXPECT_EQ(ChipsForNeuronCores(TestGpu("Inferentia2"), 24), 12);  // inf2.48xlarge TP=24
  EXPECT_EQ(ChipsForNeuronCores(TestGpu("Trainium"), 32), 16);     // trn1.32xlarge TP=32
  EXPECT_EQ(NeuronLogicalCoresPerChip(TestGpu("Trainium2")), 4);   // 8 physical at LNC=2
  EXPECT_EQ(ChipsForNeuronCores(TestGpu("Trainium2"), 64), 16);    // trn2.48xlarge TP=64
  EXPECT_FALSE(ChipsForNeuronCores(TestGpu("Trainium"), 3).has_value());
  EXPECT_FALSE(ChipsForNeuronCores(TestGpu("Trainium"), 0).has_value());
  EXPECT_FALSE(IsNeuronDevice(TestGpu("H100")));
  EXPECT_TRUE(IsNeuronDevice(TestGpu("Inferentia2")));
}

// Peaks are the catalog's chip figures; a precision the chip publishes no figure for has none.
TEST(NeuronChipTest, PeaksAreTheCatalogsChipFigures) {
  const GpuSpec& trn2 = TestGpu("Trainium2");
  EXPECT_NEAR(*PeakFlops(trn2, Precision::kBf16), 667e12, 1e9);
  EXPECT_NEAR(*PeakFlops(trn2, Precision::kFp8), 1299e12, 1e9);  // FP8 doubles on NC-v3
  EXPECT_NEAR(*PeakFlops(trn2, Precision::kFp32), 181e12, 1e9);
  EXPECT_FALSE(PeakFlops(trn2, Precision::kFp64).has_value());
  EXPECT_NEAR(*PeakFlops(TestGpu("Trainium"), Precision::kFp8), 190e12, 1e9);  // cFP8 = BF16 rate
  GpuSpec fp16_only = TestGpu("Trainium");  // Inferentia's shape: FP16, no BF16 figure
  fp16_only.bf16_tflops.reset();
  fp16_only.fp16_tflops = 64;
  EXPECT_NEAR(*PeakFlops(fp16_only, Precision::kBf16), 64e12, 1e9);
  GpuSpec none = TestGpu("Trainium2");
  none.bf16_tflops = none.fp16_tflops = none.tf32_tflops = std::nullopt;
  EXPECT_FALSE(workload_internal::NeuronChipPeakFlops(none, Precision::kBf16).has_value());
}

TEST(NeuronEfficiencyTest, PerGenerationTrainingPrefillAndDecode) {
  const auto& v2 = EfficiencyFor(TestGpu("Trainium"));
  EXPECT_STREQ(v2.name, "NeuronCore-v2");
  EXPECT_STREQ(EfficiencyFor(TestGpu("Inferentia2")).name, "NeuronCore-v2");
  EXPECT_STREQ(EfficiencyFor(TestGpu("Trainium2")).name, "NeuronCore-v3");
  EXPECT_FALSE(v2.low_confidence);
  EXPECT_TRUE(EfficiencyFor(TestGpu("Trainium2")).low_confidence);
  // The prompt's GEMMs run at the training matmul efficiency (what slows prompts is modelled
  // apart: padded heads, tile fill, scores, all-reduces); decode pays a per-layer cost GPUs do not.
  EXPECT_DOUBLE_EQ(v2.PrefillEfficiency(), v2.matmul);
  const auto& hopper = EfficiencyFor(TestGpu("H100"));
  EXPECT_DOUBLE_EQ(hopper.PrefillEfficiency(), 0.75 * hopper.matmul);
  EXPECT_GT(v2.decode_layer_s, 10 * hopper.decode_layer_s);
}

// AWS "Inf2 Inference Performance" (transformers-neuronx, SDK 2.18, batch 1, TP=24 NeuronCores):
// Llama-2-7b 6.47 ms and Llama-2-70b 33.15 ms per output token (128-token prompts).
TEST(NeuronServingTest, BatchOneDecodeFollowsTheInf2Tables) {
  for (const auto& [model, published] :
       {std::pair<const char*, double>{"llama-2-7b", 6.47}, {"llama-2-70b", 33.15}}) {
    const Workload w = MakeWorkload({{"task", "serve"},
                                     {"model", model},
                                     {"concurrency", "1"},
                                     {"input-tokens", "128"},
                                     {"output-tokens", "1024"},
                                     {"tp", "12"}});
    Result<Estimate> e = EstimateWorkload(w, Gpus("Inferentia2", 12));
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    EXPECT_NEAR(*e->performance.itl_ms, published, 0.2 * published) << model;
    EXPECT_EQ(e->parallelism.tp, 12);
    EXPECT_TRUE(Mentions(*e, "NeuronLink (ring)")) << model;
    EXPECT_TRUE(Mentions(*e, "TP 12 chips = 24 NeuronCores")) << model;
  }
}

// The KV cache is split over NeuronCores, not chips: Llama-3-70B's 8 KV heads over TP 24
// NeuronCores sit three times each, two cores (and two copies' worth) per inf2 chip.
TEST(NeuronServingTest, KvHeadsAreReplicatedPerNeuronCore) {
  const Workload w = MakeWorkload({{"task", "serve"},
                                   {"model", "llama-3-70b"},
                                   {"concurrency", "4"},
                                   {"input-tokens", "2048"},
                                   {"output-tokens", "2048"},
                                   {"tp", "12"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("Inferentia2", 12));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  const double whole_gib = 4 * 4096 * *e->memory.kv_cache_kib_per_token / (1024.0 * 1024);
  EXPECT_NEAR(*e->memory.kv_cache_gib, whole_gib / 4, 1e-6 * whole_gib);  // min(24, 8) / 2
}

// A compiled decode step attends over its sequence-length bucket (a power of two) whole: every
// position of one bucket costs the same step, the next bucket more.
TEST(NeuronServingTest, DecodeAttendsOverTheWholeBucket) {
  auto step = [](const char* input, const char* output) {
    const Workload w = MakeWorkload({{"task", "serve"},
                                     {"model", "llama-3-70b"},
                                     {"concurrency", "8"},
                                     {"input-tokens", input},
                                     {"output-tokens", output},
                                     {"tp", "12"}});
    Result<Estimate> e = EstimateWorkload(w, Gpus("Inferentia2", 12));
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    return e.ok() ? *e->performance.step_time_s : 0.0;
  };
  EXPECT_DOUBLE_EQ(step("4200", "100"), step("8000", "100"));  // both in the 8192 bucket
  EXPECT_GT(step("4200", "100"), 1.05 * step("3900", "100"));  // 4096 bucket
}

TEST(NeuronServingTest, PromptProcessingAtThePrefillEfficiency) {
  auto ttft = [](const char* input) {
    const Workload w = MakeWorkload({{"task", "serve"},
                                     {"model", "llama-3-70b"},
                                     {"concurrency", "1"},
                                     {"input-tokens", input},
                                     {"output-tokens", "256"},
                                     {"tp", "12"}});
    Result<Estimate> e = EstimateWorkload(w, Gpus("Inferentia2", 12));
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    return e.ok() ? *e->performance.ttft_ms : 0.0;
  };
  // 2048 prompt tokens of Llama-3-70B on 12 chips: 2.9e14 FLOP of GEMMs at 0.45 of 2.28 PFLOP/s,
  // materialised scores and the prompt's all-reduces ~ 0.7 s (the table: 745 ms). 7168 tokens
  // get NxD Inference's flash kernel (>= 4096 at LNC=1): ~3.5x the time, not the scores' 12x.
  const double t2k = ttft("2048");
  EXPECT_GT(t2k, 550);
  EXPECT_LT(t2k, 900);
  EXPECT_NEAR(ttft("7168") / t2k, 3.5, 0.8);
}

// Context encoding without a flash kernel (transformers-neuronx of the SDK 2.18 tables) grows
// faster than the prompt: each head's S x S scores go through the Vector Engine and, past the
// SBUF, through HBM. The table: Llama-2-13B on inf2.48xlarge 334 ms at 4096 tokens, 994 at 8192.
TEST(NeuronServingTest, UnfusedPromptGrowsSuperlinearly) {
  auto ttft = [](const char* input, const char* flash) {
    const Workload w = MakeWorkload({{"task", "serve"},
                                     {"model", "llama-2-13b"},
                                     {"concurrency", "1"},
                                     {"input-tokens", input},
                                     {"output-tokens", "256"},
                                     {"context-length", "16384"},
                                     {"flash-attention", flash},
                                     {"tp", "12"}});
    Result<Estimate> e = EstimateWorkload(w, Gpus("Inferentia2", 12));
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    return e.ok() ? *e->performance.ttft_ms : 0.0;
  };
  const double unfused = ttft("8192", "false") / ttft("4096", "false");
  EXPECT_GT(unfused, 2.3);
  // NxD Inference's flash kernel keeps the same doubling near linear.
  const double fused = ttft("8192", "true") / ttft("4096", "true");
  EXPECT_LT(fused, 2.3);
  EXPECT_GT(ttft("8192", "false"), 1.5 * ttft("8192", "true"));
}

// Heads that do not divide the TP NeuronCores are padded up to a multiple of them, and the FFN
// shard per core runs in 128-wide TensorEngine passes.
TEST(NeuronServingTest, PaddedHeadsAndTileFill) {
  using workload_internal::NeuronPaddedHeads;
  using workload_internal::NeuronTileFill;
  EXPECT_DOUBLE_EQ(NeuronPaddedHeads(40, 32), 64);  // Llama-2-13B on trn1.32xlarge
  EXPECT_DOUBLE_EQ(NeuronPaddedHeads(40, 24), 48);  // on inf2.48xlarge
  EXPECT_DOUBLE_EQ(NeuronPaddedHeads(64, 32), 64);
  EXPECT_DOUBLE_EQ(NeuronTileFill(13824.0 / 32), 432.0 / 512);
  EXPECT_DOUBLE_EQ(NeuronTileFill(28672.0 / 32), 1);
  // Llama-2-13B's 40 heads run as 64 on trn1.32xlarge's 32 NeuronCores and as 48 on
  // inf2.48xlarge's 24; Mistral-7B's 32 as 32 and 48. Trainium's 4/3 more cores therefore gain
  // less on Llama-2-13B than on Mistral-7B.
  auto ttft = [](const char* model, const char* gpu, int chips, const char* tp) {
    const Workload w = MakeWorkload({{"task", "serve"},
                                     {"model", model},
                                     {"concurrency", "1"},
                                     {"input-tokens", "2048"},
                                     {"output-tokens", "256"},
                                     {"flash-attention", "false"},
                                     {"tp", tp}});
    Result<Estimate> e = EstimateWorkload(w, Gpus(gpu, chips));
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    return e.ok() ? *e->performance.ttft_ms : 0.0;
  };
  const double llama13 =
      ttft("llama-2-13b", "Trainium", 16, "16") / ttft("llama-2-13b", "Inferentia2", 12, "12");
  const double mistral =
      ttft("mistral-7b", "Trainium", 16, "16") / ttft("mistral-7b", "Inferentia2", 12, "12");
  EXPECT_GT(llama13, mistral + 0.05) << llama13 << " vs " << mistral;
}

TEST(NeuronServingTest, InferentiaOneServesNoLlm) {
  GpuSpec inf1 = TestGpu("Inferentia2");
  inf1.model = "Inferentia";
  inf1.architecture = "NeuronCore-v1 (4 cores/chip)";
  const Workload serve = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}});
  Hardware hw;
  hw.gpu = &inf1;
  EXPECT_EQ(EstimateWorkload(serve, hw).status().code(), StatusCode::kUnsupported);
}

// 70B in bf16 (141 GB) only fits inf2.48xlarge sharded over all 12 chips (TP=24 NeuronCores, as
// the Inf2 tables run it): the TP search must try the non-power-of-two node size.
TEST(NeuronServingTest, TensorParallelOverEveryChipOfAnInf2Node) {
  const Workload w = MakeWorkload({{"task", "serve"}, {"model", "llama-3-70b"}, {"rps", "0.2"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("Inferentia2", 12));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->parallelism.tp, 12);
  EXPECT_TRUE(e->memory.fits);
  Result<Estimate> h100 = EstimateWorkload(w, Gpus("H100", 12));  // GPUs: powers of two only
  ASSERT_TRUE(h100.ok());
  EXPECT_NE(h100->parallelism.tp, 12);
}

// The Neuron runtime pins the weights in host memory while it loads them: an 8B model in bf16
// (15 GiB) cannot start on an inf2.xlarge (16 GiB of host memory); int8 weights or an
// inf2.8xlarge (64 GiB) can.
TEST(NeuronServingTest, HostMemoryMustStageTheWeights) {
  auto serve = [](int host_mib, const char* quantization) {
    InstanceType t = NeuronInstance("inf2.test", "inf2", 1, 15);
    t.memory_mib = host_mib;
    Hardware hw = Gpus("Inferentia2", 1);
    hw.instance = &t;
    Workload w = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}, {"rps", "0.5"}});
    if (*quantization) {
      EXPECT_TRUE(GiveField(&w, "quantization", quantization).ok());
    }
    return EstimateWorkload(w, hw).status();
  };
  const Status small = serve(16384, "");
  EXPECT_EQ(small.code(), StatusCode::kUnsupported);
  EXPECT_NE(small.message().find("host memory"), std::string::npos) << small.ToString();
  EXPECT_NE(small.message().find("inf2.test"), std::string::npos);
  EXPECT_TRUE(serve(16384, "int8").ok());
  EXPECT_TRUE(serve(65536, "").ok());
  // GPUs load through memory-mapped safetensors: no such limit.
  InstanceType g = NeuronInstance("g6.test", "g6", 1, 10);
  g.memory_mib = 16384;
  Hardware l4 = Gpus("L4", 1);
  l4.instance = &g;
  const Workload w = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}, {"rps", "0.5"}});
  EXPECT_TRUE(EstimateWorkload(w, l4).ok());
}

// A model the instance's devices cannot hold is refused for device memory, at the TP degree that
// needs the least of it: Llama-3.1-405B in bf16 over inf2.48xlarge's 12 chips is ~63 GiB a chip
// against 32, not "9,072 GiB of weights pinned in host memory" (the fastest layout that does not
// fit, TP 1, times 12 chips).
TEST(NeuronServingTest, AModelTheDevicesCannotHoldIsRefusedForDeviceMemory) {
  InstanceType t = NeuronInstance("inf2.test48", "inf2", 12, 100);
  t.memory_mib = 786432;
  Hardware hw = Gpus("Inferentia2", 12);
  hw.instance = &t;
  const Workload w = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-405b"}, {"rps", "1"}});
  Result<Estimate> e = EstimateWorkload(w, hw);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_FALSE(e->memory.fits);
  EXPECT_EQ(e->parallelism.tp, 12);
  EXPECT_GT(e->memory.total_gib, 55);
  EXPECT_LT(e->memory.total_gib, 75);
}

// AWS "Trn1 Training Performance": Llama-3.1-8B pretraining on 32 trn1.32xlarge, TP=32
// NeuronCores (16 chips), DP 32, ZeRO-1, seq 8192, global batch 1024: 47.95 sequences/s.
TEST(NeuronTrainingTest, TensorParallelOverNeuronLinkMatchesTheTrn1Table) {
  const Workload w = MakeWorkload({{"task", "pretrain"},
                                   {"model", "llama-3.1-8b"},
                                   {"seq-len", "8192"},
                                   {"global-batch", "1024"},
                                   {"micro-batch", "1"},
                                   {"tp", "16"},
                                   {"pp", "1"},
                                   {"zero", "1"},
                                   {"recompute", "selective"},
                                   {"sequence-parallel", "true"},
                                   {"tokens", "10B"}});
  Hardware hw = Gpus("Trainium", 512);
  hw.node_network_gbit_s = 800;
  Result<Estimate> e = EstimateWorkload(w, hw);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  const double seq_per_s = *e->performance.tokens_per_s / 8192;
  EXPECT_NEAR(seq_per_s, 47.95, 0.15 * 47.95);
  EXPECT_TRUE(Mentions(*e, "NeuronLink (2d-torus)"));
  EXPECT_FALSE(Mentions(*e, "PCIe"));
  EXPECT_TRUE(Mentions(*e, "NeuronCore-v2"));
  // MFU in the 20-35% band the trn1 tables show, never the GPU-class 45-55%.
  EXPECT_GT(*e->performance.mfu, 0.18);
  EXPECT_LT(*e->performance.mfu, 0.35);
}

TEST(NeuronTrainingTest, Fp32MatmulsRunInBf16) {
  auto step = [](const char* precision) {
    const Workload w = MakeWorkload({{"task", "pretrain"},
                                     {"model", "bert-large"},
                                     {"seq-len", "128"},
                                     {"global-batch", "4096"},
                                     {"micro-batch", "16"},
                                     {"precision", precision},
                                     {"flash-attention", "false"},
                                     {"tokens", "1B"}});
    return EstimateWorkload(w, Gpus("Trainium", 16));
  };
  Result<Estimate> bf16 = step("bf16");
  Result<Estimate> fp32 = step("fp32");
  ASSERT_TRUE(bf16.ok() && fp32.ok());
  EXPECT_TRUE(Mentions(*fp32, "--auto-cast matmult"));
  EXPECT_FALSE(Mentions(*bf16, "--auto-cast matmult"));
  // At the FP32 peak (a quarter of BF16) the step would be ~4x; auto-cast leaves only the
  // 4-byte activation traffic (the tables: FP32 BERT-large at 0.58x the BF16 rate).
  const double ratio = *fp32->performance.step_time_s / *bf16->performance.step_time_s;
  EXPECT_GT(ratio, 1.1);
  EXPECT_LT(ratio, 2.5);
}

}  // namespace
}  // namespace gpuadvisor
