// Fleet simulation speed: simulated hours per second of one policy over a 30-day diurnal trace
// at 1-minute steps, and of the whole policy search (180 policies, no spot).
//   cmake -S . -B build-bench -DGPUADVISOR_BUILD_BENCH=ON && cmake --build build-bench --target
//   simulate_bench && build-bench/bench/simulate_bench
#include <benchmark/benchmark.h>

#include "gpuadvisor/simulate.h"

namespace gpuadvisor {
namespace {

FleetCosts Costs() {
  FleetCosts c;
  c.instance_type = "g6e.xlarge";
  c.capacity_rps = 4;
  c.on_demand_per_hour = Money(1.861, Currency::kUsd);
  c.spot_per_hour = Money(0.78, Currency::kUsd);
  c.spot_interruptions_per_hour = 0.075 / 730;
  return c;
}

void BM_SimulateOnePolicy(benchmark::State& state) {
  const Trace t = *DiurnalTrace(400, 40, 30, 60);
  ScalingPolicy p;
  p.spot_share = 0.5;
  double hours = 0;
  for (auto _ : state) {
    Result<SimResult> r = SimulateFleet(t, Costs(), p, 1, false);
    benchmark::DoNotOptimize(r->cost.amount);
    hours += t.Duration() / 3600;
  }
  state.counters["sim_hours/s"] = benchmark::Counter(hours, benchmark::Counter::kIsRate);
}

void BM_PolicySearch(benchmark::State& state) {
  const Trace t = *DiurnalTrace(400, 40, 30, 60);
  ScalingPolicy p;
  double hours = 0;
  for (auto _ : state) {
    Result<SimulationReport> r = SimulateAndSearch(t, Costs(), p, PolicySearch(), true);
    benchmark::DoNotOptimize(r->policies_searched);
    hours += t.Duration() / 3600 * (r->policies_searched + 3);
  }
  state.counters["sim_hours/s"] = benchmark::Counter(hours, benchmark::Counter::kIsRate);
}

BENCHMARK(BM_SimulateOnePolicy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PolicySearch)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpuadvisor

BENCHMARK_MAIN();
