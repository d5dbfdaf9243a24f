#include "workload/confidence.h"

#include <algorithm>
#include <iterator>

#include "util/enum_names.h"
#include "util/text.h"
#include "workload/device.h"
#include "workload/serve_model.h"
#include "workload/task_kinds.h"

namespace gpuadvisor {

template <>
struct EnumNames<Confidence> {
  static constexpr EnumName<Confidence> kTable[] = {
      {Confidence::kLow, "low"}, {Confidence::kMedium, "medium"}, {Confidence::kHigh, "high"}};
};

const char* ConfidenceName(Confidence c) { return NameOf(c); }

namespace workload_internal {
namespace {

// Published measurements the estimator reproduces (tests/workload/fixtures/calibration*.yaml and
// holdout*.yaml hold each of them with its primary source). A grade is high only where the same
// accelerator was measured on the same class of task.
struct Measured {
  const char* model;         // GpuSpec::model
  const char* architecture;  // prefix of GpuSpec::architecture, for siblings
  TaskClass task;
  const char* sources;
};

constexpr Measured kMeasured[] = {
    {"A100-80GB", "Ampere", TaskClass::kLlmTraining,
     "Megatron-LM (Narayanan et al. 2021), MosaicML llm-foundry, BLOOM-176B"},
    {"A100-40GB", "Ampere", TaskClass::kLlmTraining, "MosaicML llm-foundry"},
    {"H100", "Hopper", TaskClass::kLlmTraining,
     "MosaicML llm-foundry, torchtitan, Llama 3 (Meta 2024), MLPerf Training v4.0"},
    {"A100-80GB", "Ampere", TaskClass::kLlmServing, "gpt-fast"},
    {"H100", "Hopper", TaskClass::kLlmServing,
     "TensorRT-LLM performance overview, NVIDIA NIM, MLPerf Inference v4.1"},
    {"H200", "Hopper", TaskClass::kLlmServing, "TensorRT-LLM performance overview"},
    {"A10G", "Ampere", TaskClass::kLlmServing, "Hugging Face SageMaker TGI benchmark (2023)"},
    {"A100-80GB", "Ampere", TaskClass::kVisionTraining, "NVIDIA DeepLearningExamples ResNet-50"},
    {"V100-16GB", "Volta", TaskClass::kVisionTraining, "NVIDIA DeepLearningExamples ResNet-50"},
    {"V100-16GB", "Volta", TaskClass::kVisionInference, "NVIDIA DeepLearningExamples ResNet-50"},
    {"T4", "Turing", TaskClass::kVisionInference, "NVIDIA DeepLearningExamples ResNet-50"},
    {"H100", "Hopper", TaskClass::kVisionInference, "MLPerf Inference v4.0 ResNet-50"},
    {"H100", "Hopper", TaskClass::kVisionTraining, "MLPerf Training v4.0 3D U-Net"},
    {"H100", "Hopper", TaskClass::kHpc, "HPL on one 8x H100 node (Voltage Park 2026)"},
    {"Trainium", "NeuronCore-v2", TaskClass::kLlmTraining,
     "AWS Neuron trn1 training performance tables"},
    {"Inferentia2", "NeuronCore-v2", TaskClass::kLlmServing,
     "AWS Neuron inf2 inference performance tables"},
    {"Inferentia2", "NeuronCore-v2", TaskClass::kVisionInference,
     "AWS Neuron inf2 vision performance tables"},
};

const char* TaskClassText(TaskClass c) {
  switch (c) {
    case TaskClass::kLlmTraining:
      return "LLM training";
    case TaskClass::kLlmServing:
      return "LLM serving";
    case TaskClass::kVisionTraining:
      return "vision training";
    case TaskClass::kVisionInference:
      return "vision inference";
    case TaskClass::kHpc:
      return "HPC";
    case TaskClass::kOther:
      return "this task";
  }
  return "this task";
}

// The workload-side cap and its reason ("" = none): a description the estimator has to guess
// at is no better than medium, whatever the hardware.
const char* WorkloadCap(const Workload& w) {
  const ModelArch& m = w.model;
  if (IsLlmTask(w.task)) {
    if (m.layers == 0 && m.params > 0) return "architecture not given (GPT-like shape assumed)";
    if (IsTrainingTask(w.task) && m.experts > 1) return "MoE training (no expert parallelism)";
    if (w.task == TaskKind::kServe && m.experts > 1 && IsWeightOnly(w.quantization)) {
      return "weight-only quantised MoE kernels are not calibrated";
    }
  }
  if (IsVisionTask(w.task) && w.model_name.empty()) {
    return "custom vision model (kernel mix and activation traffic defaulted)";
  }
  if (IsVisionTask(w.task) && m.family == ModelFamily::kDiffusion) {
    return "diffusion FLOP figures are approximate";
  }
  if (w.task == TaskKind::kHpc && !(w.fp64_flop > 0 || w.fp64_flops_needed > 0)) {
    return "FP32 HPC codes vary widely in efficiency";
  }
  return "";
}

// Whether a figure the task class's model reads is derived (catalogs and specs that list no
// fields count as wholly derived).
bool UsesDerivedFigure(const GpuSpec& gpu, TaskClass task) {
  if (gpu.confidence != "derived") return false;
  if (gpu.derived_fields.empty()) return true;
  const bool vision = task == TaskClass::kVisionTraining || task == TaskClass::kVisionInference;
  for (const std::string& f : gpu.derived_fields) {
    const bool fp64 = f == "fp64_tflops" || f == "fp64_tensor_tflops";
    // SM count and L2 size: the vision model's wave fill and cache reuse read them.
    if (f == "sm_count" || f == "l2_cache_mib") {
      if (vision) return true;
      continue;
    }
    if (task == TaskClass::kHpc ? fp64 || f == "fp32_tflops" : !fp64) return true;
  }
  return false;
}

}  // namespace

TaskClass ClassOfTask(TaskKind t) { return TaskKindDefOf(t).confidence_class; }

ConfidenceGrade GradeConfidence(const Workload& w, const GpuSpec& gpu, bool with_basis) {
  const TaskClass task = ClassOfTask(w.task);
  const Measured* same = nullptr;
  const Measured* sibling = nullptr;
  for (const Measured& m : kMeasured) {
    if (m.task != task) continue;
    if (gpu.model == m.model) same = &m;
    if (!sibling && StartsWith(gpu.architecture, m.architecture)) sibling = &m;
  }
  ConfidenceGrade out;
  out.grade = same ? Confidence::kHigh : sibling ? Confidence::kMedium : Confidence::kLow;
  std::string caps;
  if (UsesDerivedFigure(gpu, task) && out.grade == Confidence::kHigh) {
    out.grade = Confidence::kMedium;
    caps = "; " + gpu.model + "'s peak figures are derived, not published";
  }
  const char* cap = WorkloadCap(w);
  if (*cap && out.grade == Confidence::kHigh) {
    out.grade = Confidence::kMedium;
    caps += std::string("; ") + cap;
  }
  if (task == TaskClass::kOther && out.grade == Confidence::kLow) out.grade = Confidence::kMedium;
  // Weights in a format the part has no kernels for: one grade lower, whatever the rest says.
  if (w.quantization && !WeightFormatGap(gpu, *w.quantization).empty()) {
    out.grade = out.grade == Confidence::kHigh ? Confidence::kMedium : Confidence::kLow;
    caps += std::string("; ") + PrecisionName(*w.quantization) + " weights are not native on " +
            gpu.model;
  }
  if (!with_basis) return out;
  const std::string what = std::string(TaskClassText(task)) + " on " + gpu.model;
  if (same) {
    out.basis = what + " measured (" + same->sources + ")";
  } else if (sibling) {
    out.basis = std::string("no published ") + TaskClassText(task) + " measurement on " +
                gpu.model + "; nearest: " + sibling->model + " (" + sibling->architecture + ", " +
                sibling->sources + ")";
  } else if (task == TaskClass::kOther) {
    out.basis = what + ": capacity from datasheet figures, no published end-to-end measurement";
  } else {
    out.basis = std::string("no published ") + TaskClassText(task) + " measurement on " +
                gpu.architecture + " hardware";
  }
  out.basis += caps;
  return out;
}

void WidenBandForConfidence(Estimate* e) {
  if (!e->uncertainty_low || !e->uncertainty_high || e->band_low >= 1) return;
  // The measured bands (bands.h) pool each kind's figures across the parts measured, so a part
  // whose sibling was measured (kMedium) keeps its kind's band: the figures already include
  // one part predicted from another's efficiency. Nothing comparable measured (kLow): at least
  // -35% / +60%, what the Neuron and Blackwell estimates missed by before issue 15.
  double low = e->band_low, high = e->band_high;
  if (e->confidence == Confidence::kLow) {
    low = std::max(low, 0.35);
    high = std::max(high, 0.60);
  }
  if (low == e->band_low && high == e->band_high) return;
  const double value = *e->uncertainty_low / (1 - e->band_low);
  e->uncertainty_low = value * (1 - low);
  e->uncertainty_high = value * (1 + high);
  e->band_low = low;
  e->band_high = high;
  e->band_coverage.reset();  // wider than the measured band: it holds more, by how much unmeasured
}

}  // namespace workload_internal
}  // namespace gpuadvisor
