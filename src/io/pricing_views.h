// JSON object and table for `pricing` (purchase options of one type for a usage pattern).
#ifndef GPUADVISOR_IO_PRICING_VIEWS_H_
#define GPUADVISOR_IO_PRICING_VIEWS_H_

#include <string>

#include "gpuadvisor/cost.h"
#include "io/catalog_views.h"
#include "io/table.h"

namespace gpuadvisor {

ojson PricingJson(const PricingResult& r, const Freshness& fresh);
// One row per priced option (the cheapest suitable one marked "*").
Table PricingTable(const PricingResult& r);
// "not priced in the catalog: reserved-3y-..., ..." or "" when every option is priced.
std::string PricingUnpricedLine(const PricingResult& r);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_PRICING_VIEWS_H_
