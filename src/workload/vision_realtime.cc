// Real-time vision inference: images arrive at a rate (--rps), a dynamic batcher (Triton's
// dynamic_batching, TorchServe's batch_size/max_batch_delay) runs whatever has queued, up to a
// maximum batch, back to back.
//
// At arrival rate lambda per device and batch time t(n), a busy server settles where each batch
// holds what arrived while the previous one ran: n = lambda * t(n) (Little's law), at least 1
// and at most the maximum batch. An image waits for the batch in flight to finish (uniform over
// [0, t(n)] when the server is busy, a share rho = lambda * t(n) / n of the time), then runs in the
// next: latency = wait + t(n); its p95 is 0.95 * rho * t(n) + t(n). The p95 grows with the rate,
// so the most a device holds within a p95 target is found by bisecting the rate.
#include <algorithm>
#include <cmath>

#include "workload/estimate_internal.h"

namespace gpuadvisor::workload_internal {

namespace {

constexpr double kWaitP95 = 0.95;  // p95 of a uniform wait over one batch time

// Where a device settles at `lambda` images/s: the batch, its utilisation and the latencies.
struct Point {
  double batch = 1, utilisation = 0, mean_s = 0, p95_s = 0;
  bool saturated = false;
};

Point OperatingPoint(double lambda, double max_batch,
                     const std::function<double(double)>& batch_seconds) {
  Point p;
  // n = lambda * t(n): t grows slower than n past the fixed point (the batch amortises the
  // per-batch cost), so f(n) = lambda * t(n) - n changes sign once; bisect it.
  const auto f = [&](double n) { return lambda * batch_seconds(n) - n; };
  if (f(1) <= 0) {
    p.batch = 1;
  } else if (f(max_batch) > 0) {
    p.batch = max_batch;
    p.saturated = true;
  } else {
    double lo = 1, hi = max_batch;  // f(lo) > 0 >= f(hi)
    for (int i = 0; i < 60 && hi - lo > 1e-6 * hi; ++i) {
      const double mid = 0.5 * (lo + hi);
      (f(mid) > 0 ? lo : hi) = mid;
    }
    p.batch = hi;
  }
  const double t = batch_seconds(p.batch);
  p.utilisation = p.saturated ? lambda * t / p.batch : std::min(1.0, lambda * t / p.batch);
  const double busy = std::min(1.0, p.utilisation);
  p.mean_s = t * (1 + 0.5 * busy);
  p.p95_s = t * (1 + kWaitP95 * busy);
  return p;
}

}  // namespace

RealTimeServing ServeRealTime(const RealTimeLoad& load,
                              const std::function<double(double)>& batch_seconds) {
  RealTimeServing r;
  const double max_batch = std::max(1, load.max_batch);
  const double target = load.p95_target_s;
  const auto within = [&](const Point& p) {
    return !p.saturated && (target <= 0 || p.p95_s <= target);
  };
  // Capacity per device: the highest rate whose operating point keeps up within the target
  // (the p95 grows with the rate, so bisect the rate below the largest batch's throughput).
  const double top = max_batch / batch_seconds(max_batch);
  double lo = 0, hi = top;
  if (within(OperatingPoint(top, max_batch, batch_seconds))) {
    lo = top;
  } else {
    for (int i = 0; i < 60 && hi - lo > 1e-6 * hi; ++i) {
      const double mid = 0.5 * (lo + hi);
      (within(OperatingPoint(mid, max_batch, batch_seconds)) ? lo : hi) = mid;
    }
  }
  r.capacity_per_device = lo;
  const Point p = OperatingPoint(load.rate / std::max(1, load.devices), max_batch, batch_seconds);
  r.batch = p.batch;
  r.utilisation = p.utilisation;
  r.saturated = p.saturated;
  r.mean_s = p.mean_s;
  r.p95_s = p.p95_s;
  r.meets_target = within(p);
  // Devices that hold the rate: as many as the capacity needs (a hair of slack for rounding).
  // (capped far above any real fleet: a rate near 1e9 on a slow device must not overflow)
  r.devices_needed =
      lo > 0 ? static_cast<int>(std::min(1e9, std::ceil(load.rate / lo * (1 - 1e-9)))) : 0;
  return r;
}

}  // namespace gpuadvisor::workload_internal
