// Confidence grades (doc/estimation.md, "Confidence"): measured hardware and task -> high, a
// sibling or a rough description -> medium, nothing comparable -> low, whose band widens.
#include "workload/confidence.h"

#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"
#include "workload/bands.h"
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
  // The measured band of GPU LLM training (band_table.inc), which says what it covers.
  const workload_internal::MeasuredBand& m =
      workload_internal::MeasuredBandOf(workload_internal::BandKind::kGpuLlmTraining);
  EXPECT_DOUBLE_EQ(e.band_low, m.low);
  EXPECT_DOUBLE_EQ(e.band_high, m.high);
  EXPECT_EQ(e.band_coverage, workload_internal::kBandCoverage);
  EXPECT_GT(m.cases, 10);
}

TEST(ConfidenceTest, SiblingIsMediumAndUnmeasuredArchitectureIsLowWithWiderBands) {
  const Estimate h200 = EstimateOn(Pretrain(), testing::Gpus("H200", 8));
  EXPECT_EQ(h200.confidence, Confidence::kMedium);
  EXPECT_NE(h200.confidence_basis.find("nearest: H100"), std::string::npos)
      << h200.confidence_basis;
  // A measured sibling keeps its kind's band (the kind pools the parts measured).
  EXPECT_EQ(h200.band_coverage, workload_internal::kBandCoverage);
  const Estimate b200 = EstimateOn(Pretrain(), testing::Gpus("B200", 8));
  EXPECT_EQ(b200.confidence, Confidence::kLow);
  EXPECT_NE(b200.confidence_basis.find("Blackwell"), std::string::npos) << b200.confidence_basis;
  EXPECT_GE(b200.band_low, 0.35);
  EXPECT_GE(b200.band_high, 0.60);
  EXPECT_FALSE(b200.band_coverage.has_value());  // wider than measured: no coverage claimed
  // Ada serving: calibrated efficiencies, but no serving figure on the architecture. The grade
  // widens the measured band, which then claims no coverage.
  const Estimate l4 =
      EstimateOn(MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}, {"rps", "1"}}),
                 testing::Gpus("L4", 1));
  EXPECT_EQ(l4.confidence, Confidence::kLow);
  EXPECT_GE(l4.band_low, 0.35);
  EXPECT_FALSE(l4.band_coverage.has_value());
  // The band is around the same central value: low < hours < high.
  EXPECT_LT(*b200.uncertainty_low, *b200.hours);
  EXPECT_GT(*b200.uncertainty_high, *b200.hours);
  EXPECT_NEAR(*b200.uncertainty_high / *b200.hours, 1 + b200.band_high, 1e-9);
}

// A measured band that a low grade widens no longer claims the measured coverage; one it leaves
// as it is keeps it.
TEST(ConfidenceTest, AWidenedBandClaimsNoCoverage) {
  Estimate e;
  e.uncertainty_metric = "time.hours";
  e.uncertainty_low = 0.9;
  e.uncertainty_high = 1.2;
  e.band_low = 0.1;
  e.band_high = 0.2;
  e.band_coverage = workload_internal::kBandCoverage;
  e.confidence = Confidence::kMedium;
  Estimate medium = e;
  workload_internal::WidenBandForConfidence(&medium);
  EXPECT_EQ(medium.band_coverage, workload_internal::kBandCoverage);
  EXPECT_DOUBLE_EQ(medium.band_high, 0.2);
  e.confidence = Confidence::kLow;
  workload_internal::WidenBandForConfidence(&e);
  EXPECT_DOUBLE_EQ(e.band_low, 0.35);
  EXPECT_DOUBLE_EQ(e.band_high, 0.6);
  EXPECT_NEAR(*e.uncertainty_high, 1.6, 1e-12);
  EXPECT_FALSE(e.band_coverage.has_value());
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
