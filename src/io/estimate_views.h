// Human views of an Estimate: a two-column table (quantity with its unit, value) for the table,
// CSV and Markdown formats. The JSON object is EstimateToJson() (gpuadvisor/estimate.h).
#ifndef GPUADVISOR_IO_ESTIMATE_VIEWS_H_
#define GPUADVISOR_IO_ESTIMATE_VIEWS_H_

#include <string>

#include "gpuadvisor/estimate.h"
#include "io/catalog_views.h"
#include "io/table.h"

namespace gpuadvisor {

// Only the rows that apply to the task; assumptions are rows named "assumption" when
// `with_assumptions` (CSV/Markdown), otherwise callers print them below the table.
Table EstimateTable(const Estimate& e, bool with_assumptions);

// The `estimate` JSON object of the CLI (--json) and the HTTP API: EstimateToJson() plus
// `provenance` (datasheet and price sources, price staleness, catalog build time).
ojson EstimateResultJson(const Catalog& catalog, const Hardware& hw, const Estimate& e,
                         const Freshness& fresh);

// "8 x H100 (1 x p5.48xlarge)" style one-liner.
std::string HardwareLine(const Estimate& e);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_ESTIMATE_VIEWS_H_
