// The uncertainty of a price, measured from the catalog's own figures (issue 38, item 1: price
// uncertainty joins the band). A spot price estimated from the Spot Instance Advisor's savings,
// on-demand x (1 - savings), is where a buyer's cost is least known: how far such estimates lie
// from the spot prices observed for the same type and region is measured over every type-region
// the catalog has both for, and the estimate's band is the one that held 80 % of them (drawn as
// the estimator's bands are: workload/bands.h, DeriveBand). List prices (on-demand, reserved,
// Savings Plans, Capacity Blocks) carry none: AWS changes them rarely (the 2026-09-14 quick
// reference reprints 860 of the 864 figures it shares with the 2026-08-26 catalog unchanged).
#ifndef GPUADVISOR_RECOMMEND_PRICE_BAND_H_
#define GPUADVISOR_RECOMMEND_PRICE_BAND_H_

#include "gpuadvisor/catalog.h"

namespace gpuadvisor::recommend_internal {

struct PriceBand {
  double low = 0, high = 0;  // fractions of the price: price x (1 - low) .. price x (1 + high)
  int figures = 0;           // the type-regions measured; 0: too few to draw a band
};

// ln(observed spot / estimated spot) over the catalog's type-regions with an observed spot
// price, an on-demand price and the advisor's savings figure, as an 80 % band.
PriceBand SpotEstimateBand(const Catalog& catalog);

}  // namespace gpuadvisor::recommend_internal

#endif  // GPUADVISOR_RECOMMEND_PRICE_BAND_H_
