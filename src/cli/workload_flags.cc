#include "cli/workload_flags.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/common.h"
#include "gpuadvisor/workload.h"
#include "util/files.h"

namespace gpuadvisor::cli {
namespace {

// The CLI11 group every workload option is registered in; WorkloadHelp lays it out.
constexpr const char* kWorkloadGroup = "Workload";

bool AppliesToEveryTask(std::string_view name) {
  for (TaskKind t : kAllTaskKinds) {
    if (!WorkloadFieldApplies(name, t)) return false;
  }
  return true;
}

// The tasks `--help` is narrowed to: --task (a task or a kind of task, "vision"), else the
// task of the --workload file (not stdin: help does not wait for input); empty = every task.
Result<std::vector<TaskKind>> HelpTasks(const WorkloadArgs& a) {
  if (auto it = a.values.find("task"); it != a.values.end() && !it->second.empty()) {
    return TasksOfHelpTopic(it->second);
  }
  if (a.file.empty() || a.file == "-") return std::vector<TaskKind>();
  Result<std::string> text = ReadFile(a.file, kWorkloadFile);
  if (!text.ok()) return text.status().WithPrefix("workload").WithField("workload");
  Result<WorkloadFields> fields = ReadWorkloadFields(*text, a.file);
  if (!fields.ok()) return fields.status();
  if (!fields->Given("task")) return std::vector<TaskKind>();
  Result<Workload> w = fields->Bind();
  if (!w.ok()) return w.status();
  return std::vector<TaskKind>{w->task};
}

// --help with the workload options grouped by the tasks they apply to (GroupWorkloadFields),
// and only those of one task with `--help --task T`. The other groups are CLI11's layout.
class WorkloadHelp : public CLI::Formatter {
 public:
  explicit WorkloadHelp(const WorkloadArgs* args) : args_(args) {}

  // CLI::Formatter::make_help with WorkloadGroups for its make_groups (not virtual in CLI11 2.1).
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    return make_description(app) + make_usage(app, std::move(name)) + make_positionals(app) +
           WorkloadGroups(app, mode) + make_subcommands(app, mode) + "\n" + make_footer(app);
  }

 private:
  std::string WorkloadGroups(const CLI::App* app, CLI::AppFormatMode mode) const {
    Result<std::vector<TaskKind>> tasks = HelpTasks(*args_);
    // RunCli prints it and exits 2: the help asked for is not there to show.
    if (!tasks.ok()) throw CLI::ValidationError(CliMessage(tasks.status()));
    std::vector<std::string> sections;
    for (const std::string& group : app->get_groups()) {
      if (group.empty()) continue;
      if (group == kWorkloadGroup) {
        WorkloadSections(app, *tasks, &sections);
        continue;
      }
      std::vector<const CLI::Option*> opts = app->get_options([&](const CLI::Option* opt) {
        return opt->get_group() == group && opt->nonpositional() &&
               (mode != CLI::AppFormatMode::Sub ||
                (app->get_help_ptr() != opt && app->get_help_all_ptr() != opt));
      });
      if (!opts.empty()) sections.push_back(make_group(group, false, opts));
    }
    std::string out;
    for (size_t i = 0; i < sections.size(); ++i) out += (i ? "\n" : "") + sections[i];
    return out;
  }

  void WorkloadSections(const CLI::App* app, const std::vector<TaskKind>& tasks,
                        std::vector<std::string>* sections) const {
    std::string head =
        "Workload (also as keys of a --workload file; `--help --task TASK` lists "
        "only TASK's options)";
    if (!tasks.empty()) {
      std::string names;
      for (TaskKind t : tasks) names += (names.empty() ? "" : ", ") + std::string(TaskKindName(t));
      head = "Workload, only what applies to " + names +
             " (also as keys of a --workload file; --help without --task lists every task's)";
    }
    std::vector<const CLI::Option*> first = {app->get_option_no_throw("--workload")};
    std::vector<std::string> rest;
    for (const WorkloadFieldGroup& g : GroupWorkloadFields(tasks)) {
      std::vector<const CLI::Option*> opts;
      bool every_task = true;
      for (const WorkloadFieldInfo* f : g.fields) {
        every_task = every_task && AppliesToEveryTask(f->name);
        if (const CLI::Option* opt = app->get_option_no_throw("--" + std::string(f->name))) {
          opts.push_back(opt);
        }
      }
      // The fields of every task (--task) go with --workload, under the first heading.
      if (every_task) {
        first.insert(first.end(), opts.begin(), opts.end());
      } else if (!opts.empty()) {
        rest.push_back(make_group("Workload: " + g.title, false, opts));
      }
    }
    sections->push_back(make_group(head, false, first));
    sections->insert(sections->end(), rest.begin(), rest.end());
  }

  const WorkloadArgs* args_;
};

}  // namespace

void AddWorkloadOptions(CLI::App* cmd, WorkloadArgs* o) {
  cmd->add_option("--workload", o->file, "YAML or JSON workload file; - reads stdin")
      ->type_name("FILE")
      ->group(kWorkloadGroup);
  // The fields that span kinds of task say where they apply; the others' headings say it.
  std::vector<std::string> say_where;
  for (const WorkloadFieldGroup& g : GroupWorkloadFields()) {
    for (const WorkloadFieldInfo* f : g.fields) {
      if (g.several_kinds) say_where.emplace_back(f->name);
    }
  }
  for (const std::string& name : WorkloadFieldNames()) {
    const WorkloadFieldInfo* info = FindWorkloadFieldInfo(name);
    std::string help = info ? info->help : name;
    if (info && std::find(say_where.begin(), say_where.end(), name) != say_where.end()) {
      help += " [" + WorkloadFieldScope(*info) + "]";
    }
    std::string* slot = &o->values[name];
    if (info && std::strcmp(info->value, "BOOL") == 0) {
      cmd->add_flag("--" + name, *slot, help)->group(kWorkloadGroup);
    } else {
      cmd->add_option("--" + name, *slot, help)
          ->type_name(info ? info->value : "VALUE")
          ->group(kWorkloadGroup);
    }
  }
  auto help = std::make_shared<WorkloadHelp>(o);
  help->column_width(30);
  cmd->formatter(help);
}

}  // namespace gpuadvisor::cli
