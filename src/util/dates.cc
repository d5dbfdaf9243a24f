#include "util/dates.h"

#include <chrono>
#include <cstdio>

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

}  // namespace

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  CivilDate c;
  c.day = doy - (153 * mp + 2) / 5 + 1;
  c.month = mp < 10 ? mp + 3 : mp - 9;
  c.year = static_cast<int64_t>(yoe) + era * 400 + (c.month <= 2);
  return c;
}

bool IsCivilDate(int64_t y, unsigned m, unsigned d) {
  if (m < 1 || m > 12 || d < 1) return false;
  static const unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
  return d <= (m == 2 && leap ? 29 : kDays[m - 1]);
}

std::optional<int64_t> ParseIsoDatePrefix(std::string_view s) {
  if (!Digits(s, 0, 4) || s.size() < 10 || s[4] != '-' || !Digits(s, 5, 2) || s[7] != '-' ||
      !Digits(s, 8, 2)) {
    return std::nullopt;
  }
  const int y = Number(s, 0, 4);
  const auto m = static_cast<unsigned>(Number(s, 5, 2));
  const auto d = static_cast<unsigned>(Number(s, 8, 2));
  if (!IsCivilDate(y, m, d)) return std::nullopt;
  return DaysFromCivil(y, m, d);
}

std::optional<int64_t> ParseIsoDate(std::string_view s) {
  if (s.size() != 10) return std::nullopt;
  return ParseIsoDatePrefix(s);
}

std::optional<int64_t> ParseHttpDate(std::string_view s) {
  // "Sun, 06 Nov 1994 08:49:37 GMT": day name, comma, 2-digit day, month name, 4-digit year.
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (s.size() != 29 || s[3] != ',' || s[4] != ' ' || s[7] != ' ' || s[11] != ' ' || s[16] != ' ' ||
      s.substr(25) != " GMT") {
    return std::nullopt;
  }
  auto digits = [&](size_t at, size_t n) -> std::optional<unsigned> {
    unsigned v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return std::nullopt;
      v = v * 10 + static_cast<unsigned>(s[i] - '0');
    }
    return v;
  };
  const std::optional<unsigned> day = digits(5, 2), year = digits(12, 4);
  unsigned month = 0;
  for (unsigned m = 0; m < 12; ++m) {
    if (s.substr(8, 3) == kMonths[m]) month = m + 1;
  }
  if (!day || !year || month == 0 || !IsCivilDate(*year, month, *day)) return std::nullopt;
  return DaysFromCivil(*year, month, *day);
}

std::string FormatIsoDate(int64_t days) {
  const CivilDate c = CivilFromDays(days);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(c.year), c.month,
                c.day);
  return buf;
}

int64_t UnixDays(int64_t unix_s) { return unix_s / 86400 - (unix_s % 86400 < 0); }

std::string FormatIsoUtc(int64_t unix_s) {
  const int64_t days = UnixDays(unix_s);
  const int64_t s = unix_s - days * 86400;
  char buf[16];
  std::snprintf(buf, sizeof buf, "T%02d:%02d:%02dZ", static_cast<int>(s / 3600),
                static_cast<int>(s / 60 % 60), static_cast<int>(s % 60));
  return FormatIsoDate(days) + buf;
}

bool IsIsoTimestamp(std::string_view s) {
  if (!ParseIsoDatePrefix(s)) return false;
  if (s.size() == 10) return true;
  if (s[10] != 'T' && s[10] != ' ') return false;
  return IsIsoTime(s.substr(11));
}

int64_t UnixNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace gpuadvisor
