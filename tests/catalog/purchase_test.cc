// The one purchase-option type (issue 18): names, aliases, the error every front end shows, and
// the catalog price of each option.
#include "gpuadvisor/purchase.h"

#include <gtest/gtest.h>

namespace gpuadvisor {
namespace {

TEST(PurchaseTest, NamesRoundTripAndAliasesParse) {
  for (PurchaseKind p : AllPurchaseKinds()) {
    Result<PurchaseKind> back =
        ParsePurchaseKind(PurchaseKindName(p), "--purchase", AllPurchaseKinds());
    ASSERT_TRUE(back.ok()) << PurchaseKindName(p);
    EXPECT_EQ(*back, p);
  }
  EXPECT_EQ(*ParsePurchaseKind("OnDemand", "p", AllPurchaseKinds()), PurchaseKind::kOnDemand);
  EXPECT_EQ(*ParsePurchaseKind("reserved", "p", AllPurchaseKinds()), PurchaseKind::kReserved1y);
  EXPECT_EQ(*ParsePurchaseKind(" reserved-1y ", "p", AllPurchaseKinds()),
            PurchaseKind::kReserved1y);
  EXPECT_EQ(*ParsePurchaseKind("cb", "p", AllPurchaseKinds()), PurchaseKind::kCapacityBlock);
}

TEST(PurchaseTest, UnknownOrNotAllowedNamesTheFieldAndTheChoices) {
  Result<PurchaseKind> bad = ParsePurchaseKind("bogus", "purchase", AllPurchaseKinds());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(),
            "purchase: expected one of on-demand, spot, reserved-1y-no-upfront, capacity-block, "
            "got \"bogus\"");
  // A known option the command does not support is refused the same way, listing what it does.
  Result<PurchaseKind> narrow = ParsePurchaseKind("capacity-block", "--purchase",
                                                  {PurchaseKind::kOnDemand, PurchaseKind::kSpot});
  ASSERT_FALSE(narrow.ok());
  EXPECT_EQ(narrow.status().message(),
            "--purchase: expected one of on-demand, spot, got \"capacity-block\"");
  EXPECT_FALSE(ParsePurchaseKind("", "purchase", AllPurchaseKinds()).ok());
}

TEST(PurchaseTest, ListsSkipEmptyItemsAndRepeats) {
  Result<std::vector<PurchaseKind>> list =
      ParsePurchaseKinds("spot,, on-demand,spot,capacity-block", "--purchase", AllPurchaseKinds());
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(*list, (std::vector<PurchaseKind>{PurchaseKind::kSpot, PurchaseKind::kOnDemand,
                                              PurchaseKind::kCapacityBlock}));
  Result<std::vector<PurchaseKind>> bad =
      ParsePurchaseKinds("spot,lease", "--purchase", AllPurchaseKinds());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("got \"lease\""), std::string::npos);
}

TEST(PurchaseTest, PriceOfEachOption) {
  RegionOffer o;
  const Provenance from{"s", "2026-07-22"};
  o.on_demand = Price{10, from, false, ""};
  o.spot = Price{3, from, true, ""};
  o.capacity_block = Price{7, from, false, ""};
  EXPECT_DOUBLE_EQ(PurchasePrice(o, PurchaseKind::kOnDemand)->usd_per_hour, 10);
  EXPECT_DOUBLE_EQ(PurchasePrice(o, PurchaseKind::kSpot)->usd_per_hour, 3);
  EXPECT_DOUBLE_EQ(PurchasePrice(o, PurchaseKind::kCapacityBlock)->usd_per_hour, 7);
  EXPECT_EQ(PurchasePrice(o, PurchaseKind::kReserved1y), nullptr);
}

}  // namespace
}  // namespace gpuadvisor
