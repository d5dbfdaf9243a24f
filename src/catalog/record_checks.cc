#include "catalog/record_checks.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "util/text.h"

namespace gpuadvisor {
namespace {

// The shortest text that reads back as `v` (1e-320, not %.10g's 9.999888672e-321).
std::string Shortest(double v) {
  char buf[64];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v);
  return {buf, r.ptr};
}

}  // namespace

PriceCheck CheckPrice(double usd, double cap) {
  if (!std::isfinite(usd) || usd < 0 || usd > cap) return PriceCheck::kBad;
  if (usd == 0) return PriceCheck::kZero;
  return usd < kMinUsdPerHour ? PriceCheck::kBad : PriceCheck::kOk;
}

std::string PriceWanted(double usd, double cap) {
  const bool hourly = cap <= kMaxUsdPerHour;
  if (usd > 0 && usd < kMinUsdPerHour) {
    return "a price of at least $" + FormatFixed(kMinUsdPerHour, 4) +
           (hourly ? " per hour" : " upfront") + " (no AWS price is lower), got " + Shortest(usd);
  }
  return "a price above $0 and at most $" + FormatFixed(cap, 0) +
         (hourly ? " per hour" : " upfront") + ", got " + Shortest(usd);
}

std::string ExpectedPrice(double usd, double cap) { return "expected " + PriceWanted(usd, cap); }

std::string CheckCount(int64_t v, int64_t lo, int64_t hi) {
  if (v >= lo && v <= hi) return "";
  return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
         std::to_string(v);
}

std::string CheckMemoryMib(int64_t mib, int64_t hi) {
  if (mib > 0 && mib <= hi) return "";
  return "a memory size above 0 and at most " + std::to_string(hi) + " MiB, got " +
         std::to_string(mib);
}

std::optional<int64_t> OptMemoryMib(RjReader& r, const rapidjson::Value& obj, const char* key,
                                    const JsonPath& path, int64_t hi) {
  std::optional<int64_t> v = r.OptInt(obj, key, path);
  if (!v) return v;
  std::string bad = CheckMemoryMib(*v, hi);
  if (!bad.empty()) {
    r.Fail(JsonPath(path, key), bad);
    return std::nullopt;
  }
  return v;
}

}  // namespace gpuadvisor
