// Enum names (their tables: workload/enum_tables.h) and the parameter count of a transformer
// derived from its architecture.
#include <algorithm>
#include <cmath>

#include "gpuadvisor/workload.h"
#include "workload/enum_tables.h"

namespace gpuadvisor {

const char* TaskKindName(TaskKind t) { return NameOf(t); }
const char* PrecisionName(Precision p) { return NameOf(p); }
const char* OptimizerName(Optimizer o) { return NameOf(o); }
const char* RecomputeName(Recompute r) { return NameOf(r); }
const char* FrameworkName(Framework f) { return NameOf(f); }
const char* CodecName(Codec c) { return NameOf(c); }
const char* ModelFamilyName(ModelFamily f) { return NameOf(f); }
const char* KernelClassName(KernelClass k) { return NameOf(k); }
const char* EngineName(Engine e) { return NameOf(e); }
const char* HpcKindName(HpcKind k) { return NameOf(k); }

bool IsTrainingTask(TaskKind t) { return workload_internal::TaskKindDefOf(t).training; }
bool IsLlmTask(TaskKind t) {
  return workload_internal::TaskKindDefOf(t).family == workload_internal::TaskFamily::kLlm;
}
bool IsVisionTask(TaskKind t) {
  return workload_internal::TaskKindDefOf(t).family == workload_internal::TaskFamily::kVision;
}

int KvHeads(const ModelArch& m) { return m.kv_heads > 0 ? m.kv_heads : m.heads; }
int HeadDim(const ModelArch& m) {
  if (m.head_dim > 0) return m.head_dim;
  return m.heads > 0 ? m.hidden / m.heads : 0;
}
int FfnDim(const ModelArch& m) { return m.ffn > 0 ? m.ffn : 4 * m.hidden; }
int QkHeadDim(const ModelArch& m) {
  return HeadDim(m) + (m.kv_lora_rank > 0 ? m.rope_head_dim : 0);
}
int VHeadDim(const ModelArch& m) { return m.v_head_dim > 0 ? m.v_head_dim : HeadDim(m); }
int MoeLayers(const ModelArch& m) {
  return m.experts > 1 ? std::max(0, m.layers - std::max(0, m.dense_layers)) : 0;
}

namespace {

bool IsTransformer(const ModelArch& m) {
  return m.family == ModelFamily::kDecoder || m.family == ModelFamily::kEncoder ||
         m.family == ModelFamily::kEncoderDecoder;
}

// Multi-head latent attention, as DeepSeek-V2 §2.1 and its modeling_deepseek.py lay it out:
// a query down-projection with its RMSNorm and an up-projection to every head's query/key width
// (or one full-rank W^Q); the KV down-projection fused with the shared rotary key
// (kv_a_proj_with_mqa) and its RMSNorm; the up-projection of the latent to every head's
// non-rotary key and value (kv_b_proj); the output projection.
double MlaAttentionParams(const ModelArch& m) {
  const double h = m.hidden, a = m.heads, c = m.kv_lora_rank, cq = m.q_lora_rank;
  const double qk = QkHeadDim(m), v = VHeadDim(m);
  const double q = cq > 0 ? h * cq + cq + cq * a * qk : h * a * qk;
  const double kv = h * (c + m.rope_head_dim) + c + c * a * (HeadDim(m) + v);
  return q + kv + a * v * h;
}

// Q, K, V and O projections (weights and biases) of one attention block.
double AttentionParams(const ModelArch& m) {
  if (m.kv_lora_rank > 0) return MlaAttentionParams(m);
  const double h = m.hidden, a = m.heads, k = KvHeads(m), qk = QkHeadDim(m), v = VHeadDim(m);
  double p = h * a * qk + h * k * qk + h * k * v + a * v * h;
  if (m.attention_bias) p += a * qk + k * qk + k * v + h;
  return p;
}

// One MLP of inner size f: up (and gate) and down projections, with their biases when the
// model has them (gpt-oss's experts: gate_up 2f + down h).
double MlpParams(const ModelArch& m, double f) {
  const double h = m.hidden;
  double p = (m.gated_mlp ? 3 : 2) * h * f;
  if (m.attention_bias) p += (m.gated_mlp ? 2 : 1) * f + h;
  return p;
}

}  // namespace

// Not counted, all below 0.01% of the published totals: attention sinks (gpt-oss, one logit
// per head and layer), DeepSeek-V3's router score-correction bias (experts per layer),
// Qwen-MoE's one-wide shared-expert gate, QK-norm weights (Qwen3), and LayerNorm biases where
// linear layers have biases but the norms are RMSNorm (gpt-oss). DeepSeek-V3's multi-token-
// prediction module is not part of the model that serves tokens and is not counted either.
ModelParams ComputeModelParams(const ModelArch& m) {
  ModelParams p;
  if (!IsTransformer(m) || m.layers <= 0 || m.hidden <= 0 || m.heads <= 0) {
    p.total = p.active = p.linear = m.params;
    return p;
  }
  const double h = m.hidden, layers = m.layers;
  const double moe_layers = MoeLayers(m), dense_layers = layers - moe_layers;
  const double experts = moe_layers > 0 ? m.experts : 0;
  const double active = moe_layers > 0 ? std::max(1, m.active_experts) : 0;
  const double attn = AttentionParams(m);
  const double norms = (m.attention_bias ? 4 : 2) * h;
  const double dense_mlp =
      MlpParams(m, moe_layers > 0 && m.dense_ffn > 0 ? m.dense_ffn : FfnDim(m));
  const double expert = MlpParams(m, FfnDim(m));
  const double shared = m.shared_ffn > 0 ? MlpParams(m, m.shared_ffn) : 0;
  const double router = experts * h + (m.attention_bias ? experts : 0);
  const double moe_mlp = experts * expert + shared;
  p.expert_mlp = moe_layers > 0 ? expert : 0;
  p.per_layer = attn + norms + (moe_layers > 0 ? moe_mlp + router : dense_mlp);
  const double mlps = dense_layers * dense_mlp + moe_layers * (moe_mlp + router);
  double stacks = layers * (attn + norms) + mlps;
  double linear = layers * attn + dense_layers * dense_mlp + moe_layers * moe_mlp;
  if (m.family == ModelFamily::kEncoderDecoder) {  // decoder adds cross-attention
    stacks += stacks + layers * (attn + h);
    linear += linear + layers * attn;
  }
  p.embedding = double(m.vocab) * h + double(m.max_positions) * h;
  p.lm_head = m.tied_embeddings ? 0 : double(m.vocab) * h;
  p.total = stacks + p.embedding + p.lm_head + h;
  const double stack_count = m.family == ModelFamily::kEncoderDecoder ? 2 : 1;
  p.active = p.total - stack_count * moe_layers * (experts - active) * expert;
  p.linear = linear + p.lm_head;
  if (m.params > 0 && p.total > 0) {  // an explicit total wins; keep the derived proportions
    const double scale = m.params / p.total;
    p.active *= scale;
    p.linear *= scale;
    p.total = m.params;
  }
  return p;
}

}  // namespace gpuadvisor
