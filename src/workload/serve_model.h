// LLM serving: weights and KV cache per device, prefill (compute-bound) and decode
// (bandwidth-bound with batch) times, continuous-batching throughput. doc/estimation.md, "Serving".
#ifndef GPUADVISOR_WORKLOAD_SERVE_MODEL_H_
#define GPUADVISOR_WORKLOAD_SERVE_MODEL_H_

#include <optional>

#include "workload/device.h"
#include "workload/llm_formulas.h"
#include "workload/train_model.h"

namespace gpuadvisor::workload_internal {

// Storage bytes per weight: 16-bit 2, fp8/int8 1, int4 0.5 + group-128 fp16 scale and zero,
// fp4 0.5 + an fp8 scale per 16 (NVFP4), nf4 0.5 + double-quantised constants.
double WeightBytes(std::optional<Precision> quantization);
// Bandwidth utilisation of weight-only/low-bit kernels relative to 16-bit ones (dequantisation
// costs), e.g. int4 0.6: gpt-fast reaches 42% of peak with int4 vs 69% with bf16 on A100.
double QuantizedMbuFactor(std::optional<Precision> quantization);
// Weights dequantised to 16-bit in every matmul (AWQ/GPTQ int4, int8, bitsandbytes nf4), as
// opposed to fp8/fp4 weights the tensor cores take as they are.
bool IsWeightOnly(std::optional<Precision> quantization);

// Bytes of all weights as served: linear weights at the quantization's width (unquantized
// routed experts at the checkpoint's expert format, ModelArch::expert_weight_bytes), the rest
// (norms, embeddings, router) 16-bit.
double ServedWeightBytes(const ModelShape& m, std::optional<Precision> quantization);

// An LLM serving engine's scheduler defaults and overheads (doc/estimation.md, "Serving
// engines"). Figures per engine in serve_model.cc with their sources.
struct EngineProfile {
  Engine engine = Engine::kVllm;
  double max_seqs = 0;         // running sequences the scheduler admits (0 = KV-cache limited)
  double max_tokens = 8192;    // tokens one step schedules: decodes + prompt chunk
  double graph_max_batch = 0;  // largest decode batch replayed as a CUDA graph (0 = none)
  bool chunked_prefill = true;
};
// The engine's defaults on `gpu` (vLLM and SGLang size them by device memory).
EngineProfile ProfileOf(Engine e, const GpuSpec& gpu);

struct ServeConfig {
  const ModelShape* model = nullptr;
  std::optional<Precision> quantization;  // nullopt = 16-bit
  double kv_bytes = 2;                    // per KV element
  int tp = 1, pp = 1, replicas = 1;
  double input_tokens = 512, output_tokens = 256;
  double peak_flops = 0;   // compute peak of the weights' format; 0 = unknown
  double mbu = 0;          // 0 = generation default x quantisation factor
  double prefill_eff = 0;  // 0 = 0.75 x generation matmul efficiency
  // GPU engines: the operator-level roofline with the engine's scheduler; Neuron (NxD
  // Inference) keeps the compiled-graph model of neuron.cc's efficiencies.
  EngineProfile engine;
  bool streamed = false;  // online serving: every token is a streamed response
  double attn_peak = 0;   // 16-bit peak for attention (GPU engines); 0 = peak_flops
  // Neuron: false keeps context encoding off the flash-attention kernel at any prompt length
  // (transformers-neuronx of the SDK 2.18 tables); true lets NxD Inference pick it (neuron.h).
  bool flash_attention = true;
  // MoE on GPU engines (Workload::attention_dp): each of the tp ranks runs attention for its
  // own 1/tp of the requests with whole attention (and dense-layer) weights and holds their KV
  // cache whole; the routed experts are split over the ranks (expert parallel), the tokens
  // gathered to them and their outputs scattered back around each MoE layer.
  bool attention_dp = false;
  int cores_per_device = 1;  // TP ranks per device: NeuronCores per chip, 1 on GPUs
};

// Serving a model no node holds (doc/estimation.md, "Serving across instances"): pipeline
// stages over EFA, one per node of at least kMinStageGpus GPUs, at most kMaxServingStages — the
// multi-node deployments vLLM and LeaderWorkerSet document (2-4 nodes per replica of 8-GPU nodes
// over EFA or InfiniBand); past that, or over ENA, the hops would dominate every token. AWS
// Neuron (NxD Inference compiles one instance's graph here) never splits a replica.
inline constexpr int kMaxServingStages = 4;
inline constexpr int kMinStageGpus = 4;
// The most instances one served replica is split over on nodes of `node_gpus` devices of `gpu`
// (`efa`: the instance has EFA): kMaxServingStages, or 1 where a replica stays on one instance.
int MaxServingInstances(const GpuSpec& gpu, int node_gpus, bool efa);

// Memory per device for `batch` concurrent requests per replica.
MemoryBytes ServingMemory(const ServeConfig& c, const GpuSpec& gpu, double batch);
// Requests per replica the KV cache can hold at full length (vLLM gpu_memory_utilization 0.9).
double KvCapacityRequests(const ServeConfig& c, const GpuSpec& gpu);
// Requests per replica the engine's scheduler runs at once: its max sequences, and its token
// budget per step when every step also carries the prompt chunks of the requests replacing
// finished ones (batch x (1 + input/output) tokens); 0 = no cap.
double EngineBatchCap(const ServeConfig& c);

struct ServeTiming {
  double prefill_s = 0;     // one request's prompt, unloaded; nullopt-like 0 when peak unknown
  double step_s = 0;        // one decode step at the batch
  double itl_s = 0;         // average time between tokens of a request incl. prefill stalls
  double ttft_s = 0;        // prefill + joining a decode step
  double tokens_per_s = 0;  // generated tokens per second, one replica
  double mbu = 0;
  bool compute_bound = false;
  bool compute_known = true;
};
ServeTiming ServingTiming(const ServeConfig& c, const GpuSpec& gpu, const Topology& topo,
                          double batch);

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_SERVE_MODEL_H_
