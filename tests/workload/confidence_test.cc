// Confidence grades (doc/estimation.md, "Confidence"): measured hardware and task -> high, a
// sibling or a rough description -> medium, nothing comparable -> low; bands widen with it.
#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"
#include "workload/estimate_json.h"

namespace gpuadvisor {
namespace {

using testing::MakeWorkload;

Workload Pretrain() {
  return MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "10B"}});
}

Estimate EstimateOn(const Workload& w, const Hardware& hw) {
  Result<Estimate> e = EstimateWorkload(w, hw);
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return e.ok() ? std::move(e).value() : Estimate{};
}

TEST(ConfidenceTest, MeasuredHardwareAndTaskIsHigh) {
  const Estimate e = EstimateOn(Pretrain(), testing::Gpus("H100", 8));
  EXPECT_EQ(e.confidence, Confidence::kHigh);
  EXPECT_NE(e.confidence_basis.find("measured"), std::string::npos) << e.confidence_basis;
  EXPECT_DOUBLE_EQ(e.band_low, 0.15);  // the calibrated training band is kept
}

TEST(ConfidenceTest, SiblingIsMediumAndUnmeasuredArchitectureIsLowWithWiderBands) {
  const Estimate h200 = EstimateOn(Pretrain(), testing::Gpus("H200", 8));
  EXPECT_EQ(h200.confidence, Confidence::kMedium);
  EXPECT_NE(h200.confidence_basis.find("nearest: H100"), std::string::npos)
      << h200.confidence_basis;
  EXPECT_GE(h200.band_high, 0.40);
  const Estimate b200 = EstimateOn(Pretrain(), testing::Gpus("B200", 8));
  EXPECT_EQ(b200.confidence, Confidence::kLow);
  EXPECT_NE(b200.confidence_basis.find("Blackwell"), std::string::npos) << b200.confidence_basis;
  EXPECT_GE(b200.band_low, 0.35);
  EXPECT_GE(b200.band_high, 0.60);
  // The band is around the same central value: low < hours < high.
  EXPECT_LT(*b200.uncertainty_low, *b200.hours);
  EXPECT_GT(*b200.uncertainty_high, *b200.hours);
  EXPECT_NEAR(*b200.uncertainty_high / *b200.hours, 1 + b200.band_high, 1e-9);
}

TEST(ConfidenceTest, RoughWorkloadOrDerivedFiguresCapAtMedium) {
  const Workload rough = MakeWorkload({{"task", "pretrain"}, {"params", "8B"}, {"tokens", "10B"}});
  EXPECT_EQ(EstimateOn(rough, testing::Gpus("H100", 8)).confidence, Confidence::kMedium);
  GpuSpec derived = testing::TestGpu("H100");
  derived.confidence = "derived";
  derived.derivation = "test";
  Hardware hw = testing::Gpus("H100", 8);
  hw.gpu = &derived;
  const Estimate e = EstimateOn(Pretrain(), hw);
  EXPECT_EQ(e.confidence, Confidence::kMedium);
  EXPECT_NE(e.confidence_basis.find("derived"), std::string::npos) << e.confidence_basis;
  // Only the figures the task reads count: a derived FP64 rate leaves LLM training alone but
  // caps FP64 HPC.
  derived.derived_fields = {"fp64_tflops"};
  EXPECT_EQ(EstimateOn(Pretrain(), hw).confidence, Confidence::kHigh);
  const Workload hpc = MakeWorkload({{"task", "hpc"}, {"fp64-flop", "1e18"}});
  EXPECT_EQ(EstimateOn(hpc, hw).confidence, Confidence::kMedium);
}

TEST(ConfidenceTest, FastModeGradesWithoutBasisAndJsonCarriesTheGrade) {
  Result<Estimate> fast =
      EstimateWorkload(Pretrain(), testing::Gpus("B200", 8), {}, EstimateMode::kFast);
  ASSERT_TRUE(fast.ok());
  EXPECT_EQ(fast->confidence, Confidence::kLow);
  EXPECT_TRUE(fast->confidence_basis.empty());
  const auto j = EstimateToJson(EstimateOn(Pretrain(), testing::Gpus("H100", 8)));
  EXPECT_EQ(j["confidence"]["grade"], "high");
  EXPECT_TRUE(j["confidence"]["basis"].is_string());
}

}  // namespace
}  // namespace gpuadvisor
