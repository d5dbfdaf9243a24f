// Vision training/inference, HPC, transcode, render and analytics: roofline and capacity
// models (doc/estimation.md).
#include <algorithm>
#include <cmath>

#include "util/strings.h"
#include "workload/estimate_internal.h"

namespace gpuadvisor::workload_internal {
namespace {

constexpr double kHpcEfficiency = 0.6;        // of the vector FP64/FP32 peak (HPL-class codes)
constexpr double kMultiNodeScaling = 0.9;     // parallel efficiency once the job spans nodes
constexpr double kVisionUnhidden = 0.5;       // share of the smaller roofline term not overlapped
constexpr double kDecodeImagesPerVcpu = 150;  // JPEG decode + resize at 224 px per vCPU (PIL)
constexpr double kNvencFps1080p = 1140;       // per engine: NVIDIA T4 brief, 38 x 1080p30 H.264
constexpr double kScanEfficiency = 0.5;       // cuDF/RAPIDS scans vs peak HBM bandwidth
constexpr double kAnalyticsMemoryFactor = 2;  // working memory / dataset (joins, group-by)

bool ComputeCapable(const GpuSpec& gpu) {
  const DeviceClass c = ClassOf(gpu);
  return c == DeviceClass::kNvidia;
}

Status NeedsCuda(const EstimateContext& ctx, const char* task) {
  if (ComputeCapable(ctx.gpu)) return Status::OK();
  return Status::Unsupported(std::string("task: ") + task + " on " + ctx.gpu.model +
                             " is not modelled (needs an NVIDIA GPU)");
}

double HoursOr1(const Workload& w) { return w.hours > 0 ? w.hours : 1; }

// Tasks without model weights hold data (or frames, or sessions): report it as a working set.
void MoveToWorkingSet(Estimate* e) {
  e->memory.weights_gib.reset();
  e->memory.working_set_gib = e->memory.activations_gib;
  e->memory.activations_gib.reset();
}

// A capacity task (transcode streams, render sessions): `demand` units, `per_gpu` of them per
// device, each holding `bytes_each` of device memory.
struct Capacity {
  const char* unit;
  double demand, per_gpu, bytes_each, overhead_bytes;
  const char* band_metric;
  double band_low, band_high;
};

// Fills the working set, the capacity figure, fits (enough devices) and the run length.
void ReportCapacity(const EstimateContext& ctx, const Capacity& c, std::optional<double>* out) {
  MemoryBytes mem;
  mem.activations = std::ceil(c.demand / ctx.topo.gpus) * c.bytes_each;
  mem.overhead = c.overhead_bytes;
  SetMemory(ctx, mem, false, false);
  MoveToWorkingSet(ctx.out);
  *out = c.per_gpu;
  const double needed = c.per_gpu > 0 ? std::ceil(c.demand / c.per_gpu) : 1e9;
  if (needed > ctx.topo.gpus) {
    ctx.out->memory.fits = false;
    ctx.Warn(Num(c.demand, 0) + " " + c.unit + " need " + Num(needed, 0) + " GPUs at " +
             Num(c.per_gpu, 0) + " " + c.unit + " per GPU");
  }
  ctx.out->hours = HoursOr1(ctx.w);
  ctx.out->gpu_hours = *ctx.out->hours * ctx.topo.gpus;
  SetBand(ctx.out, c.band_metric, c.per_gpu, c.band_low, c.band_high);
}

// Vision: a roofline with partial overlap. Convolutions (compute) and normalisation/activation
// passes (HBM traffic) alternate layer by layer, but cuDNN fuses part of the elementwise work
// into convolution epilogues, so half of the smaller term hides behind the larger one.
double SecondsPerImage(const EstimateContext& ctx, double flop, double bytes, double peak) {
  const GenerationEfficiency& eff = EfficiencyFor(ctx.gpu);
  const double bw = ctx.gpu.memory_bw_gbps.value_or(0) * 1e9 * eff.bandwidth;
  const double compute = flop / (peak * eff.matmul), memory = bw > 0 ? bytes / bw : 0;
  return std::max(compute, memory) + kVisionUnhidden * std::min(compute, memory);
}

}  // namespace

Status EstimateVision(const EstimateContext& ctx) {
  GPUADVISOR_RETURN_IF_ERROR(NeedsCuda(ctx, TaskKindName(ctx.w.task)));
  const Workload& w = ctx.w;
  const ModelArch& m = w.model;
  const bool train = w.task == TaskKind::kTrainVision;
  const Precision precision = w.precision.value_or(Default16Bit(ctx.gpu));
  GPUADVISOR_RETURN_IF_ERROR(CheckPrecisionSupported(ctx.gpu, precision, "precision"));
  ctx.out->precision = precision;
  ctx.out->params_total = ctx.out->params_active = m.params;
  const double res = w.resolution > 0 ? w.resolution : m.resolution_px;
  const double scale = (res / m.resolution_px) * (res / m.resolution_px);
  const bool fp32_acts = precision == Precision::kFp32 || precision == Precision::kTf32;
  double flop = m.fwd_flop_per_image * scale;
  double bytes = m.fwd_bytes_per_image * scale * (fp32_acts ? 2 : 1);  // 4-byte activations
  if (m.family == ModelFamily::kDiffusion && !train) {                 // CFG doubles every step
    const double steps = w.steps > 0 ? w.steps : m.diffusion_steps;
    flop = 2 * steps * flop + m.decoder_flop_per_image * scale;
    bytes = 2 * steps * bytes;
  }
  const double passes = train ? 3 : 1;
  const int batch = w.batch > 0 ? w.batch : (m.family == ModelFamily::kConvNet ? 256 : 64);
  MemoryBytes mem;
  mem.weights = m.params * (train ? 4 : 2);  // AMP keeps fp32 weights
  mem.gradients = train ? m.params * 4 : 0;
  mem.optimizer = train ? m.params * OptimizerBytesPerParam(w.optimizer, Precision::kFp32) : 0;
  const double act_batch = m.family == ModelFamily::kDiffusion ? 1 : batch;
  mem.activations = (train ? 0.4 : 0.1) * m.fwd_bytes_per_image * scale * act_batch;
  mem.overhead = 1.0 * kGiB;
  SetMemory(ctx, mem, train, false);
  if (!train) ctx.out->memory.gradients_gib = ctx.out->memory.optimizer_gib = std::nullopt;
  const std::optional<double> peak = PeakFlops(ctx.gpu, precision);
  const double images = w.images * (train ? w.epochs : 1);
  ctx.out->flops_total = passes * flop * images;
  if (!peak) {
    ctx.Warn("no published " + std::string(PrecisionName(precision)) + " peak for " +
             ctx.gpu.model + ": time is not estimated");
    return Status::OK();
  }
  const double scaling = ctx.topo.nodes > 1 ? kMultiNodeScaling : 1;
  const double per_image = SecondsPerImage(ctx, passes * flop, passes * bytes, *peak);
  double ips = ctx.topo.gpus * scaling / per_image;
  // The host decodes and resizes the images (PyTorch DataLoader + PIL): ~150 images/s per vCPU at
  // 224 px, fewer for larger images. Diffusion generates images, it reads none.
  const InstanceType* inst = ctx.hw.instance;
  if (inst != nullptr && inst->vcpus > 0 && m.family != ModelFamily::kDiffusion) {
    const double decode = kDecodeImagesPerVcpu / std::max(1.0, res * res / (224.0 * 224.0)) *
                          inst->vcpus * ctx.out->instances;
    if (decode < ips) {
      ips = decode;
      ctx.Warn("input pipeline bound: " + std::to_string(inst->vcpus) +
               " vCPUs per instance "
               "decode ~" +
               Num(decode, 0) +
               " images/s; decode on the GPU (NVIDIA DALI) or pick "
               "an instance with more vCPUs");
    }
  }
  ctx.out->performance.images_per_s = ips;
  ctx.out->performance.tflops_per_gpu = passes * flop * ips / ctx.topo.gpus / 1e12;
  ctx.out->performance.mfu = *ctx.out->performance.tflops_per_gpu * 1e12 / *peak;
  const double goodput = w.goodput > 0 ? w.goodput : (train ? 0.95 : 1.0);
  ctx.out->hours = images / ips / goodput / 3600;
  ctx.out->gpu_hours = *ctx.out->hours * ctx.topo.gpus;
  SetBand(ctx.out, "time.hours", *ctx.out->hours, 0.25, 0.35);
  if (ctx.detailed()) {
    ctx.Assume("per image: " + Num(passes * flop / 1e9, 1) + " GFLOP and " +
               Num(passes * bytes / 1e6, 0) + " MB of non-matmul memory traffic at " + Num(res, 0) +
               " px; batch " + std::to_string(batch) + " per GPU");
    if (m.family == ModelFamily::kDiffusion) {
      ctx.Warn("diffusion FLOP per step is approximate (low confidence)");
    }
  }
  return Status::OK();
}

Status EstimateHpc(const EstimateContext& ctx) {
  const Workload& w = ctx.w;
  if (ClassOf(ctx.gpu) != DeviceClass::kNvidia) {
    return Status::Unsupported("task: hpc on " + ctx.gpu.model +
                               " is not modelled (no FP64 support published)");
  }
  const bool fp64 = w.fp64_flop > 0 || w.fp64_flops_needed > 0;
  std::optional<double> tflops = fp64 ? ctx.gpu.fp64_tflops : ctx.gpu.fp32_tflops;
  bool derived = false;
  if (fp64 && !tflops && ctx.gpu.fp32_tflops) {  // consumer-class dies: FP64 at 1/64 of FP32
    tflops = *ctx.gpu.fp32_tflops / (ctx.gpu.architecture == "Turing" ? 32 : 64);
    derived = true;
  }
  if (!tflops) {
    return Status::Unsupported(std::string("task: no published ") + (fp64 ? "FP64" : "FP32") +
                               " rate for " + ctx.gpu.model);
  }
  const double scaling = ctx.topo.nodes > 1 ? kMultiNodeScaling : 1;
  const double rate = ctx.topo.gpus * *tflops * 1e12 * kHpcEfficiency * scaling;
  MemoryBytes mem;
  mem.activations = w.working_set_gib * kGiB / ctx.topo.gpus;
  mem.overhead = 1.0 * kGiB;
  SetMemory(ctx, mem, false, false);
  MoveToWorkingSet(ctx.out);
  ctx.out->precision = fp64 ? Precision::kFp64 : Precision::kFp32;
  ctx.out->performance.sustained_tflops = rate / 1e12;
  ctx.out->performance.tflops_per_gpu = rate / ctx.topo.gpus / 1e12;
  const double flop = fp64 ? w.fp64_flop : w.fp32_flop;
  if (flop > 0) {
    ctx.out->flops_total = flop;
    ctx.out->hours = flop / rate / 3600;
  } else {
    const double needed = fp64 ? w.fp64_flops_needed : w.fp32_flops_needed;
    const double hours = w.runtime_target_s > 0 ? w.runtime_target_s / 3600 : HoursOr1(w);
    ctx.out->hours = hours;
    ctx.out->flops_total = needed * hours * 3600;
    if (needed > rate) {
      ctx.out->memory.fits = false;
      ctx.Warn("needs " + Num(needed / 1e12, 1) + " TFLOP/s sustained; these GPUs give " +
               Num(rate / 1e12, 1));
    }
  }
  ctx.out->gpu_hours = *ctx.out->hours * ctx.topo.gpus;
  SetBand(ctx.out, "time.hours", *ctx.out->hours, 0.3, 0.6);
  if (ctx.detailed()) {
    ctx.Assume(std::string(fp64 ? "FP64" : "FP32") + " vector peak " + Num(*tflops, 2) +
               " TFLOP/s per GPU at " + Num(kHpcEfficiency) + " efficiency" +
               (derived ? " (FP64 derived as 1/64 of FP32: weak FP64 part, low confidence)" : ""));
  }
  return Status::OK();
}

Status EstimateTranscode(const EstimateContext& ctx) {
  const Workload& w = ctx.w;
  const GpuSpec& g = ctx.gpu;
  if (ClassOf(g) != DeviceClass::kNvidia) {
    return Status::Unsupported("task: transcode on " + g.model + " is not modelled (NVENC only)");
  }
  if (!g.nvenc) {
    return Status::Unsupported("task: NVENC engine count of " + g.model + " is not verified");
  }
  if (*g.nvenc == 0) {
    return Status::Unsupported("task: " + g.model +
                               " has no NVENC video encoder; use G-family "
                               "GPUs (T4, A10G, L4, L40S)");
  }
  const bool av1_capable =
      StartsWith(g.architecture, "Ada") || StartsWith(g.architecture, "Blackwell");
  if (w.codec == Codec::kAv1 && !av1_capable) {
    return Status::Unsupported("codec: " + g.model + " (" + g.architecture +
                               ") has no AV1 encoder (Ada and newer)");
  }
  const double codec_factor = w.codec == Codec::kH264 ? 1.0 : 0.9;
  const double pixel_ratio =
      (1080.0 / w.stream_resolution_lines) * (1080.0 / w.stream_resolution_lines);
  const double per_gpu = std::floor(*g.nvenc * kNvencFps1080p * codec_factor * pixel_ratio / w.fps);
  const Capacity c{"streams",  double(w.streams),
                   per_gpu,    0.3 * kGiB / pixel_ratio,
                   0.5 * kGiB, "performance.streams_per_gpu",
                   0.3,        0.3};  // frame surfaces per stream
  ReportCapacity(ctx, c, &ctx.out->performance.streams_per_gpu);
  if (ctx.detailed()) {
    ctx.Assume(std::to_string(*g.nvenc) + " NVENC engine(s), " + Num(kNvencFps1080p, 0) +
               " fps of 1080p H.264 each (low-latency preset), scaled by pixel count");
  }
  return Status::OK();
}

Status EstimateRender(const EstimateContext& ctx) {
  GPUADVISOR_RETURN_IF_ERROR(NeedsCuda(ctx, "render"));
  const Workload& w = ctx.w;
  const double session_gib = w.session_gib > 0 ? w.session_gib : 4;
  const double device_gib = DeviceMemoryBytes(ctx.gpu) / kGiB;
  const double per_gpu = std::floor((device_gib - 1) / session_gib);
  const Capacity c{"sessions", double(w.sessions),
                   per_gpu,    session_gib * kGiB,
                   1.0 * kGiB, "performance.sessions_per_gpu",
                   0.25,       0.1};
  ReportCapacity(ctx, c, &ctx.out->performance.sessions_per_gpu);
  if (ctx.detailed()) {
    ctx.Assume(Num(session_gib, 1) + " GiB of GPU memory per session (--session-gib)");
    if (ctx.gpu.nvenc && *ctx.gpu.nvenc == 0) {
      ctx.Warn(ctx.gpu.model +
               " is a compute GPU without display engines or NVENC; virtual "
               "workstations belong on G-family instances");
    }
  }
  return Status::OK();
}

Status EstimateAnalytics(const EstimateContext& ctx) {
  GPUADVISOR_RETURN_IF_ERROR(NeedsCuda(ctx, "analytics"));
  const Workload& w = ctx.w;
  MemoryBytes mem;
  mem.activations = w.dataset_gib * kAnalyticsMemoryFactor * kGiB / ctx.topo.gpus;
  mem.overhead = 1.0 * kGiB;
  SetMemory(ctx, mem, false, false);
  MoveToWorkingSet(ctx.out);
  const double bw = ctx.gpu.memory_bw_gbps.value_or(0) * 1e9 * kScanEfficiency * ctx.topo.gpus;
  if (bw > 0) ctx.out->performance.scan_time_s = w.dataset_gib * kGiB / bw;
  ctx.out->hours = HoursOr1(w);
  ctx.out->gpu_hours = *ctx.out->hours * ctx.topo.gpus;
  if (ctx.out->performance.scan_time_s) {
    SetBand(ctx.out, "performance.scan_time_s", *ctx.out->performance.scan_time_s, 0.5, 1.0);
    const double scans = w.scans_per_hour > 0 ? w.scans_per_hour : 1;
    if (scans * *ctx.out->performance.scan_time_s > 3600) {
      ctx.Warn("the wanted scans per hour exceed the aggregate memory bandwidth");
    }
  }
  if (ctx.detailed()) {
    ctx.Assume(
        "GPU dataframes need about 2x the dataset in GPU memory; scans at 50% of HBM "
        "bandwidth");
  }
  return Status::OK();
}

}  // namespace gpuadvisor::workload_internal
