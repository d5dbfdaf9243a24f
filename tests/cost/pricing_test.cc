// PriceUsage against hand computation: amortised commitments, break-even, spot overhead.
#include <gtest/gtest.h>

#include <cmath>

#include "gpuadvisor/cost.h"

namespace gpuadvisor {
namespace {

InstanceType Type(std::optional<double> od, std::optional<double> spot, std::optional<double> ri,
                  int band) {
  InstanceType t;
  t.name = "p9.48xlarge";
  t.ebs_max_mbps = 80000;  // 10 GB/s: the 1 GB/s gp3 ceiling applies
  t.usage_classes = {"on-demand", "spot"};
  RegionOffer o;
  o.region = "us-east-1";
  const Provenance from{"test", "2026-07-01"};
  if (od) o.on_demand = Price{*od, from, false, ""};
  if (spot) o.spot = Price{*spot, from, true, ""};
  if (ri) o.reserved_1y_no_upfront = Price{*ri, from, false, ""};
  if (band >= 0) o.spot_band = SpotBand{band, "", 0, 0, from};
  t.regions.push_back(o);
  return t;
}

const PurchaseOptionCost& Option(const PricingResult& r, const std::string& name) {
  for (const PurchaseOptionCost& c : r.options) {
    if (c.option == name) return c;
  }
  static PurchaseOptionCost none;
  ADD_FAILURE() << name;
  return none;
}

TEST(PricingTest, OnDemandIsRateTimesUsedHours) {
  UsagePattern u;
  u.hours_per_month = 200;
  u.months = 3;
  u.instances = 2;
  Result<PricingResult> r = PriceUsage(Type(10, 4, 6, 0), "us-east-1", u);
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(*Option(*r, "on-demand").total_usd, 10.0 * 200 * 3 * 2);
}

TEST(PricingTest, ReservedBillsTheWholeTermAndBreaksEvenAtTheRateRatio) {
  UsagePattern u;
  u.hours_per_month = 365;  // half the month
  u.months = 12;
  Result<PricingResult> r = PriceUsage(Type(10, std::nullopt, 6, -1), "us-east-1", u);
  ASSERT_TRUE(r.ok());
  const PurchaseOptionCost& ri = Option(*r, "reserved-1y-no-upfront");
  EXPECT_DOUBLE_EQ(*ri.total_usd, 6.0 * 730 * 12);           // every hour of the term
  EXPECT_DOUBLE_EQ(*ri.usd_per_used_hour, 6.0 * 730 / 365);  // 12 $/used hour at 50% use
  EXPECT_DOUBLE_EQ(*ri.break_even_utilization, 0.6);
  EXPECT_EQ(r->options[r->cheapest].option, "on-demand");  // 50% use < 60% break-even
  u.hours_per_month = 730;
  r = PriceUsage(Type(10, std::nullopt, 6, -1), "us-east-1", u);
  EXPECT_EQ(r->options[r->cheapest].option, "reserved-1y-no-upfront");
  u.months = 13;  // a second term starts
  r = PriceUsage(Type(10, std::nullopt, 6, -1), "us-east-1", u);
  EXPECT_DOUBLE_EQ(*Option(*r, "reserved-1y-no-upfront").total_usd, 6.0 * 730 * 24);
}

TEST(PricingTest, SpotOverheadFollowsYoungDaly) {
  UsagePattern u;
  u.interruptible = true;
  u.checkpoint_gib = 100;
  u.restart_s = 600;
  u.instances = 4;
  const InstanceType t = Type(10, 3, std::nullopt, 4);  // ">20%": 25% per month assumed
  Result<PricingResult> r = PriceUsage(t, "us-east-1", u);
  ASSERT_TRUE(r.ok());
  const PurchaseOptionCost& spot = Option(*r, "spot");
  ASSERT_TRUE(spot.spot.has_value());
  const double mtbi = 730 * 3600 / (0.25 * 4);   // s, four instances
  const double write = 100 * 1.073741824 / 1.0;  // GiB at 1 GB/s
  const double tau = std::sqrt(2 * write * mtbi);
  const double overhead = write / tau + (tau / 2 + 600 + write) / mtbi;
  EXPECT_NEAR(spot.spot->mtbi_hours, mtbi / 3600, 1e-9);
  EXPECT_NEAR(spot.spot->optimal_interval_s, tau, 1e-6);
  EXPECT_NEAR(spot.spot->overhead_fraction, overhead, 1e-12);
  EXPECT_NEAR(*spot.total_usd, 3.0 * 730 * 4 * (1 + overhead), 1e-6);
  EXPECT_EQ(r->options[r->cheapest].option, "spot");
  // A fixed interval far from the optimum costs more.
  u.checkpoint_interval_s = tau / 10;
  Result<PricingResult> worse = PriceUsage(t, "us-east-1", u);
  EXPECT_GT(Option(*worse, "spot").spot->overhead_fraction, overhead);
}

TEST(PricingTest, SpotIsNotCheapestForAJobThatCannotBeInterrupted) {
  UsagePattern u;
  Result<PricingResult> r = PriceUsage(Type(10, 3, std::nullopt, 0), "us-east-1", u);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(Option(*r, "spot").suitable);
  EXPECT_EQ(r->options[r->cheapest].option, "on-demand");
}

TEST(PricingTest, UnpricedOptionsAreListedWithoutFigures) {
  Result<PricingResult> r = PriceUsage(Type(10, std::nullopt, std::nullopt, -1), "us-east-1", {});
  ASSERT_TRUE(r.ok());
  const PurchaseOptionCost& sp = Option(*r, "savings-plan-compute-3y");
  EXPECT_FALSE(sp.priced);
  EXPECT_FALSE(sp.total_usd.has_value());
  EXPECT_EQ(*sp.term_months, 36);
  EXPECT_FALSE(Option(*r, "spot").priced);
}

TEST(PricingTest, BadUsageNamesTheFlag) {
  UsagePattern u;
  u.hours_per_month = 800;
  EXPECT_NE(
      PriceUsage(Type(10, 3, 6, 0), "us-east-1", u).status().message().find("hours-per-month"),
      std::string::npos);
  u.hours_per_month = 100;
  u.months = -1;
  EXPECT_NE(PriceUsage(Type(10, 3, 6, 0), "us-east-1", u).status().message().find("months"),
            std::string::npos);
  EXPECT_EQ(PriceUsage(Type(10, 3, 6, 0), "eu-west-3", {}).status().code(), StatusCode::kNotFound);
}

// Capacity Blocks (issue 17): whole days of block at the catalog's instance-hour rate, paid
// upfront for every instance; 336 h is exactly 14 days, one hour more a 21-day block (issue 37).
InstanceType BlockType() {
  InstanceType t = Type(50, 20, 35, 4);
  t.usage_classes.push_back("capacity-block");
  t.regions[0].capacity_block = Price{40, {"cb-test", "2026-07-22"}, false, ""};
  RegionOffer other;
  other.region = "eu-north-1";
  other.on_demand = Price{60, {"test", "2026-07-01"}, false, ""};
  t.regions.insert(t.regions.begin(), other);  // regions stay sorted by name
  return t;
}

UsagePattern Continuous(double hours, int instances) {
  UsagePattern u;
  u.hours_per_month = kHoursPerMonth;
  u.months = hours / kHoursPerMonth;
  u.instances = instances;
  return u;
}

TEST(PricingTest, CapacityBlockIsWholeDaysPaidUpfront) {
  Result<PricingResult> r = PriceUsage(BlockType(), "us-east-1", Continuous(336, 4));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const PurchaseOptionCost& cb = Option(*r, "capacity-block");
  ASSERT_TRUE(cb.priced);
  EXPECT_EQ(r->capacity_block_days, 14);
  EXPECT_DOUBLE_EQ(*cb.usd_per_hour, 40);
  EXPECT_DOUBLE_EQ(*cb.upfront_usd, 40.0 * 14 * 24);
  EXPECT_DOUBLE_EQ(*cb.total_usd, 40.0 * 14 * 24 * 4);
  EXPECT_EQ(cb.from.source, "cb-test");
  EXPECT_EQ(cb.from.date, "2026-07-22");
  EXPECT_EQ(r->options[r->cheapest].option, "capacity-block");  // below on-demand, no spot use
  EXPECT_EQ(cb.note.find("offer"), std::string::npos) << cb.note;
  // A price read from an offer (catalog update --aws) says when the block can start.
  InstanceType offered = BlockType();
  offered.regions[1].capacity_block->note =
      "soonest offer: 1 x p5.48xlarge for 24 h from 2026-12-08T11:30:00Z in us-east-1b";
  Result<PricingResult> o = PriceUsage(offered, "us-east-1", Continuous(336, 4));
  ASSERT_TRUE(o.ok());
  EXPECT_NE(Option(*o, "capacity-block")
                .note.find("14-day block paid upfront ($13440 per instance), booked to "
                           "start within 8 weeks; soonest offer: 1 x p5.48xlarge for 24 h "
                           "from 2026-12-08T11:30:00Z"),
            std::string::npos)
      << Option(*o, "capacity-block").note;
  // Past 14 days AWS sells whole weeks: one hour more than 14 days is a 21-day block.
  r = PriceUsage(BlockType(), "us-east-1", Continuous(337, 1));
  EXPECT_EQ(r->capacity_block_days, 21);
  EXPECT_DOUBLE_EQ(*Option(*r, "capacity-block").total_usd, 40.0 * 21 * 24);
  r = PriceUsage(BlockType(), "us-east-1", Continuous(2, 1));  // the shortest block is a day
  EXPECT_EQ(r->capacity_block_days, 1);
  r = PriceUsage(BlockType(), "us-east-1", Continuous(24, 65));
  EXPECT_FALSE(Option(*r, "capacity-block").suitable);  // a block holds at most 64 instances
}

// The durations AWS sells (DescribeCapacityBlockOfferings, CapacityDurationHours): 1-day steps
// up to 14 days, then 7-day steps up to 182 (issue 37).
TEST(PricingTest, CapacityBlockDaysAreDurationsAwsSells) {
  const std::pair<double, int> kCases[] = {
      {0.5, 1},           {24, 1},         {25, 2},       {24 * 14, 14},   {24 * 14 + 1, 21},
      {24 * 21, 21},      {24 * 21.5, 28}, {24 * 50, 56}, {24 * 176, 182}, {24 * 182, 182},
      {24 * 182 + 1, 189}};
  for (const auto& [hours, days] : kCases) EXPECT_EQ(CapacityBlockDays(hours), days) << hours;
  for (int h = 1; h <= 24 * 182; h += 7) {
    const int d = CapacityBlockDays(h);
    EXPECT_TRUE(d <= kCapacityBlockDailyStepMaxDays || d % 7 == 0) << h << " h: " << d;
    EXPECT_GE(d * 24, h);
    EXPECT_LE(d, kCapacityBlockMaxDays);
  }
}

// Issue 37: a year (or three) of running is not one block, and blocks are not chained (each
// starts within 8 weeks of booking, so only one can be booked today): the capacity-block option
// is listed as not available for the horizon, with the longest block's fee and no total, never
// the cheapest; the commitments price the whole horizon.
TEST(PricingTest, LongHorizonNeverChainsCapacityBlocks) {
  for (const double hours : {24.0 * 182 + 1, 8760.0, 26280.0}) {
    Result<PricingResult> r = PriceUsage(BlockType(), "us-east-1", Continuous(hours, 2));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const PurchaseOptionCost& cb = Option(*r, "capacity-block");
    EXPECT_TRUE(cb.priced);
    EXPECT_FALSE(cb.suitable);
    EXPECT_FALSE(cb.total_usd.has_value()) << hours;
    EXPECT_FALSE(cb.usd_per_used_hour.has_value());
    EXPECT_DOUBLE_EQ(*cb.upfront_usd, 40.0 * 182 * 24);  // the longest block, per instance
    EXPECT_FALSE(r->capacity_block_days.has_value());
    EXPECT_NE(cb.note.find("not available for this horizon"), std::string::npos) << cb.note;
    EXPECT_NE(cb.note.find("cannot be chained"), std::string::npos) << cb.note;
    EXPECT_EQ(cb.note.find("consecutive"), std::string::npos) << cb.note;
    ASSERT_GE(r->cheapest, 0);
    EXPECT_NE(r->options[r->cheapest].option, "capacity-block");
    // The 1-year RI covers the whole horizon in whole terms: 1, 2 or 3 of them.
    const PurchaseOptionCost& ri = Option(*r, "reserved-1y-no-upfront");
    EXPECT_DOUBLE_EQ(*ri.total_usd, 35.0 * 8760 * std::ceil(hours / 8760 - 1e-9) * 2);
    EXPECT_NEAR(*Option(*r, "on-demand").total_usd, 50.0 * hours * 2, 1e-6);
  }
  // Over a year with no commitment priced for the type, the answer says so (p5.48xlarge has no
  // reserved price in the embedded catalog); with one priced, it does not.
  auto no_commitment_note = [](const PricingResult& r) {
    for (const std::string& n : r.notes) {
      if (n.find("no reserved instance or savings plan is priced") != std::string::npos)
        return true;
    }
    return false;
  };
  InstanceType bare = BlockType();
  bare.regions[1].reserved_1y_no_upfront.reset();
  EXPECT_TRUE(no_commitment_note(*PriceUsage(bare, "us-east-1", Continuous(8760, 1))));
  EXPECT_FALSE(no_commitment_note(*PriceUsage(bare, "us-east-1", Continuous(24 * 30, 1))));
  EXPECT_FALSE(no_commitment_note(*PriceUsage(BlockType(), "us-east-1", Continuous(8760, 1))));
  // At the longest block it is still one block, priced.
  Result<PricingResult> r = PriceUsage(BlockType(), "us-east-1", Continuous(24.0 * 182, 1));
  EXPECT_EQ(r->capacity_block_days, 182);
  EXPECT_TRUE(Option(*r, "capacity-block").suitable);
  EXPECT_DOUBLE_EQ(*Option(*r, "capacity-block").total_usd, 40.0 * 182 * 24);
  // Part-time use is packed into one block when its hours fit, and says so.
  UsagePattern part;
  part.hours_per_month = 100;
  part.months = 12;
  r = PriceUsage(BlockType(), "us-east-1", part);
  EXPECT_EQ(r->capacity_block_days, 56);
  EXPECT_NE(Option(*r, "capacity-block").note.find("1200 used hours run back to back"),
            std::string::npos)
      << Option(*r, "capacity-block").note;
}

TEST(PricingTest, CapacityBlockMissingSaysWhy) {
  Result<PricingResult> r = PriceUsage(BlockType(), "eu-north-1", Continuous(48, 1));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(Option(*r, "capacity-block").priced);
  EXPECT_NE(Option(*r, "capacity-block").note.find("offered in us-east-1"), std::string::npos);
  r = PriceUsage(Type(10, 4, 6, 0), "us-east-1", Continuous(48, 1));
  EXPECT_NE(Option(*r, "capacity-block").note.find("not sold as EC2 Capacity Blocks"),
            std::string::npos);
  EXPECT_FALSE(r->capacity_block_days.has_value());
}

// Issue 16: the spot model's inputs have ranges; past them the figures came out as inf or with
// hundreds of digits.
TEST(PricingTest, SpotModelInputsOutsideTheirRangesNameTheFlag) {
  struct Case {
    const char* flag;
    void (*set)(UsagePattern*);
  } cases[] = {
      {"restart", [](UsagePattern* u) { u->restart_s = 1e305; }},
      {"restart", [](UsagePattern* u) { u->restart_s = -1; }},
      {"checkpoint-gib", [](UsagePattern* u) { u->checkpoint_gib = 1e300; }},
      {"checkpoint-gib", [](UsagePattern* u) { u->checkpoint_gib = std::nan(""); }},
      {"storage-gbps", [](UsagePattern* u) { u->storage_gbyte_s = 1e-300; }},
      {"storage-gbps", [](UsagePattern* u) { u->storage_gbyte_s = 1e9; }},
      {"checkpoint-interval", [](UsagePattern* u) { u->checkpoint_interval_s = 1e300; }},
      {"checkpoint-interval", [](UsagePattern* u) { u->checkpoint_interval_s = INFINITY; }},
  };
  for (const Case& c : cases) {
    UsagePattern u;
    u.interruptible = true;
    c.set(&u);
    Result<PricingResult> r = PriceUsage(Type(10, 3, 6, 0), "us-east-1", u);
    ASSERT_FALSE(r.ok()) << c.flag;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(r.status().message().rfind(c.flag, 0), 0u) << r.status().message();
  }
  UsagePattern edge;  // the ends of the ranges are accepted and stay finite
  edge.interruptible = true;
  edge.checkpoint_gib = 1e6;
  edge.storage_gbyte_s = 0.001;
  edge.restart_s = 7 * 86400;
  Result<PricingResult> r = PriceUsage(Type(10, 3, 6, 0), "us-east-1", edge);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(std::isfinite(*Option(*r, "spot").total_usd));
}

}  // namespace
}  // namespace gpuadvisor
