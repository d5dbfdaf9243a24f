// IdleAnalyzer on the five-host fleet of issue 6, checked against hand computation.
#include "gpuadvisor/idle.h"

#include <gtest/gtest.h>

#include <map>

#include "app/views.h"
#include "testutil/fleet.h"

namespace gpuadvisor {
namespace {

std::shared_ptr<const Catalog> Embedded() { return *EmbeddedCatalog(); }

IdleReport Analyze(const std::vector<std::pair<std::string, std::string>>& files,
                   const std::vector<InventoryEntry>& inventory = {}, IdleOptions o = {}) {
  IdleAnalyzer a(Embedded(), o);
  for (const auto& [name, text] : files) {
    TelemetryOptions to;
    Result<TelemetryFileInfo> info =
        ReadTelemetryText(text, name, to, [&a](const TelemetrySample& s) { return a.Add(s); });
    EXPECT_TRUE(info.ok()) << info.status().message();
  }
  Result<IdleReport> r = a.Finish(inventory);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : IdleReport();
}

std::map<std::string, HostUsage> ByHost(const IdleReport& r) {
  std::map<std::string, HostUsage> m;
  for (const HostUsage& h : r.hosts) m[h.host] = h;
  return m;
}

double OnDemand(const std::string& type) {
  return Embedded()->FindInstanceType(type)->FindRegion("us-east-1")->on_demand->usd_per_hour;
}

TEST(IdleFleet, IdleFractionsWasteAndRecommendations) {
  const IdleReport r = Analyze({{"fleet.csv", testing::FleetCsv()}});
  ASSERT_EQ(r.hosts.size(), 5u);
  auto h = ByHost(r);
  // Every host covers 2 days: 2880 one-minute samples.
  for (const auto& [name, u] : h) EXPECT_NEAR(u.hours_covered, 48.0, 1e-6) << name;
  EXPECT_NEAR(*h["always-idle"].idle_fraction, 1.0, 1e-9);
  EXPECT_NEAR(*h["busy"].idle_fraction, 0.0, 1e-9);
  EXPECT_NEAR(*h["half"].idle_fraction, 0.5, 1e-9);
  EXPECT_EQ(h["half"].idle_period_count, 2u);
  EXPECT_NEAR(h["half"].longest_idle_hours, 12.0, 1e-9);
  EXPECT_NEAR(*h["one-of-eight"].idle_fraction, 0.0, 1e-9);
  EXPECT_NEAR(*h["dips"].idle_fraction, 0.0, 1e-9);  // 2-minute dips are not idleness
  EXPECT_EQ(h["dips"].idle_period_count, 0u);

  // Types guessed from GPU name and count.
  EXPECT_EQ(h["always-idle"].instance_type, "g6e.xlarge");
  EXPECT_TRUE(h["always-idle"].type_guessed);
  EXPECT_EQ(h["one-of-eight"].instance_type, "p5.48xlarge");
  EXPECT_EQ(h["dips"].instance_type, "g4dn.xlarge");

  // Wasted: 48 idle hours at the catalog price.
  EXPECT_NEAR(h["always-idle"].wasted->amount, 48 * OnDemand("g6e.xlarge"), 1e-6);
  EXPECT_EQ(h["always-idle"].recommendation.action, "stop");
  EXPECT_NEAR(h["always-idle"].recommendation.savings_per_month->amount,
              730 * OnDemand("g6e.xlarge"), 1e-6);
  // Half: 24 idle hours; schedule it.
  EXPECT_NEAR(h["half"].wasted->amount, 24 * OnDemand("g6.xlarge"), 1e-6);
  EXPECT_EQ(h["half"].recommendation.action, "schedule");
  // 1 of 8 GPUs: 7 GPUs x 48 h idle at 1/8 of the price; fewer GPUs -> p5.4xlarge.
  EXPECT_EQ(h["one-of-eight"].gpus, 8);
  EXPECT_EQ(h["one-of-eight"].gpus_busy, 1);
  EXPECT_NEAR(h["one-of-eight"].gpu_idle_hours, 7 * 48.0, 1e-6);
  EXPECT_NEAR(h["one-of-eight"].wasted->amount, 7 * 48 * OnDemand("p5.48xlarge") / 8, 1e-6);
  EXPECT_EQ(h["one-of-eight"].recommendation.action, "fewer-gpus");
  EXPECT_EQ(h["one-of-eight"].recommendation.target_instance_type, "p5.4xlarge");
  EXPECT_NEAR(h["one-of-eight"].recommendation.savings_per_month->amount,
              730 * (OnDemand("p5.48xlarge") - OnDemand("p5.4xlarge")), 1e-6);
  EXPECT_NEAR(*h["one-of-eight"].avg_util_pct, 90.0 / 8, 0.1);
  // Busy and dips hosts waste nothing.
  EXPECT_NEAR(h["busy"].wasted->amount, 0, 1e-9);
  EXPECT_NEAR(h["dips"].wasted->amount, 0, 1e-9);
  EXPECT_NEAR(*h["busy"].p95_util_pct, 85, 1e-9);

  // Top savings first, totals add up.
  EXPECT_EQ(r.hosts.front().host, "one-of-eight");
  for (size_t i = 1; i < r.hosts.size(); ++i) {
    EXPECT_GE(r.hosts[i - 1].recommendation.savings_per_month.value_or(Money()).amount,
              r.hosts[i].recommendation.savings_per_month.value_or(Money()).amount);
  }
  double total = 0;
  for (const HostUsage& u : r.hosts) total += u.wasted.value_or(Money()).amount;
  EXPECT_NEAR(r.total_wasted.Of(Currency::kUsd)->amount, total, 1e-6);
}

TEST(IdleFleet, OneFilePerHostAndNoUnitsGiveTheSameAnswer) {
  const IdleReport all = Analyze({{"fleet.csv", testing::FleetCsv("", false)}});
  std::vector<std::pair<std::string, std::string>> files;
  for (const char* host : {"always-idle", "busy", "half", "one-of-eight", "dips"}) {
    files.emplace_back(std::string("logs/") + host + ".csv", testing::FleetCsv(host));
  }
  const IdleReport split = Analyze(files);
  auto a = ByHost(all), b = ByHost(split);
  ASSERT_EQ(b.size(), 5u);
  for (const auto& [name, u] : a) {
    ASSERT_TRUE(b.count(name)) << name;
    EXPECT_NEAR(*u.idle_fraction, *b[name].idle_fraction, 1e-9) << name;
    EXPECT_NEAR(u.wasted.value_or(Money(-1, Currency::kUsd)).amount,
                b[name].wasted.value_or(Money(-1, Currency::kUsd)).amount, 1e-6)
        << name;
    EXPECT_EQ(u.samples, b[name].samples);
  }
}

TEST(IdleFleet, InventoryPricesHostsAndWindowChangesIdleness) {
  const Catalog& c = *Embedded();
  Result<std::vector<InventoryEntry>> inv =
      ParseInventoryCsv(c,
                        "hostname,instance_type,region,purchase\nalways-idle,g6e.2xlarge,,\n"
                        "dips,g4dn.xlarge,us-east-1,spot\n",
                        "hosts.csv");
  ASSERT_TRUE(inv.ok()) << inv.status().message();
  IdleOptions o;
  o.idle_window_s = 60;  // one minute: now the dips count
  const IdleReport r = Analyze({{"fleet.csv", testing::FleetCsv()}}, *inv, o);
  auto h = ByHost(r);
  EXPECT_EQ(h["always-idle"].instance_type, "g6e.2xlarge");
  EXPECT_FALSE(h["always-idle"].type_guessed);
  EXPECT_NEAR(h["always-idle"].wasted->amount, 48 * OnDemand("g6e.2xlarge"), 1e-6);
  EXPECT_EQ(h["dips"].purchase, PurchaseKind::kSpot);
  EXPECT_NEAR(*h["dips"].idle_fraction, 2.0 / 60, 1e-9);
  EXPECT_EQ(h["dips"].idle_period_count, 48u);
}

// Issue 37: a host in Beijing is priced, wasted and totalled in yuan, never added to dollars.
TEST(IdleFleet, AmountsKeepTheirCurrencyAndTotalsAreOnePerCurrency) {
  const Catalog& c = *Embedded();
  Result<std::vector<InventoryEntry>> inv = ParseInventoryCsv(
      c, "hostname,instance_type,region\nhalf,g4dn.xlarge,cn-north-1\n", "hosts.csv");
  ASSERT_TRUE(inv.ok()) << inv.status().message();
  const IdleReport r = Analyze({{"fleet.csv", testing::FleetCsv()}}, *inv);
  auto h = ByHost(r);
  const double cny =
      c.FindInstanceType("g4dn.xlarge")->FindRegion("cn-north-1")->on_demand->usd_per_hour;
  ASSERT_TRUE(h["half"].wasted.has_value());
  EXPECT_EQ(h["half"].wasted->currency, Currency::kCny);
  EXPECT_NEAR(h["half"].wasted->amount, 24 * cny, 1e-6);
  EXPECT_EQ(h["half"].recommendation.savings_per_month->currency, Currency::kCny);
  EXPECT_EQ(h["always-idle"].wasted->currency, Currency::kUsd);
  double usd = 0;
  for (const HostUsage& u : r.hosts) {
    if (u.host != "half") usd += u.wasted.value_or(Money()).amount;
  }
  ASSERT_EQ(r.total_wasted.totals().size(), 2u);
  EXPECT_NEAR(r.total_wasted.Of(Currency::kUsd)->amount, usd, 1e-6);
  EXPECT_NEAR(r.total_wasted.Of(Currency::kCny)->amount, 24 * cny, 1e-6);
  // Hosts by currency first: no order across currencies without a rate.
  EXPECT_EQ(r.hosts.back().host, "half");
  // The JSON keys follow the currency; the table has one TOTAL row per currency.
  const std::string json = IdleReportJson(r, Freshness{"2026-12-01", 90}).Text();
  EXPECT_NE(json.find("\"wasted_cny\":"), std::string::npos);
  EXPECT_NE(json.find("\"total_wasted_cny\":"), std::string::npos);
  EXPECT_NE(json.find("\"total_wasted_usd\":"), std::string::npos);
  const std::string table = IdleTable(r).Render(OutputFormat::kTable, false);
  EXPECT_NE(table.find("TOTAL CNY (1 host)"), std::string::npos) << table;
  EXPECT_NE(table.find("TOTAL USD (4 hosts)"), std::string::npos) << table;
}

TEST(IdleInventory, ErrorsNameTheLine) {
  const Catalog& c = *Embedded();
  Result<std::vector<InventoryEntry>> bad =
      ParseInventoryCsv(c, "hostname,instance_type\na,p5.48xlarge\nb,p5.48xlarg\n", "hosts.csv");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("hosts.csv:3"), std::string::npos)
      << bad.status().message();
  EXPECT_NE(bad.status().message().find("p5.48xlarge"), std::string::npos);  // did you mean
  EXPECT_FALSE(ParseInventoryCsv(c, "host,type\n", "x.csv").ok());
  EXPECT_FALSE(
      ParseInventoryCsv(c, "hostname,instance_type,purchase\na,p5.48xlarge,lease\n", "x").ok());
}

TEST(IdleAnalyzer, BackwardsTimeIsAnError) {
  IdleAnalyzer a(Embedded(), IdleOptions());
  const std::string text =
      "timestamp, index, utilization.gpu\n2026/07/01 00:01:00, 0, 5\n2026/07/01 00:00:00, 0, 5\n";
  Result<TelemetryFileInfo> r =
      ReadTelemetryText(text, "h.csv", {}, [&a](const TelemetrySample& s) { return a.Add(s); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kParseError);
}

TEST(IdleAnalyzer, NoSamplesIsNoResult) {
  IdleAnalyzer a(Embedded(), IdleOptions());
  EXPECT_EQ(a.Finish({}).status().code(), StatusCode::kNoResult);
}

TEST(IdleAnalyzer, GapsAreNotTime) {
  // Two one-hour stretches of idle 5-minute samples, a day apart: 2 h covered, not 26 h.
  std::string text = "timestamp, index, utilization.gpu, name\n";
  for (int day = 0; day < 2; ++day) {
    for (int m = 0; m < 60; m += 5) {
      char line[96];
      std::snprintf(line, sizeof line, "2026/07/0%d 10:%02d:00, 0, 0, NVIDIA T4\n", 1 + day, m);
      text += line;
    }
  }
  const IdleReport r = Analyze({{"gaps.csv", text}});
  ASSERT_EQ(r.hosts.size(), 1u);
  EXPECT_NEAR(r.hosts[0].hours_covered, 2.0, 1e-9);
  EXPECT_NEAR(r.hosts[0].idle_hours, 2.0, 1e-9);
  EXPECT_EQ(r.hosts[0].idle_period_count, 2u);
}

}  // namespace
}  // namespace gpuadvisor
