// Issue 41, item 2: the hour-of-week profile of an idle analysis (IdleReport::week_profile), from
// samples and from a push-down's aggregates, in the zone of the option or of the hosts' regions.
// Against a real prometheus: tests/cli/idle_prometheus_test.sh.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "gpuadvisor/idle.h"
#include "testutil/pushed.h"

namespace gpuadvisor {
namespace {

constexpr double kWed = 1782864000;  // 2026-07-01T00:00:00Z, a Wednesday
constexpr int kWedIndex = 2 * 24;    // Monday 00:00 first

// Idle 20:00-08:00 UTC, and 45 minutes from 12:00 (over the 30-minute window).
bool Idle(int minute) {
  const int m = minute % 1440;
  return m < 8 * 60 || m >= 20 * 60 || (m >= 12 * 60 && m < 12 * 60 + 45);
}

void AddHost(IdleAnalyzer& a, const std::string& host, int days, double start = kWed) {
  for (int m = 0; m < days * 1440; ++m) {
    TelemetrySample s;
    s.host = host;
    s.gpu_index = 0;
    s.gpu_name = "NVIDIA L4";
    s.time_s = start + m * 60;
    s.util_pct = Idle(m) ? 1 : 60;
    ASSERT_TRUE(a.Add(s).ok());
  }
}

IdleReport Analyze(IdleOptions o, int days, const std::vector<InventoryEntry>& inventory = {}) {
  IdleAnalyzer a(*EmbeddedCatalog(), o);
  AddHost(a, "office", days);
  Result<IdleReport> r = a.Finish(inventory);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return *r;
}

double Sum(const std::array<double, 168>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

TEST(Issue41WeekProfile, SamplesFileTheirHoursByHourOfTheWeek) {
  const IdleReport r = Analyze(IdleOptions{}, 2);
  ASSERT_TRUE(r.week_profile);
  const WeekProfile& w = *r.week_profile;
  EXPECT_EQ(w.timezone, "UTC");
  EXPECT_EQ(w.basis, "regions");
  for (int i = 0; i < 168; ++i) {
    const bool seen = i >= kWedIndex && i < kWedIndex + 48;
    EXPECT_NEAR(w.covered_hours[i], seen ? 1 : 0, 1e-9) << i;
    const int h = i % 24;
    const double idle = !seen ? 0 : (h < 8 || h >= 20) ? 1 : h == 12 ? 0.75 : 0;
    EXPECT_NEAR(w.idle_hours[i], idle, 1e-9) << i;
  }
  // The profile adds up to the hosts' own figures.
  EXPECT_NEAR(Sum(w.covered_hours), r.hosts[0].hours_covered, 1e-9);
  EXPECT_NEAR(Sum(w.idle_hours), r.hosts[0].idle_hours, 1e-9);
}

TEST(Issue41WeekProfile, ReadInTheZoneOfTheOptionOrOfTheRegions) {
  IdleOptions o;
  o.timezone = "Asia/Shanghai";
  const IdleReport cst = Analyze(o, 2);
  ASSERT_TRUE(cst.week_profile);
  EXPECT_EQ(cst.week_profile->timezone, "Asia/Shanghai");
  EXPECT_EQ(cst.week_profile->basis, "option");
  // Wednesday 00:00 UTC is 08:00 in Beijing; 12:00 UTC (the 45-minute dip) is 20:00.
  EXPECT_NEAR(cst.week_profile->covered_hours[kWedIndex + 7], 0, 1e-9);
  EXPECT_NEAR(cst.week_profile->covered_hours[kWedIndex + 8], 1, 1e-9);
  EXPECT_NEAR(cst.week_profile->idle_hours[kWedIndex + 8], 1, 1e-9);
  EXPECT_NEAR(cst.week_profile->idle_hours[kWedIndex + 20], 0.75, 1e-9);
  // Half an hour: each local hour holds half of two UTC hours.
  o.timezone = "UTC+05:30";
  const IdleReport india = Analyze(o, 2);
  EXPECT_NEAR(india.week_profile->covered_hours[kWedIndex + 5], 0.5, 1e-9);
  EXPECT_NEAR(india.week_profile->covered_hours[kWedIndex + 6], 1, 1e-9);
  EXPECT_NEAR(india.week_profile->idle_hours[kWedIndex + 13], 0.5, 1e-9);   // 07:30-08:30 UTC
  EXPECT_NEAR(india.week_profile->idle_hours[kWedIndex + 17], 0.5, 1e-9);   // 11:30-12:30 UTC
  EXPECT_NEAR(india.week_profile->idle_hours[kWedIndex + 18], 0.25, 1e-9);  // 12:30-13:30 UTC

  // No option: a fleet in AWS China reads in Beijing time, a mixed fleet in UTC.
  Result<std::vector<InventoryEntry>> inv = ParseInventoryCsv(
      **EmbeddedCatalog(), "hostname,instance_type,region\noffice,g4dn.xlarge,cn-north-1\n",
      "hosts.csv");
  ASSERT_TRUE(inv.ok()) << inv.status().message();
  const IdleReport china = Analyze(IdleOptions{}, 2, *inv);
  EXPECT_EQ(china.week_profile->timezone, "Asia/Shanghai");
  EXPECT_EQ(china.week_profile->basis, "regions");
  IdleAnalyzer a(*EmbeddedCatalog(), IdleOptions{});
  AddHost(a, "office", 1);
  AddHost(a, "virginia", 1);
  Result<IdleReport> mixed = a.Finish(*inv);
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(mixed->week_profile->timezone, "UTC");
  EXPECT_EQ(mixed->week_profile->basis, "mixed-regions");
  EXPECT_NEAR(mixed->week_profile->covered_hours[kWedIndex], 2, 1e-9);  // both hosts
}

TEST(Issue41WeekProfile, StretchesLongerThanAWeekCoverEveryHour) {
  IdleAnalyzer a(*EmbeddedCatalog(), IdleOptions{});
  // Ten days idle at one reading an hour (the stretch is longer than the week).
  for (int h = 0; h < 240; ++h) {
    TelemetrySample s;
    s.host = "parked";
    s.gpu_index = 0;
    s.time_s = kWed + h * 3600;
    s.util_pct = 0;
    ASSERT_TRUE(a.Add(s).ok());
  }
  Result<IdleReport> r = a.Finish({});
  ASSERT_TRUE(r.ok());
  const WeekProfile& w = *r->week_profile;
  EXPECT_NEAR(Sum(w.covered_hours), 240, 1e-6);
  EXPECT_NEAR(Sum(w.idle_hours), 240, 1e-6);
  for (int i = 0; i < 168; ++i) {
    // Wednesday to Friday were seen twice (ten days from a Wednesday), the rest once.
    const bool twice = i >= kWedIndex && i < kWedIndex + 72;
    EXPECT_NEAR(w.idle_hours[i], twice ? 2 : 1, 1e-6) << i;
  }
}

// The push-down's form: idle stretches in pieces cut at hours, and the covered time per hour
// over the batch's hosts. Without the coverage there is no profile (it would read all idle).
TEST(Issue41WeekProfile, AggregatesWithHourlyCoverageGiveTheSamplesProfile) {
  const IdleReport s = Analyze(IdleOptions{}, 2);
  const HostUsage& u = s.hosts[0];
  for (const bool with_coverage : {true, false}) {
    IdleAnalyzer a(*EmbeddedCatalog(), IdleOptions{});
    ASSERT_TRUE(a.AddAggregate(testing::PushedGpu(u)).ok());
    const HostAggregate h = testing::PushedHost(u);
    ASSERT_TRUE(a.AddAggregate(h).ok());
    if (with_coverage) {
      for (int hour = 0; hour < 48; ++hour)
        ASSERT_TRUE(a.AddCoverage(kWed + hour * 3600, 3600).ok());
    }
    Result<IdleReport> p = a.Finish({});
    ASSERT_TRUE(p.ok()) << p.status().message();
    if (!with_coverage) {
      EXPECT_FALSE(p->week_profile);
      continue;
    }
    ASSERT_TRUE(p->week_profile);
    for (int i = 0; i < 168; ++i) {
      EXPECT_NEAR(p->week_profile->covered_hours[i], s.week_profile->covered_hours[i], 1e-9) << i;
      EXPECT_NEAR(p->week_profile->idle_hours[i], s.week_profile->idle_hours[i], 1e-9) << i;
    }
  }
  IdleAnalyzer bad(*EmbeddedCatalog(), IdleOptions{});
  EXPECT_EQ(bad.AddCoverage(1e12, 3600).code(), StatusCode::kParseError);
  EXPECT_EQ(bad.AddCoverage(kWed, -1).code(), StatusCode::kParseError);
  EXPECT_EQ(bad.AddCoverage(kWed, std::nan("")).code(), StatusCode::kParseError);
}

}  // namespace
}  // namespace gpuadvisor
