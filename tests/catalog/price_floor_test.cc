// Security issue, input validation, finding 4: a price above $0 but under the floor
// (kMinUsdPerHour, $0.0001) is refused wherever prices enter: the catalog JSON reader (JSON path)
// and every importer (file:line or JSON path); a $0 price stays refused in a catalog and skipped
// and counted by importers. Before, a 1e-320 price made "64 x p5.48xlarge at $0.00" the top plan.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "catalog/import/aws_formats.h"
#include "catalog/record_checks.h"
#include "gpuadvisor/catalog.h"
#include "util/byte_stream.h"

namespace gpuadvisor {
namespace {

std::string Fixture(const std::string& name) {
  std::ifstream f(std::string(IMPORT_FIXTURES) + "/" + name, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

bool Has(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

TEST(PriceFloor, CheckPriceBounds) {
  EXPECT_EQ(kMinUsdPerHour, 0.0001);
  EXPECT_EQ(CheckPrice(kMinUsdPerHour), PriceCheck::kOk);
  EXPECT_EQ(CheckPrice(0.0016), PriceCheck::kOk);  // a t4g.nano on Spot
  EXPECT_EQ(CheckPrice(0), PriceCheck::kZero);
  EXPECT_EQ(CheckPrice(0.00009), PriceCheck::kBad);
  EXPECT_EQ(CheckPrice(1e-320), PriceCheck::kBad);
  EXPECT_EQ(CheckPrice(1e-320, kMaxUpfrontUsd), PriceCheck::kBad);
  EXPECT_EQ(PriceWanted(1e-320),
            "a price of at least $0.0001 per hour (no AWS price is lower), got 1e-320");
}

// The embedded catalog as JSON with the first instance type's first on-demand price set to
// `price` (JSON text).
std::string CatalogWithPrice(const std::string& price) {
  Catalog c = **EmbeddedCatalog();
  InstanceType t = c.instance_types().front();
  EXPECT_FALSE(t.regions.empty());
  t.regions[0].on_demand = Price{1, {"x", "2026-01-01"}, false, ""};
  c.PutInstanceType(t);
  return Replace(CatalogToJson(c), "\"usd_per_hour\": 1.0,", "\"usd_per_hour\": " + price + ",");
}

TEST(PriceFloor, CatalogRefusesSubFloorAndZeroPrices) {
  Result<Catalog> tiny = ParseCatalogJson(CatalogWithPrice("1e-320"), "cat.json");
  ASSERT_FALSE(tiny.ok());
  EXPECT_EQ(tiny.status().code(), StatusCode::kParseError);
  EXPECT_TRUE(Has(tiny.status().message(),
                  "on_demand.usd_per_hour: expected a price of at least $0.0001 per hour"))
      << tiny.status().message();
  EXPECT_TRUE(Has(tiny.status().message(), "cat.json")) << tiny.status().message();
  Result<Catalog> zero = ParseCatalogJson(CatalogWithPrice("0"), "cat.json");
  ASSERT_FALSE(zero.ok());
  EXPECT_TRUE(Has(zero.status().message(), "on_demand.usd_per_hour: expected a price above $0 and"))
      << zero.status().message();
  // The floor itself is a price.
  EXPECT_TRUE(ParseCatalogJson(CatalogWithPrice("0.0001"), "cat.json").ok());
}

TEST(PriceFloor, ImportersRefuseSubFloorPricesWithTheLine) {
  auto keep = [](std::string_view) { return true; };
  // Price list CSV: the canonical on-demand row of p5.48xlarge is line 20 of the fixture.
  {
    const std::string csv =
        Replace(Fixture("price-list-p5.csv"), "\"61.7700000000\"", "\"1e-320\"");
    auto in = ByteStream::FromMemory(csv, "p.csv");
    import::PriceListData d;
    Status st = import::ReadPriceListCsv(in.get(), keep, &d);
    EXPECT_TRUE(st.message().starts_with(
        "p.csv:20: column \"PricePerUnit\": expected a price of at least $0.0001 per hour"))
        << st.message();
  }
  {
    const std::string json =
        Replace(Fixture("price-list-p5.json"), "\"61.7700000000\"", "\"1e-320\"");
    auto in = ByteStream::FromMemory(json, "p.json");
    import::PriceListData d;
    Status st = import::ReadPriceListJson(in.get(), keep, &d);
    EXPECT_TRUE(Has(st.message(), "pricePerUnit.USD: expected a price of at least $0.0001"))
        << st.message();
  }
  {
    const std::string sp = Replace(Fixture("savings-plans-p5.csv"), ",43.1200,", ",1e-320,");
    auto in = ByteStream::FromMemory(sp, "sp.csv");
    import::SavingsPlansData d;
    Status st = import::ReadSavingsPlansCsv(in.get(), keep, &d);
    EXPECT_TRUE(st.message().starts_with(
        "sp.csv:9: column \"DiscountedRate\": expected a price of at least $0.0001"))
        << st.message();
  }
  {
    auto bad = import::ReadSpotPriceHistoryJson(
        Replace(Fixture("spot-history-p5.json"), "\"18.120000\"", "\"1e-320\""), "s");
    EXPECT_EQ(bad.status().message(),
              "s: $.SpotPriceHistory[0].SpotPrice: expected a price of at least $0.0001 per hour "
              "(no AWS price is lower), got 1e-320");
  }
}

TEST(PriceFloor, ImportersStillSkipAndCountZero) {
  std::map<std::string, int64_t> skipped;
  auto ok = import::ReadSpotPriceHistoryJson(
      Replace(Fixture("spot-history-p5.json"), "\"18.120000\"", "\"0\""), "s.json", &skipped);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(skipped.at(import::kSkipZeroPrice), 1);
}

}  // namespace
}  // namespace gpuadvisor
