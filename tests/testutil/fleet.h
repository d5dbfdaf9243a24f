// The five-host test fleet of issue 6, generated as nvidia-smi CSV text: two days at one sample
// per minute from 2026-07-01T00:00:00Z.
//   always-idle   1x L40S, 0 %
//   busy          1x A10G, 85 %
//   half          1x L4, 0 % from 00:00 to 12:00 each day, 70 % after
//   one-of-eight  8x H100, GPU 0 at 90 %, GPUs 1-7 at 0 %
//   dips          1x T4, 60 % with a 2-minute dip to 0 % at the top of every hour
#ifndef GPUADVISOR_TESTS_TESTUTIL_FLEET_H_
#define GPUADVISOR_TESTS_TESTUTIL_FLEET_H_

#include <cstdio>
#include <string>

namespace gpuadvisor::testing {

inline constexpr double kFleetStart = 1782864000;  // 2026-07-01T00:00:00Z
inline constexpr int kFleetMinutes = 2 * 24 * 60;

// `host` empty: every host; otherwise that host only (one file per host, no hostname column).
inline std::string FleetCsv(const std::string& only = "", bool units = true) {
  std::string out =
      only.empty()
          ? "timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], "
            "memory.total [MiB]\n"
          : "index, utilization.gpu [%], name, memory.total [MiB], memory.used [MiB], timestamp\n";
  if (!units) {
    out = only.empty()
              ? "timestamp, hostname, index, name, utilization.gpu, memory.used, memory.total\n"
              : "index, utilization.gpu, name, memory.total, memory.used, timestamp\n";
  }
  char ts[64];
  char line[256];
  for (int m = 0; m < kFleetMinutes; ++m) {
    const int minute_of_day = m % 1440;
    const int day = m / 1440;
    struct Row {
      const char* host;
      const char* name;
      int index;
      int util;
      int mem_used, mem_total;
    };
    const bool half_idle = minute_of_day < 720;
    const bool dip = (m % 60) < 2;
    const Row rows[] = {
        {"always-idle", "NVIDIA L40S", 0, 0, 0, 46068},
        {"busy", "NVIDIA A10G", 0, 85, 18000, 23028},
        {"half", "NVIDIA L4", 0, half_idle ? 0 : 70, half_idle ? 0 : 9000, 23034},
        {"one-of-eight", "NVIDIA H100 80GB HBM3", 0, 90, 30000, 81559},
        {"one-of-eight", "NVIDIA H100 80GB HBM3", 1, 0, 0, 81559},
        {"one-of-eight", "NVIDIA H100 80GB HBM3", 2, 0, 0, 81559},
        {"one-of-eight", "NVIDIA H100 80GB HBM3", 3, 0, 0, 81559},
        {"one-of-eight", "NVIDIA H100 80GB HBM3", 4, 0, 0, 81559},
        {"one-of-eight", "NVIDIA H100 80GB HBM3", 5, 0, 0, 81559},
        {"one-of-eight", "NVIDIA H100 80GB HBM3", 6, 0, 0, 81559},
        {"one-of-eight", "NVIDIA H100 80GB HBM3", 7, 0, 0, 81559},
        {"dips", "Tesla T4", 0, dip ? 0 : 60, 6000, 15360},
    };
    for (const Row& r : rows) {
      if (!only.empty() && only != r.host) continue;
      // GPUs of one tick are read a few milliseconds apart, as nvidia-smi does.
      std::snprintf(ts, sizeof ts, "2026/07/%02d %02d:%02d:00.%03d", 1 + day, minute_of_day / 60,
                    minute_of_day % 60, 3 * r.index);
      const char* pct = units ? " %" : "";
      const char* mib = units ? " MiB" : "";
      if (only.empty()) {
        std::snprintf(line, sizeof line, "%s, %s, %d, %s, %d%s, %d%s, %d%s\n", ts, r.host, r.index,
                      r.name, r.util, pct, r.mem_used, mib, r.mem_total, mib);
      } else {
        std::snprintf(line, sizeof line, "%d, %d%s, %s, %d%s, %d%s, %s\n", r.index, r.util, pct,
                      r.name, r.mem_total, mib, r.mem_used, mib, ts);
      }
      out += line;
    }
  }
  return out;
}

}  // namespace gpuadvisor::testing

#endif  // GPUADVISOR_TESTS_TESTUTIL_FLEET_H_
