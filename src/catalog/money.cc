#include "gpuadvisor/money.h"

#include <cmath>

namespace gpuadvisor {
namespace {

// MoneyTotals keeps one sum per Currency, indexed by its value.
static_assert(static_cast<size_t>(Currency::kUsd) == 0 && static_cast<size_t>(Currency::kCny) == 1);

Status Mixed(const char* verb, const Money& a, const Money& b) {
  return Status::InvalidArgument(std::string("cannot ") + verb + " " + CurrencyCode(b.currency) +
                                 (std::string_view(verb) == "add" ? " to " : " from ") +
                                 CurrencyCode(a.currency) +
                                 " without a dated exchange rate (--fx CNY=RATE@YYYY-MM-DD)");
}

}  // namespace

Result<Money> Plus(const Money& a, const Money& b) {
  if (a.currency != b.currency) return Mixed("add", a, b);
  return Money(a.amount + b.amount, a.currency);
}

Result<Money> Minus(const Money& a, const Money& b) {
  if (a.currency != b.currency) return Mixed("subtract", a, b);
  return Money(a.amount - b.amount, a.currency);
}

std::optional<bool> Less(const Money& a, const Money& b) {
  if (a.currency != b.currency) return std::nullopt;
  return a.amount < b.amount;
}

std::string FormatMoney(const Money& m, int decimals) {
  return FormatMoney(m.currency, m.amount, decimals);
}

double RoundedAmount(const Money& m, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(m.amount * scale) / scale;
}

std::optional<Money> ToUsd(const Money& m, const CurrencyConverter& fx) {
  const std::optional<double> usd = fx.ToUsd(m.amount, m.currency);
  if (!usd) return std::nullopt;
  return Money(*usd, Currency::kUsd);
}

void MoneyTotals::Add(const Money& m) {
  std::optional<double>& sum = sums_[static_cast<size_t>(m.currency)];
  sum = sum.value_or(0) + m.amount;
}

std::optional<Money> MoneyTotals::Of(Currency c) const {
  const std::optional<double>& sum = sums_[static_cast<size_t>(c)];
  if (!sum) return std::nullopt;
  return Money(*sum, c);
}

std::vector<Money> MoneyTotals::totals() const {
  std::vector<Money> out;
  for (size_t i = 0; i < kCurrencies; ++i) {
    if (const std::optional<double>& sum = sums_[i]; sum.has_value()) {
      out.emplace_back(sum.value(), static_cast<Currency>(i));
    }
  }
  return out;
}

}  // namespace gpuadvisor
