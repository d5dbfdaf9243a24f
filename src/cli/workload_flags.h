// The workload flags shared by `estimate` and `recommend` (doc/estimation.md, "Workload
// description"): one option per WorkloadFields key, plus --workload FILE|-. The library does the
// parsing; this only collects text.
#ifndef GPUADVISOR_CLI_WORKLOAD_FLAGS_H_
#define GPUADVISOR_CLI_WORKLOAD_FLAGS_H_

#include <CLI/CLI.hpp>

#include "app/requests.h"

namespace gpuadvisor::cli {

// Registers --workload and one --<field> per WorkloadFieldNames() (BOOL fields as flags that
// also take =true/false), in a "Workload" option group.
// BuildWorkload (app/requests.h) turns them into a Workload.
void AddWorkloadOptions(CLI::App* cmd, WorkloadArgs* o);

}  // namespace gpuadvisor::cli

#endif  // GPUADVISOR_CLI_WORKLOAD_FLAGS_H_
