// Estimate: memory per device, time, FLOPs, cost and uncertainty for one workload on one
// hardware configuration. The methods and their sources are in doc/estimation.md.
//
// EstimateWorkload() is a pure function of its arguments: no I/O, no globals, thread-safe.
// It is on the recommendation engine's hot path; with EstimateMode::kFast it builds no
// assumption strings and allocates nothing for dense LLM training/serving candidates.
//
// A configuration that does not fit is still estimated (memory.fits = false, with a warning);
// a configuration the hardware cannot run at all (BF16 on a V100, NVENC on an H100, training on
// Inferentia) is Status Unsupported with a one-line reason.
#ifndef GPUADVISOR_ESTIMATE_H_
#define GPUADVISOR_ESTIMATE_H_

#include <optional>
#include <string>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/result.h"
#include "gpuadvisor/workload.h"

namespace gpuadvisor {

// Devices one estimate accepts at most: far beyond the largest clusters, and small enough that
// device counts times anything the estimator multiplies them by stays inside int.
inline constexpr int kMaxDevices = 1000000;

// The hardware to estimate on. Pointers are non-owning and must outlive the call.
struct Hardware {
  const GpuSpec* gpu = nullptr;            // REQUIRED
  int gpus = 1;                            // devices in total (instances x devices each)
  const InstanceType* instance = nullptr;  // nullable: a bare GPU count ("--gpu H100 --gpus 8")
  int instances = 0;                       // 0 = derived from gpus / devices per instance
  const RegionOffer* offer = nullptr;      // nullable; prices for cost
  // Overrides for hardware not in the catalog (e.g. published clusters); 0 = derive.
  int gpus_per_node = 0;           // default: instance devices, else min(gpus, 8)
  double node_network_gbit_s = 0;  // Gbit/s inter-node, per node; default: the instance's network
  std::optional<bool> nvlink;      // default: GpuSpec::nvlink_gbyte_s is set and > 1 GPU/node
  // A bare GPU count: the AWS instance that carries the GPU whose node (devices, network, host)
  // is assumed, named in the assumptions (ResolveHardware picks the largest current one).
  const InstanceType* assumed_node = nullptr;
};

// What a user names: an instance type (and how many), or a GPU model (and how many).
struct HardwareRequest {
  std::string instance_type;  // "" = none; e.g. "p5.48xlarge"
  int instances = 0;          // 0 = enough for `gpus`, at least 1
  std::string gpu;            // model or alias ("H100-SXM"); with an instance it must match it
  int gpus = 0;               // devices in total; 0 = instances x devices each (or 1)
  std::string region = "us-east-1";  // prices for the cost section
};

// The `estimate` command's hardware options (fields.h).
template <typename V>
void DeclareOptions(V& v, HardwareRequest& h) {
  v.Text("instance", h.instance_type,
         {.help = "Instance type, e.g. p5.48xlarge",
          .aliases = {"instance-type", "type"},
          .metavar = "TYPE"});
  v.Integer("count", h.instances,
            {.help = "Instances of --instance (default 1)", .lo = 1, .hi = 100000});
  v.Text("gpu", h.gpu, {.help = "GPU model without an instance, e.g. H100", .metavar = "GPU"});
  v.Integer(
      "gpus", h.gpus,
      {.help = "Devices in total (default 1, or count x per instance)", .lo = 1, .hi = 1000000});
  v.Text("region", h.region, {.help = "Region for prices", .metavar = "REGION"});
}

// Looks the names up in `catalog` (which must outlive the result). Errors: NotFound with a
// "did you mean" for an unknown type, GPU or region; InvalidArgument naming the flag for a
// contradiction (neither or a different GPU than the instance has, gpus not a multiple of the
// devices per instance); Unsupported for an accelerator without datasheet figures (FPGA,
// media transcoder). A type not sold in the region resolves with offer == nullptr (no cost).
Result<Hardware> ResolveHardware(const Catalog& catalog, const HardwareRequest& request);

enum class EstimateMode {
  kDetailed,  // fill Estimate::assumptions
  kFast,      // numbers only (recommendation search)
};

// Per-device memory in GiB (2^30 B). Null fields do not apply to the task.
// The share of published figures a measured band is drawn to hold (doc/estimation.md, "What the
// bands cover").
inline constexpr double kMeasuredBandCoverage = 0.8;

struct MemoryEstimate {
  std::optional<double> weights_gib, gradients_gib, optimizer_gib, activations_gib, kv_cache_gib,
      overhead_gib;
  // Serving: KV cache of one token across all layers at the KV precision, whole model (KiB).
  std::optional<double> kv_cache_kib_per_token;
  // hpc / analytics / transcode / render: data, frames or sessions held per device (GiB).
  std::optional<double> working_set_gib;
  // Training: the peak of live tensors (torch.cuda.max_memory_allocated, MLPerf's
  // max_memory_usage) and the caching allocator's pool at that peak, its slack included
  // (torch.cuda.max_memory_reserved, torchtitan's memory figure). total_gib adds what lives
  // beside the allocator (CUDA context, NCCL buffers: nvidia-smi's figure) and decides `fits`.
  std::optional<double> allocated_gib, reserved_gib;
  double total_gib = 0;
  // The measured band of the memory figures (fractions: total_gib x (1 - band_low) .. x (1 +
  // band_high)), drawn from published memory measurements (doc/estimation.md); 0 and 0 where the
  // task's memory has no measured band (transcode, render, analytics, hpc working sets).
  double band_low = 0, band_high = 0;
  double device_gib = 0;  // usable memory of one device (AWS-reported where known)
  bool fits = true;
};

struct PerformanceEstimate {
  std::optional<double> tokens_per_s;  // training: processed; serving: generated, all GPUs
  std::optional<double> tokens_per_s_per_gpu;
  std::optional<double> tflops_per_gpu;  // model FLOPs (no recompute) achieved per GPU
  std::optional<double> mfu;             // tflops_per_gpu / dense peak of the precision
  std::optional<double> hfu;             // including recompute
  std::optional<double> step_time_s;     // training optimizer step; serving decode step
  std::optional<double> images_per_s;
  std::optional<double> ttft_ms, itl_ms, e2e_latency_ms;
  std::optional<double> e2e_p95_ms;  // real-time vision: modelled p95 (queue + batch)
  std::optional<double> requests_per_s;
  std::optional<double> max_concurrency;   // requests the KV cache holds (all replicas)
  std::optional<double> mbu;               // decode bandwidth utilisation assumed
  std::optional<double> streams_per_gpu;   // transcode capacity
  std::optional<double> sessions_per_gpu;  // render capacity
  std::optional<double> scan_time_s;       // analytics: one full scan of the dataset
  std::optional<double> sustained_tflops;  // hpc: achieved rate, all GPUs
};

struct ParallelismChoice {
  int tp = 1, pp = 1, dp = 1, cp = 1, virtual_pp = 1;
  int zero = 0;
  int micro_batch = 1;
  bool sequence_parallel = false;
  Recompute recompute = Recompute::kNone;
  // Training: whose communication overlap, pipeline split and loss kernel the step assumes
  // (Workload::framework, or inferred: Megatron-Core with TP/PP, FSDP otherwise).
  Framework framework = Framework::kFsdp;
  bool chosen = false;  // at least one value was picked by the estimator
};

// Cost of the run (time.hours x instances x the instance's hourly price) per purchase option,
// in the region of Hardware::offer. Spot ignores interruptions here (see `pricing`).
struct CostEstimate {
  std::optional<double> on_demand_usd, spot_usd, reserved_1y_usd;
  std::optional<double> on_demand_usd_per_hour, spot_usd_per_hour, reserved_1y_usd_per_hour;
  std::string region;                                      // "" without prices
  Provenance on_demand_from, spot_from, reserved_1y_from;  // source id and date of each price
  bool spot_estimated = false;         // spot = on-demand x (1 - spot-advisor savings)
  std::string spot_interruption_band;  // spot-advisor label, e.g. "<5%"; "" if unknown
};

// How close an estimate's hardware and workload are to published measurements
// (doc/estimation.md, "Confidence"): kHigh = this accelerator was measured on this class of task;
// kMedium = a sibling of the same architecture was, or the hardware figures are derived, or the
// workload is described only roughly; kLow = nothing comparable was measured. The uncertainty
// band widens with a lower grade, and `recommend` ranks plans at the pessimistic end of it.
enum class Confidence { kLow, kMedium, kHigh };  // names "low", "medium", "high"
const char* ConfidenceName(Confidence c);

struct Estimate {
  TaskKind task = TaskKind::kPretrain;
  std::string gpu_model;  // GpuSpec::model
  int gpus = 0;
  double device_fraction = 1;  // < 1 for a fractional GPU (g6f.large: 0.125 of an L4)
  std::string instance_type;   // "" without an instance
  int instances = 0;           // 0 without an instance
  int gpus_per_node = 1;
  Precision precision = Precision::kBf16;  // compute precision used
  ParallelismChoice parallelism;
  bool parallelism_applies = false;  // LLM tasks only
  MemoryEstimate memory;
  PerformanceEstimate performance;
  std::string model_name;  // preset / config origin; "" for explicit architecture
  std::optional<double> params_total, params_active;
  std::optional<double> flops_total;  // model FLOPs of the whole job
  // Training: one checkpoint of the whole job in GiB (unique weights + optimizer states, not
  // the ZeRO/DP replicas; LoRA: the adapters and their states only).
  std::optional<double> checkpoint_gib;
  std::optional<double> hours, gpu_hours;
  CostEstimate cost;
  // Serving: the arrival rate / concurrency is served without saturating the KV cache or the
  // replicas (demand_met) and the p95 latency targets hold (slo_met). Always true elsewhere.
  bool demand_met = true, slo_met = true;
  // A service (serving, real-time vision, transcode, render, analytics) runs for `hours` and is
  // judged per hour; a batch job (training, offline vision, HPC) per run.
  bool service = false;
  // Real-time vision (--rps): the devices, and instances of this type, that hold the rate
  // within the p95 target; 0 when not even one image at a time meets it.
  std::optional<int> devices_needed, instances_needed;
  // Hardware layouts (parallelism x ZeRO x recompute x micro-batch, or TP for serving) the
  // estimator evaluated to choose the unset parallelism; 1 when nothing was searched.
  int64_t layouts_evaluated = 1;
  // Band on `uncertainty_metric` ("time.hours", "performance.tokens_per_s", ...; a static
  // string, nullptr when none): value x (1 - band_low) .. value x (1 + band_high). The JSON also
  // carries the bands this implies for cost, GPU-hours and throughput.
  const char* uncertainty_metric = nullptr;
  std::optional<double> uncertainty_low, uncertainty_high;
  double band_low = 0, band_high = 0;
  // The share of published figures of its kind the band held (0.8: the measured band,
  // doc/estimation.md "What the bands cover"); nullopt when the band is not the measured one
  // (widened for a lower confidence grade or an unmeasured efficiency, fixed by a given MFU, or
  // stated by hand for a task no published figure measures).
  std::optional<double> band_coverage;
  Confidence confidence = Confidence::kLow;
  std::string confidence_basis;          // kDetailed only: the measurements the grade rests on
  std::vector<std::string> assumptions;  // kDetailed only; warnings start with "warning: "
};

// A lower bound on the memory one device needs for `w` spread over `devices` devices, whatever
// the parallelism: the model states (training: 16-bit weights and gradients plus the optimizer
// unless offloaded; LoRA/QLoRA: the frozen base; serving: the quantised weights) divided by the
// device count, nothing else. For LLM tasks only; 0 otherwise. The search uses it to skip
// configurations that cannot fit before estimating them. REQUIRES: Validate(w).ok().
double MemoryLowerBoundGib(const Workload& w, int devices);

// Whether Estimate::precision means anything for the task (not for transcode/render/analytics).
bool PrecisionApplies(TaskKind t);

// REQUIRES: Validate(w).ok(), hw.gpu != nullptr, hw.gpus >= 1.
// `request` overrides w.parallelism field by field; unset fields are chosen (fastest plan that
// fits, see doc/estimation.md). Errors: InvalidArgument (e.g. tp*pp does not divide gpus),
// Unsupported (hardware cannot run the task or precision).
Result<Estimate> EstimateWorkload(const Workload& w, const Hardware& hw,
                                  const ParallelismRequest& request = {},
                                  EstimateMode mode = EstimateMode::kDetailed);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_ESTIMATE_H_
