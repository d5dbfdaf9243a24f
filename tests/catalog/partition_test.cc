// Partitions, currencies and exchange rates (partition.h).
#include "gpuadvisor/partition.h"

#include <gtest/gtest.h>

namespace gpuadvisor {
namespace {

TEST(PartitionTest, RegionsBelongToTheirPartition) {
  EXPECT_STREQ(PartitionOf("cn-north-1").id, "aws-cn");
  EXPECT_EQ(PartitionOf("cn-northwest-1").currency, Currency::kCny);
  EXPECT_STREQ(PartitionOf("cn-northwest-1").dns_suffix, "amazonaws.com.cn");
  EXPECT_STREQ(PartitionOf("us-gov-west-1").id, "aws-us-gov");
  EXPECT_EQ(PartitionOf("us-gov-west-1").currency, Currency::kUsd);
  EXPECT_STREQ(PartitionOf("eu-north-1").id, "aws");
  EXPECT_EQ(ArnPrefix("cn-north-1"), "arn:aws-cn:");
  EXPECT_FALSE(PartitionOf("cn-north-1").capacity_blocks);
  EXPECT_TRUE(PartitionOf("us-east-1").capacity_blocks);
}

TEST(PartitionTest, RegionNamesInBothLanguagesWithTheChinaOperators) {
  const RegionInfo* bj = FindRegionInfo("cn-north-1");
  ASSERT_NE(bj, nullptr);
  EXPECT_STREQ(bj->name_zh, "中国（北京）");
  EXPECT_STREQ(bj->operator_en, "Sinnet");
  const RegionInfo* nx = FindRegionInfo("cn-northwest-1");
  ASSERT_NE(nx, nullptr);
  EXPECT_STREQ(nx->operator_en, "NWCD");
  EXPECT_STREQ(FindRegionInfo("us-east-1")->name_en, "US East (N. Virginia)");
  EXPECT_EQ(FindRegionInfo("xx-nowhere-1"), nullptr);
  // The table is searched by binary search: it must stay sorted.
  EXPECT_NE(FindRegionInfo("af-south-1"), nullptr);
  EXPECT_NE(FindRegionInfo("us-west-2"), nullptr);
}

TEST(PartitionTest, MoneyIsWrittenAndKeyedByItsCurrency) {
  EXPECT_EQ(FormatMoney(Currency::kCny, 172.873, 2), "¥172.87");
  EXPECT_EQ(FormatMoney(Currency::kUsd, -3.5, 2), "-$3.50");
  EXPECT_EQ(MoneyKey("on_demand_usd_per_hour", Currency::kCny), "on_demand_cny_per_hour");
  EXPECT_EQ(MoneyKey("cost_usd", Currency::kUsd), "cost_usd");
  EXPECT_EQ(ParseCurrency("cny"), Currency::kCny);
  EXPECT_FALSE(ParseCurrency("EUR").has_value());
}

TEST(PartitionTest, ExchangeRatesAreDatedAndChecked) {
  Result<ExchangeRate> r = ParseExchangeRate("CNY=7.1@2026-12-01", "fx");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->currency, Currency::kCny);
  EXPECT_DOUBLE_EQ(r->per_usd, 7.1);
  EXPECT_EQ(r->Text(), "CNY=7.1@2026-12-01");
  EXPECT_DOUBLE_EQ(r->ToUsd(71), 10);
  for (const char* bad : {"CNY=7.1", "CNY=0@2026-12-01", "CNY=-7@2026-12-01", "USD=1@2026-12-01",
                          "EUR=0.9@2026-12-01", "CNY=abc@2026-12-01", "CNY=7.1@2026-13-01",
                          "7.1", "CNY=1e9@2026-12-01"}) {
    Result<ExchangeRate> x = ParseExchangeRate(bad, "fx");
    ASSERT_FALSE(x.ok()) << bad;
    EXPECT_EQ(x.status().field(), "fx") << bad;
    EXPECT_NE(x.status().message().find("fx: expected CURRENCY=UNITS_PER_USD@YYYY-MM-DD"),
              std::string::npos)
        << x.status().ToString();
  }
  CurrencyConverter fx({*r});
  EXPECT_EQ(fx.ToUsd(14.2, Currency::kCny), std::optional<double>(2.0));
  EXPECT_EQ(fx.ToUsd(3, Currency::kUsd), std::optional<double>(3));
  EXPECT_FALSE(CurrencyConverter().ToUsd(1, Currency::kCny).has_value());
}

}  // namespace
}  // namespace gpuadvisor
