// Request bodies a front end has already parsed (the HTTP server's JSON): read from that tree,
// not printed to text and parsed again.
#ifndef GPUADVISOR_APP_BODY_H_
#define GPUADVISOR_APP_BODY_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "gpuadvisor/result.h"
#include "gpuadvisor/workload.h"

namespace gpuadvisor {

// The workload in a body's members (an object already checked for repeated keys), as
// ParseWorkloadJsonInline reads it: the same fields, rules and messages, `origin` naming it.
Result<Workload> WorkloadFromBody(const nlohmann::json& members, std::string_view origin);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_APP_BODY_H_
