// Options given as (key, text) pairs — the HTTP API's query parameters and JSON bodies — put
// into the request structs of io/requests.h, so they are parsed, checked and reported exactly as
// the CLI's flags are. Keys are the flag names without dashes ("min-gpus"); underscores, case
// and leading dashes do not matter. List keys (gpu, family, regions, purchase) append; a value
// may itself be a comma-separated list. Unknown keys are InvalidArgument with "did you mean".
#ifndef GPUADVISOR_IO_REQUEST_FIELDS_H_
#define GPUADVISOR_IO_REQUEST_FIELDS_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/estimate.h"
#include "io/requests.h"

namespace gpuadvisor {

// "min_gpus", "--min-gpus", "Min-GPUs" -> "min-gpus".
std::string CanonicalOptionKey(std::string_view key);
// True when `key` names one of `keys` (any accepted spelling).
bool HasOptionKey(const std::vector<std::string>& keys, std::string_view key);

// `instances`: region, gpu, family, min-gpus, max-gpus, min-gpu-memory, min-total-gpu-memory,
// max-price, purchase, efa, include-retired, gpus-only (true/false, or "" = true), sort, limit.
Status SetInstancesArg(InstancesArgs* a, std::string_view key, std::string_view value);
const std::vector<std::string>& InstancesArgKeys();

// `estimate` hardware: instance, count, gpu, gpus, region.
Status SetHardwareArg(HardwareRequest* h, std::string_view key, std::string_view value);
const std::vector<std::string>& HardwareArgKeys();

// `recommend`: deadline, budget, regions, purchase, max-instances, max-gpus, objective, top,
// allow-retired, explain.
Status SetRecommendArg(RecommendArgs* a, std::string_view key, std::string_view value);
const std::vector<std::string>& RecommendArgKeys();

// `pricing` usage: hours-per-month, months, count, interruptible, checkpoint-interval,
// checkpoint-gib, storage-gbps, restart.
Status SetUsageArg(UsageArgs* a, std::string_view key, std::string_view value);
const std::vector<std::string>& UsageArgKeys();

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_REQUEST_FIELDS_H_
