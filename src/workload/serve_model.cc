#include "workload/serve_model.h"

#include <algorithm>
#include <cmath>

#include "workload/neuron.h"

namespace gpuadvisor::workload_internal {
namespace {

constexpr double kMemoryUtilization = 0.9;    // vLLM default; TRT-LLM 0.9-0.95
constexpr double kContextBytes = 1.0 * kGiB;  // CUDA context, graphs, allocator
constexpr double kPrefillChunkTokens = 2048;  // tokens per prefill chunk (workspace)

double Shards(const ServeConfig& c) { return double(c.tp) * c.pp; }

// Ranks the weights outside the routed experts are split over: every rank of a replica, or,
// with attention data parallelism, only the pipeline stages (each tp rank holds them whole).
double DenseShards(const ServeConfig& c) { return c.attention_dp ? c.pp : Shards(c); }

// KV heads are split across TP ranks; with fewer KV heads than ranks they are replicated (an
// MLA latent, shared by all heads, on every rank). The ranks are NeuronCores on Neuron devices
// (an inf2 chip holds two: Llama-3-70B's 8 KV heads over TP 24 cores sit 3 times each, two
// per chip). With attention data parallelism each rank holds the whole cache of its own 1/tp of
// the requests: no replication. Returns the devices' share of the cache: cache / KvShards.
double KvShards(const ServeConfig& c) {
  if (c.attention_dp) return Shards(c);
  const double cores = std::max(1, c.cores_per_device);
  return std::min<double>(c.tp * cores, c.model->kv_shard_limit) / cores * c.pp;
}

// The scheduler's limits (sequences, tokens per step) hold per attention-DP rank: TensorRT-LLM's
// max_batch_size and SGLang's running requests are per rank.
double SchedulerRanks(const ServeConfig& c) { return c.attention_dp ? c.tp : 1; }

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
  return ((m.params.linear - m.expert_params) * WeightBytes(c.quantization) + other * 2) /
             DenseShards(c) +
         experts_read * ExpertWeightBytes(m, c.quantization) / Shards(c);
}

// Bytes of the served weights one device holds: the routed experts split over every rank of
// the replica (tensor or expert parallel), the rest over DenseShards.
double WeightBytesPerDevice(const ServeConfig& c) {
  const ModelShape& m = *c.model;
  const double experts = m.expert_params * ExpertWeightBytes(m, c.quantization);
  return experts / Shards(c) + (ServedWeightBytes(m, c.quantization) - experts) / DenseShards(c);
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

bool IsWeightOnly(std::optional<Precision> q) {
  return q && (*q == Precision::kInt4 || *q == Precision::kInt8 || *q == Precision::kNf4);
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
  out.weights = WeightBytesPerDevice(c);
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

namespace {

// Two all-reduces of tokens x hidden 16-bit values per layer with TP; small-message latency:
// NCCL's grows with the tree depth (~8 us per level on NVLink; gpt-fast's TP rows show ~20-35 us
// per all-reduce at TP 2-8), Neuron's does not.
// Attention data parallelism instead gathers every rank's tokens to the experts' ranks before
// each MoE layer and scatters their outputs back after it: an all-gather and a reduce-scatter,
// half an all-reduce's traffic each, around the MoE layers only.
double TpSeconds(const ServeConfig& c, const Topology& topo, double tokens) {
  if (c.tp <= 1) return 0;
  const double tp_bw = topo.intra_bps > 0 ? topo.intra_bps : 1e12;
  const double ring = (c.tp - 1.0) / c.tp * tokens * c.model->hidden * 2 / tp_bw;
  if (c.attention_dp) {
    return 2 * c.model->moe_layers / c.pp * (topo.SmallAllReduceLatency(c.tp) + ring);
  }
  return 2 * c.model->layers / c.pp * (topo.SmallAllReduceLatency(c.tp) + 2 * ring);
}

// One prompt's context encoding on NeuronCores (neuron.h, "Prompt processing"): the GEMMs at
// the prompt efficiency on the tile-filled, head-padded shards of the TP NeuronCores, attention
// in flash kernels or with its scores normalised on the Vector Engine (through HBM past the
// SBUF), the prompt's own all-reduces and the fixed cost per request.
double NeuronPrefillSeconds(const ServeConfig& c, const GpuSpec& gpu, const Topology& topo,
                            double prefill_eff) {
  const ModelShape& m = *c.model;
  const double s = c.input_tokens, context = AttentionContext(m, s);
  const int cores = c.tp * NeuronLogicalCoresPerChip(gpu);
  const double pad = m.heads > 0 ? NeuronPaddedHeads(m.heads, cores) / m.heads : 1;
  // Padded heads add their Q and O columns (and K/V where every head has its own).
  const double kv_padded = m.kv_heads >= m.heads ? m.kv_heads : 0;
  const double attn_extra =
      m.layers * (pad - 1) * m.hidden * (m.qk_dim + m.v_dim) * (m.heads + kv_padded);
  // The FFN's column (and the down projection's contraction) shard per core in 128-wide passes.
  const double mlp = m.layers * (m.gated ? 3 : 2) * m.hidden * m.ffn_active;
  const double fill = NeuronTileFill(m.ffn / cores);
  const double gemm_flop = 2 * s * (m.matmul_params + attn_extra + mlp * (1 / fill - 1));
  const bool flash = NeuronFlashContextEncoding(gpu, s, c.flash_attention);
  // Flash kernels skip the masked half; materialised scores are computed whole.
  const double attn_flop = AttentionFlopPerContextToken(m) * context * s * pad * (flash ? 0.5 : 1);
  const double compute_s = (gemm_flop + attn_flop) / (c.tp * c.peak_flops * prefill_eff);
  double scores_s = 0;
  if (!flash && m.heads > 0) {
    const double physical = double(NeuronCoresPerChip(gpu)) / NeuronLogicalCoresPerChip(gpu);
    const double per_core = NeuronPaddedHeads(m.heads, cores) / cores * s * context;  // a layer
    scores_s =
        m.layers * per_core * kNeuronSoftmaxVectorPasses / (kNeuronCoreVectorElemsPerS * physical);
    if (per_core * 4 > NeuronSbufBytes(gpu) * physical) {
      const double core_bw = gpu.memory_bw_gbyte_s.value_or(0) * 1e9 *
                             EfficiencyFor(gpu).bandwidth / NeuronLogicalCoresPerChip(gpu);
      if (core_bw > 0) scores_s += m.layers * per_core * kNeuronScoreSpillBytes / core_bw;
    }
  }
  const double weights_s =
      DecodeWeightBytes(c, s) * c.pp /
      (gpu.memory_bw_gbyte_s.value_or(0) * 1e9 * EfficiencyFor(gpu).decode_mbu);
  return std::max(compute_s, weights_s) + scores_s + TpSeconds(c, topo, s) + kNeuronRequestS;
}

// One pipeline stage handing `tokens` tokens' activations (16-bit hidden states) to the next:
// over the network when the replica spans instances (a stage fills a node), else inside the node.
double PipelineHopSeconds(const ServeConfig& c, const Topology& topo, double tokens) {
  if (c.pp <= 1) return 0;
  const double bytes = tokens * c.model->hidden * 2;
  if (c.tp * c.pp > topo.gpus_per_node) {
    const double bw = topo.inter_bps_node > 0 ? topo.inter_bps_node : 12.5e9;
    return topo.inter_latency_s + bytes / bw;
  }
  const double bw = topo.intra_bps > 0 ? topo.intra_bps : 1e12;
  return topo.intra_latency_s + bytes / bw;
}

// Positions a compiled decode step attends over, averaged over a request's decode: the graph
// for the sequence-length bucket holding the position, the bucket's whole cache read and scored
// (transformers-neuronx and NxD Inference compile token generation for power-of-two buckets up
// to the sequence length; padded positions are masked, not skipped). 4k in / 4k out decodes in
// the 8k bucket throughout: 8192 positions a step where the mean context is 6144.
double DecodeBucketMean(double input_tokens, double output_tokens) {
  constexpr int kSamples = 64;
  double sum = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double position = input_tokens + (i + 0.5) / kSamples * output_tokens;
    sum += std::exp2(std::ceil(std::log2(std::max(1.0, position))));
  }
  return sum / kSamples;
}

// Neuron (NxD Inference): the compiled graph runs each step as one program; decode streams the
// weights at the generation's utilisation, with a fixed cost per layer (neuron.cc).
ServeTiming CompiledGraphTiming(const ServeConfig& c, const GpuSpec& gpu, const Topology& topo,
                                double batch) {
  const ModelShape& m = *c.model;
  const GenerationEfficiency& eff = EfficiencyFor(gpu);
  ServeTiming out;
  batch = std::max(1.0, batch);
  out.mbu = c.mbu > 0 ? c.mbu : eff.decode_mbu * QuantizedMbuFactor(c.quantization);
  const double bw = gpu.memory_bw_gbyte_s.value_or(0) * 1e9 * out.mbu;
  const double context = DecodeBucketMean(c.input_tokens, c.output_tokens);
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
  if (out.compute_known) out.prefill_s = NeuronPrefillSeconds(c, gpu, topo, prefill_eff);
  // Continuous batching: each request's prefill stalls the batch once per output sequence.
  out.itl_s = out.step_s + batch * out.prefill_s / c.output_tokens;
  out.ttft_s = out.prefill_s + out.step_s;
  out.tokens_per_s = batch / out.itl_s;
  return out;
}

// What one step of a GPU engine runs: `decodes` sequences generating a token over `context`
// tokens of KV cache each, and `prompt` tokens of prompt chunks.
struct StepLoad {
  double decodes = 0, prompt = 0, context = 0;
};

// Kernel by kernel, max(compute time, memory time), per device:
// * GEMMs (QKV/O projections, MLP, LM head): 2 FLOP per weight per token at the weights'
//   format peak (FP8 or W4A4 FP4 tensor cores; weight-only int4/int8/nf4 dequantise to 16-bit),
//   against the weights streamed once at the format's decode bandwidth utilisation;
// * attention: decodes read their KV cache at streaming bandwidth; prompt tokens attend their
//   causal prefix in 16-bit (FlashAttention-class kernels at the prefill efficiency);
// * norms, residual adds, rotary and the MLP activation: kElementwiseHidden reads/writes of the
//   hidden state and 3 of the FFN activation per token and layer, 16-bit;
// * sampling: the fp32 logits of each decoding sequence, kSamplingPasses passes (softmax,
//   top-k/top-p, penalties).
double KernelSeconds(const ServeConfig& c, const GpuSpec& gpu, double mbu, const StepLoad& s) {
  // hidden-state passes per token and layer: 2 RMSNorms (read+write), 2 residual adds
  // (2 reads + write), rotary on Q/K: ~10 (vLLM/TRT-LLM fuse add+norm, not the rest)
  constexpr double kElementwiseHidden = 10;
  constexpr double kSamplingPasses = 4;  // vLLM Sampler: logits to fp32, softmax, top-p sort, pick
  const ModelShape& m = *c.model;
  const GenerationEfficiency& eff = EfficiencyFor(gpu);
  const double bw = gpu.memory_bw_gbyte_s.value_or(0) * 1e9;
  const double stream_bw = bw * eff.bandwidth;
  const double tokens = s.decodes + s.prompt;
  const double gemm_eff = c.prefill_eff > 0 ? c.prefill_eff : eff.PrefillEfficiency();
  double gemm_flop_s = 0, attn_flop_s = 0;
  if (c.peak_flops > 0) {
    gemm_flop_s = 2 * m.matmul_params * tokens / (Shards(c) * c.peak_flops * gemm_eff);
    const double attn_peak = c.attn_peak > 0 ? c.attn_peak : c.peak_flops;
    const double attn_flop =
        AttentionFlopPerContextToken(m) * (s.decodes * AttentionContext(m, s.context) +
                                           s.prompt * AttentionContext(m, c.input_tokens) / 2);
    attn_flop_s = attn_flop / (c.tp * c.pp * attn_peak * gemm_eff);
  }
  const double gemm = std::max(gemm_flop_s, DecodeWeightBytes(c, tokens) / (bw * mbu));
  const double kv_read = s.decodes * KvBytesPerSequence(m, s.context, c.kv_bytes) / KvShards(c);
  const double attn = std::max(attn_flop_s, kv_read / stream_bw);
  const double elementwise = tokens * m.layers *
                             (kElementwiseHidden * m.hidden + 3 * m.ffn_active) * 2 / Shards(c) /
                             stream_bw;
  const double sampling = s.decodes * m.vocab * 4 * kSamplingPasses / c.tp / stream_bw;
  return gemm + attn + elementwise + sampling;
}

// One step on the GPU and on the host. The GPU runs the kernels plus a launch gap per layer
// (CUDA graphs leave ~8 us, device.h); without a graph (a batch above the engine's captured
// sizes) the host launches ~kEagerOpsPerLayer operators per layer at kEagerHostPerOpS each,
// asynchronously: the step takes the longer of the two. A streamed token costs the server
// kStreamTokenS (detokenise, one SSE frame), between steps.
double StepSeconds(const ServeConfig& c, const GpuSpec& gpu, const Topology& topo, double mbu,
                   const StepLoad& s) {
  // Serving engines' custom Llama-style layers: 2 norms, QKV, rotary, attention, O, residual,
  // gate/up, activation, down, residual (+2 all-reduces with TP).
  constexpr double kEagerOpsPerLayer = 11;
  // PyTorch eager dispatch per operator in inference mode, module call included: ~10 us (the
  // gpt-fast blog's eager baseline spends ~30 us per operator with Hugging Face modules).
  constexpr double kEagerHostPerOpS = 10e-6;
  // Streaming servers (an OpenAI-style frontend over the engine: NIM/Triton, vLLM's API server)
  // hand each step's tokens to the frontend, detokenise and send one SSE frame per token.
  // Per sequence: the slope of inter-token latency with concurrency in the NVIDIA NIM sizing
  // dataset (Llama-3-8B on 1x H100, 16-bit, 200 in / 1000 out: 8.49 ms at 10 concurrent, 15.50
  // ms at 100, of which ~34 us per sequence is KV-cache reading) is ~40 us. Per step: the same
  // dataset's 16-bit rows at concurrency 1 on one GPU sit 0.7 ms (H100) and 1.2 ms (A100) above
  // the GPU time (weights at the generation's decode utilisation): ~0.8 ms.
  constexpr double kStreamTokenS = 40e-6;
  constexpr double kStreamStepS = 0.8e-3;
  const ModelShape& m = *c.model;
  const double gpu_s = KernelSeconds(c, gpu, mbu, s) + TpSeconds(c, topo, s.decodes + s.prompt) +
                       m.layers / c.pp * EfficiencyFor(gpu).decode_layer_s;
  const bool graph = s.prompt <= 0 && s.decodes / SchedulerRanks(c) <= c.engine.graph_max_batch;
  const double host_s = graph ? 0 : m.layers / c.pp * kEagerOpsPerLayer * kEagerHostPerOpS;
  return std::max(gpu_s, host_s) + (c.streamed ? kStreamStepS + s.decodes * kStreamTokenS : 0);
}

// GPU engines under continuous batching: in steady state each step generates one token for
// each of `batch` sequences and carries the prompts of the requests that replace the finished
// ones, batch x input/output tokens (chunked or whole, the average is the same).
ServeTiming GpuTiming(const ServeConfig& c, const GpuSpec& gpu, const Topology& topo,
                      double batch) {
  ServeTiming out;
  batch = std::max(1.0, batch);
  // FP8 GEMMs at decode batch sizes (cuBLASLt/TensorRT-LLM FP8 GEMM, no GEMV path) stream the
  // weights at ~0.8 of the 16-bit kernels' utilisation: NIM sizing dataset, concurrency 1 on
  // H100, 16-bit vs fp8 rows (Llama-3-8B TP1 200/200: 7.39 vs 5.11 ms; Llama-3-70B TP4: 18.83
  // vs 13.73 ms) with the per-step server cost above.
  constexpr double kGpuFp8MbuFactor = 0.8;
  const GenerationEfficiency& eff = EfficiencyFor(gpu);
  const bool fp8 = c.quantization == Precision::kFp8;
  out.mbu = c.mbu > 0
                ? c.mbu
                : eff.decode_mbu * (fp8 ? kGpuFp8MbuFactor : QuantizedMbuFactor(c.quantization));
  out.compute_known = c.peak_flops > 0;
  const double ratio = c.input_tokens / c.output_tokens;
  // Pipeline parallel (vLLM's virtual engines): the batch runs as `pp` micro-batches, each stage
  // working on one while the others work on the rest; a token passes every stage in turn, so a
  // request waits pp stage times and pp - 1 activation hops between its tokens. pp = 1: one
  // stage holding every layer, no hop.
  const double stages = c.pp;
  const double micro = batch / stages;
  StepLoad load{micro, micro * ratio, c.input_tokens + c.output_tokens / 2};
  const double hop_s = PipelineHopSeconds(c, topo, micro * (1 + ratio));
  const double step_s = stages * StepSeconds(c, gpu, topo, out.mbu, load) + (stages - 1) * hop_s;
  // What a request sees between its tokens: the other requests' prompts, not its own.
  load.prompt = std::max(0.0, (batch - 1) * ratio / stages);
  out.itl_s = stages * StepSeconds(c, gpu, topo, out.mbu, load) + (stages - 1) * hop_s;
  out.step_s = out.itl_s;
  out.tokens_per_s = batch / step_s;
  const StepLoad decode_only{batch, 0, load.context};
  out.compute_bound =
      out.compute_known &&
      KernelSeconds(c, gpu, out.mbu, decode_only) >
          DecodeWeightBytes(c, batch) / (gpu.memory_bw_gbyte_s.value_or(0) * 1e9 * out.mbu) + 1e-12;
  if (out.compute_known) {  // the prompt alone, in chunks of the engine's token budget
    const StepLoad prompt{0, c.input_tokens, 0};
    out.prefill_s = stages * StepSeconds(c, gpu, topo, out.mbu, prompt) +
                    (stages - 1) * PipelineHopSeconds(c, topo, c.input_tokens);
    const double room = (c.engine.max_tokens - batch / SchedulerRanks(c)) * SchedulerRanks(c);
    const double chunks =
        c.engine.chunked_prefill && room > 0 ? std::ceil(c.input_tokens / room) : 1;
    out.ttft_s = out.prefill_s + chunks * out.itl_s;
  }
  // Closed loop (clients waiting for their streams): each request's prompt is a step of its
  // own at low concurrency, so throughput is what Little's law gives over the whole request.
  if (c.streamed && out.compute_known) {
    out.tokens_per_s = std::min(
        out.tokens_per_s, batch * c.output_tokens / (out.ttft_s + c.output_tokens * out.itl_s));
  }
  return out;
}

}  // namespace

EngineProfile ProfileOf(Engine e, const GpuSpec& gpu) {
  EngineProfile p;
  p.engine = e;
  const bool large = DeviceMemoryBytes(gpu) >= 70 * kGiB;
  switch (e) {
    case Engine::kSglang:
      // server_args.py: running requests sized by the KV pool; chunked_prefill_size 8192 on
      // large-memory GPUs, 2048 on small ones; cuda_graph_max_bs 160 on H100-class parts.
      p.max_tokens = large ? 8192 : 2048;
      p.graph_max_batch = large ? 160 : 32;
      break;
    case Engine::kTrtllm:
      // LLM API / trtllm-serve (TorchLlmArgs): max_batch_size 2048, max_num_tokens 8192,
      // CUDA graphs with padding (perf-overview config: up to 8192); chunked prefill off.
      // trtllm-bench sets both above the KV cache's capacity (bench tuning: min(requests,
      // 4096), tokens >= batch x (1 + ISL/OSL)), so there the KV cache binds.
      p.max_seqs = 2048;
      p.graph_max_batch = 8192;
      p.chunked_prefill = false;
      break;
    case Engine::kTgi:
      // text-generation-launcher defaults: max_concurrent_requests 128,
      // max_batch_prefill_tokens 4096, --cuda-graphs 1,2,4,8,16,32; chunked prefill (TGI 3).
      p.max_seqs = 128;
      p.max_tokens = 4096;
      p.graph_max_batch = 32;
      break;
    case Engine::kNeuron:
      p.max_tokens = 0;  // NxD Inference: the compiled batch size (the KV cache) binds
      break;
    default:
      // vLLM V1 (engine/arg_utils.py, OpenAI server): max_num_seqs 1024 and
      // max_num_batched_tokens 8192 on GPUs with >= 70 GiB other than A100, else 256 and 2048;
      // chunked prefill on; piecewise CUDA graphs up to batch 512 (max_capture_size).
      p.engine = Engine::kVllm;
      const bool big = large && !gpu.model.starts_with("A100");
      p.max_seqs = big ? 1024 : 256;
      p.max_tokens = big ? 8192 : 2048;
      p.graph_max_batch = 512;
      break;
  }
  return p;
}

double EngineBatchCap(const ServeConfig& c) {
  double cap = c.engine.max_seqs * SchedulerRanks(c);
  if (c.engine.max_tokens > 0 && c.engine.chunked_prefill) {
    const double by_tokens =
        c.engine.max_tokens * SchedulerRanks(c) / (1 + c.input_tokens / c.output_tokens);
    cap = cap > 0 ? std::min(cap, by_tokens) : by_tokens;
  }
  return cap > 0 ? std::max(1.0, std::floor(cap)) : 0;
}

int MaxServingInstances(const GpuSpec& gpu, int node_gpus, bool efa) {
  const bool split = !IsNeuronDevice(gpu) && efa && node_gpus >= kMinStageGpus;
  return split ? kMaxServingStages : 1;
}

ServeTiming ServingTiming(const ServeConfig& c, const GpuSpec& gpu, const Topology& topo,
                          double batch) {
  if (c.engine.engine == Engine::kNeuron) return CompiledGraphTiming(c, gpu, topo, batch);
  return GpuTiming(c, gpu, topo, batch);
}

}  // namespace gpuadvisor::workload_internal
