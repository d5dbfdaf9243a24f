// Enum names and the parameter count of a transformer derived from its architecture.
#include <cmath>

#include "gpuadvisor/workload.h"

namespace gpuadvisor {

const char* TaskKindName(TaskKind t) {
  switch (t) {
    case TaskKind::kPretrain:
      return "pretrain";
    case TaskKind::kFinetune:
      return "finetune";
    case TaskKind::kLora:
      return "lora";
    case TaskKind::kQlora:
      return "qlora";
    case TaskKind::kServe:
      return "serve";
    case TaskKind::kTrainVision:
      return "train-vision";
    case TaskKind::kInferVision:
      return "infer-vision";
    case TaskKind::kHpc:
      return "hpc";
    case TaskKind::kTranscode:
      return "transcode";
    case TaskKind::kRender:
      return "render";
    case TaskKind::kAnalytics:
      return "analytics";
  }
  return "pretrain";
}

const char* PrecisionName(Precision p) {
  switch (p) {
    case Precision::kFp32:
      return "fp32";
    case Precision::kTf32:
      return "tf32";
    case Precision::kBf16:
      return "bf16";
    case Precision::kFp16:
      return "fp16";
    case Precision::kFp8:
      return "fp8";
    case Precision::kInt8:
      return "int8";
    case Precision::kInt4:
      return "int4";
    case Precision::kFp4:
      return "fp4";
    case Precision::kNf4:
      return "nf4";
    case Precision::kFp64:
      return "fp64";
  }
  return "bf16";
}

const char* OptimizerName(Optimizer o) {
  switch (o) {
    case Optimizer::kAdamW:
      return "adamw";
    case Optimizer::kAdam8bit:
      return "adam8bit";
    case Optimizer::kSgd:
      return "sgd";
  }
  return "adamw";
}

const char* RecomputeName(Recompute r) {
  switch (r) {
    case Recompute::kNone:
      return "none";
    case Recompute::kSelective:
      return "selective";
    case Recompute::kFull:
      return "full";
  }
  return "none";
}

const char* CodecName(Codec c) {
  switch (c) {
    case Codec::kH264:
      return "h264";
    case Codec::kHevc:
      return "hevc";
    case Codec::kAv1:
      return "av1";
  }
  return "h264";
}

const char* ModelFamilyName(ModelFamily f) {
  switch (f) {
    case ModelFamily::kDecoder:
      return "decoder";
    case ModelFamily::kEncoder:
      return "encoder";
    case ModelFamily::kEncoderDecoder:
      return "encoder-decoder";
    case ModelFamily::kConvNet:
      return "convnet";
    case ModelFamily::kVit:
      return "vit";
    case ModelFamily::kDiffusion:
      return "diffusion";
  }
  return "decoder";
}

const char* KernelClassName(KernelClass k) {
  switch (k) {
    case KernelClass::kConv:
      return "conv";
    case KernelClass::kGemm:
      return "gemm";
    case KernelClass::kAttention:
      return "attention";
  }
  return "conv";
}

const char* EngineName(Engine e) { return e == Engine::kFused ? "fused" : "eager"; }

const char* HpcKindName(HpcKind k) { return k == HpcKind::kDenseLa ? "dense-la" : "general"; }

bool IsTrainingTask(TaskKind t) {
  return t == TaskKind::kPretrain || t == TaskKind::kFinetune || t == TaskKind::kLora ||
         t == TaskKind::kQlora;
}
bool IsLlmTask(TaskKind t) { return IsTrainingTask(t) || t == TaskKind::kServe; }
bool IsVisionTask(TaskKind t) { return t == TaskKind::kTrainVision || t == TaskKind::kInferVision; }

int KvHeads(const ModelArch& m) { return m.kv_heads > 0 ? m.kv_heads : m.heads; }
int HeadDim(const ModelArch& m) {
  if (m.head_dim > 0) return m.head_dim;
  return m.heads > 0 ? m.hidden / m.heads : 0;
}
int FfnDim(const ModelArch& m) { return m.ffn > 0 ? m.ffn : 4 * m.hidden; }

namespace {

bool IsTransformer(const ModelArch& m) {
  return m.family == ModelFamily::kDecoder || m.family == ModelFamily::kEncoder ||
         m.family == ModelFamily::kEncoderDecoder;
}

// Q, K, V and O projections (weights and biases) of one attention block.
double AttentionParams(const ModelArch& m) {
  const double h = m.hidden, q = double(m.heads) * HeadDim(m), kv = double(KvHeads(m)) * HeadDim(m);
  double p = h * q + 2 * h * kv + q * h;
  if (m.attention_bias) p += q + 2 * kv + h;
  return p;
}

double MlpParams(const ModelArch& m) {
  const double h = m.hidden, f = FfnDim(m);
  double p = (m.gated_mlp ? 3 : 2) * h * f;
  if (m.attention_bias) p += f + h;
  return p;
}

}  // namespace

ModelParams ComputeModelParams(const ModelArch& m) {
  ModelParams p;
  if (!IsTransformer(m) || m.layers <= 0 || m.hidden <= 0 || m.heads <= 0) {
    p.total = p.active = p.linear = m.params;
    return p;
  }
  const double h = m.hidden;
  const double experts = m.experts > 1 ? m.experts : 1;
  const double active = m.experts > 1 ? (m.active_experts > 0 ? m.active_experts : 1) : 1;
  const double attn = AttentionParams(m), mlp = MlpParams(m);
  const double norms = (m.attention_bias ? 4 : 2) * h;
  const double router = m.experts > 1 ? h * experts : 0;
  p.expert_mlp = m.experts > 1 ? mlp : 0;
  p.per_layer = attn + mlp * experts + router + norms;
  double stacks = m.layers * p.per_layer;
  double linear = m.layers * (attn + mlp * experts);
  if (m.family == ModelFamily::kEncoderDecoder) {  // decoder adds cross-attention
    stacks += m.layers * (p.per_layer + attn + h);
    linear += m.layers * (2 * attn + mlp * experts);
  }
  p.embedding = double(m.vocab) * h + double(m.max_positions) * h;
  p.lm_head = m.tied_embeddings ? 0 : double(m.vocab) * h;
  p.total = stacks + p.embedding + p.lm_head + h;
  const double stack_count = m.family == ModelFamily::kEncoderDecoder ? 2 : 1;
  p.active = p.total - stack_count * m.layers * (experts - active) * mlp;
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
