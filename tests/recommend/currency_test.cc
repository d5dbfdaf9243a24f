// Plans in AWS China are ranked in CNY; USD and CNY are ranked together only through a dated
// exchange rate the user gives (issue 26), on the embedded catalog.
#include <gtest/gtest.h>

#include "gpuadvisor/recommend.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::MakeWorkload;

Workload UNet() {
  return MakeWorkload({{"task", "train-vision"},
                       {"model", "unet3d"},
                       {"images", "168"},
                       {"epochs", "2000"},
                       {"batch", "2"},
                       {"precision", "bf16"}});
}

Result<Recommendation> Search(RecommendRequest r) {
  return Recommend(testing::EmbeddedForTests(), UNet(), r);
}

TEST(RecommendCurrencyTest, ChinaRegionsAreRankedAndCostedInYuan) {
  RecommendRequest req;
  req.regions = {"cn-north-1", "cn-northwest-1"};
  Result<Recommendation> r = Search(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_FALSE(r->plans.empty());
  EXPECT_EQ(r->currency, Currency::kCny);
  EXPECT_TRUE(r->other_currencies.empty());
  for (const Plan& p : r->plans) {
    EXPECT_EQ(p.currency, Currency::kCny);
    EXPECT_EQ(p.local_currency, Currency::kCny);
    EXPECT_TRUE(p.region == "cn-north-1" || p.region == "cn-northwest-1") << p.region;
    EXPECT_DOUBLE_EQ(p.local_cost, p.cost_usd);
    // The plan texts name yuan, never dollars.
    for (const std::string& why : p.why) EXPECT_EQ(why.find('$'), std::string::npos) << why;
  }
  // The cost is the CNY price times the hours: g5/p4d in China cost several times their USD figure.
  const Plan& top = r->plans[0];
  const RegionOffer* o = top.type->FindRegion(top.region);
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->currency(), Currency::kCny);
}

// Issue 37: AWS China's public price lists give no spot prices; an answer that searched spot there
// says so instead of leaving the user to wonder why no spot plan appears.
TEST(RecommendCurrencyTest, AnAnswerInARegionWithoutSpotPricesSaysSo) {
  RecommendRequest req;
  req.regions = {"us-east-1", "cn-north-1", "cn-northwest-1"};
  Result<Recommendation> r = Search(req);  // a training run: spot is searched
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->spot_note.find("no spot price is known in cn-north-1, cn-northwest-1: AWS China's "
                              "public price lists give none"),
            std::string::npos)
      << r->spot_note;
  bool spot_in_usd = false;
  for (const Plan& p : r->plans) spot_in_usd |= p.purchase == PurchaseKind::kSpot;
  EXPECT_TRUE(spot_in_usd);  // us-east-1's spot plans are there
  ASSERT_EQ(r->other_currencies.size(), 1u);
  for (const Plan& p : r->other_currencies[0].plans) {
    EXPECT_NE(p.purchase, PurchaseKind::kSpot) << p.region;
  }
  req.regions = {"us-east-1"};
  r = Search(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->spot_note, "");  // us-east-1 has spot prices
  req.regions = {"cn-north-1"};
  req.purchase = {PurchaseKind::kOnDemand};
  r = Search(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->spot_note, "");  // spot was not searched
}

TEST(RecommendCurrencyTest, WithoutARateEachCurrencyIsRankedOnItsOwn) {
  RecommendRequest req;
  req.regions = {"us-east-1", "cn-north-1"};
  Result<Recommendation> r = Search(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->currency, Currency::kUsd);
  for (const Plan& p : r->plans) EXPECT_EQ(p.region, "us-east-1");
  ASSERT_EQ(r->other_currencies.size(), 1u);
  const Recommendation& cn = r->other_currencies[0];
  EXPECT_EQ(cn.currency, Currency::kCny);
  ASSERT_FALSE(cn.plans.empty());
  for (const Plan& p : cn.plans) EXPECT_EQ(p.region, "cn-north-1");
  EXPECT_EQ(cn.plans[0].rank, 1);  // its own ranking
  EXPECT_NE(r->currency_note.find("never ranked against each other"), std::string::npos)
      << r->currency_note;
  EXPECT_NE(r->currency_note.find("USD (us-east-1) and CNY (cn-north-1)"), std::string::npos)
      << r->currency_note;
}

TEST(RecommendCurrencyTest, ADatedRateRanksThemTogetherAndKeepsTheBilledFigure) {
  RecommendRequest req;
  req.regions = {"us-east-1", "cn-north-1"};
  req.fx = {"CNY=7.1@2026-12-01"};
  req.purchase = {PurchaseKind::kOnDemand};
  Result<Recommendation> r = Search(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->other_currencies.empty());
  EXPECT_TRUE(r->currency_note.empty());
  ASSERT_EQ(r->exchange_rates.size(), 1u);
  EXPECT_EQ(r->exchange_rates[0].Text(), "CNY=7.1@2026-12-01");
  for (const Plan& p : r->plans) EXPECT_EQ(p.currency, Currency::kUsd);
  // At a rate that makes Beijing cheaper than Virginia, the same configuration moves there: the
  // two are compared on one scale. g5.xlarge is CNY 9.51/h in cn-north-1 and $1.006/h in us-east-1.
  req.only_instances = {"g5.xlarge"};
  req.fx = {"CNY=100@2026-12-01"};
  r = Search(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_FALSE(r->plans.empty());
  const Plan& p = r->plans[0];
  EXPECT_EQ(p.region, "cn-north-1");
  EXPECT_EQ(p.currency, Currency::kUsd);
  EXPECT_EQ(p.local_currency, Currency::kCny);
  EXPECT_NEAR(p.cost_usd * 100, p.local_cost, 1e-6 * p.local_cost);
  EXPECT_NEAR(p.usd_per_hour * 100, p.local_per_hour, 1e-6 * p.local_per_hour);
  req.fx = {"CNY=7.1@2026-12-01"};
  r = Search(req);
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(r->plans.empty());
  EXPECT_EQ(r->plans[0].region, "us-east-1");
}

TEST(RecommendCurrencyTest, AUsdBudgetNeedsARateToBindAYuanPlan) {
  RecommendRequest req;
  req.regions = {"cn-north-1"};
  req.budget_usd = 1000;
  Result<Recommendation> r = Search(req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().field(), "budget");
  EXPECT_NE(r.status().message().find("--fx CNY="), std::string::npos) << r.status().ToString();
  req.fx = {"CNY=7.1@2026-12-01"};
  r = Search(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  for (const Plan& p : r->plans) EXPECT_LE(p.cost_usd, 1000);
}

TEST(RecommendCurrencyTest, RatesAreCheckedOnce) {
  RecommendRequest req;
  req.regions = {"cn-north-1"};
  req.fx = {"CNY=7.1"};
  Result<Recommendation> r = Search(req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().field(), "fx");
  req.fx = {"CNY=7.1@2026-12-01", "CNY=7.2@2026-12-02"};
  r = Search(req);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("two rates for CNY"), std::string::npos);
}

}  // namespace
}  // namespace gpuadvisor
