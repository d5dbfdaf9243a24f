#include "gpuadvisor/money.h"

#include <gtest/gtest.h>

namespace gpuadvisor {
namespace {

// Adding or comparing two Money does not compile: only Plus/Minus/Less and MoneyTotals do it.
template <typename T>
concept Addable = requires(T a, T b) { a + b; };
template <typename T>
concept Subtractable = requires(T a, T b) { a - b; };
template <typename T>
concept Ordered = requires(T a, T b) { a < b; };
static_assert(!Addable<Money>);
static_assert(!Subtractable<Money>);
static_assert(!Ordered<Money>);

const Money kUsd10(10, Currency::kUsd);
const Money kCny70(70, Currency::kCny);

TEST(Money, AddsAndSubtractsInOneCurrency) {
  Result<Money> sum = Plus(kUsd10, Money(2.5, Currency::kUsd));
  ASSERT_TRUE(sum.ok());
  EXPECT_DOUBLE_EQ(sum->amount, 12.5);
  EXPECT_EQ(sum->currency, Currency::kUsd);
  Result<Money> diff = Minus(kCny70, Money(20, Currency::kCny));
  ASSERT_TRUE(diff.ok());
  EXPECT_DOUBLE_EQ(diff->amount, 50);
  EXPECT_EQ(diff->currency, Currency::kCny);
}

TEST(Money, RefusesToMixCurrencies) {
  Result<Money> sum = Plus(kUsd10, kCny70);
  ASSERT_FALSE(sum.ok());
  EXPECT_EQ(sum.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(sum.status().message().find("cannot add CNY to USD"), std::string::npos)
      << sum.status().message();
  EXPECT_FALSE(Minus(kCny70, kUsd10).ok());
  EXPECT_FALSE(Less(kUsd10, kCny70).has_value());
  EXPECT_EQ(Less(kUsd10, Money(11, Currency::kUsd)), true);
}

TEST(Money, ScalingKeepsTheCurrency) {
  const Money m = kCny70 * 0.5;
  EXPECT_DOUBLE_EQ(m.amount, 35);
  EXPECT_EQ(m.currency, Currency::kCny);
  EXPECT_EQ((kCny70 / 7).currency, Currency::kCny);
  EXPECT_EQ(FormatMoney(kCny70, 2), "¥70.00");
  EXPECT_EQ(FormatMoney(-kUsd10, 0), "-$10");
  EXPECT_EQ(MoneyKey("wasted_usd", kCny70), "wasted_cny");
}

TEST(Money, ConvertsOnlyWithADatedRate) {
  EXPECT_FALSE(ToUsd(kCny70, CurrencyConverter()).has_value());
  Result<ExchangeRate> rate = ParseExchangeRate("CNY=7@2026-12-01", "fx");
  ASSERT_TRUE(rate.ok());
  std::optional<Money> usd = ToUsd(kCny70, CurrencyConverter({*rate}));
  ASSERT_TRUE(usd.has_value());
  EXPECT_DOUBLE_EQ(usd->amount, 10);
  EXPECT_EQ(usd->currency, Currency::kUsd);
}

TEST(Money, TotalsAreOnePerCurrency) {
  MoneyTotals t;
  EXPECT_TRUE(t.totals().empty());
  t.Add(kCny70);
  t.Add(kUsd10);
  t.Add(std::optional<Money>());
  t.Add(std::optional<Money>(Money(5, Currency::kUsd)));
  EXPECT_TRUE(t.mixed());
  ASSERT_EQ(t.totals().size(), 2u);
  EXPECT_EQ(t.totals()[0].currency, Currency::kUsd);  // USD first
  EXPECT_DOUBLE_EQ(t.Of(Currency::kUsd)->amount, 15);
  EXPECT_DOUBLE_EQ(t.Of(Currency::kCny)->amount, 70);
  MoneyTotals only_cny;
  only_cny.Add(kCny70);
  EXPECT_FALSE(only_cny.mixed());
  EXPECT_FALSE(only_cny.Of(Currency::kUsd).has_value());
}

}  // namespace
}  // namespace gpuadvisor
