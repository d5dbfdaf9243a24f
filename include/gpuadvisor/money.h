// An amount of money and its currency, from the catalog to every output.
//
// A catalog price is in its region's currency (partition.h: USD, or CNY in AWS China). Money
// keeps the two together so that an amount never loses its currency on the way to a report:
// waste, savings, costs, totals and diffs are Money, and the JSON key or the symbol a view
// writes is taken from the amount itself (MoneyKey, FormatMoney).
//
// Two amounts are added, subtracted or compared only in one currency. The operators that would
// do it silently are deleted, so `a + b` and `a < b` do not compile; Plus/Minus/Less return a
// typed error (or no answer) across currencies, and MoneyTotals keeps one total per currency.
// An ExchangeRate the user dates (--fx) is the only way from CNY to USD (ToUsd).
#ifndef GPUADVISOR_MONEY_H_
#define GPUADVISOR_MONEY_H_

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/partition.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

struct Money {
  double amount = 0;
  Currency currency = Currency::kUsd;

  Money() = default;
  constexpr Money(double a, Currency c) : amount(a), currency(c) {}

  // Scaling keeps the currency: a price times hours, a share of a price.
  constexpr Money operator*(double k) const { return {amount * k, currency}; }
  constexpr Money operator/(double k) const { return {amount / k, currency}; }
  constexpr Money operator-() const { return {-amount, currency}; }
};

// Not defined across currencies, so not defined at all: use Plus, Minus, Less or MoneyTotals.
Money operator+(const Money&, const Money&) = delete;
Money operator-(const Money&, const Money&) = delete;
bool operator<(const Money&, const Money&) = delete;
bool operator>(const Money&, const Money&) = delete;

// a + b and a - b in their one currency. Error: InvalidArgument "cannot add CNY to USD without
// a dated exchange rate (--fx CNY=RATE@DATE)" when the currencies differ.
Result<Money> Plus(const Money& a, const Money& b);
Result<Money> Minus(const Money& a, const Money& b);
// a < b in one currency; nullopt when the currencies differ (no order without a rate).
std::optional<bool> Less(const Money& a, const Money& b);

// "$12.50", "¥172.87": the amount with its currency's symbol.
std::string FormatMoney(const Money& m, int decimals);
// The amount rounded to `decimals` (JSON figures).
double RoundedAmount(const Money& m, int decimals);
// The JSON key for `m`: MoneyKey("wasted_usd", CNY) is "wasted_cny".
inline std::string MoneyKey(std::string_view usd_key, const Money& m) {
  return MoneyKey(usd_key, m.currency);
}
// The amount in USD with the user's dated rate; nullopt for a currency without one.
std::optional<Money> ToUsd(const Money& m, const CurrencyConverter& fx);

// Sums kept per currency: a total over mixed currencies is one total per currency, never one
// number. Currencies appear in Currency order (USD first).
class MoneyTotals {
 public:
  void Add(const Money& m);
  void Add(const std::optional<Money>& m) {
    if (m) Add(*m);
  }
  // The total in `c`, or nullopt when nothing in `c` was added.
  std::optional<Money> Of(Currency c) const;
  // One total per currency added (none when nothing was).
  std::vector<Money> totals() const;
  // True when amounts of more than one currency were added.
  bool mixed() const { return totals().size() > 1; }

 private:
  static constexpr size_t kCurrencies = 2;  // Currency::kUsd, Currency::kCny
  std::array<std::optional<double>, kCurrencies> sums_;
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_MONEY_H_
