// `catalog info` and its stale-price warning count the price figures one by one (issue 37): after
// an update of some regions, the others' figures are as old as they were, and the answer says so.
#include <gtest/gtest.h>

#include <string>

#include "app/json_doc_rep.h"
#include "app/requests.h"
#include "app/views.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kToday = "2026-12-06";
constexpr const char* kUpdate = "aws-price-list-20261206";

// The embedded catalog after an update of us-east-1 only: every figure there dated today from
// the update's source, every other region untouched.
Catalog UpdatedOneRegion(const std::string& region) {
  Catalog c = testing::EmbeddedForTests();
  c.sources.push_back({kUpdate, "AWS Price List", "on-demand", kToday, "test", ""});
  const Provenance today{kUpdate, kToday};
  c.EditInstanceTypes([&](std::vector<InstanceType>& types) {
    for (InstanceType& t : types) {
      for (RegionOffer& o : t.regions) {
        if (o.region != region) continue;
        for (std::optional<Price>* p :
             {&o.on_demand, &o.spot, &o.reserved_1y_no_upfront, &o.capacity_block}) {
          if (*p) (*p)->from = today;
        }
      }
    }
  });
  return c;
}

// The oldest dated figure of one kind, walked here independently of the view.
struct Oldest {
  std::string date, source;
  int dated = 0, undated = 0, older = 0;
};
Oldest OldestOf(const Catalog& c, std::optional<Price> RegionOffer::* member,
                const Freshness& fresh) {
  Oldest out;
  for (const InstanceType& t : c.instance_types()) {
    for (const RegionOffer& o : t.regions) {
      const std::optional<Price>& p = o.*member;
      if (!p) continue;
      // A figure a newer source confirmed is as old as its confirmation (Price::dated_by).
      const Provenance& from = p->dated_by();
      if (from.date.size() != 10) {
        ++out.undated;
        continue;
      }
      ++out.dated;
      out.older += *fresh.AgeDays(from.date) > fresh.max_price_age_days;
      if (out.date.empty() || from.date < out.date ||
          (from.date == out.date && from.source < out.source)) {
        out.date = from.date;
        out.source = from.source;
      }
    }
  }
  return out;
}

const ojson* Kind(const ojson& info, const std::string& kind) {
  for (const ojson& k : info["price_figures"]["by_kind"]) {
    if (k["kind"] == kind) return &k;
  }
  return nullptr;
}

TEST(CatalogInfoTest, Issue37PartialUpdateStillNamesTheOldestFigures) {
  const Catalog c = UpdatedOneRegion("us-east-1");
  const Freshness fresh{kToday, 90};
  // The regression: the newest source is today's, so a file-level age would say "0 days".
  ASSERT_EQ(c.NewestPriceDate(), kToday);
  ASSERT_FALSE(fresh.Stale(c.NewestPriceDate()));

  const ojson info = ojson::parse(CatalogInfoJson(c, fresh, {"file", "/tmp/c.json"}).Text());
  EXPECT_EQ(info["newest_price_date"], kToday);
  EXPECT_TRUE(info["prices_stale"].get<bool>());
  const ojson& figures = info["price_figures"];
  EXPECT_GT(figures["older_than_max_age"].get<int>(), 0);
  EXPECT_EQ(figures["stale"].get<int>(),
            figures["older_than_max_age"].get<int>() + figures["undated"].get<int>());
  int total = 0, older = 0;
  for (const ojson& k : figures["by_kind"]) {
    total += k["figures"].get<int>();
    older += k["older_than_max_age"].get<int>();
  }
  EXPECT_EQ(figures["figures"].get<int>(), total);
  EXPECT_EQ(figures["older_than_max_age"].get<int>(), older);

  // Per kind, the oldest dated figure (date and source) and the counts, as walked here.
  const std::pair<const char*, std::optional<Price> RegionOffer::*> kKinds[] = {
      {"on-demand", &RegionOffer::on_demand},
      {"spot", &RegionOffer::spot},
      {"capacity-block", &RegionOffer::capacity_block}};
  std::string oldest_date;
  for (const auto& [kind, member] : kKinds) {
    const Oldest want = OldestOf(c, member, fresh);
    const ojson* got = Kind(info, kind);
    ASSERT_NE(got, nullptr) << kind;
    ASSERT_GT(want.dated, 0) << kind;
    EXPECT_EQ((*got)["oldest"]["date"], want.date) << kind;
    EXPECT_EQ((*got)["oldest"]["source"], want.source) << kind;
    EXPECT_NE((*got)["oldest"]["date"], kToday) << kind;
    EXPECT_EQ((*got)["older_than_max_age"].get<int>(), want.older) << kind;
    EXPECT_EQ((*got)["undated"].get<int>(), want.undated) << kind;
    EXPECT_EQ((*got)["newest_date"], kToday) << kind;
    if (oldest_date.empty() || want.date < oldest_date) oldest_date = want.date;
  }
  EXPECT_EQ(info["oldest_price_date"], oldest_date);
  EXPECT_EQ(figures["oldest"]["date"], oldest_date);
  EXPECT_EQ(info["catalog_in_use"]["oldest_price_date"], oldest_date);
  EXPECT_GT(info["catalog_in_use"]["oldest_price_age_days"].get<int>(), 90);
  EXPECT_GT(info["catalog_in_use"]["stale_price_figures"].get<int>(), 0);

  // The warning counts figures and names the oldest; so does the in-use line.
  const std::optional<std::string> warning = CatalogStaleWarning(c, fresh);
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find(std::to_string(figures["older_than_max_age"].get<int>()) + " of " +
                          std::to_string(total) + " price figures are older than 90 days"),
            std::string::npos)
      << *warning;
  EXPECT_NE(warning->find(oldest_date), std::string::npos) << *warning;
  const std::string line = CatalogInUseLine(c, fresh, {"file", "/tmp/c.json"});
  EXPECT_NE(line.find("oldest price " + oldest_date), std::string::npos) << line;
  EXPECT_NE(CatalogFigureAgesText(c, fresh).find(oldest_date), std::string::npos);
}

// Once every figure is recent, the warning goes, and prices_stale with it.
TEST(CatalogInfoTest, NoWarningOnceEveryFigureIsRecent) {
  Catalog c = testing::EmbeddedForTests();
  c.EditInstanceTypes([](std::vector<InstanceType>& types) {
    for (InstanceType& t : types) {
      for (RegionOffer& o : t.regions) {
        for (std::optional<Price>* p :
             {&o.on_demand, &o.spot, &o.reserved_1y_no_upfront, &o.capacity_block}) {
          if (*p) (*p)->from = {kUpdate, "2026-11-30"};
        }
        for (ReservedPrice& r : o.reserved) r.from = {kUpdate, "2026-11-30"};
        for (SavingsPlanRate& s : o.savings_plans) s.from = {kUpdate, "2026-11-30"};
      }
    }
  });
  const Freshness fresh{kToday, 90};
  EXPECT_FALSE(CatalogStaleWarning(c, fresh).has_value());
  const ojson info = ojson::parse(CatalogInfoJson(c, fresh).Text());
  EXPECT_FALSE(info["prices_stale"].get<bool>());
  EXPECT_EQ(info["price_figures"]["older_than_max_age"].get<int>(), 0);
  EXPECT_EQ(info["oldest_price_date"], "2026-11-30");
  // One figure a day past the limit is enough.
  c.EditInstanceTypes([](std::vector<InstanceType>& types) {
    for (InstanceType& t : types) {
      if (!t.regions.empty() && t.regions.back().on_demand) {
        t.regions.back().on_demand->from = {"old", "2026-09-06"};  // 91 days before kToday
        return;
      }
    }
  });
  const std::optional<std::string> warning = CatalogStaleWarning(c, fresh);
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("1 of "), std::string::npos) << *warning;
  EXPECT_NE(warning->find("the oldest: on-demand 2026-09-06 (91 days, old)"), std::string::npos)
      << *warning;
}

// The order "oldest" means everywhere: by date; undated (or a year alone) older than any date.
TEST(CatalogInfoTest, OlderFigureOrdersByDateUndatedFirst) {
  const Provenance undated{"skypilot-v9", "undated"}, year{"x", "2026"}, old{"b", "2025-06-28"},
      newer{"a", "2026-08-26"};
  EXPECT_TRUE(OlderFigure(old, newer));
  EXPECT_FALSE(OlderFigure(newer, old));
  EXPECT_TRUE(OlderFigure(undated, old));
  EXPECT_FALSE(OlderFigure(old, undated));
  EXPECT_TRUE(OlderFigure(year, old));
  EXPECT_FALSE(OlderFigure(old, old));
}

// A plan's stale-price warning counts every figure it rests on: a spot plan's interruption band
// (from an old spot-advisor feed) as well as its observed spot price.
TEST(CatalogInfoTest, RecommendWarningCountsEveryFigureAPlanRestsOn) {
  Recommendation r;
  Plan p;
  p.price_from = {"aws-spot-20261205", "2026-12-05"};
  p.price_figures = {{"spot", p.price_from},
                     {"spot-interruption-band", {"spot-advisor-2025-06", "2025-06-28"}}};
  r.plans.push_back(p);
  const std::vector<std::string> warnings = RecommendWarnings(r, Freshness{kToday, 90});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("1 price is undated or older than 90 days: spot-advisor-2025-06"),
            std::string::npos)
      << warnings[0];
  EXPECT_EQ(p.OldestPriceFigure()->kind, "spot-interruption-band");
}

}  // namespace
}  // namespace gpuadvisor
