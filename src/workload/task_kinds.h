// The task kinds, each declared once (issue 40, item 2): its name, the kind of task it is, how it
// is validated and estimated, all in one entry of kTaskKinds. Nothing else switches on TaskKind
// or loops to its last enumerator: the names (enum_tables.h), TaskKindFamily, IsService,
// TasksForModel, Validate, EstimateWorkload, the confidence grades and the front ends' per-task
// help all read this table, so a kind added to TaskKind is added here and nowhere else.
//
// RegisterTaskKinds checks, while compiling, that the table has one entry per TaskKind in enum
// order and that every entry names its validator and estimator: a kind missing from the table
// (or a table one kind short) does not build. tests/workload/task_kinds_build_test.cc shows it.
#ifndef GPUADVISOR_WORKLOAD_TASK_KINDS_H_
#define GPUADVISOR_WORKLOAD_TASK_KINDS_H_

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "gpuadvisor/result.h"
#include "gpuadvisor/workload.h"
#include "workload/confidence.h"

namespace gpuadvisor::workload_internal {

struct EstimateContext;

// The kinds of task help texts and the model rules group tasks into: the LLM tasks take a
// transformer language model, the vision tasks a model with a per-image forward cost; every
// other task is a kind of its own.
enum class TaskFamily { kLlm, kVision, kOwn };

struct TaskKindDef {
  TaskKind kind = TaskKind::kCount;
  const char* name = nullptr;  // in files and the API: do not rename
  TaskFamily family = TaskFamily::kOwn;
  bool training = false;  // LLM training (pretrain, finetune, lora, qlora): IsTrainingTask
  // A service runs for a time and is judged per hour; a batch job is judged per run (IsService).
  bool (*is_service)(const Workload&) = nullptr;
  bool precision_applies = true;       // Estimate::precision means something (PrecisionApplies)
  bool needs_memory_bandwidth = true;  // the estimator reads the device's memory bandwidth
  TaskClass confidence_class = TaskClass::kOther;  // the measurements it is graded against
  // The task's own checks, after those every task shares (Validate).
  Status (*validate)(const Workload&) = nullptr;
  Status (*estimate)(const EstimateContext&) = nullptr;
};

inline constexpr size_t kTaskKindCount = static_cast<size_t>(TaskKind::kCount);

// The table `defs`, checked: one entry per TaskKind, in enum order, each with a name. Anything
// else is not a constant expression (the throw), and a table of the wrong size fails the
// static_assert: it does not build. Whether each entry names its service rule, validator and
// estimator is TaskKindsTest.EveryEntryNamesItsRulesValidatorAndEstimator's to check: comparing
// a function's address with null is not a constant expression under the sanitizers (GCC).
template <size_t N>
consteval std::array<TaskKindDef, N> RegisterTaskKinds(const TaskKindDef (&defs)[N]) {
  static_assert(N == kTaskKindCount,
                "a task kind is missing from the registry (or one too many): kTaskKinds needs "
                "one entry per TaskKind");
  std::array<TaskKindDef, N> out{};
  for (size_t i = 0; i < N; ++i) {
    const TaskKindDef& d = defs[i];
    if (d.kind != static_cast<TaskKind>(i)) throw "task kind registry: not in TaskKind order";
    if (d.name == nullptr) throw "task kind registry: an entry lacks its name";
    out[i] = d;
  }
  return out;
}

// The validators (validate.cc) and estimators (estimate_*.cc) the table names.
Status ValidateLlmTask(const Workload& w);
Status ValidateVisionTask(const Workload& w);
Status ValidateHpcTask(const Workload& w);
Status ValidateTranscodeTask(const Workload& w);
Status ValidateRenderTask(const Workload& w);
Status ValidateAnalyticsTask(const Workload& w);
Status EstimateTraining(const EstimateContext& ctx);
Status EstimateServing(const EstimateContext& ctx);
Status EstimateVision(const EstimateContext& ctx);
Status EstimateHpc(const EstimateContext& ctx);
Status EstimateTranscode(const EstimateContext& ctx);
Status EstimateRender(const EstimateContext& ctx);
Status EstimateAnalytics(const EstimateContext& ctx);

constexpr bool IsAService(const Workload&) { return true; }
constexpr bool IsABatchJob(const Workload&) { return false; }
// infer-vision: a batch job (--images) or a real-time service (--rps).
constexpr bool ArrivesInRealTime(const Workload& w) { return w.rps > 0; }

// clang-format off
inline constexpr std::array<TaskKindDef, kTaskKindCount> kTaskKinds = RegisterTaskKinds({
    {.kind = TaskKind::kPretrain, .name = "pretrain", .family = TaskFamily::kLlm,
     .training = true, .is_service = IsABatchJob, .confidence_class = TaskClass::kLlmTraining,
     .validate = ValidateLlmTask, .estimate = EstimateTraining},
    {.kind = TaskKind::kFinetune, .name = "finetune", .family = TaskFamily::kLlm,
     .training = true, .is_service = IsABatchJob, .confidence_class = TaskClass::kLlmTraining,
     .validate = ValidateLlmTask, .estimate = EstimateTraining},
    {.kind = TaskKind::kLora, .name = "lora", .family = TaskFamily::kLlm,
     .training = true, .is_service = IsABatchJob, .confidence_class = TaskClass::kLlmTraining,
     .validate = ValidateLlmTask, .estimate = EstimateTraining},
    {.kind = TaskKind::kQlora, .name = "qlora", .family = TaskFamily::kLlm,
     .training = true, .is_service = IsABatchJob, .confidence_class = TaskClass::kLlmTraining,
     .validate = ValidateLlmTask, .estimate = EstimateTraining},
    {.kind = TaskKind::kServe, .name = "serve", .family = TaskFamily::kLlm,
     .is_service = IsAService, .confidence_class = TaskClass::kLlmServing,
     .validate = ValidateLlmTask, .estimate = EstimateServing},
    {.kind = TaskKind::kTrainVision, .name = "train-vision", .family = TaskFamily::kVision,
     .is_service = IsABatchJob, .confidence_class = TaskClass::kVisionTraining,
     .validate = ValidateVisionTask, .estimate = EstimateVision},
    {.kind = TaskKind::kInferVision, .name = "infer-vision", .family = TaskFamily::kVision,
     .is_service = ArrivesInRealTime, .confidence_class = TaskClass::kVisionInference,
     .validate = ValidateVisionTask, .estimate = EstimateVision},
    {.kind = TaskKind::kHpc, .name = "hpc",
     .is_service = IsABatchJob, .confidence_class = TaskClass::kHpc,
     .validate = ValidateHpcTask, .estimate = EstimateHpc},
    {.kind = TaskKind::kTranscode, .name = "transcode",
     .is_service = IsAService, .precision_applies = false, .needs_memory_bandwidth = false,
     .validate = ValidateTranscodeTask, .estimate = EstimateTranscode},
    {.kind = TaskKind::kRender, .name = "render",
     .is_service = IsAService, .precision_applies = false, .needs_memory_bandwidth = false,
     .validate = ValidateRenderTask, .estimate = EstimateRender},
    {.kind = TaskKind::kAnalytics, .name = "analytics",
     .is_service = IsAService, .precision_applies = false,
     .validate = ValidateAnalyticsTask, .estimate = EstimateAnalytics},
});
// clang-format on

// The entry of `t`. REQUIRES: t is a TaskKind enumerator other than kCount.
constexpr const TaskKindDef& TaskKindDefOf(TaskKind t) {
  return kTaskKinds[static_cast<size_t>(t)];
}

// The names of the kinds, in TaskKind order, for EnumNames<TaskKind> (enum_tables.h).
template <typename Name>
constexpr std::array<Name, kTaskKindCount> TaskKindNameTable() {
  std::array<Name, kTaskKindCount> out{};
  for (size_t i = 0; i < kTaskKindCount; ++i) out[i] = {kTaskKinds[i].kind, kTaskKinds[i].name};
  return out;
}

// The task names as --task's help lists them ("pretrain|finetune|...|analytics").
constexpr size_t TaskNamesSize() {
  size_t n = 0;
  for (const TaskKindDef& d : kTaskKinds) n += std::char_traits<char>::length(d.name) + 1;
  return n;  // a '|' after each name but the last, and the terminating '\0'
}
inline constexpr std::array<char, TaskNamesSize()> kTaskNamesText = [] {
  std::array<char, TaskNamesSize()> out{};
  size_t at = 0;
  for (const TaskKindDef& d : kTaskKinds) {
    if (at > 0) out[at++] = '|';
    for (const char* c = d.name; *c != '\0'; ++c) out[at++] = *c;
  }
  return out;
}();
inline constexpr std::string_view kTaskNames(kTaskNamesText.data(), kTaskNamesText.size() - 1);

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_TASK_KINDS_H_
