// Issue 29, item 3: `idle`'s schedule advice states the hours from the telemetry and names AWS
// Instance Scheduler and an EventBridge rule (only when there is a daily pattern), and
// rightsizing never moves a host to a part with too little memory bandwidth for its load.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>

#include "gpuadvisor/idle.h"
#include "util/timezone.h"

namespace gpuadvisor {
namespace {

// nvidia-smi CSV of one host with `gpus` x `name`, one sample a minute for `days` days from
// 2026-07-01T00:00Z; util(minute) gives every GPU's utilisation.
std::string HostCsv(const char* name, int gpus, int days, const std::function<int(int)>& util) {
  std::string out =
      "timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], "
      "memory.total [MiB]\n";
  char line[256];
  for (int m = 0; m < days * 1440; ++m) {
    const int u = util(m);
    for (int i = 0; i < gpus; ++i) {
      std::snprintf(line, sizeof line,
                    "2026/07/%02d %02d:%02d:00.000, host, %d, %s, %d %%, %d MiB, 23028 MiB\n",
                    1 + m / 1440, (m % 1440) / 60, m % 60, i, name, u, u ? 4000 : 0);
      out += line;
    }
  }
  return out;
}

HostUsage Analyze(const std::string& csv, const std::string& type = "",
                  const std::string& region = "us-east-1", const std::string& timezone = "") {
  IdleOptions options;
  options.timezone = timezone;
  IdleAnalyzer a(*EmbeddedCatalog(), options);
  Result<TelemetryFileInfo> info = ReadTelemetryText(
      csv, "host.csv", TelemetryOptions{}, [&a](const TelemetrySample& s) { return a.Add(s); });
  EXPECT_TRUE(info.ok()) << info.status().message();
  std::vector<InventoryEntry> inventory;
  if (!type.empty()) inventory.push_back({"host", type, region, std::nullopt, 2});
  Result<IdleReport> r = a.Finish(inventory);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() && !r->hosts.empty() ? r->hosts[0] : HostUsage{};
}

// Idle from 19:00 to 07:00 UTC every night, 70 % by day.
int Nightly(int m) {
  const int hour = (m % 1440) / 60;
  return hour >= 19 || hour < 7 ? 0 : 70;
}

TEST(IdleScheduleTest, ADailyPatternGivesTheHoursAndTheServices) {
  const HostUsage u = Analyze(HostCsv("NVIDIA L4", 1, 4, Nightly));
  ASSERT_EQ(u.recommendation.action, "schedule") << u.recommendation.summary;
  const std::string& s = u.recommendation.summary;
  EXPECT_NE(s.find("idle 19:00-07:00 UTC on most days"), std::string::npos) << s;
  EXPECT_NE(s.find("AWS Instance Scheduler"), std::string::npos) << s;
  EXPECT_NE(s.find("EventBridge"), std::string::npos) << s;
  EXPECT_NE(s.find("cron(0 19 * * ? *)"), std::string::npos) << s;
  EXPECT_NE(s.find("cron(0 7 * * ? *)"), std::string::npos) << s;
}

// Issue 42: a Beijing host's window is read in China Standard Time by default (a stop rule made
// in UTC would fire 8 h off), and EventBridge Scheduler is told the zone; --timezone overrides,
// and a zone with daylight saving time is refused rather than scheduled an hour off.
TEST(IdleScheduleTest, TheScheduleIsInTheHostsTimeZone) {
  const std::string csv = HostCsv("Tesla T4", 1, 4, Nightly);
  const HostUsage beijing = Analyze(csv, "g4dn.xlarge", "cn-north-1");
  const std::string& s = beijing.recommendation.summary;
  EXPECT_NE(s.find("idle 03:00-15:00 Asia/Shanghai (19:00-07:00 UTC) on most days"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("stop cron(0 3 * * ? *), start cron(0 15 * * ? *), "
                   "schedule-expression-timezone Asia/Shanghai"),
            std::string::npos)
      << s;
  const HostUsage tokyo = Analyze(csv, "g4dn.xlarge", "us-east-1", "Asia/Tokyo");
  EXPECT_NE(tokyo.recommendation.summary.find("idle 04:00-16:00 Asia/Tokyo"), std::string::npos)
      << tokyo.recommendation.summary;
  // An offset without an IANA zone of its own: the rules run in UTC.
  const HostUsage nepal = Analyze(csv, "g4dn.xlarge", "us-east-1", "UTC+05:45");
  EXPECT_NE(nepal.recommendation.summary.find("schedule-expression-timezone UTC"),
            std::string::npos)
      << nepal.recommendation.summary;
  IdleOptions dst;
  dst.timezone = "America/New_York";
  Result<IdleReport> r = AnalyzeIdle(*EmbeddedCatalog(), {}, TelemetryOptions{}, dst, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().field(), "timezone");
  EXPECT_NE(r.status().message().find("daylight saving"), std::string::npos)
      << r.status().message();
}

TEST(TimeZoneTest, NamesAndOffsets) {
  EXPECT_EQ(ParseTimeZone("Asia/Shanghai", "tz")->offset_minutes, 480);
  EXPECT_EQ(ParseTimeZone("utc+8", "tz")->name, "UTC+08:00");
  EXPECT_EQ(ParseTimeZone("UTC+08:00", "tz")->iana, "Etc/GMT-8");  // POSIX sign
  EXPECT_EQ(ParseTimeZone("-03:00", "tz")->iana, "Etc/GMT+3");
  EXPECT_EQ(ParseTimeZone("+05:30", "tz")->iana, "");
  EXPECT_EQ(ParseTimeZone("UTC", "tz")->offset_minutes, 0);
  for (const char* bad : {"UTC+15", "Mars/Olympus", "Europe/London", "+8:99", ""}) {
    EXPECT_FALSE(ParseTimeZone(bad, "tz").ok()) << bad;
  }
  EXPECT_EQ(RegionTimeZone("cn-northwest-1").name, "Asia/Shanghai");
  EXPECT_EQ(RegionTimeZone("ap-northeast-1").name, "UTC");
}

TEST(IdleScheduleTest, NoScheduleWithoutADailyPattern) {
  // Idle stretches at a different hour every day (a 30-hour cycle): no hours to schedule on.
  const HostUsage u =
      Analyze(HostCsv("NVIDIA L4", 1, 4, [](int m) { return (m % 1800) < 600 ? 0 : 70; }));
  ASSERT_EQ(u.recommendation.action, "schedule") << u.recommendation.summary;
  const std::string& s = u.recommendation.summary;
  EXPECT_EQ(s.find("cron("), std::string::npos) << s;
  EXPECT_NE(s.find("no daily pattern"), std::string::npos) << s;
  // Under two days observed: no pattern claimed either.
  const HostUsage short_span = Analyze(HostCsv("NVIDIA L4", 1, 1, Nightly));
  EXPECT_EQ(short_span.recommendation.summary.find("cron("), std::string::npos)
      << short_span.recommendation.summary;
}

bool SuggestsL4(const HostUsage& u) {
  auto l4 = [](const IdleRecommendation& r) {
    return r.action == "smaller-gpu" && r.summary.find(" L4:") != std::string::npos;
  };
  if (l4(u.recommendation)) return true;
  for (const IdleRecommendation& r : u.alternatives) {
    if (l4(r)) return true;
  }
  return false;
}

TEST(IdleRightsizingTest, NoMoveToHalfTheMemoryBandwidthUnderHeavyLoad) {
  // 4x A10G (600 GB/s each) at 85 % p95: 4x L4 (300 GB/s each) has the TFLOP/s but not the
  // bandwidth for the load.
  const HostUsage busy =
      Analyze(HostCsv("NVIDIA A10G", 4, 3, [](int) { return 85; }), "g5.12xlarge");
  EXPECT_FALSE(SuggestsL4(busy)) << busy.recommendation.summary;
  for (const IdleRecommendation& r : busy.alternatives) {
    EXPECT_NE(r.target_instance_type.rfind("g6.", 0), 0u) << r.summary;
  }
  // At 20 % a smaller part keeps up (4x T4, 320 GB/s each, is the cheapest): the bandwidth rule
  // is not a ban on rightsizing.
  const HostUsage light =
      Analyze(HostCsv("NVIDIA A10G", 4, 3, [](int) { return 20; }), "g5.12xlarge");
  EXPECT_EQ(light.recommendation.action, "smaller-gpu") << light.recommendation.summary;
}

}  // namespace
}  // namespace gpuadvisor
