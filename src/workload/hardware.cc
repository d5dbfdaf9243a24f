// ResolveHardware: from the names a user gives (--instance / --gpu) to catalog records.
#include <algorithm>
#include <string>
#include <utility>

#include "gpuadvisor/estimate.h"
#include "gpuadvisor/query.h"

namespace gpuadvisor {
namespace {

constexpr int kMaxInstances = 100000;

Status CheckModelled(const InstanceType& t, const GpuSpec* g) {
  const Accelerator& a = t.accelerator;
  if (g == nullptr || a.kind == AcceleratorKind::kFpga || a.kind == AcceleratorKind::kMedia) {
    return Status::Unsupported("instance: " + t.name + " carries " + a.vendor + " " + a.model +
                               " (" + AcceleratorKindName(a.kind) +
                               "), which the estimator does not model")
        .WithField("instance");
  }
  return Status::OK();
}

Result<Hardware> FromInstance(const Catalog& c, const HardwareRequest& r) {
  Result<const InstanceType*> t = ResolveInstanceType(c, r.instance_type);
  if (!t.ok()) return t.status().WithPrefix("instance").WithField("instance");
  const GpuSpec* g = c.GpuOf(**t);
  GPUADVISOR_RETURN_IF_ERROR(CheckModelled(**t, g));
  if (!r.gpu.empty() && c.FindGpu(r.gpu) != g) {
    return Status::InvalidArgument("gpu: " + r.gpu + " does not match " + (*t)->name +
                                   ", which carries " + g->model)
        .WithField("gpu");
  }
  const int per = (*t)->accelerator.devices();
  Hardware hw;
  hw.gpu = g;
  hw.instance = *t;
  if (r.gpus > 0 && r.gpus % per != 0) {
    return Status::InvalidArgument("gpus: " + std::to_string(r.gpus) + " is not a multiple of " +
                                   std::to_string(per) + " devices per " + (*t)->name)
        .WithField("gpus");
  }
  hw.instances = r.instances > 0 ? r.instances : (r.gpus > 0 ? r.gpus / per : 1);
  if (r.instances > 0 && r.gpus > 0 && r.gpus != r.instances * per) {
    return Status::InvalidArgument("gpus: " + std::to_string(r.gpus) + " contradicts --count " +
                                   std::to_string(r.instances) + " x " + std::to_string(per))
        .WithField("gpus");
  }
  hw.gpus = hw.instances * per;
  hw.offer = (*t)->FindRegion(r.region);
  return hw;
}

// The current instance type with the most whole devices of `gpu` (ties: the faster network):
// the node a bare "--gpu H100 --gpus 768" most likely runs on (p5.48xlarge, 3,200 Gbps EFA).
const InstanceType* LargestNodeOf(const Catalog& c, const GpuSpec& gpu) {
  const InstanceType* best = nullptr;
  for (const InstanceType& t : c.instance_types()) {
    if (t.retired || t.accelerator.fractional() || c.GpuOf(t) != &gpu) continue;
    const auto key = [](const InstanceType& x) {
      return std::pair(x.accelerator.devices(), x.network_gbit_s.value_or(0));
    };
    if (best == nullptr || key(t) > key(*best)) best = &t;
  }
  return best;
}

}  // namespace

Result<Hardware> ResolveHardware(const Catalog& c, const HardwareRequest& r) {
  // Bounds well beyond the largest clusters keep instance x device products inside int.
  if (r.instances < 0 || r.instances > kMaxInstances) {
    return Status::InvalidArgument("count: expected 1 to " + std::to_string(kMaxInstances))
        .WithField("count");
  }
  if (r.gpus < 0 || r.gpus > kMaxDevices) {
    return Status::InvalidArgument("gpus: expected 1 to " + std::to_string(kMaxDevices))
        .WithField("gpus");
  }
  GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, r.region, "region"));
  if (!r.instance_type.empty()) return FromInstance(c, r);
  if (r.gpu.empty()) {
    return Status::InvalidArgument(
               "hardware: give --instance TYPE [--count N] or --gpu NAME [--gpus N]")
        .WithField("hardware");
  }
  if (r.instances > 0)
    return Status::InvalidArgument("count: needs --instance TYPE").WithField("count");
  Result<const GpuSpec*> g = ResolveGpu(c, r.gpu);
  if (!g.ok()) return g.status().WithPrefix("gpu").WithField("gpu");
  Hardware hw;
  hw.gpu = *g;
  hw.gpus = r.gpus > 0 ? r.gpus : 1;
  hw.assumed_node = LargestNodeOf(c, **g);
  return hw;
}

}  // namespace gpuadvisor
