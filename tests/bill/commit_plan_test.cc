// The bill reader against what the synthetic CUR holds, and the commitment chosen against a
// brute-force search over every commitment level (issue 41, "Must show").
#include "gpuadvisor/commit_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gpuadvisor/bill.h"
#include "testutil/cur_synth.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

std::string Cur(int days, testing::CurTruth* truth = nullptr) {
  std::string text;
  testing::CurTruth t =
      testing::WriteSyntheticCur(days, [&](const std::string& chunk) { text += chunk; });
  if (truth != nullptr) *truth = t;
  return text;
}

Result<BillUsage> Read(const Catalog& c, std::string_view text,
                       const std::string& origin = "cur.csv") {
  BillReader reader(c);
  Status st = reader.AddText(text, origin);
  if (!st.ok()) return st;
  return reader.Finish();
}

double Hours(const BillUsage& b, std::string_view type, BillPurchase p) {
  double sum = 0;
  for (const UsageSeries& s : b.series) {
    if (s.instance_type == type && s.purchase == p) sum += s.total_hours();
  }
  return sum;
}

// The embedded catalog with every kind of commitment priced for the synthetic fleet's types.
Catalog CatalogWithOffers() {
  Catalog c = testing::EmbeddedForTests();
  c.EditInstanceTypes([](std::vector<InstanceType>& types) {
    for (InstanceType& t : types) {
      for (RegionOffer& o : t.regions) {
        if (!o.on_demand) continue;
        const double od = o.on_demand->usd_per_hour;
        const Provenance from{"test-offers", "2026-11-01"};
        o.reserved = {
            {1, "standard", "no-upfront", 0, od * 0.63, from},
            {1, "standard", "all-upfront", od * 0.60 * 8760, 0, from},
            {3, "standard", "all-upfront", od * 0.40 * 3 * 8760, 0, from},
            {1, "convertible", "no-upfront", 0, od * 0.72, from},
        };
        o.savings_plans = {{"ec2-instance", 1, "no-upfront", od * 0.66, from},
                           {"compute", 1, "no-upfront", od * 0.74, from},
                           {"compute", 3, "partial-upfront", od * 0.52, from}};
      }
    }
  });
  return c;
}

// A group's sized offers: the choice, then the alternatives.
std::vector<const CommitOutcome*> OutcomesOf(const CommitGroup& g) {
  std::vector<const CommitOutcome*> all;
  if (g.choice) all.push_back(&*g.choice);
  for (const CommitOutcome& a : g.alternatives) all.push_back(&a);
  return all;
}

// The cost per hour of level L, from the sorted usage and its suffix sums: an evaluation
// independent of CommitCostPerHour's loop.
struct SortedUsage {
  std::vector<double> u, suffix;  // ascending; suffix[i] = sum of u[i..]
  explicit SortedUsage(std::vector<double> v) : u(std::move(v)) {
    std::sort(u.begin(), u.end());
    suffix.assign(u.size() + 1, 0);
    for (size_t i = u.size(); i-- > 0;) suffix[i] = suffix[i + 1] + u[i];
  }
  double Cost(double level, double rate, double burst) const {
    const size_t i = std::upper_bound(u.begin(), u.end(), level) - u.begin();
    const double above = suffix[i] - level * static_cast<double>(u.size() - i);
    return level * rate + burst * above / static_cast<double>(u.size());
  }
};

// The hours a group is sized on: on demand, plus the reserved (savings plan) hours when the group
// renews its RIs (the plans).
std::vector<double> SizedHours(const BillUsage& b, const std::string& region,
                               const std::string& type, bool with_reserved = false,
                               bool with_plans = false) {
  std::vector<double> u(static_cast<size_t>(b.hours()), 0.0);
  for (const UsageSeries& s : b.series) {
    const bool wanted = s.purchase == BillPurchase::kOnDemand ||
                        (with_reserved && s.purchase == BillPurchase::kReserved) ||
                        (with_plans && s.purchase == BillPurchase::kSavingsPlan);
    if (s.region != region || s.instance_type != type || !wanted) continue;
    for (size_t i = 0; i < s.hours.size(); ++i) u[s.first_hour - b.first_hour + i] += s.hours[i];
  }
  return u;
}

TEST(BillReaderTest, AYearOfLineItemsAddsUpToWhatTheGeneratorWrote) {
  testing::CurTruth truth;
  const std::string text = Cur(365, &truth);
  Result<BillUsage> b = Read(testing::EmbeddedForTests(), text);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->currency, "USD");
  EXPECT_EQ(b->hours(), 365 * 24);
  EXPECT_EQ(b->rows_read, truth.lines);
  EXPECT_NEAR(Hours(*b, "p4d.24xlarge", BillPurchase::kOnDemand), truth.od_p4d_hours, 1e-6);
  EXPECT_NEAR(Hours(*b, "g5.xlarge", BillPurchase::kOnDemand), truth.od_g5_hours, 1e-6);
  EXPECT_NEAR(Hours(*b, "g6e.12xlarge", BillPurchase::kOnDemand), truth.od_g6e_hours, 1e-6);
  EXPECT_NEAR(Hours(*b, "g5.xlarge", BillPurchase::kSpot), truth.spot_hours, 1e-6);
  EXPECT_NEAR(Hours(*b, "p4d.24xlarge", BillPurchase::kReserved), truth.ri_used_hours, 1e-6);
  // The m5.large and S3 lines are not accelerator usage.
  for (const UsageSeries& s : b->series) EXPECT_NE(s.instance_type, "m5.large");
  ASSERT_EQ(b->reservations.size(), 1u);
  EXPECT_NEAR(b->reservations[0].reserved_hours, truth.ri_reserved_hours, 1e-6);
  EXPECT_NEAR(b->reservations[0].used_hours, truth.ri_used_hours, 1e-6);
  ASSERT_EQ(b->savings_plans.size(), 1u);
  EXPECT_NEAR(b->savings_plans[0].committed, truth.sp_committed, 1e-6);
  EXPECT_NEAR(b->savings_plans[0].used, truth.sp_used, 1e-6);
  EXPECT_EQ(b->savings_plans[0].offering, "EC2InstanceSavingsPlans");
  EXPECT_TRUE(b->unknown_types.empty());
}

TEST(BillReaderTest, LegacyCurHeadersNameTheSameColumns) {
  const std::string text = Cur(40);
  Result<BillUsage> modern = Read(testing::EmbeddedForTests(), text);
  ASSERT_TRUE(modern.ok());
  // Legacy CUR spells line_item_usage_type "lineItem/UsageType" and
  // reservation_reservation_a_r_n "reservation/ReservationARN".
  std::string legacy = text;
  const size_t eol = legacy.find('\n');
  std::string header = legacy.substr(0, eol);
  auto swap = [&](const std::string& from, const std::string& to) {
    const size_t at = header.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    header.replace(at, from.size(), to);
  };
  swap("line_item_line_item_type", "lineItem/LineItemType");
  swap("line_item_usage_type", "lineItem/UsageType");
  swap("line_item_usage_start_date", "lineItem/UsageStartDate");
  swap("line_item_usage_amount", "lineItem/UsageAmount");
  swap("line_item_product_code", "lineItem/ProductCode");
  swap("product_region_code", "product/regionCode");
  swap("reservation_reservation_a_r_n", "reservation/ReservationARN");
  swap("reservation_total_reserved_units", "reservation/TotalReservedUnits");
  legacy.replace(0, eol, header);
  Result<BillUsage> old = Read(testing::EmbeddedForTests(), legacy);
  ASSERT_TRUE(old.ok()) << old.status().message();
  ASSERT_EQ(old->series.size(), modern->series.size());
  for (size_t i = 0; i < old->series.size(); ++i) {
    EXPECT_EQ(old->series[i].hours, modern->series[i].hours);
  }
  EXPECT_EQ(old->reservations[0].reserved_hours, modern->reservations[0].reserved_hours);
}

TEST(BillReaderTest, BadValuesNameTheFileLineAndColumn) {
  const std::string header(testing::kCurHeader);
  std::string text = Cur(2);
  const size_t second = text.find('\n') + 1;
  // The first usage line's amount (column 11) made "x".
  std::string line = text.substr(second, text.find('\n', second) - second);
  size_t at = 0;
  for (int i = 0; i < 10; ++i) at = line.find(',', at) + 1;
  line.replace(at, line.find(',', at) - at, "x");
  Result<BillUsage> b = Read(testing::EmbeddedForTests(), header + line + "\n", "bill.csv");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kParseError);
  EXPECT_NE(b.status().message().find("bill.csv:2"), std::string::npos) << b.status().message();
  EXPECT_NE(b.status().message().find("line_item_usage_amount"), std::string::npos);

  Result<BillUsage> missing = Read(testing::EmbeddedForTests(), "a,b\n1,2\n", "x.csv");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("line_item_line_item_type"), std::string::npos);

  std::string cny = Cur(2);
  const size_t usd = cny.find(",USD,", cny.rfind("SavingsPlanRecurringFee"));
  cny.replace(usd, 5, ",CNY,");
  Result<BillUsage> mixed = Read(testing::EmbeddedForTests(), cny);
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.status().message().find("CNY"), std::string::npos);
}

TEST(BillReaderTest, MemoryIsBoundedByTheLimitsNotByTheFile) {
  const std::string header =
      "line_item_line_item_type,line_item_product_code,line_item_usage_type,"
      "line_item_usage_start_date,line_item_usage_amount,product_region_code\n";
  // Two hours 80 years apart would be 700,000 cells of one series.
  const std::string far =
      header +
      "Usage,AmazonEC2,USE1-BoxUsage:p4d.24xlarge,2010-01-01T00:00:00Z,1,us-east-1\n"
      "Usage,AmazonEC2,USE1-BoxUsage:p4d.24xlarge,2090-01-01T00:00:00Z,1,us-east-1\n";
  BillReader reader(testing::EmbeddedForTests(), BillLimits{.max_cells = 100000, .max_series = 10});
  Status st = reader.AddText(far, "far.csv");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("far.csv:3"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("100000 hour cells"), std::string::npos) << st.message();
  // Made-up regions: at most max_series series.
  std::string regions = header;
  for (int i = 0; i < 20; ++i) {
    regions +=
        "Usage,AmazonEC2,X-BoxUsage:g5.xlarge,2026-01-01T00:00:00Z,1,r" + std::to_string(i) + "\n";
  }
  BillReader few(testing::EmbeddedForTests(), BillLimits{.max_cells = 100000, .max_series = 10});
  st = few.AddText(regions, "regions.csv");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("over 10 series"), std::string::npos) << st.message();
  // Types of an accelerator family the catalog does not know are counted, not kept.
  std::string unknown = header;
  for (int i = 0; i < 500; ++i) {
    unknown += "Usage,AmazonEC2,X-BoxUsage:p4d.x" + std::to_string(i) +
               ",2026-01-01T00:00:00Z,2,us-east-1\n";
  }
  Result<BillUsage> b = Read(testing::EmbeddedForTests(), unknown);
  ASSERT_FALSE(b.ok());  // nothing the catalog knows
  BillReader counted(testing::EmbeddedForTests());
  ASSERT_TRUE(counted
                  .AddText(unknown + "Usage,AmazonEC2,X-BoxUsage:g5.xlarge,"
                                     "2026-01-01T00:00:00Z,1,us-east-1\n",
                           "u.csv")
                  .ok());
  Result<BillUsage> with_one = counted.Finish();
  ASSERT_TRUE(with_one.ok());
  EXPECT_EQ(with_one->series.size(), 1u);
  EXPECT_EQ(with_one->unknown_types.size(), 100u);
  EXPECT_EQ(with_one->unknown_type_hours, 1000);
}

// FOCUS 1.0 with AWS's columns: usage, an RI's used and unused hours, a plan's used and unused
// dollars, spot, a fee and a tax to read past.
TEST(BillReaderTest, FocusExportsGiveUsageAndCommitmentUse) {
  std::string text =
      "BillingPeriodStart,ChargePeriodStart,ChargeCategory,ChargeFrequency,PricingCategory,"
      "CommitmentDiscountId,CommitmentDiscountStatus,ConsumedQuantity,ConsumedUnit,RegionId,"
      "ListCost,EffectiveCost,BilledCost,BillingCurrency,x_ServiceCode,x_UsageType\n";
  const std::string ri = "arn:aws:ec2:us-east-1:123456789012:reserved-instances/abc";
  const std::string sp = "arn:aws:savingsplans::123456789012:savingsplan/xyz";
  for (const char* t : {"2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z"}) {
    const std::string at = std::string("2026-01-01T00:00:00Z,") + t + ",";
    text += at +
            "Usage,Usage-Based,Standard,,,3,Hours,us-east-1,65.87,65.87,65.87,USD,AmazonEC2,"
            "USE1-BoxUsage:p4d.24xlarge\n";
    text += at + "Usage,Usage-Based,Committed," + ri +
            ",Used,2,Hours,us-east-1,43.9,27.8,0,USD,"
            "AmazonEC2,USE1-BoxUsage:p4d.24xlarge\n";
    text += at + "Usage,Usage-Based,Committed," + sp +
            ",Used,1,Hours,us-west-2,1.006,0.684,0,USD,"
            "AmazonEC2,USW2-BoxUsage:g5.xlarge\n";
    text += at + "Usage,Usage-Based,Committed," + sp +
            ",Unused,,,,0,0.816,0.816,USD,"
            "ComputeSavingsPlans,\n";
    text += at +
            "Usage,Usage-Based,Dynamic,,,2,Hours,us-west-2,2.012,0.82,0.82,USD,AmazonEC2,"
            "USW2-SpotUsage:g5.xlarge\n";
    text += at + "Purchase,Recurring,Committed," + ri +
            ",,,,us-east-1,0,0,27.8,USD,AmazonEC2,"
            "USE1-HeavyUsage:p4d.24xlarge\n";
    text += at + "Tax,One-Time,,,,,,,0,1.5,1.5,USD,AmazonEC2,\n";
  }
  text += "2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,Usage-Based,Committed," + ri +
          ",Unused,1,Hours,us-east-1,0,13.9,13.9,USD,AmazonEC2,USE1-HeavyUsage:p4d.24xlarge\n";
  Result<BillUsage> b = Read(testing::EmbeddedForTests(), text, "focus.csv");
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->hours(), 2);
  EXPECT_EQ(Hours(*b, "p4d.24xlarge", BillPurchase::kOnDemand), 6);
  EXPECT_EQ(Hours(*b, "p4d.24xlarge", BillPurchase::kReserved), 4);
  EXPECT_EQ(Hours(*b, "g5.xlarge", BillPurchase::kSavingsPlan), 2);
  EXPECT_EQ(Hours(*b, "g5.xlarge", BillPurchase::kSpot), 4);
  ASSERT_EQ(b->reservations.size(), 1u);
  EXPECT_EQ(b->reservations[0].reserved_hours, 5);
  EXPECT_EQ(b->reservations[0].used_hours, 4);
  ASSERT_EQ(b->savings_plans.size(), 1u);
  EXPECT_NEAR(b->savings_plans[0].committed, 3.0, 1e-12);
  EXPECT_NEAR(b->savings_plans[0].used, 1.368, 1e-12);
  EXPECT_EQ(b->savings_plans[0].hours, 2);
  CommitOptions o;
  Result<CommitReport> r = AdviseCommitments(*b, testing::EmbeddedForTests(), o);
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(r->reservations[0].utilisation, 0.8, 1e-12);
  EXPECT_NEAR(r->savings_plans[0].commitment_per_hour, 1.5, 1e-12);
  EXPECT_NEAR(r->savings_plans[0].utilisation, 0.456, 1e-12);
  // ListCost is the public on-demand cost: p4d's rate from the bill.
  for (const CommitGroup& g : r->groups) {
    if (g.instance_type == "p4d.24xlarge") {
      EXPECT_NEAR(g.on_demand_rate, (2 * 65.87 + 2 * 43.9) / 10, 1e-9);
    }
  }
}

double Level(const std::vector<double>& u, double rate, double burst, double step) {
  return OptimalCommitLevel(WeightedUsage::Uniform(u), rate, burst, step);
}
double CostOf(const std::vector<double>& u, double level, double rate, double burst) {
  return CommitCostPerHour(WeightedUsage::Uniform(u), level, rate, burst);
}

TEST(CommitPlanTest, QuantileRuleOnSmallCases) {
  // Always 5: commit to 5 whenever the rate is under the burst price.
  EXPECT_EQ(Level(std::vector<double>(100, 5.0), 0.6, 1.0, 1), 5);
  EXPECT_EQ(Level(std::vector<double>(100, 5.0), 1.0, 1.0, 1), 0);
  // 4 busy hours of 10: a commitment at 60% of on-demand pays only for levels used > 60% of
  // hours; here 40% of hours: none.
  std::vector<double> u = {10, 10, 10, 10, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(Level(u, 0.6, 1.0, 1), 0);
  EXPECT_EQ(Level(u, 0.3, 1.0, 1), 10);
  // Fractional levels round to the better whole step.
  std::vector<double> f(10, 2.5);
  const double level = Level(f, 0.5, 1.0, 1);
  EXPECT_TRUE(level == 2 || level == 3);
  EXPECT_LE(CostOf(f, level, 0.5, 1.0), std::min(CostOf(f, 2, 0.5, 1.0), CostOf(f, 3, 0.5, 1.0)));
}

// A planned run over a term is the history repeated with the run's extra instances in its share
// of the term: for shares 1/k, exactly k copies of the history, one (or more) of them raised.
TEST(CommitPlanTest, PlannedRunsWeighTheirShareOfTheTerm) {
  const std::vector<double> u = {0, 1, 1, 2, 2, 2, 3, 4, 0, 1, 5, 2};
  // 3 more instances for a quarter of a 1-year term; 1 more for half of it.
  const WeightedUsage w = WeightedUsage::WithRuns(u, {{3, 2190}, {1, 4380}}, 8760);
  std::vector<double> copies;
  for (double extra : {4.0, 1.0, 0.0, 0.0}) {
    for (double v : u) copies.push_back(v + extra);
  }
  const SortedUsage sorted(copies);
  double weight = 0;
  for (double x : w.weight) weight += x;
  EXPECT_NEAR(weight, 1, 1e-12);
  EXPECT_NEAR(
      w.Mean(),
      std::accumulate(copies.begin(), copies.end(), 0.0) / static_cast<double>(copies.size()),
      1e-12);
  for (double rate : {0.2, 0.45, 0.6, 0.8}) {
    double best = sorted.Cost(0, rate, 1), best_level = 0;
    for (double level = 1; level <= 10; ++level) {
      if (sorted.Cost(level, rate, 1) < best - 1e-12) {
        best = sorted.Cost(level, rate, 1);
        best_level = level;
      }
    }
    const double level = OptimalCommitLevel(w, rate, 1, 1);
    EXPECT_EQ(level, best_level) << rate;
    EXPECT_NEAR(CommitCostPerHour(w, level, rate, 1), best, 1e-12) << rate;
  }
  // A run as long as the term (or longer) raises every hour; none leaves the history.
  const WeightedUsage all = WeightedUsage::WithRuns(u, {{2, 9000}}, 8760);
  EXPECT_EQ(all.value.size(), u.size());
  EXPECT_NEAR(all.Mean(),
              std::accumulate(u.begin(), u.end(), 0.0) / static_cast<double>(u.size()) + 2, 1e-12);
  EXPECT_EQ(WeightedUsage::WithRuns(u, {}, 8760).value, u);
}

TEST(CommitPlanTest, ChosenCommitmentEqualsTheBruteForceOptimumOverAYear) {
  const Catalog catalog = CatalogWithOffers();
  Result<BillUsage> b = Read(catalog, Cur(365));
  ASSERT_TRUE(b.ok()) << b.status().message();
  for (const char* term : {"1y", "any"}) {
    CommitOptions o;
    o.term = term;
    Result<CommitReport> r = AdviseCommitments(*b, catalog, o);
    ASSERT_TRUE(r.ok()) << r.status().message();
    ASSERT_EQ(r->groups.size(), 3u);
    int chosen = 0;
    for (const CommitGroup& g : r->groups) {
      const bool renews_ri = g.renewal_hours > 0 && g.reserved_hours > 0;
      const bool renews_plans = g.renewal_hours > (renews_ri ? g.reserved_hours : 0) + 1e-9;
      const std::vector<double> u =
          SizedHours(*b, g.region, g.instance_type, renews_ri, renews_plans);
      const SortedUsage sorted(u);
      double best_any = sorted.Cost(0, 0, g.burst_rate);  // staying on demand
      const std::vector<const CommitOutcome*> all = OutcomesOf(g);
      ASSERT_FALSE(all.empty()) << g.instance_type;
      for (const CommitOutcome* c : all) {
        // Every level on the offer's grid from 0 to past the peak.
        const double step = c->offer.step;
        double best = sorted.Cost(0, c->offer.rate, g.burst_rate), best_level = 0;
        for (double level = step; level <= g.on_demand.max + step; level += step) {
          const double cost = sorted.Cost(level, c->offer.rate, g.burst_rate);
          if (cost < best - 1e-12) {
            best = cost;
            best_level = level;
          }
        }
        EXPECT_NEAR(c->cost_per_hour, best, 1e-9 * std::max(1.0, best))
            << g.instance_type << " " << c->offer.name() << " level " << c->instances
            << " brute force " << best_level;
        EXPECT_NEAR(c->instances, best_level, step * 1.001)
            << g.instance_type << " " << c->offer.name();
        best_any = std::min(best_any, best);
      }
      if (g.choice) {
        ++chosen;
        // The choice is the cheapest of every offer and of staying on demand.
        EXPECT_NEAR(g.choice->cost_per_hour, best_any, 1e-9 * std::max(1.0, best_any));
        EXPECT_GT(g.choice->coverage, 0);
        EXPECT_LE(g.choice->utilisation, 1 + 1e-12);
        EXPECT_GT(g.choice->saving, 0);
        // Its own figures agree with the hour-by-hour definitions.
        double covered = 0, total = 0;
        for (double v : u) {
          covered += std::min(v, g.choice->instances);
          total += v;
        }
        EXPECT_NEAR(g.choice->coverage, covered / total, 1e-12);
        EXPECT_NEAR(g.choice->utilisation,
                    covered / (g.choice->instances * static_cast<double>(u.size())), 1e-12);
      }
    }
    // The g5 serving curve pays for a commitment of any term; the g6e week a month (23% of
    // hours) pays for none at these rates; p4d's RI ends with the bill (2026-11-30): its renewal
    // pays.
    EXPECT_EQ(chosen, 2) << term;
    for (const CommitGroup& g : r->groups) {
      if (g.instance_type == "g6e.12xlarge") {
        EXPECT_FALSE(g.choice.has_value());
      }
      if (g.instance_type == "g5.xlarge") {
        EXPECT_TRUE(g.choice.has_value());
      }
    }
  }
}

// One Compute Savings Plan across types (JointComputePlan). By hand: the plan covers the usage
// with the largest discount first, whatever the order of the groups.
TEST(JointComputePlanTest, CoversTheLargestDiscountFirst) {
  JointUsage u;
  u.weight = {1};
  u.value = {{1}, {1}};  // one instance-hour of each group
  u.rate = {3.6, 5};     // B: 10 % off its 4/h; A: 50 % off its 10/h
  u.on_demand = {4, 10};
  u.burst = {4, 10};
  EXPECT_NEAR(JointCostPerHour(u, 0), 14, 1e-12);
  EXPECT_NEAR(JointCostPerHour(u, 3), 3 + 0.4 * 10 + 4, 1e-12);  // 0.6 of A covered
  EXPECT_NEAR(JointCostPerHour(u, 5), 5 + 4, 1e-12);             // A, then nothing of B
  EXPECT_NEAR(JointCostPerHour(u, 8.6), 8.6, 1e-12);             // both
  const JointUse use = JointUseOf(u, 5);
  EXPECT_NEAR(use.covered_on_demand, 10, 1e-12);
  EXPECT_NEAR(use.used, 5, 1e-12);
  EXPECT_NEAR(OptimalJointCommitment(u, 0.001), 8.6, 1e-9);  // every cent of it pays
}

// The level equals a brute-force scan of every $0.001 step, on three series of 600 hours with
// different discounts, and the pooled plan costs no more than the three sized apart.
TEST(JointComputePlanTest, LevelEqualsTheBruteForceOptimum) {
  JointUsage u;
  const size_t hours = 600;
  u.weight.assign(hours, 1.0 / hours);
  const double od[3] = {2.0, 1.0, 0.5}, off[3] = {0.28, 0.20, 0.35};
  for (int g = 0; g < 3; ++g) {
    std::vector<double> v(hours);
    for (size_t h = 0; h < hours; ++h) {
      // Deterministic shapes: a daily curve, weekday jobs, a noisy base.
      const double day = std::sin(static_cast<double>(h % 24) / 24 * 6.283) + 1;
      v[h] = g == 0   ? std::floor(day * 2)
             : g == 1 ? ((h / 24) % 7 < 5 ? 3.0 : 0.0)
                      : static_cast<double>((h * 7919) % 5);
    }
    u.value.push_back(v);
    u.on_demand.push_back(od[g]);
    u.burst.push_back(od[g]);
    u.rate.push_back(od[g] * (1 - off[g]));
  }
  const double level = OptimalJointCommitment(u, 0.001);
  double best = JointCostPerHour(u, 0), best_level = 0;
  for (int k = 1; k <= 12000; ++k) {  // $0 to $12/h, past the largest hour at plan rates
    const double c = JointCostPerHour(u, k * 0.001);
    if (c < best - 1e-12) {
      best = c;
      best_level = k * 0.001;
    }
  }
  EXPECT_NEAR(JointCostPerHour(u, level), best, 1e-9) << level << " vs " << best_level;
  EXPECT_NEAR(level, best_level, 0.0011);
  // Sized apart: each series alone with its own plan (the per-type rule), summed.
  double apart = 0;
  for (int g = 0; g < 3; ++g) {
    const WeightedUsage w = WeightedUsage::Uniform(u.value[g]);
    const double l = OptimalCommitLevel(w, u.rate[g], u.burst[g], 0.001 / u.rate[g]);
    apart += CommitCostPerHour(w, l, u.rate[g], u.burst[g]);
  }
  EXPECT_LE(JointCostPerHour(u, level), apart + 1e-9);
}

// Through AdviseCommitments on the synthetic year: one plan per term and payment the catalog
// prices a Compute Savings Plan in, over the groups that have one, no dearer than their own
// Compute Savings Plans sized apart.
TEST(JointComputePlanTest, TheBillGetsOnePlanPerTermAndPayment) {
  const Catalog catalog = CatalogWithOffers();
  Result<BillUsage> b = Read(catalog, Cur(365));
  ASSERT_TRUE(b.ok()) << b.status().message();
  CommitOptions o;
  o.term = "any";
  Result<CommitReport> r = AdviseCommitments(*b, catalog, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->compute_plans.size(), 2u);  // 1y no-upfront, 3y partial-upfront
  for (const JointComputePlan& p : r->compute_plans) {
    EXPECT_GE(p.groups.size(), 2u);
    double apart = 0;
    for (const CommitGroup& g : r->groups) {
      const std::vector<const CommitOutcome*> all = OutcomesOf(g);
      for (const CommitOutcome* c : all) {
        if (c->offer.kind == "compute-sp" && c->offer.years == p.years &&
            c->offer.payment == p.payment) {
          apart += std::min(c->cost_per_hour, g.stay_per_hour);
        }
      }
    }
    EXPECT_LE(p.cost_per_hour, apart + 1e-9) << p.years << "y " << p.payment;
    EXPECT_LE(p.cost_per_hour, p.stay_per_hour + 1e-12);
    EXPECT_GT(p.committed_per_hour, 0);
    EXPECT_GT(p.coverage, 0);
    EXPECT_LE(p.utilisation, 1 + 1e-12);
    EXPECT_NEAR(p.loss_if_usage_stops, p.committed_per_hour * 8760 * p.years, 1e-6);
    EXPECT_EQ(p.from.source, "test-offers");
  }
  EXPECT_LE(r->compute_plans[0].cost_per_hour, r->compute_plans[1].cost_per_hour);
}

// Through AdviseCommitments: the g6e week a month pays for no commitment alone; a run of 4
// more for a year makes one pay, sized on the history with the run (brute force over k copies);
// a run of a type the bill lacks opens its group; spot and unknown types are reported, not sized.
TEST(CommitPlanTest, PlannedRunsAreSizedOnTopOfTheBill) {
  const Catalog catalog = CatalogWithOffers();
  Result<BillUsage> b = Read(catalog, Cur(56));
  ASSERT_TRUE(b.ok()) << b.status().message();
  CommitOptions o;
  o.term = "1y";
  o.planned = {{"train.json", "g6e.12xlarge", "us-east-2", 4, 8760, "on-demand"},
               {"serve.json", "g6e.xlarge", "us-east-1", 2, 2190, "on-demand"},
               {"spot.json", "p4d.24xlarge", "us-east-1", 8, 100, "spot"},
               {"odd.json", "p9.48xlarge", "us-east-1", 1, 100, "on-demand"}};
  Result<CommitReport> r = AdviseCommitments(*b, catalog, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->planned.size(), 4u);
  EXPECT_TRUE(r->planned[0].sized);
  EXPECT_TRUE(r->planned[1].sized);
  EXPECT_FALSE(r->planned[2].sized);
  EXPECT_NE(r->planned[2].why.find("spot"), std::string::npos);
  EXPECT_FALSE(r->planned[3].sized);
  EXPECT_NE(r->planned[3].why.find("p9.48xlarge"), std::string::npos);
  const CommitGroup* g6e = nullptr;
  const CommitGroup* fresh = nullptr;
  for (const CommitGroup& g : r->groups) {
    if (g.instance_type == "g6e.12xlarge") g6e = &g;
    if (g.instance_type == "g6e.xlarge") fresh = &g;
  }
  ASSERT_NE(g6e, nullptr);
  ASSERT_NE(fresh, nullptr);
  // A whole-term run of 4 raises every hour by 4: 4 more RIs than the history alone asks for.
  ASSERT_TRUE(g6e->choice.has_value());
  EXPECT_NEAR(g6e->planned_instance_hours, 4 * 8760, 1e-9);
  std::vector<double> raised = SizedHours(*b, g6e->region, g6e->instance_type);
  for (double& v : raised) v += 4;
  const SortedUsage sorted(raised);
  const CommitOutcome& c = *g6e->choice;
  double best = sorted.Cost(0, c.offer.rate, g6e->burst_rate);
  for (double level = 1; level <= 12; ++level) {
    best = std::min(best, sorted.Cost(level, c.offer.rate, g6e->burst_rate));
  }
  EXPECT_NEAR(c.cost_per_hour, best, 1e-9 * best);
  EXPECT_GE(c.instances, 4);
  // A quarter-year run of 2 on a type the bill never ran: idle for 3/4 of the term, so a
  // commitment pays only below a 25% break-even; at these rates (60% and more) none does.
  EXPECT_EQ(fresh->on_demand.instance_hours, 0);
  EXPECT_NEAR(fresh->planned_instance_hours, 2 * 2190, 1e-9);
  EXPECT_FALSE(fresh->choice.has_value());
  EXPECT_NEAR(fresh->stay_per_hour, fresh->on_demand_rate * 2 * 0.25, 1e-9);
}

TEST(CommitPlanTest, HeldCommitmentsUtilisationIsWhatTheBillSays) {
  testing::CurTruth truth;
  const Catalog& catalog = testing::EmbeddedForTests();
  Result<BillUsage> b = Read(catalog, Cur(120, &truth));
  ASSERT_TRUE(b.ok());
  CommitOptions o;
  o.expiring_days = 365;
  Result<CommitReport> r = AdviseCommitments(*b, catalog, o);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->reservations.size(), 1u);
  EXPECT_NEAR(r->reservations[0].utilisation, truth.ri_used_hours / truth.ri_reserved_hours, 1e-12);
  EXPECT_LT(r->reservations[0].utilisation, 1);  // one stops an hour a week
  EXPECT_NEAR(r->reservations[0].unused_hours, truth.ri_reserved_hours - truth.ri_used_hours, 1e-9);
  EXPECT_TRUE(r->reservations[0].expiring);  // ends 2026-11-30
  ASSERT_EQ(r->savings_plans.size(), 1u);
  EXPECT_NEAR(r->savings_plans[0].utilisation, truth.sp_used / truth.sp_committed, 1e-12);
  EXPECT_LT(r->savings_plans[0].utilisation, 1);  // 2 x 0.684 of 1.5 each hour
  EXPECT_NEAR(r->savings_plans[0].commitment_per_hour, testing::kSpCommitment, 1e-12);
  EXPECT_FALSE(r->savings_plans[0].expiring);  // 2027-06-30
  // Coverage now: p4d's 2 reserved of its hours.
  for (const CommitGroup& g : r->groups) {
    if (g.instance_type != "p4d.24xlarge") continue;
    const double reserved = truth.ri_used_hours;
    EXPECT_NEAR(g.coverage_now, reserved / (reserved + truth.od_p4d_hours), 1e-12);
    // The bill's public rate is the on-demand rate used.
    EXPECT_NEAR(g.on_demand_rate, testing::kP4dRate, 1e-9);
    EXPECT_EQ(g.on_demand_from.source, "the bill's public on-demand cost");
  }
}

TEST(CommitPlanTest, ExpiringCommitmentsAreSizedForRenewal) {
  testing::CurTruth truth;
  const Catalog& catalog = testing::EmbeddedForTests();
  Result<BillUsage> b = Read(catalog, Cur(120, &truth));
  ASSERT_TRUE(b.ok());
  auto p4d = [](const CommitReport& r) -> const CommitGroup& {
    for (const CommitGroup& g : r.groups) {
      if (g.instance_type == "p4d.24xlarge") return g;
    }
    static const CommitGroup none;
    ADD_FAILURE() << "no p4d group";
    return none;
  };
  CommitOptions o;  // the RI ends 2026-11-30, 245 days after the bill: not expiring
  Result<CommitReport> kept = AdviseCommitments(*b, catalog, o);
  o.expiring_days = 365;
  Result<CommitReport> renewing = AdviseCommitments(*b, catalog, o);
  ASSERT_TRUE(kept.ok() && renewing.ok());
  EXPECT_EQ(p4d(*kept).renewal_hours, 0);
  EXPECT_FALSE(p4d(*kept).choice.has_value());  // the jobs above the RI run 46% of hours
  EXPECT_NEAR(p4d(*renewing).renewal_hours, truth.ri_used_hours, 1e-6);
  ASSERT_TRUE(p4d(*renewing).choice.has_value());
  // The two instances the RI covers run all but an hour a week: renew both.
  EXPECT_GE(p4d(*renewing).choice->instances, 2);
  // The plan ends 2027-06-30: not expiring within 365 days, so g5's covered hours stay covered.
  for (const CommitGroup& g : renewing->groups) {
    if (g.instance_type == "g5.xlarge") {
      EXPECT_EQ(g.renewal_hours, 0);
    }
  }
}

TEST(CommitPlanTest, DiscountScalesEveryAmountNotTheLevel) {
  const Catalog catalog = CatalogWithOffers();
  Result<BillUsage> b = Read(catalog, Cur(60));
  ASSERT_TRUE(b.ok());
  CommitOptions o;
  Result<CommitReport> list = AdviseCommitments(*b, catalog, o);
  o.discount_pct = 10;
  Result<CommitReport> discounted = AdviseCommitments(*b, catalog, o);
  ASSERT_TRUE(list.ok() && discounted.ok());
  EXPECT_NEAR(discounted->cost_per_hour, 0.9 * list->cost_per_hour, 1e-9);
  for (size_t i = 0; i < list->groups.size(); ++i) {
    ASSERT_EQ(list->groups[i].choice.has_value(), discounted->groups[i].choice.has_value());
    if (list->groups[i].choice) {
      EXPECT_EQ(list->groups[i].choice->offer.name(), discounted->groups[i].choice->offer.name());
    }
  }
}

TEST(CommitPlanTest, SpotBurstsCommitLessThanOnDemandBursts) {
  const Catalog catalog = CatalogWithOffers();
  Result<BillUsage> b = Read(catalog, Cur(60));
  ASSERT_TRUE(b.ok());
  CommitOptions o;
  Result<CommitReport> od = AdviseCommitments(*b, catalog, o);
  o.burst = "spot";
  Result<CommitReport> spot = AdviseCommitments(*b, catalog, o);
  ASSERT_TRUE(od.ok() && spot.ok());
  EXPECT_LT(spot->committed_per_hour, od->committed_per_hour);
  for (const CommitGroup& g : spot->groups) EXPECT_EQ(g.burst, "spot") << g.instance_type;
}

TEST(CurPushdownSqlTest, RefusesNamesThatAreNotPlainIdentifiers) {
  EXPECT_TRUE(CurPushdownSql("cur.cur2", {"p4d", "g5"}).ok());
  for (const char* bad : {"cur; DROP TABLE x", "a.b.c", "", ".x", "cur2 --", "t\"x"}) {
    EXPECT_FALSE(CurPushdownSql(bad, {"p4d"}).ok()) << bad;
  }
  EXPECT_FALSE(CurPushdownSql("cur2", {"p4d'); --"}).ok());
  Result<std::string> ranged = CurPushdownSql("cur2", {"p4d"}, 20423, 20424);
  ASSERT_TRUE(ranged.ok());
  EXPECT_NE(ranged->find("TIMESTAMP '2025-12-01 00:00:00'"), std::string::npos);
  EXPECT_NE(ranged->find("IN ('p4d')"), std::string::npos);
}

}  // namespace
}  // namespace gpuadvisor
