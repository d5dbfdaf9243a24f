// Request options given as (key, text) pairs, shared by the front ends that are not CLI11: the
// HTTP API's query parameters and JSON bodies (and the Python module). Keys are the CLI flag
// names without dashes ("min-gpus"); underscores and leading dashes are accepted. Errors are
// InvalidArgument naming the key as given, e.g. `min_gpus: expected a number ..., got "abc"`.
#ifndef GPUADVISOR_IO_REQUEST_FIELDS_H_
#define GPUADVISOR_IO_REQUEST_FIELDS_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/cost.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/query.h"
#include "gpuadvisor/recommend.h"

namespace gpuadvisor {

// "min_gpus", "--min-gpus", "Min-GPUs" -> "min-gpus".
std::string CanonicalOptionKey(std::string_view key);

// `instances` filters: region, gpu, family (repeatable: call once per value; a value may also
// be a comma-separated list), min-gpus, max-gpus, min-gpu-memory, min-total-gpu-memory,
// max-price, purchase, efa, include-retired, gpus-only, sort (FIELD[:asc|desc]), limit.
Status SetInstanceQueryField(InstanceQuery* q, std::string_view key, std::string_view value);
const std::vector<std::string>& InstanceQueryKeys();

// `estimate` hardware: instance, count, gpu, gpus, region.
Status SetHardwareField(HardwareRequest* h, std::string_view key, std::string_view value);
const std::vector<std::string>& HardwareKeys();

// `recommend` search: deadline, budget, regions, purchase, max-instances, max-gpus, objective,
// top, allow-retired, explain.
Status SetRecommendField(RecommendRequest* r, std::string_view key, std::string_view value);
const std::vector<std::string>& RecommendKeys();

// `pricing` usage: hours-per-month, months, count, interruptible, checkpoint-interval,
// checkpoint-gib, storage-gbps, restart. (The type and region are the caller's.)
Status SetUsageField(UsagePattern* u, std::string_view key, std::string_view value);
const std::vector<std::string>& UsageKeys();

// True when `key` names one of `keys` (any accepted spelling).
bool HasOptionKey(const std::vector<std::string>& keys, std::string_view key);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_REQUEST_FIELDS_H_
