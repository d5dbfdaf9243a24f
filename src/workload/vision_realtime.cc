// Real-time vision inference: images arrive at a rate (--rps), a dynamic batcher (Triton's
// dynamic_batching, TorchServe's batch_size/max_batch_delay) runs whatever has queued, up to a
// maximum batch, back to back.
//
// At arrival rate lambda per device and batch time t(n), a busy server settles where each batch
// holds what arrived while the previous one ran: n = lambda * t(n) (Little's law), at least 1
// and at most the maximum batch. An image waits for the batch in flight to finish (uniform over
// [0, t(n)] when the server is busy, a share rho = lambda * t(n) / n of the time), then runs in the
// next: latency = wait + t(n); its p95 is 0.95 * rho * t(n) + t(n). The most a device holds at a
// p95 target L is the largest batch n with that p95 within L, giving n / t(n) images/s.
#include <algorithm>
#include <cmath>

#include "workload/estimate_internal.h"

namespace gpuadvisor::workload_internal {

namespace {

constexpr double kWaitP95 = 0.95;  // p95 of a uniform wait over one batch time

double P95(double batch_s, double utilisation) {
  return batch_s * (1 + kWaitP95 * std::min(1.0, utilisation));
}

}  // namespace

RealTimeServing ServeRealTime(const RealTimeLoad& load,
                              const std::function<double(double)>& batch_seconds) {
  RealTimeServing r;
  const double max_batch = std::max(1, load.max_batch);
  const double lambda = load.rate / std::max(1, load.devices);
  // Capacity per device: at the largest batch whose p95 (busy server) meets the target; the
  // p95 grows with the batch, so a binary search over whole batches finds it.
  double best_n = max_batch;
  if (load.p95_target_s > 0) {
    double lo = 0, hi = max_batch;  // P95(lo) within the target (lo = 0: none), P95(hi + 1) not
    while (lo < hi) {
      const double mid = std::ceil((lo + hi) / 2);
      if (P95(batch_seconds(mid), 1) <= load.p95_target_s) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    best_n = lo;
  }
  r.capacity_per_device = best_n >= 1 ? best_n / batch_seconds(best_n) : 0;
  // The operating point: the fixed point of n = lambda * t(n), within [1, max_batch].
  double n = 1;
  for (int i = 0; i < 60; ++i) {
    const double next = std::clamp(lambda * batch_seconds(n), 1.0, max_batch);
    if (std::abs(next - n) < 1e-6 * n) break;
    n = next;
  }
  r.batch = n;
  const double t = batch_seconds(n);
  r.utilisation = lambda * t / n;
  r.saturated = r.utilisation > 1 + 1e-9;
  r.mean_s = t * (1 + 0.5 * std::min(1.0, r.utilisation));
  r.p95_s = P95(t, r.utilisation);
  r.meets_target = !r.saturated && (load.p95_target_s <= 0 || r.p95_s <= load.p95_target_s);
  r.devices_needed =
      r.capacity_per_device > 0 ? static_cast<int>(std::ceil(load.rate / r.capacity_per_device))
                                : 0;
  return r;
}

}  // namespace gpuadvisor::workload_internal
