// ResolveHardware on the embedded catalog, fractional GPUs, and model properties added with
// the estimate command (interleaving, stage imbalance, FP8 training, field help).
#include <gtest/gtest.h>

#include <cstring>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::Gpus;
using testing::MakeWorkload;

TEST(ResolveHardwareTest, InstanceGivesDevicesPricesAndRegion) {
  HardwareRequest r;
  r.instance_type = "p5.48xlarge";
  r.instances = 2;
  r.region = "us-east-1";
  Result<Hardware> hw = ResolveHardware(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(hw.ok()) << hw.status().ToString();
  EXPECT_EQ(hw->gpus, 16);
  EXPECT_EQ(hw->instances, 2);
  EXPECT_EQ(hw->gpu->model, "H100");
  ASSERT_NE(hw->offer, nullptr);
  EXPECT_EQ(hw->offer->region, "us-east-1");
}

TEST(ResolveHardwareTest, GpusDeriveInstancesAndContradictionsAreRejected) {
  HardwareRequest r;
  r.instance_type = "g6.12xlarge";
  r.gpus = 8;
  Result<Hardware> hw = ResolveHardware(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(hw.ok());
  EXPECT_EQ(hw->instances, 2);
  r.gpus = 6;
  EXPECT_NE(ResolveHardware(testing::EmbeddedForTests(), r).status().message().find("gpus"),
            std::string::npos);
  r.gpus = 0;
  r.gpu = "H100";
  EXPECT_NE(
      ResolveHardware(testing::EmbeddedForTests(), r).status().message().find("does not match"),
      std::string::npos);
  HardwareRequest none;
  EXPECT_EQ(ResolveHardware(testing::EmbeddedForTests(), none).status().code(),
            StatusCode::kInvalidArgument);
  HardwareRequest fpga;
  fpga.instance_type = "f1.2xlarge";
  if (testing::EmbeddedForTests().FindInstanceType("f1.2xlarge") != nullptr) {
    EXPECT_EQ(ResolveHardware(testing::EmbeddedForTests(), fpga).status().code(),
              StatusCode::kUnsupported);
  }
  HardwareRequest typo;
  typo.instance_type = "p5.48xlarg";
  EXPECT_NE(
      ResolveHardware(testing::EmbeddedForTests(), typo).status().message().find("did you mean"),
      std::string::npos);
}

TEST(ResolveHardwareTest, FractionalGpuIsASmallerDevice) {
  HardwareRequest r;
  r.instance_type = "g6f.large";
  Result<Hardware> part = ResolveHardware(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(part.ok());
  r.instance_type = "g6.xlarge";
  Result<Hardware> whole = ResolveHardware(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(whole.ok());
  const Workload w =
      MakeWorkload({{"task", "serve"}, {"model", "llama-3.2-1b"}, {"concurrency", "1"}});
  Result<Estimate> a = EstimateWorkload(w, *part);
  Result<Estimate> b = EstimateWorkload(w, *whole);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_DOUBLE_EQ(a->device_fraction, 0.125);
  EXPECT_NEAR(a->memory.device_gib, 2861.0 / 1024, 1e-9);         // AWS-reported partition memory
  EXPECT_GT(*a->performance.itl_ms, 4 * *b->performance.itl_ms);  // 1/8 of the bandwidth
  EXPECT_EQ(a->gpu_model, "L4");
}

TEST(PipelineTest, InterleavingIsChosenWhenItShrinksTheBubble) {
  const Workload w = MakeWorkload({{"task", "pretrain"},
                                   {"model", "llama-3.1-70b"},
                                   {"tokens", "1T"},
                                   {"tp", "8"},
                                   {"pp", "4"},
                                   {"micro-batch", "1"},
                                   {"global-batch", "32"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 64));
  ASSERT_TRUE(e.ok());
  EXPECT_GT(e->parallelism.virtual_pp, 1);
  Workload fixed = w;
  ASSERT_TRUE(GiveField(&fixed, "virtual-pp", "1").ok());
  Result<Estimate> f = EstimateWorkload(fixed, Gpus("H100", 64));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->parallelism.virtual_pp, 1);
  EXPECT_LT(*e->performance.step_time_s, *f->performance.step_time_s);
}

TEST(PipelineTest, LargeVocabularyLastStageSlowsThePipeline) {
  // Same layers, 8x the vocabulary: per-GPU throughput in model FLOPs falls with PP (the last
  // stage carries the head) but not without PP.
  auto tflops = [](const char* vocab, const char* pp) {
    const Workload w = MakeWorkload({{"task", "pretrain"},
                                     {"layers", "32"},
                                     {"hidden", "4096"},
                                     {"heads", "32"},
                                     {"vocab", vocab},
                                     {"tokens", "1T"},
                                     {"tp", "1"},
                                     {"pp", pp},
                                     {"virtual-pp", "1"},
                                     {"zero", "1"},
                                     {"micro-batch", "1"},
                                     {"recompute", "full"}});
    return *EstimateWorkload(w, Gpus("H100", 64))->performance.tflops_per_gpu;
  };
  EXPECT_LT(tflops("256000", "8") / tflops("32000", "8"),
            tflops("256000", "1") / tflops("32000", "1"));
}

TEST(Fp8TrainingTest, FasterThanBf16ButLessThanTwice) {
  auto tps = [](const char* precision) {
    const Workload w = MakeWorkload({{"task", "pretrain"},
                                     {"model", "llama-3.1-8b"},
                                     {"tokens", "1T"},
                                     {"precision", precision}});
    return *EstimateWorkload(w, Gpus("H100", 8))->performance.tokens_per_s;
  };
  const double speedup = tps("fp8") / tps("bf16");
  EXPECT_GT(speedup, 1.2);
  EXPECT_LT(speedup, 1.8);  // NeMo: 1.3-1.6x
}

TEST(FieldHelpTest, EveryFieldIsDocumented) {
  for (const std::string& name : WorkloadFieldNames()) {
    const WorkloadFieldInfo* info = FindWorkloadFieldInfo(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_GT(std::strlen(info->help), 5u) << name;
  }
  EXPECT_EQ(FindWorkloadFieldInfo("no-such-field"), nullptr);
}

}  // namespace
}  // namespace gpuadvisor
