// LLM serving: picks TP when unset, sizes the batch from concurrency, arrival rate or KV
// capacity, and reports latency and throughput.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "workload/estimate_internal.h"
#include "workload/model_internal.h"
#include "workload/neuron.h"
#include "workload/serve_model.h"

namespace gpuadvisor::workload_internal {
namespace {

constexpr double kLatencyP95Factor = 1.3;  // p95 over modelled mean under load (assumption)

struct ServePlan {
  ServeConfig config;
  double capacity = 0;  // requests per replica the KV cache holds
  double batch = 1;     // requests in flight per replica
  bool saturated = false;
  ServeTiming timing;
  MemoryBytes memory;
  bool fits = false;
  bool meets_slo = true;
};

// NVIDIA's NVFP4 checkpoints (TensorRT Model Optimizer exports, the nvidia/*-FP4 models) set
// kv_cache_quant_algo FP8 in hf_quant_config.json, and the engines adopt it with the default
// kv_cache_dtype "auto": an FP4 model keeps an FP8 KV cache unless --kv-precision says otherwise.
bool KvFollowsNvfp4Checkpoint(const Workload& w) {
  return !w.kv_precision && w.quantization == Precision::kFp4;
}

double KvElementBytes(const Workload& w) {
  if (KvFollowsNvfp4Checkpoint(w)) return 1;
  if (!w.kv_precision) return 2;
  switch (*w.kv_precision) {
    case Precision::kFp8:
    case Precision::kInt8:
      return 1;
    case Precision::kFp32:
      return 4;
    default:
      return 2;
  }
}

Precision Compute16Bit(const Workload& w, const GpuSpec& gpu) {
  if (w.precision && (*w.precision == Precision::kBf16 || *w.precision == Precision::kFp16)) {
    return *w.precision;
  }
  return Default16Bit(gpu);
}

// The GEMMs' tensor-core format: FP8 weights run FP8 GEMMs; NVFP4/MXFP4 weights run W4A4 GEMMs
// on Blackwell's FP4 tensor cores (CheckPrecisionSupported refuses fp4 elsewhere); weight-only
// int8/int4/nf4 (AWQ, GPTQ, bitsandbytes) dequantise to 16-bit compute.
Precision ComputePrecision(const Workload& w, const GpuSpec& gpu) {
  if (w.quantization &&
      (*w.quantization == Precision::kFp8 || *w.quantization == Precision::kFp4)) {
    return *w.quantization;
  }
  return Compute16Bit(w, gpu);
}

// The engine: --engine, else what users of the hardware most likely run (vLLM on GPUs, NxD
// Inference on Neuron). A GPU engine on Neuron or Neuron's on a GPU is refused.
Result<Engine> ServingEngine(const EstimateContext& ctx) {
  const bool neuron = IsNeuronDevice(ctx.gpu);
  const Engine e = ctx.w.engine.value_or(neuron ? Engine::kNeuron : Engine::kVllm);
  if (neuron != (e == Engine::kNeuron)) {
    return Status::Unsupported(
               std::string("engine: ") + EngineName(e) + " does not run on " + ctx.gpu.model +
               (neuron ? "; use neuron (NxD Inference)" : "; use vllm|sglang|trtllm|tgi"))
        .WithField("engine");
  }
  return e;
}

// Open loop: requests in flight per replica by Little's law, n = lambda x e2e(n).
double BatchForRate(const ServeConfig& c, const GpuSpec& gpu, const Topology& topo, double rate,
                    double cap, bool* saturated) {
  double n = 1;
  for (int i = 0; i < 40; ++i) {
    const ServeTiming t = ServingTiming(c, gpu, topo, n);
    const double next = rate * (t.ttft_s + c.output_tokens * t.itl_s);
    if (next > cap) {
      *saturated = true;
      return cap;
    }
    if (std::abs(next - n) < 1e-3 * n) return next;
    n = 0.5 * (n + next);
  }
  // The rate exceeds what continuous batching serves at any batch: saturated.
  const ServeTiming t = ServingTiming(c, gpu, topo, cap);
  *saturated = rate * c.output_tokens > t.tokens_per_s;
  return *saturated ? cap : n;
}

ServePlan Evaluate(const EstimateContext& ctx, const ServeConfig& c) {
  const Workload& w = ctx.w;
  ServePlan p;
  p.config = c;
  p.capacity = KvCapacityRequests(c, ctx.gpu);
  const double engine_cap = EngineBatchCap(c);
  if (engine_cap > 0) p.capacity = std::min(p.capacity, engine_cap);
  const double cap = std::max(1.0, std::floor(p.capacity));
  if (w.concurrency > 0) {
    const double want = std::ceil(double(w.concurrency) / c.replicas);
    p.batch = std::min(want, cap);
    p.saturated = want > cap;
  } else if (w.rps > 0) {
    p.batch = BatchForRate(c, ctx.gpu, ctx.topo, w.rps / c.replicas, cap, &p.saturated);
  } else {
    p.batch = cap;  // offline: as many as the KV cache holds
  }
  p.timing = ServingTiming(c, ctx.gpu, ctx.topo, p.batch);
  p.memory = ServingMemory(c, ctx.gpu, std::max(1.0, std::ceil(p.batch)));
  p.fits = p.capacity >= 1 && p.memory.Total() <= DeviceMemoryBytes(ctx.gpu);
  const double e2e = p.timing.ttft_s + c.output_tokens * p.timing.itl_s;
  if (w.ttft_p95_s > 0 && p.timing.ttft_s * kLatencyP95Factor > w.ttft_p95_s) p.meets_slo = false;
  if (w.itl_p95_s > 0 && p.timing.itl_s * kLatencyP95Factor > w.itl_p95_s) p.meets_slo = false;
  if (w.e2e_p95_s > 0 && e2e * kLatencyP95Factor > w.e2e_p95_s) p.meets_slo = false;
  return p;
}

bool Better(const ServePlan& a, const ServePlan& b, bool fixed_demand) {
  if (a.fits != b.fits) return a.fits;
  if (a.meets_slo != b.meets_slo) return a.meets_slo;
  if (a.saturated != b.saturated) return !a.saturated;
  const double ta = a.timing.tokens_per_s * a.config.replicas;
  const double tb = b.timing.tokens_per_s * b.config.replicas;
  if (fixed_demand && !a.saturated) return a.timing.itl_s < b.timing.itl_s;
  return ta > tb;
}

// Whether layout `a` replaces the best so far, `b`: the better one (Better), or, where neither
// fits, also the one that needs less memory per device: it says what the model needs at best (the
// reason a buyer is shown), not the fastest of those that do not fit.
bool Replaces(const ServePlan& a, const ServePlan& b, bool fixed_demand) {
  const bool smaller = !a.fits && !b.fits && a.memory.Total() < b.memory.Total();
  return smaller || Better(a, b, fixed_demand);
}

Status CheckServingHardware(const EstimateContext& ctx) {
  const DeviceClass cls = ClassOf(ctx.gpu);
  if (cls == DeviceClass::kOther) {
    return Status::Unsupported("task: LLM serving on " + ctx.gpu.model + " is not modelled")
        .WithField("task");
  }
  if (cls == DeviceClass::kInferentia1) {
    return Status::Unsupported("task: " + ctx.gpu.model +
                               " (NeuronCore-v1) does not run current LLMs; use Inferentia2")
        .WithField("task");
  }
  if (!ctx.gpu.memory_bw_gbyte_s || *ctx.gpu.memory_bw_gbyte_s <= 0) {
    return Status::Unsupported("task: no published memory bandwidth for " + ctx.gpu.model +
                               ": LLM decode cannot be estimated")
        .WithField("task");
  }
  if (ctx.w.precision) {
    GPUADVISOR_RETURN_IF_ERROR(CheckPrecisionSupported(ctx.gpu, *ctx.w.precision, "precision"));
  }
  if (ctx.w.quantization) {
    GPUADVISOR_RETURN_IF_ERROR(
        CheckPrecisionSupported(ctx.gpu, *ctx.w.quantization, "quantization"));
  }
  return Status::OK();
}

const char* QuantizationMeaning(std::optional<Precision> q) {
  if (!q) return "16-bit weights";
  switch (*q) {
    case Precision::kFp8:
      return "fp8 weights and activations (FP8 GEMMs)";
    case Precision::kFp4:
      return "fp4 = NVFP4/MXFP4 weights and activations (W4A4 GEMMs at the FP4 tensor rate)";
    default:
      return "weight-only (AWQ/GPTQ-style), dequantised to 16-bit GEMMs";
  }
}

std::string EngineLine(const ServeConfig& c, const Workload& w) {
  const EngineProfile& e = c.engine;
  std::string line = std::string("engine ") + EngineName(e.engine) +
                     (w.engine ? "" : " (default for the hardware; --engine to change)");
  if (e.engine == Engine::kNeuron) return line + ": compiled graph (NxD Inference)";
  line += ": " + std::string(QuantizationMeaning(c.quantization)) + "; scheduler ";
  line += e.max_seqs > 0 ? "max " + Num(e.max_seqs, 0) + " sequences" : "KV-cache-limited batch";
  if (e.max_tokens > 0) line += ", " + Num(e.max_tokens, 0) + " tokens per step";
  line += e.chunked_prefill ? ", chunked prefill" : ", whole prompts per step";
  line += ", CUDA graphs up to batch " + Num(e.graph_max_batch, 0);
  if (c.streamed) line += "; tokens streamed to clients";
  return line;
}

void Report(const EstimateContext& ctx, const ServePlan& p, const ModelShape& m, double peak) {
  Estimate& e = *ctx.out;
  const Workload& w = ctx.w;
  const ServeConfig& c = p.config;
  e.parallelism.tp = c.tp;
  e.parallelism.pp = c.pp;
  e.parallelism.dp = c.replicas;
  e.parallelism.micro_batch = static_cast<int>(std::ceil(p.batch));
  e.parallelism_applies = true;
  SetMemory(ctx, p.memory, false, true);
  e.memory.fits = p.fits;
  e.demand_met = !p.saturated;
  e.slo_met = p.meets_slo;
  e.memory.kv_cache_kib_per_token = KvBytesPerToken(m, c.kv_bytes) / 1024;
  PerformanceEstimate& perf = e.performance;
  const double tokens = p.timing.tokens_per_s * c.replicas;
  perf.tokens_per_s = tokens;
  perf.tokens_per_s_per_gpu = tokens / ctx.topo.gpus;
  perf.itl_ms = p.timing.itl_s * 1e3;
  perf.step_time_s = p.timing.step_s;
  perf.requests_per_s = tokens / c.output_tokens;
  perf.max_concurrency = std::floor(p.capacity) * c.replicas;
  perf.mbu = p.timing.mbu;
  if (p.timing.compute_known) {
    perf.ttft_ms = p.timing.ttft_s * 1e3;
    perf.e2e_latency_ms = (p.timing.ttft_s + c.output_tokens * p.timing.itl_s) * 1e3;
  }
  const double flop_per_token =
      DecodeFlopPerToken(m, c.input_tokens + c.output_tokens / 2) +
      ForwardFlopPerToken(m, c.input_tokens / 2) * c.input_tokens / c.output_tokens;
  if (peak > 0) {
    perf.tflops_per_gpu = flop_per_token * tokens / ctx.topo.gpus / 1e12;
    perf.mfu = *perf.tflops_per_gpu * 1e12 / peak;
  }
  const double hours = w.hours > 0 ? w.hours : 1;
  e.hours = hours;
  e.gpu_hours = hours * ctx.topo.gpus;
  e.flops_total = flop_per_token * tokens * hours * 3600;
  // Weight-only 4/8-bit MoE kernels (AWQ/GPTQ/Marlin MoE, vLLM's moe_wna16) have no calibrated
  // figure: one such run measured 3x slower than its weights' reads (doc/estimation.md, "Known
  // gaps"); the band is the extrapolated one.
  const bool moe_weight_only =
      m.moe_layers > 0 && IsWeightOnly(c.quantization) && c.engine.engine != Engine::kNeuron;
  SetMeasuredBand(ctx, "performance.tokens_per_s", tokens,
                  EfficiencyFor(ctx.gpu).low_confidence || moe_weight_only);
  if (moe_weight_only) {
    ctx.Warn(std::string("weight-only ") + PrecisionName(*c.quantization) +
             " MoE kernels are not calibrated: throughput may be several times lower than shown "
             "(fp8 weights or 16-bit experts are)");
  }
  if (!ctx.detailed()) return;
  ctx.Assume("requests of " + Num(c.input_tokens, 0) + " input + " + Num(c.output_tokens, 0) +
             " output tokens; " + Num(p.batch, 1) + " in flight per replica (" +
             (w.concurrency > 0 ? "concurrency"
              : w.rps > 0       ? "rps, Little's law"
                                : "offline: KV-cache limit") +
             ")");
  ctx.Assume(EngineLine(c, w));
  if (c.attention_dp && c.tp > 1) {
    ctx.Assume("attention data-parallel over the " + std::to_string(c.tp) + " ranks (each ~" +
               Num(p.batch / c.tp, 0) +
               " requests with their whole KV cache and the attention weights), the experts "
               "expert-parallel across them: tokens gathered before and scattered after each "
               "MoE layer");
  }
  ctx.Assume("decode bandwidth utilisation " + Num(p.timing.mbu) + ", KV cache " +
             Num(c.kv_bytes, 0) + " B/element" +
             (KvFollowsNvfp4Checkpoint(w)
                  ? " (FP8, as NVFP4 checkpoints set kv_cache_quant_algo; --kv-precision to "
                    "change)"
                  : "") +
             ", 90% of memory usable (vLLM default)");
  ctx.Assume("costed for " + Num(hours, 1) + " hour(s) of serving (--hours)");
  if (p.saturated) {
    ctx.Warn("demand exceeds capacity: at most " + Num(*perf.max_concurrency, 0) +
             " concurrent requests fit the KV cache or the rate outruns the replicas");
  }
  std::string targets;
  auto target = [&](const char* name, double modelled_s, double target_s) {
    if (target_s <= 0) return;
    targets += std::string(targets.empty() ? "" : ", ") + name + " " +
               Num(modelled_s * kLatencyP95Factor * 1e3, 1) + " ms vs " + Num(target_s * 1e3, 0) +
               " ms";
  };
  target("TTFT", p.timing.ttft_s, w.ttft_p95_s);
  target("ITL", p.timing.itl_s, w.itl_p95_s);
  target("e2e", p.timing.ttft_s + c.output_tokens * p.timing.itl_s, w.e2e_p95_s);
  if (!targets.empty()) {
    const std::string line = "p95 latency (1.3x the modelled mean): " + targets;
    if (p.meets_slo)
      ctx.Assume(line + ": targets met");
    else
      ctx.Warn(line + ": targets NOT met");
  }
  if (!p.timing.compute_known) {
    ctx.Warn("no published compute peak for " + ctx.gpu.model +
             ": decode assumed bandwidth-bound; TTFT not estimated");
  }
}

// Attention data parallelism splits a MoE model's experts over the ranks that run attention
// side by side: it needs routed experts and an engine that implements it.
Status CheckAttentionDp(const Workload& w, const ModelShape& m, Engine engine) {
  if (!w.attention_dp.value_or(false)) return Status::OK();
  if (m.moe_layers <= 0) {
    return Status::InvalidArgument(
               "attention-dp: applies to MoE models (the experts are split over the attention "
               "ranks); " +
               (w.model_name.empty() ? std::string("this model") : w.model_name) +
               " is dense: use tp or replicas")
        .WithField("attention-dp");
  }
  if (engine != Engine::kTrtllm && engine != Engine::kSglang && engine != Engine::kVllm) {
    return Status::Unsupported(std::string("attention-dp: ") + EngineName(engine) +
                               " has no attention data parallelism (trtllm, sglang and vllm do)")
        .WithField("attention-dp");
  }
  return Status::OK();
}

// TP degrees to try: powers of two within a node. Neuron frameworks also shard over every chip
// of an instance whose chip count is not a power of two (inf2.48xlarge's TP=24 NeuronCores is 12
// chips, inf2.24xlarge's 6), so those node sizes are candidates there.
std::vector<int> TpCandidates(const EstimateContext& ctx) {
  const int limit = std::min(ctx.topo.gpus, ctx.topo.gpus_per_node);
  std::vector<int> tps;
  for (int tp = 1; tp <= limit; tp *= 2) tps.push_back(tp);
  if (IsNeuronDevice(ctx.gpu) && limit != tps.back()) tps.push_back(limit);
  return tps;
}

}  // namespace

Status EstimateServing(const EstimateContext& ctx) {
  GPUADVISOR_RETURN_IF_ERROR(CheckServingHardware(ctx));
  const Workload& w = ctx.w;
  const ModelShape m = MakeShape(w.model);
  Result<Engine> engine = ServingEngine(ctx);
  if (!engine.ok()) return engine.status();
  const Precision precision = ComputePrecision(w, ctx.gpu);
  const double peak = GemmPeakFlops(ctx.gpu, precision).value_or(0);
  ctx.out->precision = w.quantization.value_or(precision);
  ctx.out->params_total = m.params.total;
  ctx.out->params_active = m.params.active;
  ServeConfig base;
  base.model = &m;
  base.quantization = w.quantization;
  base.kv_bytes = KvElementBytes(w);
  const RequestShape request = ServeRequestShape(w);
  base.input_tokens = request.input;
  base.output_tokens = request.output;
  base.peak_flops = peak;
  base.mbu = w.mbu;
  base.prefill_eff = w.mfu;
  base.flash_attention = w.flash_attention;
  base.engine = ProfileOf(*engine, ctx.gpu);
  base.streamed = w.streaming.value_or(w.concurrency > 0 || w.rps > 0);
  base.attn_peak = PeakFlops(ctx.gpu, Compute16Bit(w, ctx.gpu)).value_or(0);
  GPUADVISOR_RETURN_IF_ERROR(CheckAttentionDp(w, m, *engine));
  base.attention_dp = w.attention_dp.value_or(false);
  if (IsNeuronDevice(ctx.gpu)) base.cores_per_device = NeuronLogicalCoresPerChip(ctx.gpu);
  const ParallelismRequest& r = ctx.req;
  const int gpus = ctx.topo.gpus, pp = r.pp.value_or(1);
  const bool fixed_demand = w.rps > 0 || w.concurrency > 0;
  bool found = false;
  int64_t evaluated = 0;
  ServePlan best;
  // One layout: TP t x PP stages, the rest of the GPUs as replicas.
  auto layout = [&](int t, int stages) {
    ServeConfig c = base;
    c.tp = t;
    c.pp = stages;
    c.replicas = gpus / (t * stages);
    ++evaluated;
    return Evaluate(ctx, c);
  };
  for (int t : r.tp ? std::vector<int>{*r.tp} : TpCandidates(ctx)) {
    if (gpus % (t * pp) != 0 || (r.dp && *r.dp != gpus / (t * pp))) continue;
    if (base.attention_dp && t < 2) continue;  // attention DP runs over the ranks of a TP group
    ServePlan p = layout(t, pp);
    if (!found || Replaces(p, best, fixed_demand)) best = p;
    found = true;
  }
  if (!found && base.attention_dp && (!r.tp || *r.tp < 2)) {
    return Status::InvalidArgument(
               "attention-dp: runs over the ranks of a tensor-parallel group: needs tp of 2 or "
               "more "
               "and that many GPUs")
        .WithField("attention-dp");
  }
  if (!found) {
    return Status::InvalidArgument("tp: tp x pp must divide the " + std::to_string(gpus) + " GPUs")
        .WithField("tp");
  }
  // A model no single node holds: a replica spans instances, a pipeline stage per node (TP
  // inside it), over EFA (vLLM --pipeline-parallel-size; doc/estimation.md, "Serving across
  // instances"). GPU engines only: NxD Inference compiles one instance's graph here.
  const int node = std::min(gpus, ctx.topo.gpus_per_node);
  const bool efa = ctx.hw.instance == nullptr || ctx.hw.instance->efa;
  if (!best.fits && !r.tp && !r.pp && MaxServingInstances(ctx.gpu, node, efa) > 1) {
    for (int stages = 2; stages <= kMaxServingStages && node * stages <= gpus; stages *= 2) {
      if (gpus % (node * stages) != 0) continue;
      ServePlan p = layout(node, stages);
      if (Replaces(p, best, fixed_demand)) best = p;
      if (p.fits) break;  // more stages only add hops
    }
  }
  // The runtime pins in host memory what it loads onto the instance's devices; a model the
  // devices cannot hold is refused for that (device memory), not for the host's.
  if (best.fits && ctx.hw.instance != nullptr && IsNeuronDevice(ctx.gpu)) {
    const int per_instance = std::min(gpus, ctx.hw.instance->accelerator.devices());
    GPUADVISOR_RETURN_IF_ERROR(
        CheckNeuronHostMemory(*ctx.hw.instance, best.memory.weights * per_instance));
  }
  ctx.out->parallelism.chosen = !r.tp;
  ctx.out->layouts_evaluated = evaluated;
  Report(ctx, best, m, peak);
  if (best.config.pp > 1 && best.config.tp * best.config.pp > ctx.topo.gpus_per_node) {
    const int spans = best.config.tp * best.config.pp / std::max(1, ctx.topo.gpus_per_node);
    ctx.Assume("each replica spans " + std::to_string(spans) +
               " instances: " + std::to_string(best.config.pp) + " pipeline stages (TP " +
               std::to_string(best.config.tp) +
               " inside each), the stages' activations over the network between instances; a " +
               "token waits for every stage in turn");
  }
  return Status::OK();
}

}  // namespace gpuadvisor::workload_internal
