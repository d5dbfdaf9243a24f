// HPC, transcode, render and analytics: peak-rate and capacity models (doc/estimation.md).
// Vision lives in estimate_vision.cc.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "util/text.h"
#include "workload/estimate_internal.h"

namespace gpuadvisor::workload_internal {
namespace {

constexpr double kHpcEfficiency = 0.6;        // general codes: of the vector FP64/FP32 peak
constexpr double kMultiNodeScaling = 0.9;     // parallel efficiency once the job spans nodes
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
                             " is not modelled (needs an NVIDIA GPU)")
      .WithField("task");
}

double HoursOr1(const Workload& w) { return w.hours > 0 ? w.hours : 1; }

// Dense linear algebra (HPL-like): Rmax / Rpeak of tensor-core systems on the TOP500, median per
// GPU generation. Whole-system runs, so they already include the scale-out loss.
//   Hopper:  Eos (DGX H100, Nov 2023) 121.40 / 188.65 = 0.644; Eagle (Azure NDv5 H100, Nov 2023)
//            561.20 / 846.84 = 0.663; Alps (GH200, Jun 2024) 270.00 / 353.75 = 0.763
//   Ampere:  Selene (DGX A100, Nov 2020) 63.46 / 79.22 = 0.801; Perlmutter (Nov 2022)
//            70.87 / 93.75 = 0.756; Leonardo (Nov 2023) 238.70 / 304.47 = 0.784
//   Volta (vector FP64): Summit 148.6 / 200.79 = 0.740; Sierra 94.64 / 125.71 = 0.753
struct HplEfficiency {
  const char* generation;
  double efficiency;
};
constexpr HplEfficiency kHplEfficiency[] = {{"Hopper", 0.663}, {"Ampere", 0.784}, {"Volta", 0.747}};
constexpr double kHplEfficiencyOther = 0.7;  // generations without a TOP500 entry (low confidence)

// {efficiency, published}: the TOP500 median of the device's generation, or the default.
std::pair<double, bool> HplEfficiencyFor(const GpuSpec& gpu) {
  const std::string gen = EfficiencyFor(gpu).name;
  for (const HplEfficiency& h : kHplEfficiency) {
    if (gen == h.generation) return {h.efficiency, true};
  }
  return {kHplEfficiencyOther, false};
}

// The FP64/FP32 rate an HPC job sustains on the whole allocation, with what it assumed.
struct HpcRate {
  double per_gpu_tflops = 0;  // the peak used
  double efficiency = 0;
  double flops = 0;  // sustained FLOP/s, all devices
  std::string basis;
  bool weak_fp64 = false;  // FP64 well below 1/8 of FP32 (consumer-class die)
};

// Sustained share of peak device-memory bandwidth: STREAM triad reaches 91-93% of peak on H100
// SXM (Kempner AI Cluster, NVIDIA HPC-Benchmarks STREAM, 2025: 3.12 of 3.35 TB/s; COPY 91.4%).
constexpr double kStreamEfficiency = 0.9;
// HPL-MxP trailing update: panels of NB = 1024 columns (NVIDIA HPC-Benchmarks HPL-dgx-1N.dat and
// the hpl-mxp.sh examples) update a trailing matrix held in FP32 (the HPL-AI reference stores
// the matrix in single precision): each panel step reads and writes every trailing element
// (8 bytes) for 2 x NB FLOP of 16/8-bit GEMM. With K = NB the GEMM sits near the ridge point
// (H100 FP16: 989 TFLOP/s over 3.35 TB/s = 295 FLOP/byte vs 256), so both times add.
constexpr double kMxpPanel = 1024;
constexpr double kMxpTrailingBytes = 8;

// The vector FP64/FP32 peak of `g` (FP64 derived from FP32 on consumer dies), or Unsupported.
Result<HpcRate> VectorPeak(const GpuSpec& g, bool fp64) {
  HpcRate r;
  std::optional<double> tflops = fp64 ? g.fp64_tflops : g.fp32_tflops;
  r.basis = std::string(fp64 ? "FP64" : "FP32") + " vector peak";
  if (fp64 && !tflops && g.fp32_tflops) {  // consumer-class dies: FP64 at 1/64 of FP32
    tflops = *g.fp32_tflops / (g.architecture == "Turing" ? 32 : 64);
    r.basis = "FP64 derived as 1/" + std::string(g.architecture == "Turing" ? "32" : "64") +
              " of FP32 (weak FP64 part, low confidence)";
  }
  if (!tflops) {
    return Status::Unsupported(std::string("task: no published ") + (fp64 ? "FP64" : "FP32") +
                               " rate for " + g.model)
        .WithField("task");
  }
  r.per_gpu_tflops = *tflops;
  r.weak_fp64 = fp64 && g.fp32_tflops && *tflops < *g.fp32_tflops / 8;
  return r;
}

double SustainedBandwidth(const GpuSpec& g) {
  return g.memory_bw_gbyte_s.value_or(0) * 1e9 * kStreamEfficiency;
}

// Sparse solvers, stencils, HPCG: arithmetic intensity x sustained bandwidth, capped by the
// vector peak at the general-code efficiency.
Result<HpcRate> MemoryBoundRate(const EstimateContext& ctx, bool fp64) {
  const Workload& w = ctx.w;
  Result<HpcRate> r = VectorPeak(ctx.gpu, fp64);
  if (!r.ok()) return r.status();
  const double bw = SustainedBandwidth(ctx.gpu);
  if (bw <= 0) {
    return Status::Unsupported("task: no published memory bandwidth for " + ctx.gpu.model)
        .WithField("task");
  }
  const double flop = fp64 ? w.fp64_flop : w.fp32_flop;
  const double ai = w.arithmetic_intensity > 0 ? w.arithmetic_intensity : flop / w.bytes_moved;
  const double compute = r->per_gpu_tflops * 1e12 * kHpcEfficiency;
  const double per_gpu = std::min(ai * bw, compute);
  r->efficiency = per_gpu / (r->per_gpu_tflops * 1e12);
  r->basis = "memory-bound: " + Num(ai, 3) + " FLOP/byte x " + Num(bw / 1e9, 0) +
             " GB/s sustained (" + Num(kStreamEfficiency * 100, 0) + "% of peak, STREAM)" +
             (per_gpu == compute ? ", capped by the " + r->basis : ", of the " + r->basis);
  r->flops = per_gpu;
  return r;
}

// HPL-MxP: the LU factorisation's trailing updates on 16/8-bit tensor cores, each panel step a
// GEMM (matmul efficiency of the generation) plus its FP32 trailing-matrix traffic.
Result<HpcRate> MixedPrecisionRate(const EstimateContext& ctx) {
  const GpuSpec& g = ctx.gpu;
  const Precision p = ctx.w.precision.value_or(Precision::kFp16);
  GPUADVISOR_RETURN_IF_ERROR(CheckPrecisionSupported(g, p, "precision"));
  const std::optional<double> peak = PeakFlops(g, p);
  const double bw = SustainedBandwidth(g);
  if (!peak || bw <= 0) {
    return Status::Unsupported(std::string("precision: no published ") + PrecisionName(p) +
                               " tensor rate or memory bandwidth for " + g.model)
        .WithField("precision");
  }
  const double matmul = EfficiencyFor(g).matmul;
  const double flop_per_elem = 2 * kMxpPanel;
  const double t = flop_per_elem / (*peak * matmul) + kMxpTrailingBytes / bw;
  HpcRate r;
  r.per_gpu_tflops = *peak / 1e12;
  r.flops = flop_per_elem / t;
  r.efficiency = r.flops / *peak;
  r.basis = std::string("mixed-precision LU: ") + PrecisionName(p) + " dense peak at " +
            Num(matmul, 2) + " GEMM efficiency plus the FP32 trailing-matrix traffic of NB " +
            Num(kMxpPanel, 0) + " panels (iterative refinement not included)";
  return r;
}

Result<HpcRate> HpcRateFor(const EstimateContext& ctx, bool fp64) {
  const GpuSpec& g = ctx.gpu;
  const HpcKind kind = ctx.w.hpc_kind;
  const double scaling = ctx.topo.nodes > 1 ? kMultiNodeScaling : 1;
  if (kind == HpcKind::kMemoryBound || kind == HpcKind::kMixedPrecision) {
    Result<HpcRate> r =
        kind == HpcKind::kMemoryBound ? MemoryBoundRate(ctx, fp64) : MixedPrecisionRate(ctx);
    if (r.ok()) r->flops *= ctx.topo.gpus * scaling;
    return r;
  }
  const bool dense = kind == HpcKind::kDenseLa;
  const bool tensor = dense && fp64 && g.fp64_tensor_tflops && *g.fp64_tensor_tflops > 0;
  Result<HpcRate> r = tensor ? Result<HpcRate>(HpcRate{}) : VectorPeak(g, fp64);
  if (!r.ok()) return r.status();
  if (tensor) {
    r->per_gpu_tflops = *g.fp64_tensor_tflops;
    r->basis = "FP64 tensor-core peak";
  }
  if (dense) {
    const auto [eff, published] = HplEfficiencyFor(g);
    r->efficiency = eff;
    r->basis += std::string(" at the TOP500 HPL efficiency of ") + EfficiencyFor(g).name +
                (published ? " systems" : " (no TOP500 entry: default, low confidence)");
  } else {
    r->efficiency = kHpcEfficiency;
  }
  // The TOP500 ratios are whole-system runs: no further scale-out loss for dense-la.
  r->flops = ctx.topo.gpus * r->per_gpu_tflops * 1e12 * r->efficiency * (dense ? 1 : scaling);
  return r;
}

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

}  // namespace

Status EstimateHpc(const EstimateContext& ctx) {
  const Workload& w = ctx.w;
  if (ClassOf(ctx.gpu) != DeviceClass::kNvidia) {
    return Status::Unsupported("task: hpc on " + ctx.gpu.model +
                               " is not modelled (no FP64 support published)")
        .WithField("task");
  }
  const bool fp64 = w.fp64_flop > 0 || w.fp64_flops_needed > 0;
  Result<HpcRate> r = HpcRateFor(ctx, fp64);
  if (!r.ok()) return r.status();
  const double rate = r->flops;
  MemoryBytes mem;
  mem.activations = w.working_set_gib * kGiB / ctx.topo.gpus;
  mem.overhead = 1.0 * kGiB;
  SetMemory(ctx, mem, false, false);
  MoveToWorkingSet(ctx.out);
  ctx.out->precision = fp64 ? Precision::kFp64 : Precision::kFp32;
  if (w.hpc_kind == HpcKind::kMixedPrecision) {
    ctx.out->precision = w.precision.value_or(Precision::kFp16);
  }
  if (r->weak_fp64) {
    ctx.Warn(ctx.gpu.model + " has weak FP64 (" + Num(r->per_gpu_tflops, 2) +
             " TFLOP/s per GPU, a small fraction of its FP32): FP64 codes belong on A100/H100-"
             "class GPUs");
  }
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
  SetMeasuredBand(ctx, "time.hours", *ctx.out->hours, false);
  if (ctx.detailed()) {
    ctx.Assume(std::string("hpc-kind ") + HpcKindName(w.hpc_kind) + ": " + r->basis + ", " +
               Num(r->per_gpu_tflops, 2) + " TFLOP/s per GPU at " + Num(r->efficiency, 3) +
               " efficiency");
    if (w.hpc_kind == HpcKind::kGeneral && fp64 && ctx.gpu.fp64_tensor_tflops) {
      ctx.Assume("dense linear algebra (HPL, DGEMM-bound solvers) runs on the FP64 tensor cores (" +
                 Num(*ctx.gpu.fp64_tensor_tflops, 1) + " TFLOP/s): --hpc-kind dense-la");
    }
    if (w.hpc_kind == HpcKind::kGeneral) {
      ctx.Assume(
          "general: compute-bound at the vector peak; sparse solvers and stencils are bound by "
          "memory bandwidth, often 10-100x slower: hpc-kind memory-bound with "
          "arithmetic-intensity X");
    }
  }
  return Status::OK();
}

Status EstimateTranscode(const EstimateContext& ctx) {
  const Workload& w = ctx.w;
  const GpuSpec& g = ctx.gpu;
  if (ClassOf(g) != DeviceClass::kNvidia) {
    return Status::Unsupported("task: transcode on " + g.model + " is not modelled (NVENC only)")
        .WithField("task");
  }
  if (!g.nvenc) {
    return Status::Unsupported("task: NVENC engine count of " + g.model + " is not verified")
        .WithField("task");
  }
  if (*g.nvenc == 0) {
    return Status::Unsupported("task: " + g.model +
                               " has no NVENC video encoder; use G-family "
                               "GPUs (T4, A10G, L4, L40S)")
        .WithField("task");
  }
  const bool av1_capable =
      StartsWith(g.architecture, "Ada") || StartsWith(g.architecture, "Blackwell");
  if (w.codec == Codec::kAv1 && !av1_capable) {
    return Status::Unsupported("codec: " + g.model + " (" + g.architecture +
                               ") has no AV1 encoder (Ada and newer)")
        .WithField("codec");
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
  const double bw = ctx.gpu.memory_bw_gbyte_s.value_or(0) * 1e9 * kScanEfficiency * ctx.topo.gpus;
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
