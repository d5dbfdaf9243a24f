// JSON object, table and SVG chart for `simulate` (fleet simulation and policy search).
#ifndef GPUADVISOR_IO_SIMULATE_VIEWS_H_
#define GPUADVISOR_IO_SIMULATE_VIEWS_H_

#include <string>

#include "gpuadvisor/simulate.h"
#include "io/catalog_views.h"
#include "io/table.h"

namespace gpuadvisor {

ojson SimulationJson(const SimulationReport& r);
// Rows: the policy as given, static peak provisioning, the cheapest policy meeting the SLO.
Table SimulationTable(const SimulationReport& r);
std::string SimulationNotes(const SimulationReport& r);
// Load, ready capacity of the given and best policies, and cumulative cost over time.
std::string SimulationSvg(const SimulationReport& r);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_SIMULATE_VIEWS_H_
