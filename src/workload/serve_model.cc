#include "workload/serve_model.h"

#include <algorithm>
#include <cmath>

namespace gpuadvisor::workload_internal {
namespace {

constexpr double kMemoryUtilization = 0.9;    // vLLM default; TRT-LLM 0.9-0.95
constexpr double kContextBytes = 1.0 * kGiB;  // CUDA context, graphs, allocator
constexpr double kPrefillChunkTokens = 2048;  // tokens per prefill chunk (workspace)

double Shards(const ServeConfig& c) { return double(c.tp) * c.pp; }

// KV heads are split across TP ranks; with fewer KV heads than ranks they are replicated (an
// MLA latent, shared by all heads, on every rank).
double KvShards(const ServeConfig& c) {
  return std::min<double>(c.tp, c.model->kv_shard_limit) * c.pp;
}

// Bytes per routed-expert weight: the quantization's, else the checkpoint's expert format
// (gpt-oss MXFP4), else 16-bit.
double ExpertWeightBytes(const ModelShape& m, std::optional<Precision> q) {
  if (q || m.expert_weight_bytes <= 0) return WeightBytes(q);
  return m.expert_weight_bytes;
}

// Weight bytes read per decode step by one device: everything but the input-embedding table,
// of which only the rows of the batch's tokens are read. MoE reads the experts the batch hits.
double DecodeWeightBytes(const ServeConfig& c, double batch) {
  const ModelShape& m = *c.model;
  double experts_read = m.expert_params;
  if (m.moe_layers > 0) {
    const double experts_hit = m.experts * (1 - std::pow(1 - m.active_experts / m.experts, batch));
    experts_read = m.moe_layers * experts_hit * m.params.expert_mlp;
  }
  const double other = std::max(0.0, m.params.total - m.params.linear - m.params.embedding);
  return ((m.params.linear - m.expert_params) * WeightBytes(c.quantization) +
          experts_read * ExpertWeightBytes(m, c.quantization) + other * 2) /
         Shards(c);
}

}  // namespace

double ServedWeightBytes(const ModelShape& m, std::optional<Precision> q) {
  return (m.params.linear - m.expert_params) * WeightBytes(q) +
         m.expert_params * ExpertWeightBytes(m, q) + (m.params.total - m.params.linear) * 2;
}

double WeightBytes(std::optional<Precision> q) {
  if (!q) return 2;
  switch (*q) {
    case Precision::kFp32:
    case Precision::kTf32:
      return 4;
    case Precision::kFp8:
    case Precision::kInt8:
      return 1;
    case Precision::kInt4:
      return 0.5 + 4.0 / 128;
    case Precision::kFp4:
      return 0.5 + 1.0 / 16;
    case Precision::kNf4:
      return 0.5 + 0.127 / 8;
    default:
      return 2;
  }
}

double QuantizedMbuFactor(std::optional<Precision> q) {
  if (!q) return 1;
  switch (*q) {
    case Precision::kFp8:
      return 1.0;  // native FP8 GEMM/GEMV
    case Precision::kInt8:
      return 0.8;
    case Precision::kInt4:
      return 0.6;
    case Precision::kFp4:
      return 0.9;
    case Precision::kNf4:
      return 0.5;
    default:
      return 1;
  }
}

MemoryBytes ServingMemory(const ServeConfig& c, const GpuSpec&, double batch) {
  const ModelShape& m = *c.model;
  MemoryBytes out;
  out.weights = ServedWeightBytes(m, c.quantization) / Shards(c);
  const double seq = c.input_tokens + c.output_tokens;
  out.kv_cache = batch * KvBytesPerSequence(m, seq, c.kv_bytes) / KvShards(c);
  // Prefill workspace: one chunk's hidden and FFN activations, and fp32 logits of the batch.
  out.activations =
      (kPrefillChunkTokens * (4 * m.hidden + 4 * m.ffn_active) + 4 * batch * m.vocab) / c.tp;
  out.overhead = kContextBytes + (1 - kMemoryUtilization) * 0;  // the 10% reserve is headroom
  return out;
}

double KvCapacityRequests(const ServeConfig& c, const GpuSpec& gpu) {
  const MemoryBytes fixed = ServingMemory(c, gpu, 0);
  const double usable = DeviceMemoryBytes(gpu) * kMemoryUtilization - fixed.Total();
  const double per_request =
      KvBytesPerSequence(*c.model, c.input_tokens + c.output_tokens, c.kv_bytes) / KvShards(c);
  return usable > 0 ? usable / per_request : 0;
}

ServeTiming ServingTiming(const ServeConfig& c, const GpuSpec& gpu, const Topology& topo,
                          double batch) {
  const ModelShape& m = *c.model;
  const GenerationEfficiency& eff = EfficiencyFor(gpu);
  ServeTiming out;
  batch = std::max(1.0, batch);
  out.mbu = c.mbu > 0 ? c.mbu : eff.decode_mbu * QuantizedMbuFactor(c.quantization);
  const double bw = gpu.memory_bw_gbyte_s.value_or(0) * 1e9 * out.mbu;
  const double context = c.input_tokens + c.output_tokens / 2;  // average during decode
  const double kv_read = batch * KvBytesPerSequence(m, context, c.kv_bytes) / KvShards(c);
  const double mem_s = (DecodeWeightBytes(c, batch) + kv_read) / bw;
  const double prefill_eff = c.prefill_eff > 0 ? c.prefill_eff : eff.PrefillEfficiency();
  out.compute_known = c.peak_flops > 0;
  double compute_s = 0;
  if (out.compute_known) {
    compute_s = batch * DecodeFlopPerToken(m, context) / (Shards(c) * c.peak_flops * prefill_eff);
  }
  out.compute_bound = compute_s > mem_s;
  // Two all-reduces of batch x hidden 16-bit values per layer with TP.
  const double tp_bw = topo.intra_bps > 0 ? topo.intra_bps : 1e12;
  // Small-message all-reduce latency: NCCL's grows with the tree depth (~8 us per level on
  // NVLink; gpt-fast's TP rows show ~20-35 us per all-reduce at TP 2-8), Neuron's does not.
  const double tp_latency = topo.SmallAllReduceLatency(c.tp);
  const double tp_s =
      c.tp > 1 ? 2 * m.layers / c.pp *
                     (tp_latency + 2.0 * (c.tp - 1) / c.tp * batch * m.hidden * 2 / tp_bw)
               : 0;
  out.step_s = std::max(compute_s, mem_s) + tp_s + m.layers * eff.decode_layer_s;
  if (out.compute_known) {  // causal prompt: 2N·S + 2·L·S²·a·d_h, and one weight read
    const double s = c.input_tokens;
    const double flop =
        2 * m.matmul_params * s + AttentionFlopPerContextToken(m) * AttentionContext(m, s) * s / 2;
    out.prefill_s =
        std::max(flop / (c.tp * c.peak_flops * prefill_eff), DecodeWeightBytes(c, s) * c.pp / bw) +
        tp_s;
  }
  // Continuous batching: each request's prefill stalls the batch once per output sequence.
  out.itl_s = out.step_s + batch * out.prefill_s / c.output_tokens;
  out.ttft_s = out.prefill_s + out.step_s;
  out.tokens_per_s = batch / out.itl_s;
  return out;
}

}  // namespace gpuadvisor::workload_internal
