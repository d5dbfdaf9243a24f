// Every input the fuzzer once crashed on (fuzz/regressions/workload/) must now give a clean
// Status (or a finite estimate), never a crash, UB or an infinite figure. Runs under the
// sanitizer build too, where UB aborts.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "gpuadvisor/estimate.h"
#include "util/files.h"
#include "workload/test_hardware.h"

#ifndef GPUADVISOR_FUZZ_REGRESSIONS
#define GPUADVISOR_FUZZ_REGRESSIONS "fuzz/regressions/workload"
#endif

namespace gpuadvisor {
namespace {

void CheckFinite(const Estimate& e) {
  EXPECT_TRUE(std::isfinite(e.memory.total_gib));
  if (e.hours) {
    EXPECT_TRUE(std::isfinite(*e.hours));
  }
}

TEST(FuzzRegressionTest, EveryCrashInputGivesAStatusOrAFiniteEstimate) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(GPUADVISOR_FUZZ_REGRESSIONS)) {
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    Result<std::string> text = ReadFile(path);
    ASSERT_TRUE(text.ok());
    ++files;
    Workload from_config;
    (void)ApplyHfConfigJson(&from_config, *text, path);
    Result<Workload> w = ParseWorkloadText(*text, path);
    if (!w.ok() || !Validate(*w).ok()) continue;
    for (int gpus : {1, 8}) {
      Result<Estimate> e = EstimateWorkload(*w, testing::Gpus("H100", gpus));
      if (e.ok()) CheckFinite(*e);
    }
  }
  EXPECT_GT(files, 0);
}

}  // namespace
}  // namespace gpuadvisor
