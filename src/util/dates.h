// Calendar dates and UTC times, the one place they are computed: civil dates (proleptic
// Gregorian) to and from days since 1970-01-01, strict "YYYY-MM-DD" parsing, ISO 8601 text for
// dates and UTC times, the check of an ISO 8601 timestamp. No time zone other than UTC and no
// locale; gmtime/strftime are not used. Thread-safe (no state).
#ifndef GPUADVISOR_UTIL_DATES_H_
#define GPUADVISOR_UTIL_DATES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuadvisor {

struct CivilDate {
  int64_t year = 1970;
  unsigned month = 1;  // 1..12
  unsigned day = 1;    // 1..31
};

// Days since 1970-01-01 of y-m-d (Howard Hinnant's algorithm; negative before 1970).
// REQUIRES: 1 <= m <= 12 (d out of its month counts on into the next).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d);
// The civil date `days` after 1970-01-01 (the inverse of DaysFromCivil).
CivilDate CivilFromDays(int64_t days);
// True when y-m-d is a real calendar day (February 29 only in leap years).
bool IsCivilDate(int64_t y, unsigned m, unsigned d);

// Days since 1970-01-01 of the date "YYYY-MM-DD" that `text` starts with (what follows is not
// read); nullopt unless it is four digits, '-', two, '-', two, naming a real day.
std::optional<int64_t> ParseIsoDatePrefix(std::string_view text);
// The same for exactly "YYYY-MM-DD".
std::optional<int64_t> ParseIsoDate(std::string_view text);

// Days since 1970-01-01 of an HTTP date (RFC 9110 IMF-fixdate, "Sun, 06 Nov 1994 08:49:37
// GMT", the form Last-Modified takes); nullopt for anything else.
std::optional<int64_t> ParseHttpDate(std::string_view text);

// "YYYY-MM-DD" of `days` since 1970-01-01.
std::string FormatIsoDate(int64_t days);
// "YYYY-MM-DDTHH:MM:SSZ" of Unix seconds (UTC).
std::string FormatIsoUtc(int64_t unix_s);

// True for an ISO 8601 date "2026-11-20" (a real calendar day), optionally followed by a time
// "T08:15", "T08:15:00", "T08:15:00Z", "T08:15:00.000+00:00" (or "+0000") or " 08:15:00".
bool IsIsoTimestamp(std::string_view text);

// The day of Unix time `unix_s` (days since 1970-01-01, rounded down).
int64_t UnixDays(int64_t unix_s);
// Now, in Unix seconds (the system clock).
int64_t UnixNow();

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_DATES_H_
