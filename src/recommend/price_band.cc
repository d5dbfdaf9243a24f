#include "recommend/price_band.h"

#include <cmath>
#include <vector>

#include "workload/bands.h"

namespace gpuadvisor::recommend_internal {

PriceBand SpotEstimateBand(const Catalog& catalog) {
  std::vector<double> r;
  for (const InstanceType& t : catalog.instance_types()) {
    for (const RegionOffer& o : t.regions) {
      if (!o.spot || o.spot->estimated || !o.on_demand || !o.spot_band) continue;
      const int s = o.spot_band->savings_pct;
      if (s < 0 || s >= 100 || o.spot->usd_per_hour <= 0 || o.on_demand->usd_per_hour <= 0) {
        continue;
      }
      const double estimated = o.on_demand->usd_per_hour * (1 - s / 100.0);
      r.push_back(std::log(o.spot->usd_per_hour / estimated));
    }
  }
  const workload_internal::MeasuredBand b = workload_internal::DeriveBand(r);
  return {b.low, b.high, b.cases};
}

}  // namespace gpuadvisor::recommend_internal
