// One Compute Savings Plan across the bill's types and regions (JointComputePlan,
// doc/commitments.md "One Compute Savings Plan for the whole bill").
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "gpuadvisor/commit_plan.h"

namespace gpuadvisor {
namespace {

// Groups by discount, largest first: the order AWS applies a Compute Savings Plan in.
std::vector<size_t> DiscountOrder(const JointUsage& u) {
  std::vector<size_t> order(u.rate.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto discount = [&](size_t g) {
    return u.on_demand[g] > 0 ? 1 - u.rate[g] / u.on_demand[g] : 0.0;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return discount(a) > discount(b); });
  return order;
}

// Per point: the usage at plan rates (the commitment that would cover all of it).
double LargestHour(const JointUsage& u) {
  double top = 0;
  const size_t points = u.weight.size();
  for (size_t j = 0; j < points; ++j) {
    double need = 0;
    for (size_t g = 0; g < u.value.size(); ++g) need += u.value[g][j] * u.rate[g];
    top = std::max(top, need);
  }
  return top;
}

JointUse UseWithOrder(const JointUsage& u, const std::vector<size_t>& order, double committed) {
  JointUse r;
  double uncovered = 0;
  for (size_t j = 0; j < u.weight.size(); ++j) {
    double left = committed, burst = 0, covered_od = 0;
    for (size_t g : order) {
      const double v = u.value[g][j];
      if (v <= 0) continue;
      const double covered = u.rate[g] > 0 ? std::min(v, left / u.rate[g]) : 0;
      left -= covered * u.rate[g];
      burst += (v - covered) * u.burst[g];
      covered_od += covered * u.on_demand[g];
    }
    uncovered += u.weight[j] * burst;
    r.covered_on_demand += u.weight[j] * covered_od;
    r.used += u.weight[j] * (committed - std::max(0.0, left));
  }
  r.cost_per_hour = committed + uncovered;
  return r;
}

}  // namespace

double JointCostPerHour(const JointUsage& u, double committed) {
  return UseWithOrder(u, DiscountOrder(u), committed).cost_per_hour;
}

JointUse JointUseOf(const JointUsage& u, double committed) {
  return UseWithOrder(u, DiscountOrder(u), committed);
}

double OptimalJointCommitment(const JointUsage& u, double step) {
  if (u.value.empty() || u.weight.empty() || step <= 0) return 0;
  const std::vector<size_t> order = DiscountOrder(u);
  auto f = [&](double c) { return UseWithOrder(u, order, c).cost_per_hour; };
  const double top = LargestHour(u);
  if (!(top > 0)) return 0;
  constexpr int kScan = 256;
  int best = 0;
  double best_cost = f(0);
  for (int k = 1; k <= kScan; ++k) {
    const double cost = f(top * k / kScan);
    if (cost < best_cost - 1e-12) {
      best_cost = cost;
      best = k;
    }
  }
  // Golden section between the scan's neighbours of the best.
  double lo = top * std::max(0, best - 1) / kScan, hi = top * std::min(kScan, best + 1) / kScan;
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
  double fa = f(a), fb = f(b);
  for (int i = 0; i < 60 && hi - lo > step / 4; ++i) {
    if (fa <= fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - phi * (hi - lo);
      fa = f(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + phi * (hi - lo);
      fb = f(b);
    }
  }
  const double mid = (lo + hi) / 2;
  const double down = std::floor(mid / step) * step, up = down + step;
  double choice = f(up) < f(down) ? up : down;
  if (best == 0 && f(0) <= f(choice)) choice = 0;
  return choice;
}

}  // namespace gpuadvisor
