// Human views of an Estimate: a two-column table (quantity with its unit, value) for the table,
// CSV and Markdown formats. The JSON object is EstimateToJson() (workload/estimate_json.h).
#ifndef GPUADVISOR_IO_ESTIMATE_VIEWS_H_
#define GPUADVISOR_IO_ESTIMATE_VIEWS_H_

#include <string>

#include "gpuadvisor/estimate.h"
#include "io/table.h"
#include "workload/estimate_json.h"

namespace gpuadvisor {

// Only the rows that apply to the task; assumptions are rows named "assumption" when
// `with_assumptions` (CSV/Markdown), otherwise callers print them below the table.
Table EstimateTable(const Estimate& e, bool with_assumptions);

// The "Assumptions:" block printed below the table format (a blank line first).
std::string AssumptionsText(const Estimate& e);

// "8 x H100 (1 x p5.48xlarge)" style one-liner.
std::string HardwareLine(const Estimate& e);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_ESTIMATE_VIEWS_H_
