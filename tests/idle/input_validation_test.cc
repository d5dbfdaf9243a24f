// Security issue, input validation: findings 2 (telemetry values from any source are checked
// where they enter the analysis) and 3 (the observed span never exceeds the samples' own span).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "gpuadvisor/idle.h"

namespace gpuadvisor {
namespace {

constexpr double kT0 = 1782864000;  // 2026-07-01T00:00:00Z
constexpr double kDay = 86400;

std::shared_ptr<const Catalog> Embedded() { return *EmbeddedCatalog(); }

// A sample as an API source would pass it (no file line unless given).
TelemetrySample Sample(double t, double util, size_t line = 0) {
  TelemetrySample s;
  s.host = "gpu-host";
  s.gpu_index = 0;
  s.gpu_name = "NVIDIA L4";
  s.time_s = t;
  s.util_pct = util;
  s.line = line;
  return s;
}

Result<IdleReport> AnalyzeSamples(const std::vector<TelemetrySample>& samples) {
  IdleAnalyzer a(Embedded(), IdleOptions());
  a.set_origin("api");
  for (const TelemetrySample& s : samples) {
    Status st = a.Add(s);
    if (!st.ok()) return st;
  }
  return a.Finish({});
}

// --- Finding 2: every source's values are checked centrally, as the CSV reader checks a cell.

struct BadSample {
  const char* name;
  void (*spoil)(TelemetrySample*);
  const char* message;
};

TEST(TelemetryValues, OutOfRangeValuesAreRefusedNamingTheField) {
  static const BadSample kCases[] = {
      {"NaN utilisation", [](TelemetrySample* s) { s->util_pct = std::nan(""); },
       "api (gpu-host GPU 0): utilization.gpu: expected a percentage 0 to 100, got NaN"},
      {"+Inf utilisation",
       [](TelemetrySample* s) { s->util_pct = std::numeric_limits<double>::infinity(); },
       "api (gpu-host GPU 0): utilization.gpu: expected a percentage 0 to 100, got +Inf"},
      {"-1 utilisation", [](TelemetrySample* s) { s->util_pct = -1; },
       "utilization.gpu: expected a percentage 0 to 100, got -1"},
      {"1e308 utilisation", [](TelemetrySample* s) { s->util_pct = 1e308; },
       "utilization.gpu: expected a percentage 0 to 100, got 1e+308"},
      {"window maximum", [](TelemetrySample* s) { s->util_max_pct = 101; },
       "utilization.gpu: expected a percentage 0 to 100, got 101"},
      {"used above total",
       [](TelemetrySample* s) {
         s->mem_used_mib = 30000;
         s->mem_total_mib = 23034;
       },
       "memory.used: 30000 MiB is above memory.total (23034 MiB)"},
      {"negative memory", [](TelemetrySample* s) { s->mem_used_mib = -5; },
       "memory.used: expected 0 to 4 TiB in MiB, got -5"},
      {"1e308 total", [](TelemetrySample* s) { s->mem_total_mib = 1e308; },
       "memory.total: expected 0 to 4 TiB in MiB, got 1e+308"},
      {"NaN power", [](TelemetrySample* s) { s->power_w = std::nan(""); },
       "power.draw: expected 0 to 10000 W, got NaN"},
      {"year 33000 (Prometheus ms read as s)", [](TelemetrySample* s) { s->time_s = kT0 * 1000; },
       "timestamp: expected a time in 2000-2099, got 1.78286e+12"},
      {"before 2000", [](TelemetrySample* s) { s->time_s = 1e6; },
       "timestamp: expected a time in 2000-2099, got 1e+06"},
      {"-Inf time",
       [](TelemetrySample* s) { s->time_s = -std::numeric_limits<double>::infinity(); },
       "timestamp: expected a time in 2000-2099, got -Inf"},
  };
  for (const BadSample& c : kCases) {
    std::vector<TelemetrySample> samples;
    for (int m = 0; m < 120; ++m) samples.push_back(Sample(kT0 + 60 * m, 0));
    c.spoil(&samples[60]);
    Result<IdleReport> r = AnalyzeSamples(samples);
    ASSERT_FALSE(r.ok()) << c.name;
    EXPECT_EQ(r.status().code(), StatusCode::kParseError) << c.name;
    EXPECT_NE(r.status().message().find(c.message), std::string::npos)
        << c.name << ": " << r.status().message();
  }
}

TEST(TelemetryValues, InRangeValuesAndUnknownsAreAccepted) {
  std::vector<TelemetrySample> samples;
  for (int m = 0; m < 120; ++m) {
    TelemetrySample s = Sample(kT0 + 60 * m, m % 2 == 0 ? 0 : 100);
    s.mem_used_mib = 23034;  // equal to the total: full, not above
    s.mem_total_mib = 23034;
    s.power_w = m == 5 ? std::nullopt : std::optional<double>(72.5);
    samples.push_back(s);
  }
  samples[7].util_pct.reset();  // unknown, not an error
  Result<IdleReport> r = AnalyzeSamples(samples);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->hosts[0].samples, 120u);
}

TEST(TelemetryValues, FileSourcesNameTheirLine) {
  // Prometheus text with a DCGM utilisation the text reader passes (a finite number) but no GPU
  // can report: refused at the analysis with file:line.
  const std::string text =
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"h1\",modelName=\"NVIDIA L4\"} 0 1782864000000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"h1\",modelName=\"NVIDIA L4\"} 1e308 "
      "1782864060000\n";
  IdleAnalyzer a(Embedded(), IdleOptions());
  a.set_origin("dcgm.prom");
  Result<TelemetryFileInfo> info =
      ReadTelemetryText(text, "dcgm.prom", {}, [&a](const TelemetrySample& s) { return a.Add(s); });
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().code(), StatusCode::kParseError);
  EXPECT_NE(info.status().message().find(
                "dcgm.prom:2: utilization.gpu: expected a percentage 0 to 100, got 1e+308"),
            std::string::npos)
      << info.status().message();
}

// --- Finding 3: gaps are not observed time.

TEST(ObservedSpan, TwoSamplesThirtyDaysApartCoverNothing) {
  Result<IdleReport> r = AnalyzeSamples({Sample(kT0, 0), Sample(kT0 + 30 * kDay, 0)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const HostUsage& h = r->hosts[0];
  EXPECT_EQ(h.hours_covered, 0);
  EXPECT_EQ(h.status, DataStatus::kInsufficientData);
  EXPECT_FALSE(h.wasted.has_value());
  EXPECT_TRUE(r->total_wasted.totals().empty());
  EXPECT_EQ(h.gpu_usage[0].hours_covered, 0);
  EXPECT_TRUE(h.status_reason.starts_with(
      "insufficient data: no time covered (samples 720.0 h apart with no sampling interval "
      "between them are a gap, not observed time)"))
      << h.status_reason;
}

TEST(ObservedSpan, TwoSamplesAnHourApartCoverNothing) {
  // No sampling interval is known from one interval over 10 minutes.
  Result<IdleReport> r = AnalyzeSamples({Sample(kT0, 0), Sample(kT0 + 3600, 0)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->hosts[0].hours_covered, 0);
  EXPECT_EQ(r->hosts[0].status, DataStatus::kInsufficientData);
}

TEST(ObservedSpan, ALoneSampleBeforeAMonthGapAddsOnlyItsInterval) {
  // One sample, a month of nothing, then two days at one sample a minute: two days (the lone
  // sample has no known interval), and the idle stretch does not run across the month.
  std::vector<TelemetrySample> samples{Sample(kT0, 0)};
  const double resume = kT0 + 30 * kDay;
  for (int m = 0; m < 2 * 24 * 60; ++m) samples.push_back(Sample(resume + 60 * m, 0));
  Result<IdleReport> r = AnalyzeSamples(samples);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const HostUsage& h = r->hosts[0];
  EXPECT_NEAR(h.hours_covered, 48, 1e-9);
  EXPECT_LE(h.hours_covered * 3600, *h.last_s - *h.first_s);
  EXPECT_NEAR(h.longest_idle_hours, 48, 1e-9);
  EXPECT_EQ(h.idle_period_count, 1u);
  EXPECT_NEAR(h.idle_hours, 48, 1e-9);
}

TEST(ObservedSpan, HourlySamplesAreAnInterval) {
  // A steady hourly sampler (CloudWatch at a 1 h period) covers its hours; a day-long gap in it
  // does not.
  std::vector<TelemetrySample> samples;
  for (int hr = 0; hr < 12; ++hr) samples.push_back(Sample(kT0 + 3600 * hr, 0));
  for (int hr = 0; hr < 12; ++hr) samples.push_back(Sample(kT0 + 3 * kDay + 3600 * hr, 0));
  Result<IdleReport> r = AnalyzeSamples(samples);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const HostUsage& h = r->hosts[0];
  EXPECT_NEAR(h.hours_covered, 24, 1e-9);
  EXPECT_EQ(h.idle_period_count, 2u);
}

TEST(ObservedSpan, NeverMoreThanTheSpanPlusOneInterval) {
  // Irregular spacing, seeded: covered <= last - first + the largest interval counted (at most a
  // day), and samples a month apart never count.
  uint64_t x = 12345;
  for (int run = 0; run < 50; ++run) {
    std::vector<TelemetrySample> samples;
    double t = kT0;
    for (int i = 0; i < 40; ++i) {
      samples.push_back(Sample(t, 0));
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      const int pick = static_cast<int>((x >> 33) % 4);
      t += pick == 0 ? 60 : pick == 1 ? 900 : pick == 2 ? 7200 : 30 * kDay;
    }
    Result<IdleReport> r = AnalyzeSamples(samples);
    ASSERT_TRUE(r.ok()) << r.status().message();
    const HostUsage& h = r->hosts[0];
    EXPECT_LE(h.hours_covered * 3600, *h.last_s - *h.first_s + 7200) << "run " << run;
  }
}

}  // namespace
}  // namespace gpuadvisor
