#include "workload/bands.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "workload/neuron.h"
#include "workload/task_kinds.h"

namespace gpuadvisor::workload_internal {

namespace {

struct BandRow {
  BandKind kind;
  MeasuredBand band;
};
constexpr BandRow kBandTable[] = {
#include "workload/band_table.inc"
};
static_assert(std::size(kBandTable) == kBandKindCount, "band_table.inc: one row per BandKind");
constexpr bool RowsInKindOrder() {
  for (int i = 0; i < kBandKindCount; ++i) {
    if (static_cast<int>(kBandTable[i].kind) != i) return false;
  }
  return true;
}
static_assert(RowsInKindOrder(), "band_table.inc: rows in BandKind order");

}  // namespace

const char* BandKindName(BandKind k) {
  switch (k) {
    case BandKind::kGpuLlmTraining:
      return "gpu-llm-training";
    case BandKind::kGpuLlmServing:
      return "gpu-llm-serving";
    case BandKind::kNeuronTraining:
      return "neuron-training";
    case BandKind::kNeuronServing:
      return "neuron-serving";
    case BandKind::kVision:
      return "vision";
    case BandKind::kHpc:
      return "hpc";
    case BandKind::kMemory:
      return "memory";
    case BandKind::kDiffusion:
      return "diffusion";
  }
  return "?";
}

std::optional<BandKind> BandKindOf(const Workload& w, const GpuSpec& gpu) {
  const TaskClass task = TaskKindDefOf(w.task).confidence_class;
  const bool vision = task == TaskClass::kVisionTraining || task == TaskClass::kVisionInference;
  if (vision && w.model.family == ModelFamily::kDiffusion) return BandKind::kDiffusion;
  const bool neuron = IsNeuronDevice(gpu);
  switch (task) {
    case TaskClass::kLlmTraining:
      return neuron ? BandKind::kNeuronTraining : BandKind::kGpuLlmTraining;
    case TaskClass::kLlmServing:
      return neuron ? BandKind::kNeuronServing : BandKind::kGpuLlmServing;
    case TaskClass::kVisionTraining:
      return neuron ? BandKind::kNeuronTraining : BandKind::kVision;
    case TaskClass::kVisionInference:
      return neuron ? BandKind::kNeuronServing : BandKind::kVision;
    case TaskClass::kHpc:
      return BandKind::kHpc;
    case TaskClass::kOther:
      break;
  }
  return std::nullopt;
}

const MeasuredBand& MeasuredBandOf(BandKind kind) {
  return kBandTable[static_cast<int>(kind)].band;
}

MeasuredBand DeriveBand(std::span<const double> log_ratios, double coverage) {
  MeasuredBand out;
  const int n = static_cast<int>(log_ratios.size());
  if (n < 2) return out;
  std::vector<double> r(log_ratios.begin(), log_ratios.end());
  std::sort(r.begin(), r.end());
  // A new figure exchangeable with the n lies between the i-th and j-th of them with
  // probability (j - i) / (n + 1): a band that holds `coverage` of new figures spans
  // coverage (n + 1) + 1 of the n (all of them below 9 figures for 80 %). round(coverage n),
  // the share of the n themselves, held 68 % of the holdout left out one at a time.
  const int inside = std::clamp(static_cast<int>(std::ceil(coverage * (n + 1) - 1e-9)) + 1, 1, n);
  const int excluded = n - inside;
  int below = excluded / 2;
  // The odd excluded figure comes from the tail farther from the estimate.
  if (excluded % 2 == 1 && std::abs(r[below]) > std::abs(r[n - 1 - excluded / 2])) ++below;
  const int above = excluded - below;
  const int first = below, last = n - 1 - above;  // the figures inside: r[first..last]
  const double lo = first > 0 ? (r[first - 1] + r[first]) / 2 : r[first];
  const double hi = last < n - 1 ? (r[last] + r[last + 1]) / 2 : r[last];
  out.low = 1 - std::exp(std::min(lo, 0.0));
  out.high = std::exp(std::max(hi, 0.0)) - 1;
  out.cases = n;
  return out;
}

}  // namespace gpuadvisor::workload_internal
