#include "workload/train_model.h"

#include <algorithm>
#include <cmath>

namespace gpuadvisor::workload_internal {
namespace {

constexpr double kCudaContextBytes = 1.0 * kGiB;  // CUDA context + framework (0.5-1 GB)
constexpr double kCommBufferBytes = 0.5 * kGiB;   // NCCL buffers when more than one device
constexpr double kFragmentation = 0.05;           // allocator fragmentation (5-10%)
constexpr double kDpOverlap = 0.9;                // share of DP traffic hidden behind backward
constexpr double kQloraMatmulSlowdown = 1.4;      // NF4 dequantisation in every base matmul
// FP8 training (TransformerEngine-style): only the Linear GEMMs run in FP8, and they reach a
// smaller share of their (doubled) peak than BF16 GEMMs do of theirs; attention stays 16-bit.
constexpr double kFp8GemmEfficiency = 0.85;  // FP8 GEMM share of peak / BF16 GEMM share
constexpr double kFp8CastBytes = 3;          // read 16-bit + write 8-bit per GEMM input

bool IsLora(TaskKind t) { return t == TaskKind::kLora || t == TaskKind::kQlora; }
bool Is32Bit(Precision p) { return p == Precision::kFp32 || p == Precision::kTf32; }

// Elementwise (non-matmul) HBM traffic per token per layer, one pass: norms, residual adds,
// activation functions, dropout, bias; about 40 bytes per hidden unit and 12 per FFN unit in
// unfused PyTorch/Megatron kernels.
double ElementwiseBytesPerTokenLayer(const ModelShape& m, double t, bool sp) {
  return 40 * m.hidden / (sp ? t : 1) + 12 * m.ffn_active / t;
}

// Softmax/mask/dropout traffic of unfused attention per token per layer, one pass.
double UnfusedAttentionBytesPerTokenLayer(const ModelShape& m, double s, double t) {
  return (m.dropout ? 14 : 8) * m.heads * AttentionContext(m, s) / t;
}

double Passes(Recompute r) { return r == Recompute::kFull ? 4 : 3; }  // fwd + 2x bwd (+ refwd)

// Elements entering FP8 GEMMs per token per layer (QKV, output projection, MLP up and down),
// each cast (and, backward, transposed) once per pass.
double Fp8CastBytesPerTokenLayer(const ModelShape& m, double t) {
  const double inputs = 2 * m.hidden + m.heads * m.v_dim + m.ffn_active;
  return kFp8CastBytes * inputs / t;
}

// Heaviest pipeline stage over the mean one: each of the v chunks of a stage holds at most
// ceil(L/(p·v)) layers and the last stage also the LM head (and loss), so a large vocabulary
// or an uneven split slows the whole pipeline.
double StageImbalance(const ModelShape& m, double seq, int pp, int v) {
  if (pp <= 1) return 1;
  const double head = 2 * m.vocab * m.hidden;
  const double layer = (ForwardFlopPerToken(m, seq) - head) / m.layers;
  const double mean = (m.layers * layer + head) / pp;
  const double heaviest = std::ceil(m.layers / (pp * v)) * v * layer + head;
  return std::max(1.0, heaviest / mean);
}

// Ring all-reduce time of `bytes` over n ranks at `bps` with `latency` per step.
double AllReduceSeconds(double bytes, double n, double bps, double latency) {
  if (n <= 1) return 0;
  return 2 * (n - 1) / n * bytes / bps + 2 * std::log2(n) * latency;  // tree latency
}

// Bandwidth seen by one DP rank: NVLink/PCIe when the DP group fits in a node, otherwise the
// node's network shared by its devices (hierarchical reduce-scatter inside the node first).
double DpBandwidth(const Topology& topo, double tp, double pp, double dp) {
  const double model_parallel = tp * pp;
  if (model_parallel * dp <= topo.gpus_per_node) return topo.intra_bps;
  const double dp_ranks_per_node = std::max(1.0, std::min(dp, topo.gpus_per_node / model_parallel));
  return topo.inter_bps_node / topo.gpus_per_node * dp_ranks_per_node;
}

}  // namespace

double TrainConfig::MicroBatches() const {
  const double per_pipeline = global_batch / std::max(1, par.dp);
  return std::max(1.0, std::ceil(per_pipeline / std::max(1, par.micro_batch)));
}

double ParamsPerDevice(const ModelShape& m, double tp, double pp) {
  const double table = m.params.embedding;
  const double head = m.tied ? m.vocab * m.hidden : m.params.lm_head;
  const double layers_params = m.params.total - m.params.embedding - m.params.lm_head;
  if (pp <= 1) return m.params.total / tp;
  // The first stage holds the table, the last the head (a copy when tied): the larger bounds.
  return (layers_params / pp + std::max(table, head)) / tp;
}

double LoraAdapterParams(const ModelShape& m, int rank, LoraTargets targets) {
  const double h = m.hidden, q = m.heads * m.head_dim, kv = m.kv_heads * m.head_dim;
  const double qv = (h + q) + (h + kv);
  const double attention = qv + (h + kv) + (q + h);
  // MLP matrices per layer, mean over layers: every routed and shared expert of a MoE layer,
  // the dense FFN elsewhere. (MLA's projections are approximated by heads of head_dim.)
  const double matrices = m.gated ? 3 : 2;
  double mlp = matrices * (h + m.ffn) * m.experts;
  if (m.moe_layers > 0) {
    const double moe = mlp + (m.shared_ffn > 0 ? matrices * (h + m.shared_ffn) : 0);
    mlp =
        (m.moe_layers * moe + (m.layers - m.moe_layers) * matrices * (h + m.dense_ffn)) / m.layers;
  }
  double per_layer = targets == LoraTargets::kQv          ? qv
                     : targets == LoraTargets::kAttention ? attention
                                                          : attention + mlp;
  return rank * per_layer * m.layers;
}

double OptimizerBytesPerParam(Optimizer o, Precision p) {
  const bool fp32 = Is32Bit(p);
  switch (o) {
    case Optimizer::kAdamW:
      return fp32 ? 8 : 12;
    case Optimizer::kAdam8bit:
      return fp32 ? 2 : 6;
    case Optimizer::kSgd:
      return fp32 ? 4 : 8;
  }
  return 12;
}

namespace {

void ModelStates(const TrainConfig& c, MemoryBytes* out) {
  const ModelShape& m = *c.model;
  const ParallelismChoice& p = c.par;
  const double psi = ParamsPerDevice(m, p.tp, p.pp);
  const double dp = p.dp, wbytes = Is32Bit(c.precision) ? 4 : 2;
  const double gbytes = wbytes;
  const double k = OptimizerBytesPerParam(c.optimizer, c.precision);
  double trainable = psi;
  if (IsLora(c.task)) {
    trainable = LoraAdapterParams(m, c.lora_rank, c.lora_targets) / (p.tp * p.pp);
    const double linear_share = m.params.total > 0 ? m.params.linear / m.params.total : 1;
    const double base_bytes = c.task == TaskKind::kQlora
                                  ? linear_share * (0.5 + 0.127 / 8) + (1 - linear_share) * 2
                                  : wbytes;  // QLoRA: NF4 + double-quantised constants
    out->weights = psi * base_bytes + trainable * 2;
    out->gradients = trainable * 2;
    out->optimizer = trainable * 12 / (p.zero >= 1 ? dp : 1);
    return;
  }
  out->weights = psi * wbytes / (p.zero >= 3 ? dp : 1);
  out->gradients = trainable * gbytes / (p.zero >= 2 ? dp : 1);
  out->optimizer = trainable * k / (p.zero >= 1 ? dp : 1);
  if (c.offload != Offload::kNone) out->optimizer = 0;
}

double Activations(const TrainConfig& c) {
  const ModelShape& m = *c.model;
  const ParallelismChoice& p = c.par;
  const double s = c.seq / p.cp, b = p.micro_batch;
  ActivationOptions o{double(p.tp), p.sequence_parallel, c.flash_attention, p.recompute};
  const double per_layer = ActivationBytesPerLayer(m, s, b, o);
  const double layers_per_stage = m.layers / p.pp;
  const double mb = c.MicroBatches();
  const double in_flight = p.pp > 1 ? std::min<double>(p.pp, mb) : 1;
  const double interleave =
      p.pp > 1 && p.virtual_pp > 1 ? 1 + (p.pp - 1.0) / (double(p.pp) * p.virtual_pp) : 1;
  double stage0 = layers_per_stage * per_layer * in_flight * interleave;
  if (p.recompute == Recompute::kFull) {  // one layer is rebuilt in full during backward
    ActivationOptions live = o;
    live.recompute = Recompute::kNone;
    stage0 += ActivationBytesPerLayer(m, s, b, live);
  }
  const double logits = LogitBytes(m, s, b, p.tp);
  if (p.pp <= 1) return stage0 + logits;
  const double last = layers_per_stage * per_layer + logits;
  return std::max(stage0, last);
}

}  // namespace

MemoryBytes TrainingMemory(const TrainConfig& c) {
  MemoryBytes out;
  ModelStates(c, &out);
  out.activations = Activations(c);
  double overhead = kCudaContextBytes + (c.gpus > 1 ? kCommBufferBytes : 0);
  if (c.par.zero >= 3 && !IsLora(c.task)) {  // two gathered layers (current + prefetch)
    overhead += 2 * c.model->params.per_layer / c.par.tp * (Is32Bit(c.precision) ? 4 : 2);
  }
  overhead += kFragmentation * (out.weights + out.gradients + out.optimizer + out.activations);
  out.overhead = overhead;
  return out;
}

namespace {

// Exposed data-parallel (ZeRO/FSDP) communication per step.
double DpCommSeconds(const TrainConfig& c, const Topology& topo, double compute_s) {
  const ParallelismChoice& p = c.par;
  if (p.dp <= 1) return 0;
  const ModelShape& m = *c.model;
  const double psi = IsLora(c.task)
                         ? LoraAdapterParams(m, c.lora_rank, c.lora_targets) / (p.tp * p.pp)
                         : ParamsPerDevice(m, p.tp, p.pp);
  const double bytes = Is32Bit(c.precision) ? 4 : 2;
  const double bw = DpBandwidth(topo, p.tp, p.pp, p.dp);
  const double latency = topo.nodes > 1 ? topo.inter_latency_s : topo.intra_latency_s;
  // All-reduce (= reduce-scatter + all-gather) of the gradients once per step; ZeRO-3 also
  // all-gathers the weights for forward and backward of every micro-batch [ZeRO §7].
  double comm = AllReduceSeconds(psi * bytes, p.dp, bw, latency);
  if (p.zero >= 3 && !IsLora(c.task)) {
    comm += 2 * c.MicroBatches() * (p.dp - 1) / p.dp * psi * bytes / bw;
  }
  return std::max(comm * (1 - kDpOverlap), comm - kDpOverlap * compute_s * 2 / 3);
}

double TpCommSeconds(const TrainConfig& c, const Topology& topo, double tokens_per_pipeline) {
  const ParallelismChoice& p = c.par;
  if (p.tp <= 1) return 0;
  const ModelShape& m = *c.model;
  const bool in_node = p.tp <= topo.gpus_per_node;
  const double bw = in_node ? topo.intra_bps : topo.inter_bps_node / topo.gpus_per_node;
  // Megatron: 2 all-reduces of s·b·h 16-bit values per layer forward, 2 backward, 2 more when
  // the forward is recomputed; SP turns each into RS + AG of the same volume.
  const double collectives = p.recompute == Recompute::kFull ? 6 : 4;
  const double bytes_per_token = 2 * m.hidden;
  const double layers = m.layers / p.pp;
  return layers * collectives * 2 * (p.tp - 1) / p.tp * bytes_per_token * tokens_per_pipeline / bw;
}

double PpCommSeconds(const TrainConfig& c, const Topology& topo) {
  const ParallelismChoice& p = c.par;
  if (p.pp <= 1) return 0;
  const bool in_node = p.tp * p.pp <= topo.gpus_per_node;
  const double bw = in_node ? topo.intra_bps : topo.inter_bps_node / topo.gpus_per_node;
  const double activation = c.seq / p.cp * p.micro_batch * c.model->hidden * 2 / p.tp;
  return c.MicroBatches() * 2 * activation * p.virtual_pp / bw;
}

}  // namespace

TrainStep TrainingStep(const TrainConfig& c, const GpuSpec& gpu, const Topology& topo,
                       double peak_flops, double mfu_override) {
  const ModelShape& m = *c.model;
  const ParallelismChoice& p = c.par;
  const GenerationEfficiency& eff = EfficiencyFor(gpu);
  TrainStep out;
  const bool lora = IsLora(c.task);
  out.model_flop_per_token = lora ? LoraFlopPerToken(m, c.seq) : TrainFlopPerToken(m, c.seq);
  const double recompute_extra =
      TrainHardwareFlopPerToken(m, c.seq, p.recompute) - TrainFlopPerToken(m, c.seq);
  out.hardware_flop_per_token = out.model_flop_per_token + recompute_extra;
  const double tokens_step = c.global_batch * c.seq;
  const double tokens_per_gpu = tokens_step / c.gpus;
  const double tokens_per_pipeline = tokens_step / (double(p.dp) * p.cp);
  if (mfu_override > 0) {
    out.compute_s = out.model_flop_per_token * tokens_per_gpu / (peak_flops * mfu_override);
    out.step_s = out.compute_s;
    return out;
  }
  double matmul_eff = eff.matmul;
  if (c.task == TaskKind::kQlora) matmul_eff /= kQloraMatmulSlowdown;
  const double hw_flop = out.hardware_flop_per_token * tokens_per_gpu;
  const std::optional<double> bf16_peak = PeakFlops(gpu, Precision::kBf16);
  if (c.precision == Precision::kFp8 && bf16_peak) {
    const double fwd = ForwardFlopPerToken(m, c.seq);
    const double attention_share = (fwd - 2 * m.matmul_params) / fwd;
    out.compute_s =
        hw_flop * (1 - attention_share) / (peak_flops * matmul_eff * kFp8GemmEfficiency) +
        hw_flop * attention_share / (*bf16_peak * matmul_eff);
  } else {
    out.compute_s = hw_flop / (peak_flops * matmul_eff);
  }
  out.compute_s *= StageImbalance(m, c.seq, p.pp, p.virtual_pp);
  const double bw = gpu.memory_bw_gbps.value_or(0) * 1e9 * eff.bandwidth;
  if (bw > 0) {
    double per_token_layer =
        Passes(p.recompute) * ElementwiseBytesPerTokenLayer(m, p.tp, p.sequence_parallel);
    if (!c.flash_attention) {
      per_token_layer += Passes(p.recompute) * UnfusedAttentionBytesPerTokenLayer(m, c.seq, p.tp);
    }
    if (Is32Bit(c.precision)) per_token_layer *= 2;  // 4-byte activations
    if (c.precision == Precision::kFp8) {
      per_token_layer += Passes(p.recompute) * Fp8CastBytesPerTokenLayer(m, p.tp);
    }
    // Each stage streams its layers for every token of its pipeline (per_token_layer is
    // already divided by tp where the work is sharded).
    out.memory_s = per_token_layer * (m.layers / p.pp) * tokens_per_pipeline / bw;
  }
  out.tp_comm_s = TpCommSeconds(c, topo, tokens_per_pipeline);
  out.pp_comm_s = PpCommSeconds(c, topo);
  const double busy = out.compute_s + out.memory_s * (1 - eff.elementwise_overlap) + out.tp_comm_s;
  out.bubble_fraction = p.pp > 1 ? (p.pp - 1.0) / (p.virtual_pp * c.MicroBatches()) : 0;
  out.dp_comm_exposed_s = DpCommSeconds(c, topo, out.compute_s);
  if (bw > 0) {  // optimizer step streams weights, grads and states once
    const double states = ParamsPerDevice(m, p.tp, p.pp) * 16 / (p.zero >= 1 ? p.dp : 1);
    out.optimizer_s = lora ? 0 : 2 * states / bw;
  }
  out.step_s =
      busy * (1 + out.bubble_fraction) + out.pp_comm_s + out.dp_comm_exposed_s + out.optimizer_s;
  return out;
}

}  // namespace gpuadvisor::workload_internal
