// Internal helpers shared by the field setter, the preset lookup and the config.json importer.
#ifndef GPUADVISOR_WORKLOAD_MODEL_INTERNAL_H_
#define GPUADVISOR_WORKLOAD_MODEL_INTERNAL_H_

#include <cstdint>

#include "gpuadvisor/workload.h"

namespace gpuadvisor::workload_internal {

// Tokens per served request: the given ones, else the defaults (kDefaultInputTokens /
// kDefaultOutputTokens) shortened to fit the model's context window (BERT: 342 + 170).
struct RequestShape {
  int input = 0, output = 0;
};
RequestShape ServeRequestShape(const Workload& w);

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_MODEL_INTERNAL_H_
