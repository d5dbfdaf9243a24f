#include "util/timezone.h"

#include <cstdlib>

#include "util/text.h"

namespace gpuadvisor {
namespace {

// IANA zones that keep one offset all year (no daylight saving since at least 2019), minutes.
constexpr std::pair<std::string_view, int> kFixedZones[] = {
    {"UTC", 0},
    {"Etc/UTC", 0},
    {"Asia/Shanghai", 480},
    {"Asia/Chongqing", 480},
    {"Asia/Hong_Kong", 480},
    {"Asia/Macau", 480},
    {"Asia/Taipei", 480},
    {"Asia/Singapore", 480},
    {"Asia/Kuala_Lumpur", 480},
    {"Asia/Manila", 480},
    {"Australia/Perth", 480},
    {"Asia/Tokyo", 540},
    {"Asia/Seoul", 540},
    {"Asia/Jakarta", 420},
    {"Asia/Bangkok", 420},
    {"Asia/Ho_Chi_Minh", 420},
    {"Asia/Kolkata", 330},
    {"Asia/Karachi", 300},
    {"Asia/Dubai", 240},
    {"Asia/Riyadh", 180},
    {"Asia/Qatar", 180},
    {"Africa/Johannesburg", 120},
    {"Africa/Cairo", 120},
    {"America/Sao_Paulo", -180},
    {"America/Bogota", -300},
    {"America/Phoenix", -420},
    {"Pacific/Honolulu", -600},
};

// Zones people name that observe daylight saving time.
constexpr std::string_view kDstRegions[] = {"Europe/",          "America/",       "Australia/",
                                            "Pacific/Auckland", "Asia/Jerusalem", "Asia/Tehran"};

std::string TwoDigits(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

std::string OffsetName(int minutes) {
  const int m = std::abs(minutes);
  return std::string("UTC") + (minutes < 0 ? "-" : "+") + TwoDigits(m / 60) + ":" +
         TwoDigits(m % 60);
}

// POSIX Etc zones invert the sign: Etc/GMT-8 is UTC+08:00. Whole hours only.
std::string EtcName(int minutes) {
  if (minutes == 0) return "UTC";
  if (minutes % 60 != 0) return "";
  return std::string("Etc/GMT") + (minutes > 0 ? "-" : "+") +
         std::to_string(std::abs(minutes) / 60);
}

Status Bad(std::string_view field, std::string_view text, std::string_view why) {
  return Status::InvalidArgument(std::string(field) + ": " + std::string(why) + ", got \"" +
                                 std::string(text.substr(0, 64)) + "\"")
      .WithField(std::string(field));
}

}  // namespace

Result<TimeZone> ParseTimeZone(std::string_view text, std::string_view field) {
  const std::string_view t = Trim(text);
  for (const auto& [name, minutes] : kFixedZones) {
    if (EqualsIgnoreCase(t, name)) return TimeZone{std::string(name), minutes, std::string(name)};
  }
  // "UTC+8", "UTC+08:00", "GMT-3", "+05:30".
  std::string_view rest = t;
  for (std::string_view prefix : {"UTC", "utc", "GMT", "gmt"}) {
    if (StartsWith(rest, prefix)) rest.remove_prefix(prefix.size());
  }
  if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
    const int sign = rest[0] == '-' ? -1 : 1;
    rest.remove_prefix(1);
    const size_t colon = rest.find(':');
    const std::string_view hh = rest.substr(0, colon), mm = colon == std::string_view::npos
                                                                ? std::string_view("0")
                                                                : rest.substr(colon + 1);
    const bool digits = !hh.empty() && hh.size() <= 2 && !mm.empty() && mm.size() <= 2 &&
                        hh.find_first_not_of("0123456789") == std::string_view::npos &&
                        mm.find_first_not_of("0123456789") == std::string_view::npos;
    if (digits) {
      const int h = std::atoi(std::string(hh).c_str()), m = std::atoi(std::string(mm).c_str());
      const int minutes = sign * (h * 60 + m);
      if (m < 60 && std::abs(minutes) <= 14 * 60) {
        return TimeZone{OffsetName(minutes), minutes, EtcName(minutes)};
      }
    }
    return Bad(field, text, "expected an offset from UTC within -12:00..+14:00 (UTC+08:00)");
  }
  for (std::string_view dst : kDstRegions) {
    if (StartsWith(t, dst)) {
      return Bad(field, text,
                 "a zone with daylight saving time is not modelled (the stop and start hours "
                 "would move by an hour twice a year): give its offset, e.g. UTC-05:00");
    }
  }
  return Bad(field, text,
             "expected a zone without daylight saving time (Asia/Shanghai, Asia/Tokyo, UTC, "
             "...) or an offset (UTC+08:00)");
}

TimeZone RegionTimeZone(std::string_view region) {
  if (StartsWith(region, "cn-")) return TimeZone{"Asia/Shanghai", 480, "Asia/Shanghai"};
  return TimeZone{"UTC", 0, "UTC"};
}

}  // namespace gpuadvisor
