#include "workload/train_model.h"

#include <algorithm>
#include <cmath>

namespace gpuadvisor::workload_internal {
namespace {

constexpr double kCudaContextBytes = 1.0 * kGiB;  // CUDA context + framework (0.5-1 GB)
constexpr double kCommBufferBytes = 0.5 * kGiB;   // NCCL buffers when more than one device
// PyTorch's caching allocator keeps freed blocks reserved and splits them; with recomputation,
// sharded training, offloading and LoRA its fragmentation, (reserved - allocated) / reserved,
// averages 15% (up to 33%) over eight LLMs on A100-80GB [Guo et al., GMLake, ASPLOS 2024]. It
// comes from what is allocated and freed during a step (activations, gradients, gather
// buffers); weights, optimizer states and a persistent gradient buffer are allocated once.
// Without those techniques every step requests the same sizes in the same order, which the
// cached blocks serve as they are (GMLake §2.3: the irregular requests come from the memory
// reduction techniques). A device must hold the reserved figure.
constexpr double kAllocatorFragmentation = 0.15;
// A collective that runs beside compute slows it: 18.9% on average (up to 40%) over GPT and
// Llama layers on A100, H100, MI250 and MI210 [Lee et al. 2025, arXiv:2507.03114] (NCCL's
// CTAs take SMs from the GEMMs). Overlapped communication of duration c costs 0.19·c.
constexpr double kOverlapContention = 0.19;
// TransformerEngine userbuffers split each TP-overlapped GEMM into chunks and exchange one
// chunk while the next computes (TE's initialize_ub default and NeMo's tp_comm_overlap configs:
// "pipeline" method, num_splits 4): one chunk of the collective stays exposed.
constexpr double kTpOverlapChunks = 4;
// DeepSpeed CPU-Adam: 0.22 s for one billion parameters on the 2 x 24-core Xeon Platinum 8168
// of a DGX-2 [Ren et al., ZeRO-Offload, USENIX ATC 2021, CPU-Adam latency table] = 95 M
// parameters/s per core.
constexpr double kCpuAdamParamsPerCoreS = 1e9 / (0.22 * 48);
// ZeRO-Infinity moves the fp32 master weights and both Adam moments (12 B/param) from NVMe and
// back every step [Rajbhandari et al. 2021]; the reads and writes pipeline with CPU-Adam.
constexpr double kNvmeOptimizerBytes = 2 * 12;
constexpr double kQloraMatmulSlowdown = 1.4;  // NF4 dequantisation in every base matmul
// FP8 training (TransformerEngine-style): only the Linear GEMMs run in FP8, and they reach a
// smaller share of their (doubled) peak than BF16 GEMMs do of theirs; attention stays 16-bit.
constexpr double kFp8GemmEfficiency = 0.85;  // FP8 GEMM share of peak / BF16 GEMM share
constexpr double kFp8CastBytes = 3;          // read 16-bit + write 8-bit per GEMM input
// NVFP4 training (TransformerEngine's NVFP4BlockScaling recipe; NVIDIA, "Pretraining Large
// Language Models with NVFP4", 2025): every Linear GEMM (forward, dgrad, wgrad) takes FP4
// inputs at the FP4 tensor rate (GemmPeakFlops), at the FP8 kernels' share of it; attention
// stays 16-bit. An FP4 tensor cannot be transposed in place, so each GEMM input is quantised
// twice (row- and column-wise), 0.5 B + one E4M3 scale per 16 each, from one 16-bit read; the
// wgrad inputs' random Hadamard transform and the gradients' stochastic rounding run inside the
// same quantisation kernels.
constexpr double kFp4CastBytes = 2 + 2 * (0.5 + 1.0 / 16);
// Linear GEMMs in 8- or 4-bit: attention stays 16-bit, inputs pay a quantisation pass.
bool LowPrecisionGemms(Precision p) { return p == Precision::kFp8 || p == Precision::kFp4; }

bool IsLora(TaskKind t) { return t == TaskKind::kLora || t == TaskKind::kQlora; }
bool Is32Bit(Precision p) { return p == Precision::kFp32 || p == Precision::kTf32; }

// Elementwise (non-matmul) HBM traffic per token per layer, one pass: norms, residual adds,
// activation functions, dropout, bias; about 40 bytes per hidden unit and 12 per FFN unit in
// unfused PyTorch/Megatron kernels.
double ElementwiseBytesPerTokenLayer(const ModelShape& m, double t, bool sp) {
  return 40 * m.hidden / (sp ? t : 1) + 12 * m.ffn_active / t;
}

// Elementwise traffic of eager PyTorch (torchtitan without torch.compile), per token and
// layer, forward, from the ops of torchtitan's Llama block: RMSNorm = x.float(), pow, mean,
// rsqrt, mul, type_as, weight mul = 36 B per element (2 norms); two residual adds of 6 B; the
// complex-number rotary embedding on q and k = 20 B per element; SiLU and the gated product
// = 10 B per FFN element. Backward ops move about twice as much, as in the fused count.
double EagerElementwiseBytesPerTokenLayer(const ModelShape& m, double t, bool sp) {
  const double qk = (m.heads + m.kv_heads) * m.head_dim;
  return (2 * 36 + 2 * 6) * m.hidden / (sp ? t : 1) + 20 * qk / t +
         10 * m.ffn * m.active_experts / t;
}

// Share of the dense peak that fused attention reaches. FlashAttention-2 was written for
// Ampere and reaches GEMM-class utilisation there (Dao 2023: 72% model FLOPs utilisation
// end to end on A100), but only 35% of an H100's peak; Hopper kernels (FlashAttention-3,
// cuDNN 9 fused attention) reach 75% forward and about half in backward [Shah et al. 2024,
// FlashAttention-3, §1 and §4.1]. Elsewhere attention is taken at the GEMM efficiency.
double AttentionEfficiency(const GpuSpec& gpu, const FrameworkTraits& f, double matmul) {
  if (!gpu.architecture.starts_with("Hopper")) return matmul;
  return f.hopper_attention ? 0.6 : 0.35;
}

// Softmax/mask/dropout traffic of unfused attention per token per layer, one pass.
double UnfusedAttentionBytesPerTokenLayer(const ModelShape& m, double s, double t) {
  return (m.dropout ? 14 : 8) * m.heads * AttentionContext(m, s) / t;
}

// fwd + 2x bwd, + a re-forward of the elementwise ops with full or op-level recomputation.
double Passes(Recompute r) { return r == Recompute::kFull || r == Recompute::kOp ? 4 : 3; }

// Elements entering FP8 GEMMs per token per layer (QKV, output projection, MLP up and down),
// each cast (and, backward, transposed) once per pass.
double CastBytesPerTokenLayer(const ModelShape& m, double t, Precision p) {
  const double inputs = 2 * m.hidden + m.heads * m.v_dim + m.ffn_active;
  return (p == Precision::kFp4 ? kFp4CastBytes : kFp8CastBytes) * inputs / t;
}

// Heaviest pipeline stage over the mean one. Equal split (Megatron-LM before Megatron-Core):
// each of the v chunks of a stage holds at most ceil(L/(p·v)) layers and the last stage also
// the LM head (and loss), so a large vocabulary or an uneven split slows the whole pipeline.
// Balanced split (Megatron-Core --decoder-last-pipeline-num-layers; Llama 3 §3.3.2 takes one
// layer off the first and last stages): the last stage holds n layers and the head, the
// others share the rest evenly, with the n that minimises the heaviest stage.
// `forward` is ForwardFlopPerToken(m, seq).
double StageImbalance(const ModelShape& m, double forward, int pp, int v, bool balanced) {
  if (pp <= 1) return 1;
  const double head = 2 * m.vocab * m.hidden;
  const double layer = (forward - head) / m.layers;
  const double mean = (m.layers * layer + head) / pp;
  double heaviest = std::ceil(m.layers / (pp * v)) * v * layer + head;
  if (balanced) {  // the best n is next to where both sides are equal
    const double even =
        std::clamp(std::floor((m.layers - (pp - 1) * head / layer) / pp), 0.0, m.layers);
    for (double last = even - 1; last <= even + 1; ++last) {
      if (last < 0 || last > m.layers) continue;
      const double others = std::ceil((m.layers - last) / (pp - 1)) * layer;
      heaviest = std::min(heaviest, std::max(others, last * layer + head));
    }
  }
  return std::max(1.0, heaviest / mean);
}

// Time of `comm` seconds of communication run beside `compute` seconds of work it can hide
// behind, beyond the compute itself: what does not fit is exposed, what fits slows the compute.
double Overlapped(double comm, double compute) {
  return std::max(0.0, comm - compute) + kOverlapContention * std::min(comm, compute);
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

const FrameworkTraits& TraitsOf(Framework f) {
  // Each framework lists what it does beyond the defaults of FrameworkTraits (nothing overlapped,
  // reductions in the training precision, even stages, 4 B of loss per logit, fused kernels).
  // Megatron-Core / NeMo performance recipes: --tp-comm-overlap (TransformerEngine userbuffers;
  // MLPerf Training v4.0 NVIDIA configs set TP_COMM_OVERLAP=True), --overlap-grad-reduce and
  // --overlap-param-gather with --use-distributed-optimizer, uneven first/last stages;
  // Megatron-LM sets accumulate_allreduce_grads_in_fp32 for bf16 (arguments.py); the
  // vocab-parallel cross entropy keeps fp32 softmax and writes its gradient in place;
  // TransformerEngine's fused attention runs cuDNN 9's Hopper kernels; fused norms/activations.
  // Megatron's DDP accumulates gradients in an fp32 main_grad buffer for bf16/fp8 training
  // (grad_reduce_in_fp32, NeMo's MegatronMixedPrecision default); its layers are
  // TransformerEngine's (fused SwiGLU; FP8 GEMM inputs saved in FP8; --fp8-param-gather with
  // the distributed optimizer, FP8_PARAMS=True in NVIDIA's MLPerf Training NeMo configs).
  static const FrameworkTraits kMegatronCore{.tp_overlap = true,
                                             .grad_reduce_overlap = true,
                                             .param_gather_overlap = true,
                                             .uneven_pipeline = true,
                                             .fp32_reduce_with_bf16 = true,
                                             .hopper_attention = true,
                                             .grad_buffer = true,
                                             .transformer_engine = true};
  // Megatron-LM 2021 (Narayanan et al.) and Megatron-DeepSpeed (BLOOM): the gradient
  // all-reduce runs after the last micro-batch, nothing overlaps, stages split evenly.
  static const FrameworkTraits kMegatronLm{.fp32_reduce_with_bf16 = true, .grad_buffer = true};
  // PyTorch FSDP/DDP [Zhao et al., PyTorch FSDP, VLDB 2023; Li et al., PyTorch DDP, VLDB 2020]:
  // bucketed gradient reduction during backward, ZeRO-3 gathers prefetched a layer ahead,
  // reduce_dtype fp32 (Composer's FSDP mixed precision DEFAULT); llm-foundry's fused loss and
  // kernels, FlashAttention-2.
  static const FrameworkTraits kFsdp{
      .grad_reduce_overlap = true, .fp32_reduce_always = true, .fp32_reduce_with_bf16 = true};
  // torchtitan (Dec 2024) in eager mode: FSDP2 as above (mixed_precision_reduce = float32); the
  // loss is F.cross_entropy(pred.float()): bf16 logits, an fp32 copy and the fp32 log-softmax in
  // forward; at the backward's peak the saved log-softmax, its gradient and the input gradient,
  // all fp32 = 12 B per logit. PyTorch SDPA's flash backend (FlashAttention-2); without
  // torch.compile every norm, rotary and activation op is its own kernel.
  static const FrameworkTraits kTorchtitan{.grad_reduce_overlap = true,
                                           .fp32_reduce_always = true,
                                           .fp32_reduce_with_bf16 = true,
                                           .loss_bytes_per_logit = 12,
                                           .eager_elementwise = true};
  // DeepSpeed ZeRO: overlap_comm buckets, gradients communicated in the training dtype
  // (communication_data_type unset), ZeRO-2 reduce-scatters every micro-batch's gradients.
  static const FrameworkTraits kDeepSpeed{.grad_reduce_overlap = true,
                                          .reduce_every_micro_batch = true};
  // AWS NeuronX Distributed (Trainium): Megatron-style TP/SP layers and ZeRO-1; the Neuron
  // compiler schedules the collectives, no TP-GEMM overlap is documented; gradients reduced in
  // the training precision.
  static const FrameworkTraits kNeuronx{.grad_reduce_overlap = true};
  // torchtune (recipes *_distributed, 2024-25): FSDP2 without a mixed-precision policy, so
  // weights, gradients, their reduction and AdamW's moments are all bf16 (dtype: bf16; no fp32
  // master copy). CEWithChunkedOutputLoss (num_output_chunks = 8) never materialises the fp32
  // logits whole: the bf16 chunks (2 B per logit) stay, one chunk at a time is upcast and, with
  // the compiled loss, its fp32 values and gradient live beside them: 2 + 2 x 4 / 8 = 3 B.
  static const FrameworkTraits kTorchtune{
      .grad_reduce_overlap = true, .loss_bytes_per_logit = 3, .pure_16bit = true};
  // Hugging Face transformers + PEFT under the Trainer (TRL's SFTTrainer and most LoRA/QLoRA
  // guides; transformers 4.46+, PEFT 0.14): a model loaded with torch_dtype bfloat16 trains in
  // pure bf16 (torch.optim.AdamW keeps its states in the parameters' dtype and, foreach, one
  // parameter-sized temporary at the step). Given the labels, the model computes the loss
  // (ForCausalLMLoss: logits.float(), an fp32 log-softmax): 12 B per logit at the backward's
  // peak, as torchtitan's. Modules run eagerly; LlamaRMSNorm upcasts its input to fp32, 4 B
  // more per hidden element and norm kept. PEFT gives each adapted Linear its own dropout, an
  // fp32 copy of the input (autocast_adapter_dtype) and its mask: 5 B per element. QLoRA:
  // bitsandbytes leaves the LM head 16-bit, prepare_model_for_kbit_training casts it, the
  // embeddings and the norms to fp32, and MatMul4Bit keeps the frozen layers' inputs.
  static const FrameworkTraits kHfPeft{.grad_reduce_overlap = true,
                                       .loss_bytes_per_logit = 12,
                                       .eager_elementwise = true,
                                       .pure_16bit = true,
                                       .eager_saved_hidden_bytes = 8,
                                       .lora_dropout_bytes = 5,
                                       .lora_dropout_per_module = true,
                                       .bnb_4bit = true,
                                       .kbit_fp32_upcast = true,
                                       .foreach_step_temp = true};
  // LitGPT (finetune/lora.py with --precision bf16-true): pure bf16; the LM head runs in
  // 128-token chunks, each with a bf16 cross entropy (4 B per logit in all); eager norms and
  // rotary keep ~6 B per hidden element more than the fused count (each RMSNorm its input and
  // its normalised copy, the rotated q and k). LoRA on the fused QKV Linear: one bf16 dropout
  // copy and mask (3 B) of the shared input, and the (q+v)-wide LoRA output zero-padded into
  // the QKV width by index_copy (4 B per hidden element). QLoRA quantises every Linear through
  // bitsandbytes, the LM head included; PagedAdamW's states live in pageable memory outside the
  // device allocator. Lightning-AI/lit-gpt finetune/lora.py and lit_gpt/lora.py (Oct 2023).
  static const FrameworkTraits kLitgpt{.grad_reduce_overlap = true,
                                       .loss_bytes_per_logit = 4,
                                       .eager_elementwise = true,
                                       .pure_16bit = true,
                                       .eager_saved_hidden_bytes = 6,
                                       .lora_dropout_bytes = 3,
                                       .lora_qkv_pad_bytes = 4,
                                       .bnb_4bit = true,
                                       .nf4_lm_head = true};
  switch (f) {
    case Framework::kNeuronx:
      return kNeuronx;
    case Framework::kMegatronCore:
      return kMegatronCore;
    case Framework::kMegatronLm:
      return kMegatronLm;
    case Framework::kFsdp:
      return kFsdp;
    case Framework::kTorchtitan:
      return kTorchtitan;
    case Framework::kDeepSpeed:
      return kDeepSpeed;
    case Framework::kTorchtune:
      return kTorchtune;
    case Framework::kHfPeft:
      return kHfPeft;
    case Framework::kLitgpt:
      return kLitgpt;
  }
  return kFsdp;
}

bool IsPyTorchFramework(Framework f) {
  return f == Framework::kFsdp || f == Framework::kTorchtitan || f == Framework::kTorchtune ||
         f == Framework::kDeepSpeed || f == Framework::kHfPeft || f == Framework::kLitgpt;
}

Framework DefaultFramework(int tp, int pp, bool neuron, bool nvfp4) {
  if (neuron) return Framework::kNeuronx;
  return tp > 1 || pp > 1 || nvfp4 ? Framework::kMegatronCore : Framework::kFsdp;
}

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

double Pure16BitOptimizerBytesPerParam(Optimizer o) {
  switch (o) {
    case Optimizer::kAdamW:
      return 4;                 // two moments in bf16
    case Optimizer::kAdam8bit:  // two 8-bit moments
    case Optimizer::kSgd:       // momentum in bf16
      return 2;
  }
  return 4;
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

// Ranks the ZeRO stages shard over: data x context parallel (Megatron's distributed optimizer
// uses the data-parallel group with context parallelism; torchtitan's FSDP mesh is dp_shard x
// cp), since context-parallel ranks hold the same weights.
double ShardRanks(const ParallelismChoice& p) { return double(p.dp) * p.cp; }

// Bytes per parameter of the weights a device holds. LoRA's frozen base: QLoRA keeps its Linear
// weights in NF4 + double-quantised constants; training in FP8, a frozen base needs no master
// copy, so its Linear weights are kept in FP8 (TransformerEngine fp8_model_init; NeMo's
// fp8_params, set in NVIDIA's MLPerf Training v4.0 Llama-2-70B LoRA configuration). Full
// training in FP8 with TransformerEngine and a distributed optimizer: FP8 Linear weights, the
// fp32 master copy in the (sharded) optimizer states. Embeddings and norms stay 16-bit.
double WeightBytesPerParam(const TrainConfig& c) {
  const ModelShape& m = *c.model;
  const double linear_share = m.params.total > 0 ? m.params.linear / m.params.total : 1;
  if (c.task == TaskKind::kQlora) {
    constexpr double kNf4 = 0.5 + 0.127 / 8;
    const FrameworkTraits& f = TraitsOf(c.par.framework);
    if (!f.bnb_4bit || f.nf4_lm_head || m.params.total <= 0) {
      return linear_share * kNf4 + (1 - linear_share) * 2;
    }
    // bitsandbytes leaves the LM head 16-bit (fp32 once PEFT prepares the model for k-bit
    // training, with the embeddings and norms).
    const double head = m.tied ? 0 : m.params.lm_head;
    const double other = f.kbit_fp32_upcast ? 4 : 2;
    return ((m.params.linear - head) * kNf4 + (m.params.total - m.params.linear + head) * other) /
           m.params.total;
  }
  if (Is32Bit(c.precision)) return 4;
  const bool fp8_params =
      c.precision == Precision::kFp8 &&
      (IsLora(c.task) || (TraitsOf(c.par.framework).transformer_engine && c.par.zero >= 1));
  return fp8_params ? linear_share * 1 + (1 - linear_share) * 2 : 2;
}

// Bytes per element of the gradients a device accumulates.
double GradientBytes(const TrainConfig& c) {
  if (Is32Bit(c.precision) || TraitsOf(c.par.framework).grad_buffer) return 4;
  return 2;
}

// ZeRO-1 shards the optimizer states, ZeRO-2 also the gradients, ZeRO-3 / FSDP every parameter
// it wraps, frozen ones included (a LoRA base over N ranks: 1/N of it per device).
void ModelStates(const TrainConfig& c, MemoryBytes* out) {
  const ModelShape& m = *c.model;
  const ParallelismChoice& p = c.par;
  const double psi = ParamsPerDevice(m, p.tp, p.pp);
  const double shard = ShardRanks(p);
  const FrameworkTraits& f = TraitsOf(p.framework);
  const double k = f.pure_16bit && !Is32Bit(c.precision)
                       ? Pure16BitOptimizerBytesPerParam(c.optimizer)
                   : IsLora(c.task) ? 12
                                    : OptimizerBytesPerParam(c.optimizer, c.precision);
  double trainable = psi, weights = psi * WeightBytesPerParam(c);
  if (IsLora(c.task)) {
    trainable = LoraAdapterParams(m, c.lora_rank, c.lora_targets) / (p.tp * p.pp);
    weights += trainable * 2;
  }
  out->weights = weights / (p.zero >= 3 ? shard : 1);
  out->gradients = trainable * GradientBytes(c) / (p.zero >= 2 ? shard : 1);
  out->optimizer = trainable * k / (p.zero >= 1 ? shard : 1);
  if (c.offload != Offload::kNone) out->optimizer = 0;
}

// What a layer keeps beyond ActivationBytesPerLayer's count under the framework's kernels, per
// layer and device (FrameworkTraits): eager modules' extra copies, LoRA dropout and padding,
// and the inputs bitsandbytes' 4-bit Linears keep although their weights are frozen.
double FrameworkExtrasPerLayer(const TrainConfig& c, double s, double b) {
  const ModelShape& m = *c.model;
  const FrameworkTraits& f = TraitsOf(c.par.framework);
  const double h = m.hidden, q = m.heads * m.head_dim, t = c.par.tp;
  double per_token = 0;
  const bool eager = f.eager_elementwise && !c.torch_compile.value_or(false);
  if (eager) per_token += f.eager_saved_hidden_bytes * h;
  if (IsLora(c.task)) {
    // Adapted modules and their inputs: q, k, v read the block's normalised input, o the
    // attention output, gate and up the MLP's normalised input, down the activation.
    double modules = 0, inputs = 0;
    switch (c.lora_targets) {
      case LoraTargets::kQv:
        modules = 2 * h, inputs = h;
        break;
      case LoraTargets::kAttention:
        modules = 3 * h + q, inputs = h + q;
        break;
      case LoraTargets::kAll:
        modules = 3 * h + q + (m.gated ? 2 : 1) * h + m.ffn_active;
        inputs = h + q + h + m.ffn_active;
        break;
    }
    per_token += f.lora_dropout_bytes * (f.lora_dropout_per_module ? modules : inputs);
    per_token += f.lora_qkv_pad_bytes * h;
  }
  if (c.task == TaskKind::kQlora && f.bnb_4bit) {
    per_token += 2 * (2 * h + m.ffn_active);  // the attention output and the MLP's two inputs
  }
  return per_token * s * b / t;
}

double Activations(const TrainConfig& c) {
  const ModelShape& m = *c.model;
  const ParallelismChoice& p = c.par;
  const double s = c.seq / p.cp, b = p.micro_batch;
  ActivationOptions o{double(p.tp), p.sequence_parallel, c.flash_attention, p.recompute, {}};
  if (IsLora(c.task)) o.frozen_base = c.lora_targets;
  const bool te = TraitsOf(p.framework).transformer_engine;
  o.fused_gated_activation = te;
  o.fp8_gemm_inputs = te && LowPrecisionGemms(c.precision);  // saved quantised (FP4: ~2 copies)
  const double extras = FrameworkExtrasPerLayer(c, s, b);
  const double per_layer =
      ActivationBytesPerLayer(m, s, b, o) + (p.recompute == Recompute::kNone ? extras : 0);
  const double layers_per_stage = m.layers / p.pp;
  const double mb = c.MicroBatches();
  const double in_flight = p.pp > 1 ? std::min<double>(p.pp, mb) : 1;
  const double interleave =
      p.pp > 1 && p.virtual_pp > 1 ? 1 + (p.pp - 1.0) / (double(p.pp) * p.virtual_pp) : 1;
  double stage0 = layers_per_stage * per_layer * in_flight * interleave;
  if (p.recompute == Recompute::kFull || p.recompute == Recompute::kOp) {
    ActivationOptions live = o;  // one layer is rebuilt in full during its backward
    live.recompute = Recompute::kNone;
    stage0 += ActivationBytesPerLayer(m, s, b, live) + extras;
  }
  // The loss kernel's peak per logit (fp32 logits = LogitBytes' 4 B; eager losses more).
  const double logits = LogitBytes(m, s, b, p.tp) * TraitsOf(p.framework).loss_bytes_per_logit / 4;
  if (p.pp <= 1) return stage0 + logits;
  const double last = layers_per_stage * per_layer + logits;
  return std::max(stage0, last);
}

}  // namespace

MemoryBytes TrainingMemory(const TrainConfig& c) {
  MemoryBytes out;
  ModelStates(c, &out);
  out.activations = Activations(c);
  double buffers = 0;
  if (c.par.zero >= 3) {  // two gathered layers (current + prefetch), frozen ones included
    buffers += 2 * c.model->params.per_layer / c.par.tp * WeightBytesPerParam(c);
  }
  const FrameworkTraits& f = TraitsOf(c.par.framework);
  const ModelShape& m = *c.model;
  if (c.task == TaskKind::kQlora && f.bnb_4bit) {  // fp16 then bf16 copy of one 4-bit weight
    const double largest = f.nf4_lm_head && !m.tied ? std::max(m.vocab, m.ffn) : m.ffn;
    buffers += 4 * m.hidden * largest / c.par.tp;
  }
  // Allocated and freed every step (fragmented in the caching allocator); beside the allocator:
  // the CUDA context and NCCL's own buffers.
  const bool irregular = c.par.recompute != Recompute::kNone || c.par.zero >= 3 || IsLora(c.task) ||
                         c.offload != Offload::kNone;
  const bool persistent_grads = TraitsOf(c.par.framework).grad_buffer;
  const double per_step = out.activations + buffers + (persistent_grads ? 0 : out.gradients);
  out.allocator_slack =
      irregular ? per_step * kAllocatorFragmentation / (1 - kAllocatorFragmentation) : 0;
  // torch.optim.AdamW (foreach) divides by sqrt(exp_avg_sq) through a temporary the size of the
  // parameters it steps, after the backward pass has freed the activations: the step's peak.
  if (f.foreach_step_temp && c.offload == Offload::kNone) {
    const double temp = IsLora(c.task) ? 0 : out.optimizer / 2;  // one of the two moments
    buffers += std::max(0.0, temp - (out.activations + buffers));
  }
  out.outside_allocator = kCudaContextBytes + (c.gpus > 1 ? kCommBufferBytes : 0);
  out.allocator_split = true;
  out.overhead = buffers + out.allocator_slack + out.outside_allocator;
  return out;
}

namespace {

// Bytes per element of the data-parallel gradient reduction.
double ReduceBytes(const TrainConfig& c) {
  if (Is32Bit(c.precision)) return 4;
  const FrameworkTraits& f = TraitsOf(c.par.framework);
  if (f.fp32_reduce_always) return 4;
  return f.fp32_reduce_with_bf16 && c.precision != Precision::kFp16 ? 4 : 2;
}

// The work of one micro-batch on one device that data-parallel traffic can hide behind.
struct MicroBatchWindow {
  double forward_s = 0, backward_s = 0;  // backward includes any recomputation
  double count = 1;                      // micro-batches per step (TrainConfig::MicroBatches)
};

// ZeRO-3 / FSDP FULL_SHARD, one micro-batch: each layer's weights are all-gathered while the
// previous layer computes (FSDP prefetch), in backward the gather of the next layer and the
// reduce-scatter of the last one share the link beside one layer's backward; the first gather
// and the last reduce-scatter have nothing to hide behind [Zhao et al. 2023, §3.3-3.4].
// `gather_bytes` and `reduce_bytes`: what one device's layers all-gather and reduce-scatter in
// all (a LoRA base is gathered like any weight; only its adapters' gradients are reduced).
double FsdpMicroBatchSeconds(const TrainConfig& c, const MicroBatchWindow& mb, double gather_bytes,
                             double reduce_bytes, double bw, double latency) {
  const ParallelismChoice& p = c.par;
  const double layers = std::max(1.0, c.model->layers / p.pp);
  const double share = (p.dp - 1.0) / p.dp / layers;  // one layer's part of the traffic
  const double gather = share * gather_bytes / bw + latency;
  const double reduce = share * reduce_bytes / bw + latency;
  const double forward = gather + (layers - 1) * Overlapped(gather, mb.forward_s / layers);
  const double backward = layers * Overlapped(gather + reduce, mb.backward_s / layers) + reduce;
  return forward + backward;
}

// Exposed data-parallel (ZeRO/FSDP) communication per step.
double DpCommSeconds(const TrainConfig& c, const Topology& topo, const MicroBatchWindow& mb) {
  const ParallelismChoice& p = c.par;
  if (p.dp <= 1) return 0;
  const ModelShape& m = *c.model;
  const FrameworkTraits& f = TraitsOf(p.framework);
  const bool lora = IsLora(c.task);
  const double psi = lora ? LoraAdapterParams(m, c.lora_rank, c.lora_targets) / (p.tp * p.pp)
                          : ParamsPerDevice(m, p.tp, p.pp);
  const double bw = DpBandwidth(topo, p.tp, p.pp, p.dp);
  const double latency = topo.nodes > 1 ? topo.inter_latency_s : topo.intra_latency_s;
  if (p.zero >= 3) {
    const double weights = ParamsPerDevice(m, p.tp, p.pp) * WeightBytesPerParam(c) + psi * 2;
    const double gather = lora ? weights : psi * WeightBytesPerParam(c);
    return mb.count * FsdpMicroBatchSeconds(c, mb, gather, psi * ReduceBytes(c), bw, latency);
  }
  // ZeRO 0-2: the gradients are reduce-scattered (ZeRO-0: all-reduced) once per step behind
  // the last backward passes, or after them; ZeRO-1/2 all-gather the updated weights, before
  // the next forward or behind its first passes. With a pipeline the 1F1B cool-down runs
  // min(p, m) backward passes after the last forward and the warm-up min(p, m) forwards
  // before the first backward [Narayanan et al. 2021, §2.2]: that is the window.
  const double window = std::min<double>(p.pp, mb.count);
  const MicroBatchWindow edge{mb.forward_s * window, mb.backward_s * window, 1};
  const double volume = (p.dp - 1.0) / p.dp * psi;
  const double tree_latency = std::log2(p.dp) * latency;
  double reduce = volume * ReduceBytes(c) / bw + tree_latency;
  if (p.zero == 2 && f.reduce_every_micro_batch) reduce *= mb.count;
  const double gather = volume * (Is32Bit(c.precision) ? 4 : 2) / bw + tree_latency;
  if (p.zero == 0) {  // all-reduce = both halves behind the backward
    return f.grad_reduce_overlap ? Overlapped(reduce + gather, edge.backward_s) : reduce + gather;
  }
  return (f.grad_reduce_overlap ? Overlapped(reduce, edge.backward_s) : reduce) +
         (f.param_gather_overlap ? Overlapped(gather, edge.forward_s) : gather);
}

// TP collectives per step: 4 all-reduce-sized collectives of s·b·h 16-bit values per layer
// (2 forward, 2 backward; with SP each is an all-gather + reduce-scatter of the same volume),
// 6 when the forward is recomputed in full; op-level recomputation re-runs the forward's
// all-gathers (reduce-scatter outputs are saved; without SP both all-reduces rerun).
double TpCommSeconds(const TrainConfig& c, const Topology& topo, double tokens_per_pipeline) {
  const ParallelismChoice& p = c.par;
  if (p.tp <= 1) return 0;
  const ModelShape& m = *c.model;
  const bool in_node = p.tp <= topo.gpus_per_node;
  const double bw = in_node ? topo.intra_bps : topo.inter_bps_node / topo.gpus_per_node;
  double collectives = 4;
  if (p.recompute == Recompute::kFull) collectives = 6;
  if (p.recompute == Recompute::kOp) collectives = p.sequence_parallel ? 5 : 6;
  const double bytes_per_token = 2 * m.hidden;
  const double layers = m.layers / p.pp;
  const double comm =
      layers * collectives * 2 * (p.tp - 1) / p.tp * bytes_per_token * tokens_per_pipeline / bw;
  // TransformerEngine's userbuffers overlap (with SP) leaves one chunk exposed and slows the
  // GEMMs beside the rest.
  if (TraitsOf(p.framework).tp_overlap && p.sequence_parallel) {
    const double hidden = comm * (1 - 1 / kTpOverlapChunks);
    return comm / kTpOverlapChunks + kOverlapContention * hidden;
  }
  return comm;
}

// Optimizer offload [ZeRO-Offload, Ren et al. 2021; ZeRO-Infinity, Rajbhandari et al. 2021]:
// each device's share of the gradients goes to the host over PCIe behind the last backward,
// the host runs Adam on its cores (DeepSpeedCPUAdam copies the updated 16-bit weights back
// while it computes), and NVMe offload streams the optimizer states through the same step.
double OffloadSeconds(const TrainConfig& c, const GpuSpec& gpu, const Topology& topo,
                      const MicroBatchWindow& mb) {
  const ParallelismChoice& p = c.par;
  const ModelShape& m = *c.model;
  const double trainable = IsLora(c.task)
                               ? LoraAdapterParams(m, c.lora_rank, c.lora_targets) / (p.tp * p.pp)
                               : ParamsPerDevice(m, p.tp, p.pp);
  const double shard = trainable / (p.zero >= 1 ? p.dp : 1);
  const double pcie = EfficiencyFor(gpu).pcie_gbyte_s * 1e9 * kPcieEfficiency;
  const double wbytes = Is32Bit(c.precision) ? 4 : 2;
  const double to_host = shard * wbytes / pcie;
  const double to_device = shard * wbytes / pcie;
  const double cores = std::max(1.0, topo.host_cores_per_device);
  double host = std::max(shard / (kCpuAdamParamsPerCoreS * cores), to_device);
  if (c.offload == Offload::kNvme) {
    const double nvme = std::max(1e6, topo.nvme_bps_per_device);
    host = std::max(host, shard * kNvmeOptimizerBytes / nvme);
  }
  return Overlapped(to_host, mb.backward_s) + host;
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
  const double micro_batches = c.MicroBatches();
  const double tokens_per_pipeline = tokens_step / (double(p.dp) * p.cp);
  if (mfu_override > 0) {
    out.compute_s = out.model_flop_per_token * tokens_per_gpu / (peak_flops * mfu_override);
    out.step_s = out.compute_s;
    return out;
  }
  FrameworkTraits framework = TraitsOf(p.framework);
  if (c.torch_compile) framework.eager_elementwise = !*c.torch_compile;
  double matmul_eff = eff.matmul;
  if (c.task == TaskKind::kQlora) matmul_eff /= kQloraMatmulSlowdown;
  // Attention core (QK^T, PV): forward, two backward passes, and a re-forward with selective
  // or full recomputation; the rest of the hardware FLOPs are Linear GEMMs.
  const double forward = ForwardFlopPerToken(m, c.seq);
  const double attention_fwd = forward - 2 * m.matmul_params;
  const bool reforward = p.recompute == Recompute::kSelective || p.recompute == Recompute::kFull;
  const double attention_flop = attention_fwd * (reforward ? 4 : 3) * tokens_per_gpu;
  const double linear_flop = out.hardware_flop_per_token * tokens_per_gpu - attention_flop;
  const double attention_eff =
      c.flash_attention ? AttentionEfficiency(gpu, framework, eff.matmul) : eff.matmul;
  const std::optional<double> bf16_peak = PeakFlops(gpu, Precision::kBf16);
  if (LowPrecisionGemms(c.precision) && bf16_peak) {  // attention stays 16-bit
    out.compute_s = linear_flop / (peak_flops * matmul_eff * kFp8GemmEfficiency) +
                    attention_flop / (*bf16_peak * attention_eff);
  } else {
    out.compute_s =
        linear_flop / (peak_flops * matmul_eff) + attention_flop / (peak_flops * attention_eff);
  }
  out.compute_s *= StageImbalance(m, forward, p.pp, p.virtual_pp, framework.uneven_pipeline);
  const double bw = gpu.memory_bw_gbyte_s.value_or(0) * 1e9 * eff.bandwidth;
  if (bw > 0) {
    const double elementwise =
        framework.eager_elementwise
            ? EagerElementwiseBytesPerTokenLayer(m, p.tp, p.sequence_parallel)
            : ElementwiseBytesPerTokenLayer(m, p.tp, p.sequence_parallel);
    double per_token_layer = Passes(p.recompute) * elementwise;
    if (!c.flash_attention) {
      per_token_layer += Passes(p.recompute) * UnfusedAttentionBytesPerTokenLayer(m, c.seq, p.tp);
    }
    if (Is32Bit(c.precision)) per_token_layer *= 2;  // 4-byte activations
    if (LowPrecisionGemms(c.precision)) {
      per_token_layer += Passes(p.recompute) * CastBytesPerTokenLayer(m, p.tp, c.precision);
    }
    // Each stage streams its layers for every token of its pipeline (per_token_layer is
    // already divided by tp where the work is sharded).
    out.memory_s = per_token_layer * (m.layers / p.pp) * tokens_per_pipeline / bw;
  }
  out.tp_comm_s = TpCommSeconds(c, topo, tokens_per_pipeline);
  out.pp_comm_s = PpCommSeconds(c, topo);
  const double busy = out.compute_s + out.memory_s * (1 - eff.elementwise_overlap) + out.tp_comm_s;
  out.bubble_fraction = p.pp > 1 ? (p.pp - 1.0) / (p.virtual_pp * micro_batches) : 0;
  // One micro-batch's work on this device, split forward / backward by FLOPs.
  const double per_mb = (busy - out.tp_comm_s) / micro_batches;
  const double forward_share = forward / out.hardware_flop_per_token;
  const MicroBatchWindow window{per_mb * forward_share, per_mb * (1 - forward_share),
                                micro_batches};
  out.dp_comm_exposed_s = DpCommSeconds(c, topo, window);
  if (c.offload != Offload::kNone) {
    out.offload_s = OffloadSeconds(c, gpu, topo, window);
    out.optimizer_s = out.offload_s;
  } else if (bw > 0) {  // optimizer step streams weights, grads and states once
    const double states = ParamsPerDevice(m, p.tp, p.pp) * 16 / (p.zero >= 1 ? p.dp : 1);
    out.optimizer_s = lora ? 0 : 2 * states / bw;
  }
  out.step_s =
      busy * (1 + out.bubble_fraction) + out.pp_comm_s + out.dp_comm_exposed_s + out.optimizer_s;
  return out;
}

}  // namespace gpuadvisor::workload_internal
