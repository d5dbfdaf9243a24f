// Issue 16: `idle` needs enough observed time before it judges a host, and its memory is bounded
// per analysis (caps on hosts and GPU series; compact per-GPU histograms).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "app/views.h"
#include "gpuadvisor/idle.h"
#include "testutil/fleet.h"
#include "util/files.h"

namespace gpuadvisor {
namespace {

constexpr FileKind kFixture{64 * kMiB, "a test fixture"};

std::shared_ptr<const Catalog> Embedded() { return *EmbeddedCatalog(); }

// The pattern of tests/idle/fixtures/h100x8-13min.csv (8x H100, GPU 0 at 10 % with 2.1 GB, the
// others at 0 %, a sample a minute) for `minutes` minutes.
std::string H100x8(int minutes) {
  std::string out =
      "timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], memory.total "
      "[MiB]\n";
  char line[160];
  for (int m = 0; m <= minutes; ++m) {
    for (int i = 0; i < 8; ++i) {
      std::snprintf(
          line, sizeof line,
          "2026/11/%02d %02d:%02d:00.%03d, train-box-3, %d, NVIDIA H100 80GB HBM3, %d %%, "
          "%d MiB, 81559 MiB\n",
          20 + m / 1440, m / 60 % 24, m % 60, i * 3, i, i == 0 ? 10 : 0, i == 0 ? 2100 : 3);
      out += line;
    }
  }
  return out;
}

Result<IdleReport> Analyze(const std::string& text, IdleOptions o = {}) {
  IdleAnalyzer a(Embedded(), o);
  a.set_origin("t.csv");
  Result<TelemetryFileInfo> info =
      ReadTelemetryText(text, "t.csv", {}, [&a](const TelemetrySample& s) { return a.Add(s); });
  if (!info.ok()) return info.status();
  return a.Finish({});
}

bool IsRightsizing(const IdleRecommendation& r) {
  return r.action == "fewer-gpus" || r.action == "smaller-gpu" || r.action == "spot";
}

TEST(Issue16MinimumSpan, ThirteenMinuteFixtureGetsNoVerdictAndNoRightsizing) {
  Result<std::string> text =
      ReadFile(std::string(GPUADVISOR_TESTS_DIR) + "/idle/fixtures/h100x8-13min.csv", kFixture);
  ASSERT_TRUE(text.ok()) << text.status().message();
  Result<IdleReport> r = Analyze(*text);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->hosts.size(), 1u);
  const HostUsage& h = r->hosts[0];
  EXPECT_EQ(h.instance_type, "p5.48xlarge");
  EXPECT_EQ(h.status, DataStatus::kInsufficientData);
  EXPECT_EQ(h.status_reason,
            "insufficient data: observed 13 min, need at least the idle window (30 min)");
  EXPECT_EQ(h.recommendation.action, "collect-more");
  EXPECT_TRUE(h.recommendation.target_instance_type.empty());
  EXPECT_TRUE(h.alternatives.empty());
  EXPECT_FALSE(h.idle_fraction.has_value());  // no verdict, not "never idle"
  EXPECT_FALSE(h.wasted.has_value());
  EXPECT_TRUE(r->total_savings_per_month.totals().empty());
}

TEST(Issue16MinimumSpan, UnderADayIdleVerdictButNoRightsizing) {
  Result<IdleReport> r = Analyze(H100x8(5 * 60));
  ASSERT_TRUE(r.ok()) << r.status().message();
  const HostUsage& h = r->hosts[0];
  EXPECT_EQ(h.status, DataStatus::kCollectMore);
  EXPECT_EQ(h.status_reason, "collect more data: 5.0 h observed, rightsizing needs >= 24 h");
  ASSERT_TRUE(h.idle_fraction.has_value());
  EXPECT_EQ(*h.idle_fraction, 0);
  EXPECT_EQ(h.recommendation.action, "collect-more");
  EXPECT_FALSE(IsRightsizing(h.recommendation));
  for (const IdleRecommendation& a : h.alternatives) EXPECT_FALSE(IsRightsizing(a)) << a.action;

  // The threshold is an option: 4 h is enough when the user says so.
  IdleOptions o;
  o.min_rightsizing_span_s = 4 * 3600;
  Result<IdleReport> r4 = Analyze(H100x8(5 * 60), o);
  ASSERT_TRUE(r4.ok());
  EXPECT_EQ(r4->hosts[0].status, DataStatus::kOk);
  EXPECT_TRUE(IsRightsizing(r4->hosts[0].recommendation)) << r4->hosts[0].recommendation.action;
}

TEST(Issue16MinimumSpan, IdleHostUnderADayMayStillBeStopped) {
  std::string text = "timestamp, index, name, utilization.gpu\n";
  for (int m = 0; m <= 120; ++m) {
    char line[96];
    std::snprintf(line, sizeof line, "2026/11/20 %02d:%02d:00, 0, NVIDIA L4, 0\n", m / 60, m % 60);
    text += line;
  }
  Result<IdleReport> r = Analyze(text);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->hosts[0].status, DataStatus::kCollectMore);
  EXPECT_EQ(r->hosts[0].recommendation.action, "stop");
}

TEST(Issue16MinimumSpan, TwoDayFixtureIsRightsized) {
  Result<IdleReport> r = Analyze(H100x8(2 * 24 * 60));
  ASSERT_TRUE(r.ok()) << r.status().message();
  const HostUsage& h = r->hosts[0];
  EXPECT_EQ(h.status, DataStatus::kOk);
  EXPECT_TRUE(h.status_reason.empty());
  EXPECT_NEAR(h.hours_covered, 48, 0.02);
  EXPECT_TRUE(IsRightsizing(h.recommendation)) << h.recommendation.action;
  EXPECT_FALSE(h.recommendation.target_instance_type.empty());
  EXPECT_GT(h.recommendation.savings_per_month.value_or(Money()).amount, 0);
}

TEST(Issue16MinimumSpan, NegativeSpanIsRefused) {
  IdleOptions o;
  o.min_rightsizing_span_s = -1;
  Result<IdleReport> r = Analyze(H100x8(10), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("min-rightsizing-span"), std::string::npos);
}

// n hosts of one GPU each, one sample per host.
std::string Hosts(int n, int gpus = 1) {
  std::string out = "timestamp, hostname, index, name, utilization.gpu\n";
  for (int h = 0; h < n; ++h) {
    for (int g = 0; g < gpus; ++g) {
      out += "2026/11/20 00:00:00, host-" + std::to_string(h) + ", " + std::to_string(g) +
             ", NVIDIA L4, 40\n";
    }
  }
  return out;
}

TEST(Issue16Limits, HostsPastTheCapAreAnErrorNamingIt) {
  IdleOptions o;
  o.max_hosts = 3;
  EXPECT_TRUE(Analyze(Hosts(3), o).ok());
  Result<IdleReport> r = Analyze(Hosts(4), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("more than 3 hosts"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("max_hosts"), std::string::npos);
  EXPECT_EQ(IdleOptions().max_hosts, 10000u);
}

TEST(Issue16Limits, GpusPerHostAndSeriesAreCapped) {
  IdleOptions o;
  o.max_gpus_per_host = 4;
  EXPECT_TRUE(Analyze(Hosts(2, 4), o).ok());
  Result<IdleReport> r = Analyze(Hosts(1, 5), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("max_gpus_per_host"), std::string::npos);
  o = IdleOptions();
  o.max_series = 5;
  r = Analyze(Hosts(3, 2), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("more than 5 GPU series"), std::string::npos)
      << r.status().message();
}

// A source that names no GPU (no index, no UUID) feeds one series per host, not one per sample.
TEST(Issue16Limits, AnonymousSamplesAreOneGpu) {
  IdleAnalyzer a(Embedded(), IdleOptions());
  TelemetrySample s;
  s.host = "h";
  for (int i = 0; i < 100; ++i) {
    s.time_s = 1782864000.0 + 60 * i;
    s.util_pct = 50;
    ASSERT_TRUE(a.Add(s).ok()) << i;
  }
  s.uuid = "GPU-x";
  ASSERT_TRUE(a.Add(s).ok());
  Result<IdleReport> r = a.Finish({});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->hosts[0].gpus, 2);
  EXPECT_EQ(r->hosts[0].gpu_usage[0].samples + r->hosts[0].gpu_usage[1].samples, 101u);
}

// The sparse histogram turns dense past 128 distinct values: percentiles and means must agree
// with the exact figures either way.
TEST(Issue16Histogram, SparseAndDenseGiveTheSamePercentiles) {
  for (int distinct : {50, 1000}) {
    std::string text = "timestamp, index, name, utilization.gpu\n";
    double sum = 0;
    const int n = 2000;
    for (int i = 0; i < n; ++i) {
      const double u = (i % distinct) * (100.0 / distinct);
      sum += u;
      char line[96];
      std::snprintf(line, sizeof line, "2026/11/20 %02d:%02d:%02d, 0, NVIDIA L4, %.1f\n", i / 3600,
                    i / 60 % 60, i % 60, u);
      text += line;
    }
    Result<IdleReport> r = Analyze(text);
    ASSERT_TRUE(r.ok()) << r.status().message();
    const GpuUsage& g = r->hosts[0].gpu_usage[0];
    EXPECT_NEAR(*g.avg_util_pct, sum / n, 1e-9) << distinct;
    // 95th percentile of the uniform steps 0 .. 100 - step.
    const double step = 100.0 / distinct;
    const double p95 = std::ceil(0.95 * distinct - 1e-9) * step - step;
    EXPECT_NEAR(*g.p95_util_pct, std::round(p95 * 10) / 10, 0.051) << distinct;
    EXPECT_NEAR(*r->hosts[0].avg_util_pct, sum / n, 0.05) << distinct;
  }
}

// The server writes the report host by host; it must be the JSON tree's text byte for byte.
TEST(Issue16Json, TextBuiltHostByHostEqualsTheTreeDump) {
  const Freshness fresh{"2026-12-01", 90};
  Result<IdleReport> r = Analyze(testing::FleetCsv());
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->hosts.size(), 5u);
  EXPECT_EQ(IdleReportJsonText(*r, fresh), IdleReportJson(*r, fresh).Text());
  r->hosts.resize(1);
  r->files.push_back({"a \"instances\":[] b.csv", TelemetryFormat::kNvidiaSmiCsv, 1, 1, false});
  EXPECT_EQ(IdleReportJsonText(*r, fresh), IdleReportJson(*r, fresh).Text());
  r->hosts.clear();
  EXPECT_EQ(IdleReportJsonText(*r, fresh), IdleReportJson(*r, fresh).Text());
  // With the Prometheus source, which comes last, after the hosts.
  PrometheusSourceInfo prom;
  prom.url = "http://127.0.0.1:9090";
  prom.selector = "{job=\"dcgm\"}";
  prom.hosts = 1;
  const std::string text = IdleReportJsonText(*r, fresh, &prom);
  EXPECT_EQ(text, IdleReportJson(*r, fresh, &prom).Text());
  EXPECT_NE(text.find(R"(],"total_wasted_usd")"), std::string::npos) << text;
  EXPECT_NE(text.find(R"(,"prometheus":{"url":"http://127.0.0.1:9090")"), std::string::npos)
      << text;
  EXPECT_EQ(text.back(), '}');
}

// Found by fuzz_telemetry_csv (fuzz/regressions/telemetry_csv/): a host name that is not UTF-8
// made the report's dump throw (abort in the CLI, 500 from the server).
TEST(Issue16Json, NonUtf8HostNamesAreReplacedNotThrown) {
  Result<IdleReport> r = Analyze(
      "timestamp, hostname, index, utilization.gpu\n"
      "2026/11/20 00:00:00, bad\xff\x9ehost, 0, 5\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::string text;
  ASSERT_NO_THROW(text = IdleReportJsonText(*r, Freshness{"2026-12-01", 90}));
  EXPECT_NE(text.find("bad\xef\xbf\xbd"), std::string::npos) << text;
}

}  // namespace
}  // namespace gpuadvisor
