#include "gpuadvisor/partition.h"

#include <algorithm>
#include <cmath>

#include "util/dates.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor {

const char* CurrencyCode(Currency c) { return c == Currency::kCny ? "CNY" : "USD"; }

const char* CurrencySymbol(Currency c) { return c == Currency::kCny ? "¥" : "$"; }

std::optional<Currency> ParseCurrency(std::string_view code) {
  const std::string lower = ToLower(Trim(code));
  if (lower == "usd") return Currency::kUsd;
  if (lower == "cny") return Currency::kCny;
  return std::nullopt;
}

std::string FormatMoney(Currency c, double amount, int decimals) {
  std::string s = FormatFixed(std::fabs(amount), decimals);
  return (amount < 0 ? "-" : "") + std::string(CurrencySymbol(c)) + s;
}

std::string MoneyKey(std::string_view usd_key, Currency c) {
  std::string key(usd_key);
  if (c == Currency::kUsd) return key;
  if (const size_t at = key.find("usd"); at != std::string::npos) key.replace(at, 3, "cny");
  return key;
}

const std::vector<Partition>& Partitions() {
  static const std::vector<Partition> kPartitions = {
      {"aws", "AWS", Currency::kUsd, "amazonaws.com", "console.aws.amazon.com",
       "pricing.us-east-1.amazonaws.com", true},
      {"aws-cn", "AWS China", Currency::kCny, "amazonaws.com.cn", "console.amazonaws.cn",
       "pricing.cn-north-1.amazonaws.com.cn", false},
      {"aws-us-gov", "AWS GovCloud (US)", Currency::kUsd, "amazonaws.com",
       "console.amazonaws-us-gov.com", "pricing.us-east-1.amazonaws.com", true},
  };
  return kPartitions;
}

const Partition& PartitionOf(std::string_view region) {
  const std::vector<Partition>& p = Partitions();
  if (StartsWith(region, "cn-")) return p[1];
  if (StartsWith(region, "us-gov-")) return p[2];
  return p[0];
}

std::string ArnPrefix(std::string_view region) {
  return std::string("arn:") + PartitionOf(region).id + ":";
}

namespace {

// AWS's published region names, in English and as AWS's Chinese pages give them. The China
// regions are operated by local partners, as Chinese law requires.
constexpr RegionInfo kRegions[] = {
    {"af-south-1", "Africa (Cape Town)", "非洲（开普敦）", "", ""},
    {"ap-east-1", "Asia Pacific (Hong Kong)", "亚太地区（香港）", "", ""},
    {"ap-northeast-1", "Asia Pacific (Tokyo)", "亚太地区（东京）", "", ""},
    {"ap-northeast-2", "Asia Pacific (Seoul)", "亚太地区（首尔）", "", ""},
    {"ap-northeast-3", "Asia Pacific (Osaka)", "亚太地区（大阪）", "", ""},
    {"ap-south-1", "Asia Pacific (Mumbai)", "亚太地区（孟买）", "", ""},
    {"ap-south-2", "Asia Pacific (Hyderabad)", "亚太地区（海得拉巴）", "", ""},
    {"ap-southeast-1", "Asia Pacific (Singapore)", "亚太地区（新加坡）", "", ""},
    {"ap-southeast-2", "Asia Pacific (Sydney)", "亚太地区（悉尼）", "", ""},
    {"ap-southeast-3", "Asia Pacific (Jakarta)", "亚太地区（雅加达）", "", ""},
    {"ap-southeast-4", "Asia Pacific (Melbourne)", "亚太地区（墨尔本）", "", ""},
    {"ap-southeast-5", "Asia Pacific (Malaysia)", "亚太地区（马来西亚）", "", ""},
    {"ap-southeast-7", "Asia Pacific (Thailand)", "亚太地区（泰国）", "", ""},
    {"ca-central-1", "Canada (Central)", "加拿大（中部）", "", ""},
    {"ca-west-1", "Canada West (Calgary)", "加拿大西部（卡尔加里）", "", ""},
    {"cn-north-1", "China (Beijing)", "中国（北京）", "Sinnet", "光环新网"},
    {"cn-northwest-1", "China (Ningxia)", "中国（宁夏）", "NWCD", "西云数据"},
    {"eu-central-1", "Europe (Frankfurt)", "欧洲（法兰克福）", "", ""},
    {"eu-central-2", "Europe (Zurich)", "欧洲（苏黎世）", "", ""},
    {"eu-north-1", "Europe (Stockholm)", "欧洲（斯德哥尔摩）", "", ""},
    {"eu-south-1", "Europe (Milan)", "欧洲（米兰）", "", ""},
    {"eu-south-2", "Europe (Spain)", "欧洲（西班牙）", "", ""},
    {"eu-west-1", "Europe (Ireland)", "欧洲（爱尔兰）", "", ""},
    {"eu-west-2", "Europe (London)", "欧洲（伦敦）", "", ""},
    {"eu-west-3", "Europe (Paris)", "欧洲（巴黎）", "", ""},
    {"il-central-1", "Israel (Tel Aviv)", "以色列（特拉维夫）", "", ""},
    {"me-central-1", "Middle East (UAE)", "中东（阿联酋）", "", ""},
    {"me-south-1", "Middle East (Bahrain)", "中东（巴林）", "", ""},
    {"mx-central-1", "Mexico (Central)", "墨西哥（中部）", "", ""},
    {"sa-east-1", "South America (Sao Paulo)", "南美洲（圣保罗）", "", ""},
    {"us-east-1", "US East (N. Virginia)", "美国东部（弗吉尼亚北部）", "", ""},
    {"us-east-2", "US East (Ohio)", "美国东部（俄亥俄）", "", ""},
    {"us-gov-east-1", "AWS GovCloud (US-East)", "AWS GovCloud（美国东部）", "", ""},
    {"us-gov-west-1", "AWS GovCloud (US-West)", "AWS GovCloud（美国西部）", "", ""},
    {"us-west-1", "US West (N. California)", "美国西部（加利福尼亚北部）", "", ""},
    {"us-west-2", "US West (Oregon)", "美国西部（俄勒冈）", "", ""},
};

}  // namespace

const RegionInfo* FindRegionInfo(std::string_view code) {
  const auto* it = std::lower_bound(
      std::begin(kRegions), std::end(kRegions), code,
      [](const RegionInfo& r, std::string_view c) { return std::string_view(r.code) < c; });
  return it != std::end(kRegions) && it->code == code ? it : nullptr;
}

std::string ExchangeRate::Text() const {
  std::string rate = FormatFixed(per_usd, 6);
  while (rate.back() == '0') rate.pop_back();
  if (rate.back() == '.') rate.pop_back();
  return std::string(CurrencyCode(currency)) + "=" + rate + "@" + date;
}

Result<ExchangeRate> ParseExchangeRate(std::string_view text, std::string_view field) {
  const std::string name(field);
  auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(name + ": expected CURRENCY=UNITS_PER_USD@YYYY-MM-DD " +
                                   "(e.g. CNY=7.1@2026-12-01), " + what)
        .WithField(name);
  };
  const std::string_view t = Trim(text);
  const size_t eq = t.find('='), at = t.find('@');
  if (eq == std::string_view::npos || at == std::string_view::npos || at < eq) {
    return bad("got \"" + std::string(t) + "\"");
  }
  ExchangeRate r;
  const std::optional<Currency> c = ParseCurrency(t.substr(0, eq));
  if (!c) return bad("got the currency \"" + std::string(t.substr(0, eq)) + "\" (known: CNY)");
  if (*c == Currency::kUsd) return bad("a rate for a currency other than USD");
  r.currency = *c;
  Result<double> v = ParseDouble(t.substr(eq + 1, at - eq - 1), "rate");
  if (!v.ok() || !(*v > 0) || *v > 100000) {
    return bad("a rate above 0 and at most 100000, got \"" +
               std::string(t.substr(eq + 1, at - eq - 1)) + "\"");
  }
  r.per_usd = *v;
  r.date = std::string(t.substr(at + 1));
  if (!ParseIsoDate(r.date)) return bad("a date YYYY-MM-DD after @, got \"" + r.date + "\"");
  return r;
}

std::optional<double> CurrencyConverter::ToUsd(double amount, Currency from) const {
  if (from == Currency::kUsd) return amount;
  if (const ExchangeRate* r = RateFor(from)) return r->ToUsd(amount);
  return std::nullopt;
}

const ExchangeRate* CurrencyConverter::RateFor(Currency c) const {
  for (const ExchangeRate& r : rates_) {
    if (r.currency == c) return &r;
  }
  return nullptr;
}

}  // namespace gpuadvisor
