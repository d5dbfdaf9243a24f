// The workload flags shared by `estimate` and `recommend` (CLI-CONTRACT.md, "Workload flags"):
// one option per SetWorkloadField key, plus --workload FILE|-. The library does the parsing;
// this only collects text.
#ifndef GPUADVISOR_CLI_WORKLOAD_FLAGS_H_
#define GPUADVISOR_CLI_WORKLOAD_FLAGS_H_

#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "gpuadvisor/workload.h"

namespace gpuadvisor::cli {

struct WorkloadOptions {
  std::string file;                           // --workload FILE ("-" = stdin); "" = none
  std::map<std::string, std::string> values;  // field name -> text as given; "" = not given
};

// Registers --workload and one --<field> per WorkloadFieldNames() (BOOL fields as flags that
// also take =true/false), in a "Workload" option group.
void AddWorkloadOptions(CLI::App* cmd, WorkloadOptions* o);

// The file first, then the flags on top, then Validate(). Errors name the file:line or flag.
Result<Workload> BuildWorkload(const WorkloadOptions& o);

}  // namespace gpuadvisor::cli

#endif  // GPUADVISOR_CLI_WORKLOAD_FLAGS_H_
