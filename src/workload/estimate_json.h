// The `estimate` JSON object (doc/formats.md, "estimate"). Internal: the public headers do not
// expose the JSON library; front ends get this object through the io/ views.
#ifndef GPUADVISOR_WORKLOAD_ESTIMATE_JSON_H_
#define GPUADVISOR_WORKLOAD_ESTIMATE_JSON_H_

#include <nlohmann/json.hpp>

#include "gpuadvisor/estimate.h"

namespace gpuadvisor {

// Non-applicable fields are null.
nlohmann::ordered_json EstimateToJson(const Estimate& e);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_WORKLOAD_ESTIMATE_JSON_H_
