// nlohmann::json parsing without exceptions, with "<origin>:<line>:<column>: <what>" errors.
#ifndef GPUADVISOR_WORKLOAD_JSON_TEXT_H_
#define GPUADVISOR_WORKLOAD_JSON_TEXT_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "gpuadvisor/result.h"
#include "gpuadvisor/workload.h"

namespace gpuadvisor::workload_internal {

// Errors: ParseError "<origin>:L:C: syntax error ..."; a number beyond a double is
// InvalidArgument "<origin>:L:C: KEY: 1e999 is out of range ..." with field() the key (dashed).
Result<nlohmann::json> ParseJson(std::string_view text, std::string_view origin);

// ParseWorkloadJsonInline of a document a front end has already parsed (and checked for repeated
// keys): the same fields, rules and messages, without printing it and parsing it again.
// REQUIRES: obj is an object.
Result<Workload> WorkloadFromInlineJson(const nlohmann::json& obj, std::string_view origin);

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_JSON_TEXT_H_
