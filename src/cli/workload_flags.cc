#include "cli/workload_flags.h"

#include <cstring>

namespace gpuadvisor::cli {

void AddWorkloadOptions(CLI::App* cmd, WorkloadArgs* o) {
  const std::string group = "Workload (also as keys of a --workload file)";
  cmd->add_option("--workload", o->file, "YAML or JSON workload file; - reads stdin")->group(group);
  for (const std::string& name : WorkloadFieldNames()) {
    const WorkloadFieldInfo* info = FindWorkloadFieldInfo(name);
    const std::string help = info ? info->help : name;
    std::string* slot = &o->values[name];
    if (info && std::strcmp(info->value, "BOOL") == 0) {
      cmd->add_flag("--" + name, *slot, help)->group(group);
    } else {
      cmd->add_option("--" + name, *slot, help)
          ->type_name(info ? info->value : "VALUE")
          ->group(group);
    }
  }
}

}  // namespace gpuadvisor::cli
