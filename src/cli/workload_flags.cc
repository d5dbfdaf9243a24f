#include "cli/workload_flags.h"

#include <cstring>

#include "util/files.h"

namespace gpuadvisor::cli {

void AddWorkloadOptions(CLI::App* cmd, WorkloadOptions* o) {
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

Result<Workload> BuildWorkload(const WorkloadOptions& o) {
  Workload w;
  if (!o.file.empty()) {
    Result<std::string> text = ReadFile(o.file);  // "-" reads stdin
    if (!text.ok()) return text.status();
    Result<Workload> parsed = ParseWorkloadText(*text, o.file == "-" ? "<stdin>" : o.file);
    if (!parsed.ok()) return parsed.status();
    w = std::move(parsed).value();
  }
  // Presets first so that flags which refine them apply on top, whatever the order given.
  for (const char* first : {"model-config", "model"}) {
    auto it = o.values.find(first);
    if (it != o.values.end() && !it->second.empty()) {
      Status st = SetWorkloadField(&w, it->first, it->second);
      if (!st.ok()) return st;
    }
  }
  for (const auto& [name, text] : o.values) {
    if (text.empty() || name == "model" || name == "model-config") continue;
    Status st = SetWorkloadField(&w, name, text);
    if (!st.ok()) return st;
  }
  Status valid = Validate(w);
  if (!valid.ok()) return valid;
  return w;
}

}  // namespace gpuadvisor::cli
