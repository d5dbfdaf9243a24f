// AWS partitions, the regions' names and the currencies prices are in.
//
// AWS is three separate clouds for a buyer: the commercial partition `aws` (priced in USD),
// GovCloud `aws-us-gov` (USD) and AWS China `aws-cn` (Beijing cn-north-1, operated by Sinnet, and
// Ningxia cn-northwest-1, operated by NWCD), priced and billed in CNY, with its own endpoints
// (`amazonaws.com.cn`), ARNs (`arn:aws-cn:`), console and families. A price is only comparable
// with another in the same currency; an ExchangeRate the user dates makes a CNY figure a USD one.
#ifndef GPUADVISOR_PARTITION_H_
#define GPUADVISOR_PARTITION_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

// Stored in catalog files and JSON by code ("USD", "CNY"): do not rename.
enum class Currency { kUsd, kCny };
const char* CurrencyCode(Currency c);    // "USD", "CNY"
const char* CurrencySymbol(Currency c);  // "$", "¥"
// "USD" or "CNY", any case; nullopt otherwise.
std::optional<Currency> ParseCurrency(std::string_view code);
// "$12.50", "¥172.87"; `decimals` digits after the point.
std::string FormatMoney(Currency c, double amount, int decimals);
// A JSON key spelled for the currency: "on_demand_usd_per_hour" -> "on_demand_cny_per_hour" for
// CNY (the first "usd" in the key is replaced), unchanged for USD. A key named usd never holds
// yuan, so a script summing `cost_usd` cannot add CNY figures by mistake.
std::string MoneyKey(std::string_view usd_key, Currency c);

struct Partition {
  const char* id;    // "aws", "aws-cn", "aws-us-gov": the ARN's partition field
  const char* name;  // "AWS", "AWS China", "AWS GovCloud (US)"
  Currency currency;
  const char* dns_suffix;       // "amazonaws.com", "amazonaws.com.cn"
  const char* console_host;     // "console.aws.amazon.com", "console.amazonaws.cn"
  const char* price_list_host;  // the public Price List bulk files' host
  bool capacity_blocks;         // false where EC2 Capacity Blocks for ML are not sold (AWS China)
};
// The partition a region code belongs to: "cn-*" aws-cn, "us-gov-*" aws-us-gov, else aws.
const Partition& PartitionOf(std::string_view region);
// Every partition, aws first.
const std::vector<Partition>& Partitions();
// "arn:aws-cn:iam::aws:policy/..." : the ARN prefix "arn:<partition>:" of `region`.
std::string ArnPrefix(std::string_view region);

struct RegionInfo {
  const char* code;         // "cn-north-1"
  const char* name_en;      // "China (Beijing)"
  const char* name_zh;      // "中国（北京）"
  const char* operator_en;  // "Sinnet" (AWS China regions are run by local partners), else ""
  const char* operator_zh;  // "光环新网"
};
// The region's published names, or null for a code this build does not know.
const RegionInfo* FindRegionInfo(std::string_view code);

// A dated exchange rate the user gives: `per_usd` units of `currency` buy one US dollar on
// `date`. Prices in `currency` become USD by division.
struct ExchangeRate {
  Currency currency = Currency::kCny;
  double per_usd = 0;
  std::string date;  // ISO "2026-12-01"
  double ToUsd(double amount) const { return amount / per_usd; }
  std::string Text() const;  // "CNY=7.1@2026-12-01"
};
// "CNY=7.1@2026-12-01". The date is required (a rate without a date cannot be checked), the rate
// is in (0, 100000] units per USD, and the currency is not USD. Error: InvalidArgument
// "<field>: expected CURRENCY=UNITS_PER_USD@YYYY-MM-DD ..." with field() `field`.
Result<ExchangeRate> ParseExchangeRate(std::string_view text, std::string_view field);

// Converts between currencies with the user's rates; one without a rate is not convertible.
class CurrencyConverter {
 public:
  explicit CurrencyConverter(std::vector<ExchangeRate> rates = {}) : rates_(std::move(rates)) {}
  // `amount` of `from` in USD, or nullopt when no rate is given for `from`.
  std::optional<double> ToUsd(double amount, Currency from) const;
  const ExchangeRate* RateFor(Currency c) const;
  const std::vector<ExchangeRate>& rates() const { return rates_; }

 private:
  std::vector<ExchangeRate> rates_;
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_PARTITION_H_
