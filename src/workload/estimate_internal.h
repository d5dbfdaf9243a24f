// Shared state of one EstimateWorkload() call and the per-task estimators it dispatches to.
#ifndef GPUADVISOR_WORKLOAD_ESTIMATE_INTERNAL_H_
#define GPUADVISOR_WORKLOAD_ESTIMATE_INTERNAL_H_

#include <functional>
#include <string>

#include "gpuadvisor/estimate.h"
#include "workload/device.h"
#include "workload/task_kinds.h"
#include "workload/train_model.h"

namespace gpuadvisor::workload_internal {

struct EstimateContext {
  const Workload& w;
  const Hardware& hw;
  const GpuSpec& gpu;
  const ParallelismRequest& req;  // workload parallelism merged with the caller's request
  Topology topo;
  EstimateMode mode;
  Estimate* out;

  bool detailed() const { return mode == EstimateMode::kDetailed; }
  // Appends an assumption (no-op in kFast mode; build the text only when detailed()).
  void Assume(std::string text) const {
    if (detailed()) out->assumptions.push_back(std::move(text));
  }
  void Warn(std::string text) const {
    if (detailed()) out->assumptions.push_back("warning: " + std::move(text));
  }
};

// Real-time vision inference (vision_realtime.cc): `rate` images/s over `devices`, each with a
// dynamic batcher of at most `max_batch`, a p95 latency target (0 = none).
struct RealTimeLoad {
  double rate = 0;
  int devices = 1, max_batch = 1;
  double p95_target_s = 0;
};
struct RealTimeServing {
  double batch = 1;                // batch the batcher settles at
  double utilisation = 0;          // busy share of a device (> 1: the rate outruns it)
  double mean_s = 0, p95_s = 0;    // image latency: waiting for the batch in flight + its own
  double capacity_per_device = 0;  // images/s one device holds within the target (0: none)
  int devices_needed = 0;          // devices that hold `rate` within the target (0: none do)
  bool saturated = false, meets_target = false;
};
RealTimeServing ServeRealTime(const RealTimeLoad& load,
                              const std::function<double(double)>& batch_seconds);

// The per-task estimators (EstimateTraining, ...) are declared with the task kind registry.

// Copies per-device bytes into out->memory (GiB) and sets fits against the device.
void SetMemory(const EstimateContext& ctx, const MemoryBytes& m, bool training, bool serving);
// Sets the uncertainty band on `metric` = value x [1 - low, 1 + high].
void SetBand(Estimate* e, const char* metric, double value, double low, double high);
// Sets the measured band of the estimate's kind (bands.h) on `metric`; `extrapolated` (an
// efficiency no measurement backs: a generation without calibrated figures, a network described
// only by its counts) widens it to at least -35% / +60%, the floor of a low-confidence grade.
void SetMeasuredBand(const EstimateContext& ctx, const char* metric, double value,
                     bool extrapolated);
// "12.3" style number for assumption texts.
std::string Num(double v, int decimals = 2);

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_ESTIMATE_INTERNAL_H_
