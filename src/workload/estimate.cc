// EstimateWorkload: merges the parallelism request, dispatches on the task, then adds cost.
#include "gpuadvisor/estimate.h"

#include <algorithm>
#include <cmath>

#include "util/text.h"
#include "workload/bands.h"
#include "workload/confidence.h"
#include "workload/estimate_internal.h"
#include "workload/neuron.h"
#include "workload/serve_model.h"

namespace gpuadvisor {

using namespace workload_internal;  // NOLINT

namespace workload_internal {

std::string Num(double v, int decimals) { return FormatFixed(v, decimals); }

void SetBand(Estimate* e, const char* metric, double value, double low, double high) {
  e->uncertainty_metric = metric;
  e->uncertainty_low = value * (1 - low);
  e->uncertainty_high = value * (1 + high);
  e->band_low = low;
  e->band_high = high;
  e->band_coverage.reset();
}

void SetMeasuredBand(const EstimateContext& ctx, const char* metric, double value,
                     bool extrapolated) {
  const std::optional<BandKind> kind = BandKindOf(ctx.w, *ctx.hw.gpu);
  MeasuredBand b = kind ? MeasuredBandOf(*kind) : MeasuredBand{0.35, 0.6, 0};
  if (extrapolated) {
    b.low = std::max(b.low, 0.35);
    b.high = std::max(b.high, 0.6);
  }
  SetBand(ctx.out, metric, value, b.low, b.high);
  if (kind && !extrapolated) ctx.out->band_coverage = kBandCoverage;
}

void SetMemory(const EstimateContext& ctx, const MemoryBytes& m, bool training, bool serving) {
  MemoryEstimate& out = ctx.out->memory;
  out.weights_gib = m.weights / kGiB;
  out.gradients_gib = training ? std::optional<double>(m.gradients / kGiB) : std::nullopt;
  out.optimizer_gib = training ? std::optional<double>(m.optimizer / kGiB) : std::nullopt;
  out.activations_gib = m.activations / kGiB;
  out.kv_cache_gib = serving ? std::optional<double>(m.kv_cache / kGiB) : std::nullopt;
  out.overhead_gib = m.overhead / kGiB;
  out.total_gib = m.Total() / kGiB;
  if (m.allocator_split) {
    out.allocated_gib = m.Allocated() / kGiB;
    out.reserved_gib = m.Reserved() / kGiB;
  }
  out.device_gib = DeviceMemoryBytes(ctx.gpu) / kGiB;
  out.fits = out.total_gib <= out.device_gib;
  if (!out.fits) {
    ctx.Warn("does not fit: needs " + Num(out.total_gib, 1) + " GiB per device, " + ctx.gpu.model +
             " has " + Num(out.device_gib, 1) +
             " GiB usable; performance shown as if memory allowed it");
  }
}

}  // namespace workload_internal

namespace {

template <typename T>
void Override(std::optional<T>* dst, const std::optional<T>& src) {
  if (src) *dst = src;
}

ParallelismRequest Merge(const ParallelismRequest& base, const ParallelismRequest& over) {
  ParallelismRequest r = base;
  Override(&r.tp, over.tp);
  Override(&r.pp, over.pp);
  Override(&r.dp, over.dp);
  Override(&r.context_parallel, over.context_parallel);
  Override(&r.virtual_pp, over.virtual_pp);
  Override(&r.zero, over.zero);
  Override(&r.micro_batch, over.micro_batch);
  Override(&r.sequence_parallel, over.sequence_parallel);
  Override(&r.recompute, over.recompute);
  Override(&r.offload, over.offload);
  return r;
}

// A device without a usable memory size, or without a memory bandwidth where the task's time
// depends on it (everything but video encoding), never yields a number.
Status CheckDeviceFigures(const EstimateContext& ctx) {
  const GpuSpec& g = ctx.gpu;
  if (!(DeviceMemoryBytes(g) > 0)) {
    return Status::Unsupported("gpu: no published memory size for " + g.model +
                               ": nothing can be estimated on it")
        .WithField("gpu");
  }
  if (TaskKindDefOf(ctx.w.task).needs_memory_bandwidth && !(g.memory_bw_gbyte_s.value_or(0) > 0)) {
    return Status::Unsupported("gpu: no published memory bandwidth for " + g.model + ": task " +
                               TaskKindName(ctx.w.task) + " cannot be estimated on it")
        .WithField("gpu");
  }
  return Status::OK();
}

Status Dispatch(const EstimateContext& ctx) {
  if (static_cast<size_t>(ctx.w.task) >= kTaskKindCount) {
    return Status::InvalidArgument("task: unknown").WithField("task");
  }
  GPUADVISOR_RETURN_IF_ERROR(CheckDeviceFigures(ctx));
  return TaskKindDefOf(ctx.w.task).estimate(ctx);
}

int InstancesFor(const Hardware& hw) {
  if (hw.instance == nullptr) return 0;
  if (hw.instances > 0) return hw.instances;
  const int per = hw.instance->accelerator.devices();
  return (hw.gpus + per - 1) / per;
}

void AddCost(const Hardware& hw, Estimate* e) {
  if (hw.offer == nullptr || e->instances <= 0) return;
  const double hours = e->hours.value_or(0);
  const double n = e->instances;
  CostEstimate& c = e->cost;
  c.region = hw.offer->region;
  if (hw.offer->on_demand) c.on_demand_from = hw.offer->on_demand->from;
  if (hw.offer->spot) {
    c.spot_from = hw.offer->spot->from;
    c.spot_estimated = hw.offer->spot->estimated;
  }
  if (hw.offer->reserved_1y_no_upfront) c.reserved_1y_from = hw.offer->reserved_1y_no_upfront->from;
  if (hw.offer->spot_band) c.spot_interruption_band = hw.offer->spot_band->label;
  auto set = [&](const std::optional<Price>& p, std::optional<double>* total,
                 std::optional<double>* rate) {
    if (!p) return;
    *rate = p->usd_per_hour * n;
    if (e->hours) *total = p->usd_per_hour * n * hours;
  };
  set(hw.offer->on_demand, &c.on_demand_usd, &c.on_demand_usd_per_hour);
  set(hw.offer->spot, &c.spot_usd, &c.spot_usd_per_hour);
  set(hw.offer->reserved_1y_no_upfront, &c.reserved_1y_usd, &c.reserved_1y_usd_per_hour);
}

// A fractional GPU (g6f: 1/8 of an L4) is modelled as a smaller device: the partition's memory
// as AWS reports it, and the compute, bandwidth and media engines scaled by the partition size.
// Whole devices use the datasheet except for memory, where the instance's AWS figure wins.
std::optional<GpuSpec> InstanceDevice(const Hardware& hw) {
  if (hw.instance == nullptr) return std::nullopt;
  const Accelerator& a = hw.instance->accelerator;
  const bool memory_differs = a.memory_mib_each && *a.memory_mib_each > 0 &&
                              *a.memory_mib_each != hw.gpu->aws_memory_mib.value_or(0);
  if (!a.fractional() && !memory_differs) return std::nullopt;
  GpuSpec g = *hw.gpu;
  if (memory_differs) g.aws_memory_mib = a.memory_mib_each;
  if (a.fractional()) {
    const double f = a.partition_size;
    for (std::optional<double>* v :
         {&g.memory_bw_gbyte_s, &g.fp64_tflops, &g.fp32_tflops, &g.tf32_tflops, &g.bf16_tflops,
          &g.fp16_tflops, &g.fp8_tflops, &g.int8_tops}) {
      if (*v) **v *= f;
    }
    if (g.nvenc) g.nvenc = static_cast<int>(std::floor(*g.nvenc * f));
    g.nvlink_gbyte_s.reset();
    g.model += " (" + FormatFixed(f, 3) + " partition)";
  }
  return g;
}

void AssumeTopology(const EstimateContext& ctx) {
  const Topology& t = ctx.topo;
  if (t.node_assumed) {
    ctx.Assume(std::to_string(t.gpus_per_node) +
               " devices per node assumed (no instance type given)");
  }
  const InstanceType* node = ctx.hw.instance == nullptr ? ctx.hw.assumed_node : nullptr;
  if (node != nullptr && t.gpus > 1) {
    ctx.Assume("node of " + node->name + " assumed (the largest AWS instance with " +
               ctx.gpu.model + "; --instance to choose): " + std::to_string(t.gpus_per_node) +
               " devices, " + Num(t.node_network_gbit_s, 0) + " Gbps network per node");
  }
  if (t.network_assumed) {
    ctx.Assume("inter-node network " + Num(t.node_network_gbit_s, 0) +
               " Gbps per node assumed (no instance type given)");
  }
  if (t.gpus > 1) {
    ctx.Assume(t.LinkName() + " inside a node (" + Num(t.intra_bps / 1e9, 0) +
               " GB/s effective per device)");
  }
  if (IsNeuronDevice(ctx.gpu) && t.gpus > 1 && ctx.out->parallelism_applies) {
    const int cores = NeuronLogicalCoresPerChip(ctx.gpu);
    ctx.Assume("device = " + ctx.gpu.model + " chip (" + std::to_string(cores) +
               " NeuronCores as frameworks count them): TP " +
               std::to_string(ctx.out->parallelism.tp) +
               " chips = " + std::to_string(ctx.out->parallelism.tp * cores) + " NeuronCores");
  }
}

}  // namespace

bool PrecisionApplies(TaskKind t) { return TaskKindDefOf(t).precision_applies; }

double MemoryLowerBoundGib(const Workload& w, int devices) {
  if (!IsLlmTask(w.task) || devices < 1) return 0;
  const double params = ComputeModelParams(w.model).total;
  double bytes_per_param = 0;
  switch (w.task) {
    case TaskKind::kServe:
      return ServedWeightBytes(MakeShape(w.model), w.quantization) / devices / kGiB;
    case TaskKind::kQlora:
      bytes_per_param = 0.5;
      break;
    case TaskKind::kLora:  // the frozen base in 16-bit, or FP8 when training in FP8
      bytes_per_param = w.precision && *w.precision == Precision::kFp8 ? 1 : 2;
      break;
    default: {
      const bool fp32 =
          w.precision && (*w.precision == Precision::kFp32 || *w.precision == Precision::kTf32);
      const bool offload = w.parallelism.offload && *w.parallelism.offload != Offload::kNone;
      const bool pure16 = !fp32 && w.framework && TraitsOf(*w.framework).pure_16bit;
      const double states =
          pure16 ? Pure16BitOptimizerBytesPerParam(w.optimizer)
                 : OptimizerBytesPerParam(w.optimizer, w.precision.value_or(Precision::kBf16));
      bytes_per_param = (fp32 ? 8 : 4) + (offload ? 0 : states);
    }
  }
  return params * bytes_per_param / devices / kGiB;
}

Result<Estimate> EstimateWorkload(const Workload& w, const Hardware& hw,
                                  const ParallelismRequest& request, EstimateMode mode) {
  if (hw.gpu == nullptr) return Status::InvalidArgument("gpu: no GPU given").WithField("gpu");
  if (hw.gpus < 1 || hw.gpus > kMaxDevices) {
    return Status::InvalidArgument("gpus: expected 1 to " + std::to_string(kMaxDevices))
        .WithField("gpus");
  }
  const std::optional<GpuSpec> scaled = InstanceDevice(hw);
  const GpuSpec& gpu = scaled ? *scaled : *hw.gpu;
  Estimate e;
  e.task = w.task;
  e.service = IsService(w);
  if (mode == EstimateMode::kDetailed) e.model_name = w.model_name;  // no copy on the hot path
  e.gpu_model = hw.gpu->model;
  if (hw.instance != nullptr && hw.instance->accelerator.fractional()) {
    e.device_fraction = hw.instance->accelerator.partition_size;
  }
  e.gpus = hw.gpus;
  e.instance_type = hw.instance ? hw.instance->name : "";
  e.instances = InstancesFor(hw);
  const ParallelismRequest merged = Merge(w.parallelism, request);
  EstimateContext ctx{w, hw, gpu, merged, MakeTopology(hw), mode, &e};
  e.gpus_per_node = ctx.topo.gpus_per_node;
  GPUADVISOR_RETURN_IF_ERROR(Dispatch(ctx));
  if (e.memory.total_gib > 0 && BandKindOf(w, *hw.gpu)) {
    const MeasuredBand& m = MeasuredBandOf(BandKind::kMemory);
    e.memory.band_low = m.low;
    e.memory.band_high = m.high;
  }
  const std::optional<double> limit = WorkloadDeadlineHours(w);
  if (ctx.detailed() && limit && e.hours && *e.hours > *limit) {
    ctx.Warn("takes " + Num(*e.hours, 1) + " h, past the workload's runtime limit of " +
             Num(*limit, 1) + " h: give it more devices (recommend ranks only plans within it)");
  }
  const ConfidenceGrade grade = GradeConfidence(w, *hw.gpu, ctx.detailed());
  e.confidence = grade.grade;
  e.confidence_basis = grade.basis;
  WidenBandForConfidence(&e);
  AddCost(hw, &e);
  if (ctx.detailed()) {  // how the model was resolved (Hugging Face id, config.json keys)
    e.assumptions.insert(e.assumptions.begin(), w.model_notes.begin(), w.model_notes.end());
  }
  if (ctx.detailed()) AssumeTopology(ctx);
  if (ctx.detailed() && w.quantization) {
    const std::string gap = WeightFormatGap(*hw.gpu, *w.quantization);
    if (!gap.empty()) e.assumptions.push_back("warning: " + gap);
  }
  return e;
}

}  // namespace gpuadvisor
