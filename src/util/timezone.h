// Time zones for schedules a person reads and AWS schedulers run (idle's stop/start windows):
// IANA zones without daylight saving time, whose offset from UTC is one fixed number, and explicit
// offsets ("UTC+08:00"). Zones with daylight saving (Europe/London, America/New_York) are refused
// by name: a fixed offset would be an hour off half the year, and the library reads no tz
// database.
#ifndef GPUADVISOR_UTIL_TIMEZONE_H_
#define GPUADVISOR_UTIL_TIMEZONE_H_

#include <string>
#include <string_view>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

struct TimeZone {
  std::string name;        // as shown: "Asia/Shanghai", "UTC", "UTC+05:30"
  int offset_minutes = 0;  // local = UTC + offset
  // The IANA name AWS schedulers take (EventBridge Scheduler's ScheduleExpressionTimezone,
  // Instance Scheduler's schedule timezone): the zone itself, "Etc/GMT-8" for UTC+08:00 (POSIX
  // signs), "" for an offset no IANA zone names (UTC+05:45 given as an offset).
  std::string iana;
};

// "Asia/Shanghai", "UTC", "utc+8", "UTC+08:00", "+05:30", "-03:00". InvalidArgument naming
// `field` otherwise (a zone with daylight saving, an unknown name, an offset past +-14:00).
Result<TimeZone> ParseTimeZone(std::string_view text, std::string_view field);
// The zone a host's schedule is read in when none is given: China Standard Time for the AWS
// China regions (Beijing, Ningxia), UTC elsewhere.
TimeZone RegionTimeZone(std::string_view region);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_TIMEZONE_H_
