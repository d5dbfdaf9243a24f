// Security issue, input validation, finding 7: weights in a format the accelerator has no kernels
// for (int4 on Inferentia2, int8/int4 on Volta, ...) warn naming the format and the part and
// lower the confidence one grade; native formats do neither. Before, int4 on Inferentia2 was
// estimated with "confidence high" and no word.
#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::MakeWorkload;

// One device of the embedded catalog's `model` (the test fakes have no Neuron parts).
Hardware OnGpu(const char* model) {
  Hardware hw;
  hw.gpu = testing::EmbeddedForTests().FindGpu(model);
  EXPECT_NE(hw.gpu, nullptr) << model;
  hw.gpus = 1;
  return hw;
}

Estimate Serve(const char* quantization, const Hardware& hw) {
  Workload w = MakeWorkload({{"task", "serve"},
                             {"model", "llama-3.1-8b"},
                             {"rps", "0.5"},
                             {"quantization", quantization}});
  Result<Estimate> e = EstimateWorkload(w, hw);
  EXPECT_TRUE(e.ok()) << quantization << ": " << e.status().ToString();
  return e.ok() ? std::move(e).value() : Estimate{};
}

Estimate Serve16(const Hardware& hw) {
  Result<Estimate> e = EstimateWorkload(
      MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}, {"rps", "0.5"}}), hw);
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return e.ok() ? std::move(e).value() : Estimate{};
}

// The "warning: " assumption about weights, or "".
std::string WeightWarning(const Estimate& e) {
  for (const std::string& a : e.assumptions) {
    if (a.starts_with("warning: ") && a.find(" weights on ") != std::string::npos) return a;
  }
  return "";
}

Confidence Lower(Confidence c) {
  return c == Confidence::kHigh ? Confidence::kMedium : Confidence::kLow;
}

struct Mismatch {
  const char* gpu;
  const char* format;
  const char* says;  // part of the warning
};

TEST(WeightFormats, MismatchesWarnNamingFormatAndPartAndLowerConfidence) {
  const Mismatch kCases[] = {
      {"Inferentia2", "int4", "int4 weights on Inferentia2 (NeuronCore-v2"},
      {"Inferentia2", "nf4", "Neuron has no 4-bit weight format"},
      {"Trainium", "int4", "int4 weights on Trainium (NeuronCore-v2"},
      {"V100-32GB", "int4", "int4 weights on V100-32GB (Volta): no INT8 tensor cores"},
      {"V100-32GB", "int8", "int8 weights on V100-32GB (Volta)"},
  };
  for (const Mismatch& c : kCases) {
    const Hardware hw = OnGpu(c.gpu);
    const Estimate native = Serve16(hw);
    const Estimate e = Serve(c.format, hw);
    const std::string w = WeightWarning(e);
    EXPECT_NE(w.find(c.says), std::string::npos) << c.gpu << " " << c.format << ": " << w;
    EXPECT_NE(w.find("confidence lowered"), std::string::npos) << w;
    EXPECT_EQ(e.confidence, Lower(native.confidence)) << c.gpu << " " << c.format;
    EXPECT_NE(
        e.confidence_basis.find(std::string(c.format) + " weights are not native on " + c.gpu),
        std::string::npos)
        << e.confidence_basis;
  }
  // The case: int4 on Inferentia2 was "high".
  EXPECT_EQ(Serve16(OnGpu("Inferentia2")).confidence, Confidence::kHigh);
  EXPECT_EQ(Serve("int4", OnGpu("Inferentia2")).confidence, Confidence::kMedium);
}

TEST(WeightFormats, NativeFormatsNeitherWarnNorLowerConfidence) {
  const std::pair<const char*, const char*> kNative[] = {
      {"Inferentia2", "int8"}, {"Inferentia2", "fp8"}, {"H100", "int4"}, {"H100", "fp8"},
      {"A100-80GB", "int8"},   {"T4", "int4"},         {"L4", "nf4"},
  };
  for (const auto& [gpu, format] : kNative) {
    const Hardware hw = OnGpu(gpu);
    const Estimate e = Serve(format, hw);
    EXPECT_EQ(WeightWarning(e), "") << gpu << " " << format;
    EXPECT_EQ(e.confidence, Serve16(hw).confidence) << gpu << " " << format;
  }
}

}  // namespace
}  // namespace gpuadvisor
