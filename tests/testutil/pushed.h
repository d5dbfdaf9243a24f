// A one-GPU host of an idle report as a push-down server sends it (telemetry.h): its GPU's totals
// and the host's, the idle stretches cut at every UTC hour as the hourly series give them. For
// the tests that check the aggregates give the samples' report (idle/pushdown_test.cc,
// idle/week_profile_test.cc).
#ifndef GPUADVISOR_TESTS_TESTUTIL_PUSHED_H_
#define GPUADVISOR_TESTS_TESTUTIL_PUSHED_H_

#include <algorithm>
#include <cmath>

#include "gpuadvisor/idle.h"
#include "gpuadvisor/telemetry.h"

namespace gpuadvisor::testing {

inline GpuAggregate PushedGpu(const HostUsage& u) {
  const GpuUsage& gu = u.gpu_usage.at(0);
  GpuAggregate g;
  g.host = u.host;
  g.gpu_index = gu.index;
  g.gpu_name = gu.name;
  g.readings = u.samples;
  g.covered_s = u.hours_covered * 3600;
  g.idle_s = u.idle_hours * 3600;
  g.util_avg_pct = gu.avg_util_pct;
  g.util_p95_pct = gu.p95_util_pct;
  g.mem_used_avg_mib = gu.mem_used_avg_mib;
  g.mem_used_max_mib = gu.mem_used_max_mib;
  g.mem_total_mib = gu.mem_total_mib;
  g.power_avg_w = gu.avg_power_w;
  return g;
}

inline HostAggregate PushedHost(const HostUsage& u) {
  HostAggregate h;
  h.host = u.host;
  h.first_s = u.first_s.value_or(0);
  h.last_s = u.last_s.value_or(0);
  h.covered_s = u.hours_covered * 3600;
  h.util_avg_pct = u.avg_util_pct;
  h.util_p95_pct = u.p95_util_pct;
  h.gpus_busy = u.gpus_busy;
  for (const IdlePeriod& p : u.idle_periods) {
    for (double t = p.start_s; t < p.end_s;) {
      const double hour_end = (std::floor(t / 3600) + 1) * 3600;
      h.idle_pieces.emplace_back(t, std::min(p.end_s, hour_end));
      t = std::min(p.end_s, hour_end);
    }
  }
  return h;
}

}  // namespace gpuadvisor::testing

#endif  // GPUADVISOR_TESTS_TESTUTIL_PUSHED_H_
