// Issue 17: window summaries (TelemetrySample::readings, util_max_pct, mem_used_max_mib), as the
// Prometheus source produces them, weigh as the readings they stand for.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpuadvisor/idle.h"

namespace gpuadvisor {
namespace {

constexpr double kStart = 1782864000;  // 2026-07-01T00:00:00Z

// One GPU for 4 h at one reading per minute: busy (util 50..59, 20 GiB) in the first and third
// hour, idle (util 0..3, 1 GiB) otherwise, with a single 9 % reading in minute 82.
double Util(int m) {
  if (m == 82) return 9;
  return (m / 60) % 2 == 0 ? 50 + m % 10 : m % 4;
}
// Under the L4's 23034 MiB: memory.used above memory.total is refused (IdleAnalyzer::Add).
double Mem(int m) { return (m / 60) % 2 == 0 ? 20480 + m : 1024; }

TelemetrySample Base() {
  TelemetrySample s;
  s.host = "h";
  s.gpu_index = 0;
  s.gpu_name = "NVIDIA L4";
  s.mem_total_mib = 23034;
  return s;
}

IdleReport AnalyzeWindows(int window_min) {
  IdleAnalyzer a(*EmbeddedCatalog(), IdleOptions{});
  for (int w = 0; w < 240; w += window_min) {
    TelemetrySample s = Base();
    double sum = 0, mem = 0, max = 0, mem_max = 0;
    for (int m = w; m < w + window_min; ++m) {
      sum += Util(m);
      mem += Mem(m);
      max = std::max(max, Util(m));
      mem_max = std::max(mem_max, Mem(m));
    }
    s.time_s = kStart + w * 60;
    s.util_pct = sum / window_min;
    s.mem_used_mib = mem / window_min;
    if (window_min > 1) {
      s.readings = static_cast<uint32_t>(window_min);
      s.util_max_pct = max;
      s.mem_used_max_mib = mem_max;
    }
    EXPECT_TRUE(a.Add(s).ok());
  }
  Result<IdleReport> r = a.Finish({});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return *r;
}

TEST(Issue17WindowSamples, WeighAsTheirReadings) {
  const IdleReport raw = AnalyzeWindows(1), win = AnalyzeWindows(5);
  ASSERT_EQ(raw.hosts.size(), 1u);
  ASSERT_EQ(win.hosts.size(), 1u);
  const HostUsage& r = raw.hosts[0];
  const HostUsage& w = win.hosts[0];
  EXPECT_EQ(w.samples, 240u);
  EXPECT_EQ(w.samples, r.samples);
  EXPECT_NEAR(*w.gpu_usage[0].avg_util_pct, *r.gpu_usage[0].avg_util_pct, 1e-9);
  EXPECT_NEAR(*w.gpu_usage[0].mem_used_avg_mib, *r.gpu_usage[0].mem_used_avg_mib, 1e-9);
  EXPECT_EQ(*w.gpu_usage[0].mem_used_max_mib, *r.gpu_usage[0].mem_used_max_mib);  // not a mean
  EXPECT_NEAR(*w.avg_util_pct, *r.avg_util_pct, 0.1);
  EXPECT_EQ(w.gpus_busy, r.gpus_busy);
  // Hour 1 is idle but for one 9 % reading at minute 82: raw, minutes 83-119 are an idle
  // period; the window [80, 85) is busy as a whole although its mean is 2.6 %: 85-119.
  EXPECT_NEAR(r.idle_hours, (37 + 60) / 60.0, 1e-9);
  EXPECT_NEAR(w.idle_hours, (35 + 60) / 60.0, 1e-9);
  EXPECT_EQ(w.idle_period_count, 2u);
  EXPECT_NEAR(w.hours_covered, r.hours_covered, 1e-9);
}

}  // namespace
}  // namespace gpuadvisor
