#include "catalog/record_checks.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "gpuadvisor/text.h"

namespace gpuadvisor {
namespace {

bool Digits(std::string_view s, size_t at, size_t n) {
  if (s.size() < at + n) return false;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

int Number(std::string_view s, size_t at, size_t n) {
  int v = 0;
  for (size_t i = at; i < at + n; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

// "08:15", "08:15:00", "08:15:00.123", each optionally followed by "Z" or "+hh:mm"/"-hh:mm".
bool IsIsoTime(std::string_view s) {
  if (!Digits(s, 0, 2) || s.size() < 5 || s[2] != ':' || !Digits(s, 3, 2)) return false;
  if (Number(s, 0, 2) > 23 || Number(s, 3, 2) > 59) return false;
  size_t i = 5;
  if (i < s.size() && s[i] == ':') {
    if (!Digits(s, i + 1, 2) || Number(s, i + 1, 2) > 60) return false;
    i += 3;
    if (i < s.size() && s[i] == '.') {
      ++i;
      const size_t start = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      if (i == start) return false;
    }
  }
  if (i == s.size()) return true;
  if (s[i] == 'Z') return i + 1 == s.size();
  if (s[i] != '+' && s[i] != '-') return false;
  std::string_view zone = s.substr(i + 1);
  return (zone.size() == 5 && Digits(zone, 0, 2) && zone[2] == ':' && Digits(zone, 3, 2)) ||
         (zone.size() == 4 && Digits(zone, 0, 4));
}

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
                                    const std::string& path, int64_t hi) {
  std::optional<int64_t> v = r.OptInt(obj, key, path);
  if (!v) return v;
  std::string bad = CheckMemoryMib(*v, hi);
  if (!bad.empty()) {
    r.Fail(path + "." + key, bad);
    return std::nullopt;
  }
  return v;
}

bool IsIsoTimestamp(std::string_view s) {
  if (s.size() < 10 || !Digits(s, 0, 4) || s[4] != '-' || !Digits(s, 5, 2) || s[7] != '-' ||
      !Digits(s, 8, 2)) {
    return false;
  }
  const std::chrono::year_month_day ymd{std::chrono::year{Number(s, 0, 4)},
                                        std::chrono::month{static_cast<unsigned>(Number(s, 5, 2))},
                                        std::chrono::day{static_cast<unsigned>(Number(s, 8, 2))}};
  if (!ymd.ok()) return false;
  if (s.size() == 10) return true;
  if (s[10] != 'T' && s[10] != ' ') return false;
  return IsIsoTime(s.substr(11));
}

}  // namespace gpuadvisor
