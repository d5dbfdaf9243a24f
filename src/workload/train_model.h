// Training: per-device memory (model states, activations, overhead) and step time
// (compute, memory-bound ops, TP/PP/DP communication, pipeline bubble).
// Methods: doc/estimation.md, "Training" and "Frameworks".
#ifndef GPUADVISOR_WORKLOAD_TRAIN_MODEL_H_
#define GPUADVISOR_WORKLOAD_TRAIN_MODEL_H_

#include "gpuadvisor/estimate.h"
#include "workload/device.h"
#include "workload/llm_formulas.h"

namespace gpuadvisor::workload_internal {

// What a training framework overlaps, how it splits the pipeline and which loss kernel it runs:
// documented defaults of each framework (sources at TraitsOf in train_model.cc).
struct FrameworkTraits {
  bool tp_overlap = false;             // TP collectives pipelined with the GEMMs (needs SP)
  bool grad_reduce_overlap = false;    // DP gradient reduction bucketed behind the backward pass
  bool param_gather_overlap = false;   // ZeRO-1/2 parameter all-gather behind the next forward
  bool uneven_pipeline = false;        // stages balanced counting the embedding and the LM head
  bool fp32_reduce_always = false;     // gradients reduced in fp32 whatever the training precision
  bool fp32_reduce_with_bf16 = false;  // ... in fp32 when training in bf16/fp8 (fp16: 16-bit)
  bool reduce_every_micro_batch = false;  // ZeRO-2 reduces each micro-batch's gradients
  double loss_bytes_per_logit = 4;        // peak memory of the loss per logit element
  bool hopper_attention = false;   // fused attention written for Hopper (cuDNN 9 / FA3 class)
  bool eager_elementwise = false;  // norms, rotary, activations as separate eager PyTorch ops
  // Gradients accumulate in one buffer allocated once, in fp32 for bf16/fp8 training (not
  // freed and reallocated each step as PyTorch's zero_grad(set_to_none=True) does).
  bool grad_buffer = false;
  // TransformerEngine layers: fused gated activation (saves only the fc1 output), FP8 GEMM
  // inputs saved in FP8 and, with a distributed optimizer, FP8 weights (fp8_params).
  bool transformer_engine = false;
  // Pure 16-bit training: the optimizer's states in the weights' dtype, no fp32 master copy.
  bool pure_16bit = false;
  // Bytes per hidden element and token each layer keeps beyond the fused count when its modules
  // run eagerly (fp32 norm copies, unfused rotary): under recomputation, the live layer only.
  double eager_saved_hidden_bytes = 0;
  // LoRA dropout: bytes kept per element of an adapted Linear's input (the dropped copy and its
  // mask), per adapted module (PEFT: each Linear its own dropout) or per distinct input tensor.
  double lora_dropout_bytes = 0;
  bool lora_dropout_per_module = false;
  // A fused QKV Linear's LoRA output zero-padded to the q+k+v width (index_copy keeps its
  // source), bytes per hidden element and token.
  double lora_qkv_pad_bytes = 0;
  // QLoRA through bitsandbytes: MatMul4Bit keeps the inputs of the frozen 4-bit Linears, and
  // each matmul dequantises its weight to fp16, then the compute dtype (4 B per weight of the
  // largest 4-bit matrix at a time).
  bool bnb_4bit = false;
  bool nf4_lm_head = false;  // the LM head quantised too (else 16-bit, as bitsandbytes skips it)
  bool kbit_fp32_upcast =
      false;  // non-4-bit parameters cast to fp32 (prepare_model_for_kbit_training)
  bool foreach_step_temp =
      false;  // torch.optim.AdamW (foreach): a parameter-sized temporary at the step
};
const FrameworkTraits& TraitsOf(Framework f);
// True for the frameworks that run PyTorch eager or under torch.compile (--torch-compile).
bool IsPyTorchFramework(Framework f);
// NeuronX Distributed on Neuron devices; else Megatron-Core when the layout has TP or PP or the
// run trains in NVFP4 (TransformerEngine's recipe), PyTorch FSDP otherwise.
Framework DefaultFramework(int tp, int pp, bool neuron, bool nvfp4 = false);

// Everything a training configuration fixes. Degrees are >= 1.
struct TrainConfig {
  const ModelShape* model = nullptr;
  TaskKind task = TaskKind::kPretrain;
  Precision precision = Precision::kBf16;
  Optimizer optimizer = Optimizer::kAdamW;
  ParallelismChoice par;
  Offload offload = Offload::kNone;
  double seq = 2048;
  double global_batch = 1024;  // sequences per optimizer step
  bool flash_attention = true;
  std::optional<bool> torch_compile;  // unset = the framework's usual kernels
  int lora_rank = 16;
  LoraTargets lora_targets = LoraTargets::kAll;
  int gpus = 1;
  // Micro-batches per pipeline per step: ceil(B / (b·dp)).
  double MicroBatches() const;
};

// Bytes per device.
struct MemoryBytes {
  double weights = 0, gradients = 0, optimizer = 0, activations = 0, kv_cache = 0, overhead = 0;
  // Parts of `overhead` outside the live tensors, where the model tells them apart (training):
  // the caching allocator's slack (reserved - allocated) and what lives beside the allocator
  // (CUDA context, NCCL buffers). allocator_split says they are set.
  double allocator_slack = 0, outside_allocator = 0;
  bool allocator_split = false;
  double Allocated() const { return Total() - allocator_slack - outside_allocator; }
  double Reserved() const { return Total() - outside_allocator; }
  double Total() const {
    return weights + gradients + optimizer + activations + kv_cache + overhead;
  }
};

// Parameters held by one device before ZeRO: (layers/pp + embedding on the first/last stage)/tp.
double ParamsPerDevice(const ModelShape& m, double tp, double pp);
// Trainable LoRA adapter parameters: r·(d_in + d_out) per adapted matrix, all layers.
double LoraAdapterParams(const ModelShape& m, int rank, LoraTargets targets);
// Optimizer bytes per trainable parameter (K of the ZeRO paper): mixed-precision AdamW 12,
// 8-bit Adam 6, SGD with momentum 8; pure fp32 training 8 / 2 / 4.
double OptimizerBytesPerParam(Optimizer o, Precision p);
// The same without a master copy, states in bf16 (pure 16-bit training): AdamW 4, 8-bit Adam 2,
// SGD with momentum 2.
double Pure16BitOptimizerBytesPerParam(Optimizer o);

MemoryBytes TrainingMemory(const TrainConfig& c);

// Step-time breakdown in seconds. tp_comm_s and dp_comm_exposed_s are what the overlap leaves
// exposed (including the slowdown of compute that runs beside a collective).
struct TrainStep {
  double step_s = 0;
  double compute_s = 0, memory_s = 0, tp_comm_s = 0, pp_comm_s = 0, dp_comm_exposed_s = 0;
  double optimizer_s = 0;  // on the device; with offload: the host step and PCIe/NVMe traffic
  double offload_s = 0;    // part of optimizer_s spent on the offloaded step
  double bubble_fraction = 0;
  double model_flop_per_token = 0, hardware_flop_per_token = 0;
};

// REQUIRES: peak_flops > 0. `mfu_override` > 0 replaces the compute model: the step takes
// model_flop / (gpus · peak · mfu).
TrainStep TrainingStep(const TrainConfig& c, const GpuSpec& gpu, const Topology& topo,
                       double peak_flops, double mfu_override);

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_TRAIN_MODEL_H_
