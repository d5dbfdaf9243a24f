// Confidence grades: how close an estimate's hardware and workload are to published
// measurements (doc/estimation.md, "Confidence").
#ifndef GPUADVISOR_WORKLOAD_CONFIDENCE_H_
#define GPUADVISOR_WORKLOAD_CONFIDENCE_H_

#include <string>

#include "gpuadvisor/estimate.h"

namespace gpuadvisor::workload_internal {

// The classes of task published measurements are grouped by.
enum class TaskClass { kLlmTraining, kLlmServing, kVisionTraining, kVisionInference, kHpc, kOther };
TaskClass ClassOfTask(TaskKind t);

struct ConfidenceGrade {
  Confidence grade = Confidence::kLow;
  std::string basis;  // filled only when asked for (detailed estimates)
};

// Grades an estimate of `w` on `gpu` (the catalog's spec, not a fractional partition).
ConfidenceGrade GradeConfidence(const Workload& w, const GpuSpec& gpu, bool with_basis);

// Widens e's uncertainty band to at least the floor of its grade (a lower grade never gets a
// narrower band than the calibrated one).
void WidenBandForConfidence(Estimate* e);

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_CONFIDENCE_H_
