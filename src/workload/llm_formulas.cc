#include "workload/llm_formulas.h"

#include <algorithm>
#include <cmath>

namespace gpuadvisor::workload_internal {
namespace {

// Kaplan et al. 2020 find loss insensitive to shape near d_model/n_layer ~ 50-200; GPT-3 sizes
// sit near 128. With N ~ 12·L·h² and h = 128·L: h = (128·N/12)^(1/3).
void AssumeShapeFromParams(ModelShape* s, double params) {
  double h = std::cbrt(128.0 * params / 12.0);
  h = std::max(128.0, std::round(h / 128.0) * 128.0);
  s->hidden = h;
  s->layers = std::max(1.0, std::round(params / (12.0 * h * h)));
  s->heads = std::max(1.0, h / 128.0);
  s->kv_heads = s->heads;
  s->head_dim = 128;
  s->ffn = 4 * h;
  s->ffn_active = s->dense_ffn = s->ffn;
  s->qk_dim = s->v_dim = s->decode_qk_dim = s->decode_v_dim = s->head_dim;
  s->kv_elements = 2 * s->kv_heads * s->head_dim;
  s->kv_shard_limit = s->kv_heads;
  s->vocab = 50257;
  s->gated = false;
  s->shape_assumed = true;
}

}  // namespace

ModelShape MakeShape(const ModelArch& m) {
  ModelShape s;
  s.family = m.family;
  s.params = ComputeModelParams(m);
  if (m.layers <= 0 || m.hidden <= 0 || m.heads <= 0) {
    AssumeShapeFromParams(&s, m.params);
    s.params.embedding = s.vocab * s.hidden;
    s.params.linear = std::max(0.0, m.params - s.params.embedding);
    s.matmul_params = m.params;  // tied head: the table is multiplied once
    return s;
  }
  s.layers = m.layers;
  s.hidden = m.hidden;
  s.heads = m.heads;
  s.kv_heads = KvHeads(m);
  s.head_dim = HeadDim(m);
  s.ffn = FfnDim(m);
  s.vocab = m.vocab;
  s.experts = m.experts > 1 ? m.experts : 1;
  s.active_experts = m.experts > 1 ? std::max(1, m.active_experts) : 1;
  s.moe_layers = MoeLayers(m);
  s.expert_params = s.moe_layers * s.experts * s.params.expert_mlp;
  s.expert_weight_bytes = m.expert_weight_bytes;
  s.shared_ffn = s.moe_layers > 0 ? m.shared_ffn : 0;
  s.dense_ffn = s.moe_layers > 0 && m.dense_ffn > 0 ? m.dense_ffn : s.ffn;
  const double moe_ffn = s.active_experts * s.ffn + s.shared_ffn;
  s.ffn_active = (s.moe_layers * moe_ffn + (m.layers - s.moe_layers) * s.dense_ffn) / m.layers;
  s.qk_dim = QkHeadDim(m);
  s.v_dim = VHeadDim(m);
  if (m.kv_lora_rank > 0) {
    s.decode_qk_dim = m.kv_lora_rank + m.rope_head_dim;
    s.decode_v_dim = m.kv_lora_rank;
    s.kv_elements = m.kv_lora_rank + m.rope_head_dim;
    s.kv_shard_limit = 1;
    // Training and prefill materialise per-head keys and values: the activation and FP8-cast
    // formulas see heads of the mean query/key and value width.
    s.kv_heads = s.heads;
    s.head_dim = (s.qk_dim + s.v_dim) / 2;
  } else {
    s.decode_qk_dim = s.qk_dim;
    s.decode_v_dim = s.v_dim;
    s.kv_elements = s.kv_heads * (s.qk_dim + s.v_dim);
    s.kv_shard_limit = s.kv_heads;
  }
  s.window = m.sliding_window;
  s.window_fraction = m.sliding_window > 0 ? m.sliding_window_fraction : 0;
  s.gated = m.gated_mlp;
  s.dropout = m.dropout;
  s.tied = m.tied_embeddings;
  s.matmul_params = s.params.active - s.params.embedding + (s.tied ? s.vocab * s.hidden : 0);
  if (s.family == ModelFamily::kEncoderDecoder) s.layers = 2.0 * m.layers;  // both stacks
  return s;
}

double AttentionContext(const ModelShape& m, double seq) {
  if (m.window <= 0 || seq <= m.window) return seq;
  return m.window_fraction * m.window + (1 - m.window_fraction) * seq;
}

double AttentionFlopPerContextToken(const ModelShape& m) {
  return 2 * m.layers * m.heads * (m.qk_dim + m.v_dim);
}

double ForwardFlopPerToken(const ModelShape& m, double seq) {
  return 2 * m.matmul_params + AttentionFlopPerContextToken(m) * AttentionContext(m, seq);
}

double DecodeFlopPerToken(const ModelShape& m, double context) {
  return 2 * m.matmul_params +
         2 * m.layers * m.heads * (m.decode_qk_dim + m.decode_v_dim) * AttentionContext(m, context);
}

double TrainFlopPerToken(const ModelShape& m, double seq) {
  return 3 * ForwardFlopPerToken(m, seq);
}

double TrainHardwareFlopPerToken(const ModelShape& m, double seq, Recompute r) {
  const double attention = AttentionFlopPerContextToken(m) * AttentionContext(m, seq);
  switch (r) {
    case Recompute::kNone:
      return TrainFlopPerToken(m, seq);
    case Recompute::kSelective:
      return TrainFlopPerToken(m, seq) + attention;
    case Recompute::kFull:
      return TrainFlopPerToken(m, seq) + ForwardFlopPerToken(m, seq);
    case Recompute::kOp:
      return TrainFlopPerToken(m, seq) + OpRecomputeFlopPerToken(m);
  }
  return TrainFlopPerToken(m, seq);
}

double OpRecomputeFlopPerToken(const ModelShape& m) {
  const double k = m.kv_heads * m.head_dim, q = m.heads * m.head_dim;
  // wk (h x k), wo (q x h), and w3 (gated) or w2 (GELU): both h x f per expert a token visits.
  const double per_layer = 2 * (m.hidden * k + q * m.hidden + m.hidden * m.ffn_active);
  return per_layer * m.layers;
}

double LoraFlopPerToken(const ModelShape& m, double seq) {
  return TrainFlopPerToken(m, seq) - 2 * m.matmul_params;
}

double KvBytesPerToken(const ModelShape& m, double bytes_per_element) {
  return m.layers * m.kv_elements * bytes_per_element;
}

double KvBytesPerSequence(const ModelShape& m, double tokens, double bytes_per_element) {
  return KvBytesPerToken(m, bytes_per_element) * AttentionContext(m, tokens);
}

double ActivationBytesPerLayer(const ModelShape& m, double s, double b,
                               const ActivationOptions& o) {
  const double sbh = s * b * m.hidden;
  const double t = std::max(1.0, o.t);
  const double t_sp = o.sequence_parallel ? t : 1;
  if (o.recompute == Recompute::kFull) {  // only the layer input is kept
    return 2 * sbh / t_sp;
  }
  const double kv_ratio = m.kv_heads * m.head_dim / m.hidden;
  const double q_ratio = m.heads * m.head_dim / m.hidden;
  const double f_ratio = m.ffn_active / m.hidden;
  if (o.recompute == Recompute::kOp) {
    // Saved: the block input and the outputs of the odd matmuls (q, v, w1 and, gated, w2) and
    // of attention (its output; the log-sum-exp is negligible); everything else is rebuilt.
    const double replicated = 2 + (m.gated ? 2 : 0);  // block input, w2 output
    const double sharded = 2 * q_ratio + 2 * kv_ratio + 2 * q_ratio + 2 * f_ratio;
    return (replicated / t_sp + sharded / t) * sbh;
  }
  const double mask = m.dropout ? 1 : 0;
  // Korthikanti: attention 11sbh (MHA, with dropout) = QKV input 2 + Q 2 + K 2 + V 2 +
  // projection input 2 + dropout mask 1; MLP 19sbh = input 2 + 4h-wide outputs 8+8 + mask 1;
  // two LayerNorm inputs 4. Gated MLPs store gate, up, activation and product (8·f/h).
  double replicated = 4 + 2 + 2 + 2 * mask;  // norms, block inputs, dropout masks
  // MoE: every routed copy of a token stores its expert's activations (top-k + shared).
  double mlp_sharded = (m.gated ? (o.fused_gated_activation ? 6 : 8) : 4) * f_ratio;
  double attn_sharded = 2 + 4 * kv_ratio + 2;
  if (o.fp8_gemm_inputs) {
    replicated -= 1 + 1;     // QKV and fc1 inputs in FP8
    attn_sharded += 1;       // the projection's FP8 copy of the attention output
    mlp_sharded -= f_ratio;  // fc2 input in FP8
  }
  if (o.frozen_base && *o.frozen_base != LoraTargets::kAll) {
    // Frozen, unadapted MLP: neither its input (the second norm's output) nor the input of the
    // down projection (gated product / GELU output, 2f/h) is needed. The attention projection's
    // input stays: it is also the attention output FlashAttention's backward reads.
    const double input_bytes = o.fp8_gemm_inputs ? 1 : 2;
    replicated -= input_bytes;
    mlp_sharded -= input_bytes * f_ratio;
  }
  double per_sbh = replicated / t_sp + (attn_sharded + mlp_sharded) / t;
  const bool scores_stored = !o.flash_attention && o.recompute == Recompute::kNone;
  double scores = 0;
  if (scores_stored) {
    const double ctx = AttentionContext(m, s);
    scores = (m.dropout ? 5 : 2) * m.heads * ctx * s * b / t;  // softmax (+ mask, dropout out)
  }
  return per_sbh * sbh + scores;
}

double LogitBytes(const ModelShape& m, double s, double b, double t) {
  return 4 * s * b * m.vocab / std::max(1.0, t);
}

}  // namespace gpuadvisor::workload_internal
