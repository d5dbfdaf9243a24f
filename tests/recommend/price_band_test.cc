// Price uncertainty (recommend/price_band.h): a spot price estimated from the Spot Instance
// Advisor's savings is ranked at the high end of the band measured between such estimates and
// the observed spot prices; a listed or observed price is ranked as it is.
#include "recommend/price_band.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gpuadvisor/recommend.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::MakeWorkload;

TEST(PriceBandTest, TheSpotEstimateBandIsMeasuredFromTheCatalogsOwnFigures) {
  const recommend_internal::PriceBand b =
      recommend_internal::SpotEstimateBand(testing::EmbeddedForTests());
  // The embedded catalog has observed (SkyPilot) and advisor-estimated spot figures for the
  // p and trn families in many regions.
  EXPECT_GT(b.figures, 50);
  EXPECT_GT(b.high, 0);
  EXPECT_GE(b.low, 0);
  EXPECT_LT(b.low, 1);
}

TEST(PriceBandTest, AnEstimatedSpotPriceIsRankedAtTheHighEndOfItsBand) {
  const Workload w =
      MakeWorkload({{"task", "infer-vision"}, {"model", "vit-b16"}, {"images", "20M"}});
  RecommendRequest r;
  r.top = 20;
  r.risk = Risk::kAny;
  r.all_sizes = true;
  r.only_instances = {"inf2.48xlarge", "trn1.2xlarge"};
  Result<Recommendation> rec = Recommend(testing::EmbeddedForTests(), w, r);
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  const recommend_internal::PriceBand b =
      recommend_internal::SpotEstimateBand(testing::EmbeddedForTests());
  bool estimated_seen = false, listed_seen = false;
  for (const Plan& p : rec->plans) {
    const RegionOffer* o = p.type->FindRegion(p.region);
    ASSERT_NE(o, nullptr);
    const bool estimated = p.purchase == PurchaseKind::kSpot && o->spot && o->spot->estimated;
    if (estimated) {
      estimated_seen = true;
      EXPECT_DOUBLE_EQ(p.price_risk_factor, 1 + b.high) << p.type->name;
      bool said = false;
      for (const std::string& why : p.why)
        said |= why.find("Spot Instance Advisor") != std::string::npos;
      EXPECT_TRUE(said) << p.type->name << ": the ranking's price factor is not explained";
    } else {
      listed_seen = true;
      EXPECT_DOUBLE_EQ(p.price_risk_factor, 1) << p.type->name;
    }
  }
  EXPECT_TRUE(estimated_seen);
  EXPECT_TRUE(listed_seen);
}

}  // namespace
}  // namespace gpuadvisor
