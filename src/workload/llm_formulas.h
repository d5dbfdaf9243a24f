// Closed-form transformer formulas: FLOPs per token, KV-cache bytes, activation bytes.
// Sources (method in doc/estimation.md): Narayanan et al. 2021; Korthikanti et al. 2022;
// Kwon et al. 2023. All sizes in bytes, FLOP counts in FLOP (2 per multiply-add).
#ifndef GPUADVISOR_WORKLOAD_LLM_FORMULAS_H_
#define GPUADVISOR_WORKLOAD_LLM_FORMULAS_H_

#include <optional>

#include "gpuadvisor/workload.h"

namespace gpuadvisor::workload_internal {

// A transformer reduced to the numbers the formulas need (doubles, defaults filled in).
struct ModelShape {
  ModelFamily family = ModelFamily::kDecoder;
  double layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, ffn = 0, vocab = 0;
  double experts = 1, active_experts = 1;
  double moe_layers = 0;     // layers with routed experts (0 for dense models)
  double shared_ffn = 0;     // shared experts' FFN width in a MoE layer
  double dense_ffn = 0;      // FFN width of the layers without experts
  double ffn_active = 0;     // FFN width a token passes through, mean over layers (top-k
                             // experts + shared experts in MoE layers, the dense FFN elsewhere)
  double expert_params = 0;  // all routed experts' MLP parameters, every layer
  double expert_weight_bytes = 0;  // ModelArch::expert_weight_bytes
  // Attention widths per head: query/key and value as trained and in prefill, and as decode
  // computes them. MLA decodes with the up-projections absorbed into the query and output
  // (DeepSeek-V2 §2.1.2; vLLM's and FlashMLA's decode kernels): every head then attends over
  // the cached latent (kv_lora_rank + rope_head_dim) and reads values of kv_lora_rank.
  double qk_dim = 0, v_dim = 0, decode_qk_dim = 0, decode_v_dim = 0;
  double kv_elements = 0;     // KV-cache elements per token per layer: 2·k·d_h, MLA c + d_rope
  double kv_shard_limit = 0;  // TP ranks the KV cache splits over at most: KV heads; MLA 1
                              // (its latent is shared by all heads: replicated per rank)
  double window = 0, window_fraction = 1;  // sliding-window attention
  bool gated = true, dropout = false, tied = false;
  ModelParams params;
  double matmul_params = 0;    // parameters multiplied per token (active, minus the lookup table)
  bool shape_assumed = false;  // only `params` was given: GPT-like aspect ratio assumed
};

// REQUIRES: Validate() passed for an LLM task.
ModelShape MakeShape(const ModelArch& m);

// Attention layer-equivalents that see `seq` tokens of context (sliding window caps them).
double AttentionContext(const ModelShape& m, double seq);

// Forward model FLOPs per token at sequence length `seq`: 2·N_matmul + 4·L·s·a·d_h
// (the Megatron/MosaicML convention: no causal saving). Training = 3x forward.
double ForwardFlopPerToken(const ModelShape& m, double seq);
// The same for one decoded token attending over `context` cached tokens (MLA: absorbed form).
double DecodeFlopPerToken(const ModelShape& m, double context);
// Attention-core FLOPs (QK^T and AV) per token per token of context, summed over layers.
double AttentionFlopPerContextToken(const ModelShape& m);
double TrainFlopPerToken(const ModelShape& m, double seq);
// Hardware FLOPs including recomputation: full adds one forward, selective the attention core,
// op the matmuls torchtitan's op-level policy does not save (OpRecomputeFlopPerToken).
double TrainHardwareFlopPerToken(const ModelShape& m, double seq, Recompute r);
// torchtitan's op-level selective AC (torchtitan/distributed/activation_checkpoint.py, Dec 2024:
// `_save_list` = mm + SDPA + reduce_scatter, "except every second mm") counts the matmuls of a
// block in call order (q, k, v, o, then w1, w3, w2 gated or w1, w2 GELU) and recomputes the
// even ones: k, o and the second MLP matmul. Their forward FLOPs per token, all layers.
double OpRecomputeFlopPerToken(const ModelShape& m);
// LoRA/QLoRA: the frozen base needs no weight gradients (2N fewer per token).
double LoraFlopPerToken(const ModelShape& m, double seq);

// KV cache bytes per token summed over layers: 2·L·k·d_h·bytes, MLA L·(c + d_rope)·bytes
// (no window).
double KvBytesPerToken(const ModelShape& m, double bytes_per_element);
// KV bytes of one sequence holding `tokens` tokens (sliding-window layers keep the window).
double KvBytesPerSequence(const ModelShape& m, double tokens, double bytes_per_element);

// Korthikanti et al. 2022 Table 2, generalised to GQA and gated MLPs: bytes of activations of
// one layer for one micro-batch of `b` sequences of `s` tokens with tensor parallel `t`.
struct ActivationOptions {
  double t = 1;
  bool sequence_parallel = false;
  bool flash_attention = true;
  Recompute recompute = Recompute::kNone;
  // LoRA/QLoRA: the base weights are frozen, so a Linear whose weight needs no gradient and
  // carries no adapter does not keep its input (dX = dY·W^T needs only W). Unset = full training.
  std::optional<LoraTargets> frozen_base;
  // A fused gated activation (TransformerEngine / Megatron-Core bias_swiglu) saves only the fc1
  // output (gate and up, 4f/h) and the fc2 input; eager PyTorch also keeps the activation.
  bool fused_gated_activation = false;
  // TransformerEngine FP8 Linear layers save their GEMM inputs as FP8 for the weight gradient:
  // the QKV and fc1 inputs (norm outputs) and the fc2 input at 1 byte; the attention output
  // stays 16-bit for the attention backward, with an FP8 copy for the projection beside it.
  bool fp8_gemm_inputs = false;
};
double ActivationBytesPerLayer(const ModelShape& m, double s, double b, const ActivationOptions& o);
// Output logits kept in fp32 for the loss: 4·s·b·V/t.
double LogitBytes(const ModelShape& m, double s, double b, double t);

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_LLM_FORMULAS_H_
