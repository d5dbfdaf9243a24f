// LLM training (pretrain/finetune/lora/qlora): picks parallelism when unset, then fills memory,
// performance, FLOPs and time.
#include <algorithm>
#include <cmath>
#include <vector>

#include "workload/estimate_internal.h"
#include "workload/llm_formulas.h"
#include "workload/neuron.h"

namespace gpuadvisor::workload_internal {
namespace {

constexpr int kMaxCandidates = 16;

// Values to try for one degree: the requested one, or powers of two up to `limit` that divide
// `total`.
int Candidates(const std::optional<int>& fixed, int limit, int total, int (&out)[kMaxCandidates]) {
  if (fixed) {
    out[0] = *fixed;
    return 1;
  }
  int n = 0;
  for (int v = 1; v <= limit && n < kMaxCandidates; v *= 2) {
    if (total % v == 0) out[n++] = v;
  }
  return n;
}

int DefaultGlobalBatch(const Workload& w, int seq) {
  if (w.global_batch > 0) return w.global_batch;
  if (w.global_batch_tokens > 0) {
    return std::max(1, static_cast<int>(std::lround(w.global_batch_tokens / seq)));
  }
  return w.task == TaskKind::kPretrain ? std::max(1, 4 * 1024 * 1024 / seq / 2) : 128;
}

struct Plan {
  TrainConfig config;
  MemoryBytes memory;
  TrainStep step;
  bool fits = false;
};

// Better = fits, then faster, then smaller.
bool Better(const Plan& a, const Plan& b) {
  if (a.fits != b.fits) return a.fits;
  if (!a.fits) return a.memory.Total() < b.memory.Total();
  if (std::abs(a.step.step_s - b.step.step_s) > 1e-9 * b.step.step_s) {
    return a.step.step_s < b.step.step_s;
  }
  return a.memory.Total() < b.memory.Total();
}

struct Search {
  const EstimateContext& ctx;
  const ModelShape& model;
  TrainConfig base;
  double device_bytes;
  double peak;
  bool found = false;
  Plan best;
  int64_t tried = 0;

  // Returns whether `c` fits. A layout that does not fit cannot beat one that does, so once one
  // fits the step time of those that do not is not computed.
  bool Try(const TrainConfig& c) {
    ++tried;
    Plan p;
    p.config = c;
    p.memory = TrainingMemory(c);
    p.fits = p.memory.Total() <= device_bytes;
    if (found && best.fits && !p.fits) return false;
    p.step = TrainingStep(c, ctx.gpu, ctx.topo, peak > 0 ? peak : 1, ctx.w.mfu);
    if (!found || Better(p, best)) {
      best = p;
      found = true;
    }
    return p.fits;
  }

  Status Run() {
    const ParallelismRequest& r = ctx.req;
    const int gpus = ctx.topo.gpus, cp = r.context_parallel.value_or(1);
    int tps[kMaxCandidates], pps[kMaxCandidates];
    const int heads = static_cast<int>(model.heads);
    const int ntp = Candidates(r.tp, std::min(ctx.topo.gpus_per_node, heads), gpus, tps);
    for (int i = 0; i < ntp; ++i) {
      const int tp = tps[i];
      if (gpus % (tp * cp) != 0) continue;
      const int npp = Candidates(r.pp, static_cast<int>(model.layers), gpus / (tp * cp), pps);
      for (int j = 0; j < npp; ++j) TryDegrees(tp, pps[j], cp);
    }
    if (!found) {
      return Status::InvalidArgument("tp: tp x pp x context-parallel must divide the " +
                                     std::to_string(gpus) + " GPUs (and tp the " +
                                     std::to_string(heads) + " heads)")
          .WithField("tp");
    }
    return Status::OK();
  }

  // Interleaved 1F1B: v model chunks per GPU shrink the bubble v-fold for v-fold more p2p
  // traffic and a little more activation memory. Unset: v in 1, 2, 4, 8 with at least one
  // layer per chunk (uneven chunks cost their imbalance, see StageImbalance).
  bool TryInterleaving(TrainConfig c) {
    const ParallelismRequest& r = ctx.req;
    if (r.virtual_pp || c.par.pp <= 1) {
      c.par.virtual_pp = r.virtual_pp.value_or(1);
      return Try(c);
    }
    const int layers = static_cast<int>(model.layers);
    bool fits = false;
    for (int v = 1; v <= 8; v *= 2) {
      if (layers < c.par.pp * v) break;
      c.par.virtual_pp = v;
      fits = Try(c) || fits;
    }
    return fits;
  }

  void TryDegrees(int tp, int pp, int cp) {
    const ParallelismRequest& r = ctx.req;
    const int gpus = ctx.topo.gpus;
    if (gpus % (tp * pp * cp) != 0) return;
    const int dp = gpus / (tp * pp * cp);
    if (r.dp && *r.dp != dp) return;
    const int zeros_all[] = {1, 2, 3};
    const int zero_fixed[] = {r.zero.value_or(0)};
    const int zero_single[] = {0};
    const int* zeros = r.zero ? zero_fixed : dp > 1 ? zeros_all : zero_single;
    const int nzero = r.zero || dp == 1 ? 1 : 3;
    const Recompute rc_all[] = {Recompute::kNone, Recompute::kSelective, Recompute::kOp,
                                Recompute::kFull};
    const Recompute rc_fixed[] = {r.recompute.value_or(Recompute::kFull)};
    const bool rc_given = r.recompute || ctx.w.task == TaskKind::kQlora;
    const Recompute* rcs = rc_given ? rc_fixed : rc_all;
    const int nrc = rc_given ? 1 : 4;
    const bool neuron = ClassOf(ctx.gpu) == DeviceClass::kNeuron;
    // torch.compile asks for PyTorch: torchtitan where the layout has TP or PP.
    const Framework framework = ctx.w.framework.value_or(
        ctx.w.torch_compile && !neuron
            ? (tp > 1 || pp > 1 ? Framework::kTorchtitan : Framework::kFsdp)
            : DefaultFramework(tp, pp, neuron, ctx.w.precision == Precision::kFp4));
    const int per_dp = static_cast<int>(std::ceil(base.global_batch / dp));
    const int mbs_all[] = {16, 8, 4, 2, 1};
    // Recompute only adds work to a step (more FLOPs, passes and TP collectives), so for one
    // (ZeRO, micro-batch) the policies are tried from none to full and the search stops at the
    // first level that fits: none; then selective and op (neither dominates the other); full.
    for (int z = 0; z < nzero; ++z) {
      for (int mb : mbs_all) {
        if (r.micro_batch)
          mb = *r.micro_batch;
        else if (mb > per_dp || (pp > 1 && mb > 1))
          continue;
        TrainConfig c = base;
        c.par.tp = tp;
        c.par.pp = pp;
        c.par.dp = dp;
        c.par.cp = cp;
        c.par.zero = zeros[z];
        c.par.framework = framework;
        c.par.micro_batch = mb;
        c.par.sequence_parallel = r.sequence_parallel.value_or(tp > 1) && tp > 1;
        bool fits_at_level = false;
        for (int k = 0; k < nrc; ++k) {
          const bool same_level = rcs[k] == Recompute::kOp;  // op pairs with selective
          if (fits_at_level && !same_level) break;
          c.par.recompute = rcs[k];
          fits_at_level = TryInterleaving(c) || (same_level && fits_at_level);
        }
        if (r.micro_batch) break;
      }
    }
  }
};

TrainConfig BaseConfig(const EstimateContext& ctx, const ModelShape& m, Precision precision) {
  const Workload& w = ctx.w;
  TrainConfig c;
  c.model = &m;
  c.task = w.task;
  c.precision = precision;
  c.optimizer = w.optimizer;
  c.offload = ctx.req.offload.value_or(Offload::kNone);
  // Default 2048 tokens, or the model's whole window when it is shorter (BERT: 512).
  const int window = w.model.context_length;
  c.seq = w.seq_len > 0 ? w.seq_len : (window > 0 ? std::min(2048, window) : 2048);
  c.global_batch = DefaultGlobalBatch(w, static_cast<int>(c.seq));
  c.flash_attention = w.flash_attention;
  c.torch_compile = w.torch_compile;
  c.lora_rank = w.lora_rank;
  c.lora_targets = w.lora_targets;
  c.gpus = ctx.topo.gpus;
  return c;
}

Status CheckTrainingHardware(const EstimateContext& ctx, Precision p) {
  const DeviceClass cls = ClassOf(ctx.gpu);
  if (cls == DeviceClass::kOther) {
    return Status::Unsupported("task: LLM training on " + ctx.gpu.model +
                               " is not modelled (CUDA GPUs and Trainium only)")
        .WithField("task");
  }
  if (cls == DeviceClass::kInferentia1 ||
      (cls == DeviceClass::kNeuron && ctx.gpu.model.find("Inferentia") != std::string::npos)) {
    return Status::Unsupported("task: " + ctx.gpu.model +
                               " is an inference accelerator; train on Trainium or a GPU")
        .WithField("task");
  }
  if (cls == DeviceClass::kNeuron && ctx.w.task == TaskKind::kQlora) {
    return Status::Unsupported(
               "task: qlora's NF4 base model (bitsandbytes kernels) runs on CUDA "
               "GPUs only; use lora on " +
               ctx.gpu.model)
        .WithField("task");
  }
  return CheckPrecisionSupported(ctx.gpu, p, "precision");
}

void Report(const EstimateContext& ctx, const Plan& plan, double peak, const ModelShape& m) {
  Estimate& e = *ctx.out;
  const Workload& w = ctx.w;
  const TrainConfig& c = plan.config;
  e.parallelism = c.par;
  e.parallelism_applies = true;
  SetMemory(ctx, plan.memory, true, false);
  const double tokens_step = c.global_batch * c.seq;
  PerformanceEstimate& perf = e.performance;
  const double total_tokens = w.tokens * (w.task == TaskKind::kPretrain ? 1 : w.epochs);
  e.flops_total = plan.step.model_flop_per_token * total_tokens;
  const bool lora = w.task == TaskKind::kLora || w.task == TaskKind::kQlora;
  const double wbytes = c.precision == Precision::kFp32 || c.precision == Precision::kTf32 ? 4 : 2;
  e.checkpoint_gib =
      lora ? LoraAdapterParams(m, c.lora_rank, c.lora_targets) * (2 + 12) / kGiB
           : m.params.total * (wbytes + OptimizerBytesPerParam(c.optimizer, c.precision)) / kGiB;
  if (peak <= 0) return;  // no published peak: memory only
  const double tps = tokens_step / plan.step.step_s;
  perf.tokens_per_s = tps;
  perf.tokens_per_s_per_gpu = tps / c.gpus;
  perf.step_time_s = plan.step.step_s;
  const double achieved = plan.step.model_flop_per_token * tps / c.gpus;
  perf.tflops_per_gpu = achieved / 1e12;
  perf.mfu = achieved / peak;
  perf.hfu = plan.step.hardware_flop_per_token * tps / c.gpus / peak;
  const double goodput = w.goodput > 0 ? w.goodput : (w.task == TaskKind::kPretrain ? 0.9 : 0.95);
  e.hours = total_tokens / tps / goodput / 3600;
  e.gpu_hours = *e.hours * c.gpus;
  const bool low_conf = EfficiencyFor(ctx.gpu).low_confidence;
  if (w.mfu > 0) {  // the user's own MFU: what is left is the step's other terms
    SetBand(&e, "time.hours", *e.hours, 0.1, 0.1);
  } else {
    SetMeasuredBand(ctx, "time.hours", *e.hours, low_conf);
  }
  if (!ctx.detailed()) return;
  ctx.Assume("goodput " + Num(goodput) + " (restarts, checkpoints, evaluation; --goodput)");
  ctx.Assume("global batch " + Num(c.global_batch, 0) + " sequences of " + Num(c.seq, 0) +
             " tokens, " + Num(c.MicroBatches(), 0) + " micro-batches of " +
             std::to_string(c.par.micro_batch) + " per step");
  if (w.mfu > 0) {
    ctx.Assume("MFU fixed at " + Num(w.mfu) + " by --mfu");
  } else {
    ctx.Assume("matmul efficiency " + Num(EfficiencyFor(ctx.gpu).matmul) + " of dense " +
               PrecisionName(c.precision) + " peak (" + EfficiencyFor(ctx.gpu).name +
               "); step: compute " + Num(plan.step.compute_s, 3) + " s, memory-bound ops " +
               Num(plan.step.memory_s, 3) + " s, TP comm " + Num(plan.step.tp_comm_s, 3) +
               " s, exposed DP comm " + Num(plan.step.dp_comm_exposed_s, 3) +
               " s, pipeline bubble " + Num(100 * plan.step.bubble_fraction, 1) + "%");
  }
  if (!w.flash_attention) ctx.Assume("unfused attention (no FlashAttention)");
  const FrameworkTraits& fw = TraitsOf(c.par.framework);
  ctx.Assume(
      std::string("framework ") + FrameworkName(c.par.framework) +
      (w.framework ? "" : " (default for this layout; --framework)") +
      (c.torch_compile ? (*c.torch_compile ? " under torch.compile" : " in eager mode") : "") +
      ": TP comm " +
      (fw.tp_overlap && c.par.sequence_parallel ? "overlapped with GEMMs" : "not overlapped") +
      ", gradient reduction " + (fw.grad_reduce_overlap ? "behind backward" : "after it") +
      (fw.uneven_pipeline ? ", pipeline stages balanced with embedding and head" : ""));
  if (c.offload != Offload::kNone) {
    ctx.Assume("optimizer offloaded to " +
               std::string(c.offload == Offload::kNvme ? "NVMe" : "CPU") +
               ": host Adam, PCIe and NVMe traffic " + Num(plan.step.offload_s, 3) +
               " s per step (" + Num(ctx.topo.host_cores_per_device, 0) + " CPU cores per GPU" +
               (ctx.topo.host_assumed ? ", DGX-class host assumed" : "") + ")");
  }
  if (low_conf)
    ctx.Warn("no published LLM training efficiency for " + ctx.gpu.model +
             "; wide uncertainty band");
  if (m.shape_assumed) {
    ctx.Assume("architecture not given: GPT-like shape assumed (" + Num(m.layers, 0) +
               " layers, hidden " + Num(m.hidden, 0) + ")");
  }
}

}  // namespace

Status EstimateTraining(const EstimateContext& ctx) {
  const Workload& w = ctx.w;
  const ModelShape m = MakeShape(w.model);
  const Precision precision = w.precision.value_or(Default16Bit(ctx.gpu));
  GPUADVISOR_RETURN_IF_ERROR(CheckTrainingHardware(ctx, precision));
  ctx.out->precision = precision;
  ctx.out->params_total = m.params.total;
  ctx.out->params_active = m.params.active;
  // Neuron: FP32 training still multiplies in BF16 (neuronx-cc auto-cast, neuron.h).
  const bool neuron = IsNeuronDevice(ctx.gpu);
  if (neuron && w.torch_compile) {
    return Status::Unsupported("torch-compile: applies to PyTorch on GPUs; on " + ctx.gpu.model +
                               " neuronx-cc compiles every graph")
        .WithField("torch-compile");
  }
  const Precision matmul = neuron ? NeuronMatmulPrecision(precision) : precision;
  const std::optional<double> peak = GemmPeakFlops(ctx.gpu, matmul);
  Search search{
      ctx, m, BaseConfig(ctx, m, precision), DeviceMemoryBytes(ctx.gpu), peak.value_or(0), false,
      {},  0};
  GPUADVISOR_RETURN_IF_ERROR(search.Run());
  ctx.out->layouts_evaluated = search.tried;
  const ParallelismRequest& r = ctx.req;
  ctx.out->parallelism.chosen = !(r.tp && r.pp && r.zero && r.micro_batch && r.recompute);
  Report(ctx, search.best, peak.value_or(0), m);
  ctx.out->parallelism.chosen = !(r.tp && r.pp && r.zero && r.micro_batch && r.recompute);
  if (!peak) {
    ctx.Warn("no published dense " + std::string(PrecisionName(precision)) + " peak for " +
             ctx.gpu.model + ": time is not estimated");
  }
  if (ctx.detailed() && matmul != precision) {
    ctx.Assume(std::string("matmuls in ") + PrecisionName(matmul) +
               " (neuronx-cc's default, --auto-cast matmult); weights and optimizer states in " +
               PrecisionName(precision));
  }
  // Training past the window is how context gets extended (position interpolation, YaRN, long-
  // context continued pretraining): a warning, not an error, unlike serving (Validate).
  if (w.model.context_length > 0 && w.seq_len > w.model.context_length) {
    ctx.Warn("seq-len " + std::to_string(w.seq_len) + " exceeds the model's " +
             std::to_string(w.model.context_length) +
             "-token context window: training that long extends the window (RoPE scaling, "
             "long-context fine-tuning); estimated as given");
  }
  if (ctx.detailed() && !w.precision) {
    ctx.Assume(std::string("precision ") + PrecisionName(precision) + " (default for " +
               ctx.gpu.model + ")");
  }
  if (ctx.detailed() && ctx.out->parallelism.chosen) {
    const ParallelismChoice& p = ctx.out->parallelism;
    ctx.Assume("parallelism chosen: tp " + std::to_string(p.tp) + ", pp " + std::to_string(p.pp) +
               ", dp " + std::to_string(p.dp) + ", ZeRO " + std::to_string(p.zero) +
               ", recompute " + RecomputeName(p.recompute) + " (fastest that fits)");
  }
  return Status::OK();
}

}  // namespace gpuadvisor::workload_internal
