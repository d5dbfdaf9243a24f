// The workload's options, declared once (issue 40, item 1), with the declaration every command's
// options have (gpuadvisor/fields.h): one DeclareOptions per struct, each field with its option
// name, type, bounds, aliases, help and the task kinds it applies to (FieldInfo::tasks).
//
// Every reader of the workload's fields walks these: WorkloadFields::Bind parses a given value
// into its field (fields.cc: the bounds and the parsers below, with the messages the workload
// has always given, "tokens: expected a positive number, got \"-5\"") and refuses one given for
// a task it does not apply to; the help and the per-task groups (WorkloadFieldNames,
// FindWorkloadFieldInfo, GroupWorkloadFields), and the test that every field of the structs is
// declared.
//
// How a workload field parses, from its declaration:
//   Number    SI suffixes ("7B"); FieldInfo lo (lo_exclusive: a positive number; hi 1: a fraction
//             in (0, 1]); the field holds the value times FieldInfo::scale
//   Integer   a whole number >= lo (SI suffixes when integral: "4k"); hi, when finite, named
//   Duration  a latency ("200ms", bare = seconds) when bare_seconds, else a run length ("36h",
//             bare = hours); the field counts seconds_per_unit seconds
//   Bool      true/false, yes/no, on/off, 1/0
//   Enum      parse(key, text) -> Result; the key as given, so that messages name the spelling
//   Text      the text, trimmed ("model" selects a preset, "model-config" reads a config.json)
#ifndef GPUADVISOR_WORKLOAD_WORKLOAD_OPTIONS_H_
#define GPUADVISOR_WORKLOAD_WORKLOAD_OPTIONS_H_

#include <cstdint>
#include <string>

#include "gpuadvisor/fields.h"
#include "gpuadvisor/workload.h"
#include "workload/enum_tables.h"
#include "workload/task_kinds.h"
#include "workload/value_parse.h"

namespace gpuadvisor {
namespace workload_internal {

// The tasks a field means something for (FieldInfo::tasks: bits of TaskKind).
namespace task_bits {
constexpr unsigned Bit(TaskKind t) { return 1u << static_cast<unsigned>(t); }
constexpr unsigned kTrain = Bit(TaskKind::kPretrain) | Bit(TaskKind::kFinetune) |
                            Bit(TaskKind::kLora) | Bit(TaskKind::kQlora);
constexpr unsigned kAdapters = Bit(TaskKind::kLora) | Bit(TaskKind::kQlora);
constexpr unsigned kServe = Bit(TaskKind::kServe);
constexpr unsigned kLlm = kTrain | kServe;
constexpr unsigned kTrainVision = Bit(TaskKind::kTrainVision);
constexpr unsigned kInferVision = Bit(TaskKind::kInferVision);
constexpr unsigned kVision = kTrainVision | kInferVision;
constexpr unsigned kModel = kLlm | kVision;
constexpr unsigned kHpc = Bit(TaskKind::kHpc);
constexpr unsigned kBatch = kTrain | kVision | kHpc;  // jobs that end: runtime, goodput
constexpr unsigned kTranscode = Bit(TaskKind::kTranscode);
constexpr unsigned kRender = Bit(TaskKind::kRender);
constexpr unsigned kAnalytics = Bit(TaskKind::kAnalytics);
constexpr unsigned kAllTasks = (1u << kTaskKindCount) - 1;
static_assert(kTaskKindCount < 32, "a task's bit must fit an unsigned");
}  // namespace task_bits

inline const char* OffloadName(Offload o) { return NameOf(o); }
inline const char* LoraTargetsName(LoraTargets t) { return NameOf(t); }
inline std::string VideoLinesName(int lines) { return std::to_string(lines) + "p"; }

}  // namespace workload_internal

template <typename V>
void DeclareOptions(V& v, ModelArch& m) {
  using namespace workload_internal;             // NOLINT: the parsers
  using namespace workload_internal::task_bits;  // NOLINT: the task sets
  v.Enum("family", m.family, ModelFamilyName, ParseFamily,
         {.help = "architecture family: decoder|encoder|encoder-decoder|convnet|vit|diffusion",
          .metavar = "NAME",
          .tasks = kModel});
  v.Number("params", m.params,
           {.help = "total parameters (7B, 7e9); overrides the derived count",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kModel});
  v.Integer("layers", m.layers,
            {.help = "transformer layers",
             .lo = 1,
             .aliases = {"num-layers"},
             .metavar = "N",
             .tasks = kLlm});
  v.Integer("hidden", m.hidden, {.help = "model width", .lo = 1, .metavar = "N", .tasks = kLlm});
  v.Integer("heads", m.heads,
            {.help = "attention (query) heads", .lo = 1, .metavar = "N", .tasks = kLlm});
  v.Integer("kv-heads", m.kv_heads,
            {.help = "KV heads (GQA; default = heads)", .lo = 1, .metavar = "N", .tasks = kLlm});
  v.Integer("head-dim", m.head_dim,
            {.help = "attention head size (default hidden/heads; MLA: non-rotary query/key part)",
             .lo = 1,
             .metavar = "N",
             .tasks = kLlm});
  v.Integer(
      "ffn", m.ffn,
      {.help = "FFN inner size (per expert for MoE)", .lo = 1, .metavar = "N", .tasks = kLlm});
  v.Integer("vocab", m.vocab, {.help = "vocabulary size", .lo = 1, .metavar = "N", .tasks = kLlm});
  v.Integer("experts", m.experts,
            {.help = "MoE experts per layer", .lo = 1, .metavar = "N", .tasks = kLlm});
  v.Integer("active-experts", m.active_experts,
            {.help = "MoE experts used per token (top-k)", .lo = 1, .metavar = "N", .tasks = kLlm});
  v.Integer("max-positions", m.max_positions,
            {.help = "learned position-embedding table size (0 = rotary/ALiBi)",
             .lo = 0,
             .metavar = "N",
             .tasks = kLlm});
  v.Integer("context-length", m.context_length,
            {.help = "longest sequence the model takes, prompt + output (0 = unchecked); presets "
                     "and config.json set it",
             .lo = 0,
             .aliases = {"max-model-len"},
             .metavar = "N",
             .tasks = kLlm});
  v.Integer(
      "sliding-window", m.sliding_window,
      {.help = "attention window in tokens (0 = full)", .lo = 0, .metavar = "N", .tasks = kLlm});
  v.NotAnOption(m.sliding_window_fraction);
  v.Bool("gated-mlp", m.gated_mlp,
         {.help = "SwiGLU/GeGLU MLP (3 matrices) instead of GELU (2)",
          .metavar = "BOOL",
          .tasks = kLlm});
  v.Bool("tied-embeddings", m.tied_embeddings,
         {.help = "output head shares the embedding matrix", .metavar = "BOOL", .tasks = kLlm});
  v.Bool("attention-bias", m.attention_bias,
         {.help = "QKV/O and MLP biases (GPT-2/OPT/BERT style)", .metavar = "BOOL", .tasks = kLlm});
  v.Integer(
      "kv-lora-rank", m.kv_lora_rank,
      {.help = "multi-head latent attention: cached KV latent width (DeepSeek-V2/V3; 0 = GQA/MHA)",
       .lo = 0,
       .metavar = "N",
       .tasks = kLlm});
  v.Integer("q-lora-rank", m.q_lora_rank,
            {.help = "multi-head latent attention: query latent width (0 = full rank)",
             .lo = 0,
             .metavar = "N",
             .tasks = kLlm});
  v.Integer("rope-head-dim", m.rope_head_dim,
            {.help = "multi-head latent attention: decoupled rotary key width per head",
             .lo = 0,
             .metavar = "N",
             .tasks = kLlm});
  v.Integer("v-head-dim", m.v_head_dim,
            {.help = "value width per head (default head-dim; MLA: 128)",
             .lo = 0,
             .metavar = "N",
             .tasks = kLlm});
  v.Integer("shared-ffn", m.shared_ffn,
            {.help = "MoE: FFN inner size of the always-used shared expert(s), summed",
             .lo = 0,
             .metavar = "N",
             .tasks = kLlm});
  v.Integer("dense-layers", m.dense_layers,
            {.help = "MoE: layers with a dense MLP instead of experts (DeepSeek: first k)",
             .lo = 0,
             .metavar = "N",
             .tasks = kLlm});
  v.Integer("dense-ffn", m.dense_ffn,
            {.help = "MoE: FFN inner size of the dense layers (default ffn)",
             .lo = 1,
             .metavar = "N",
             .tasks = kLlm});
  v.NotAnOption(m.expert_weight_bytes);
  v.Bool("dropout", m.dropout,
         {.help = "dropout during training (stores masks)",
          .metavar = "BOOL",
          .tasks = kTrain | kTrainVision});
  v.Number("fwd-gflop-per-sample", m.fwd_flop_per_image,
           {.help = "custom vision model: forward GFLOP per sample (2 per MAC)",
            .label = "Forward GFLOP per sample",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .scale = 1e9,
            .tasks = kVision});
  v.NotAnOption(m.conv_share);
  v.NotAnOption(m.attention_share);
  v.Number(
      "activation-mb-per-sample", m.act_elems_per_image,
      {.help =
           "custom vision model: MB of conv/linear outputs the forward writes per sample (16-bit)",
       .lo = 0,
       .metavar = "MB",
       .lo_exclusive = true,
       .scale = 1e6 / 2,
       .tasks = kVision});
  v.NotAnOption(m.eager_accesses_train);
  v.NotAnOption(m.eager_accesses_infer);
  v.NotAnOption(m.fused_accesses);
  v.NotAnOption(m.attention_score_elems);
  v.NotAnOption(m.narrow);
  v.NotAnOption(m.vision_layers);
  v.NotAnOption(m.resolution_px);
  v.NotAnOption(m.spatial_dims);
  v.NotAnOption(m.default_batch);
  v.NotAnOption(m.diffusion_steps);
  v.NotAnOption(m.decoder_flop_per_image);
  v.NotAnOption(m.unet);
  v.NotAnOption(m.text_encoder_params);
  v.NotAnOption(m.dominant_kernel);
  v.Enum("kernel-class", m.kernel_class, KernelClassName, ParseKernelClass,
         {.help = "custom vision model: dominant kernel class conv|gemm|attention",
          .metavar = "K",
          .tasks = kVision});
}

template <typename V>
void DeclareOptions(V& v, ParallelismRequest& p) {
  using namespace workload_internal;             // NOLINT: the parsers
  using namespace workload_internal::task_bits;  // NOLINT: the task sets
  v.Integer("tp", p.tp, {.help = "tensor-parallel degree", .lo = 1, .metavar = "N", .tasks = kLlm});
  v.Integer("pp", p.pp,
            {.help = "pipeline-parallel degree", .lo = 1, .metavar = "N", .tasks = kLlm});
  v.Integer("dp", p.dp, {.help = "data-parallel degree", .lo = 1, .metavar = "N", .tasks = kLlm});
  v.Integer("context-parallel", p.context_parallel,
            {.help = "context-parallel degree (sequence split across GPUs)",
             .lo = 1,
             .metavar = "N",
             .tasks = kTrain});
  v.Integer("virtual-pp", p.virtual_pp,
            {.help = "interleaved pipeline chunks per GPU",
             .lo = 1,
             .aliases = {"virtual-pipeline"},
             .metavar = "N",
             .tasks = kTrain});
  v.Integer("zero", p.zero,
            {.help = "ZeRO stage 0|1|2|3 (3 = FSDP full shard)",
             .label = "ZeRO stage",
             .lo = 0,
             .hi = 3,
             .aliases = {"zero-stage"},
             .metavar = "Z",
             .tasks = kTrain});
  v.Integer("micro-batch", p.micro_batch,
            {.help = "sequences per micro-batch per GPU",
             .lo = 1,
             .aliases = {"micro-batch-size", "microbatch"},
             .metavar = "N",
             .tasks = kTrain});
  v.Bool(
      "sequence-parallel", p.sequence_parallel,
      {.help = "Megatron sequence parallelism (with tp > 1)", .metavar = "BOOL", .tasks = kTrain});
  v.Enum("recompute", p.recompute, RecomputeName, ParseRecompute,
         {.help = "activation recomputation: none|selective|full|op (torchtitan op-level)",
          .metavar = "R",
          .tasks = kTrain});
  v.Enum("offload", p.offload, OffloadName, ParseOffload,
         {.help = "optimizer-state offload: none|cpu|nvme", .metavar = "WHERE", .tasks = kTrain});
}

template <typename V>
void DeclareOptions(V& v, Workload& w) {
  using namespace workload_internal;             // NOLINT: the parsers
  using namespace workload_internal::task_bits;  // NOLINT: the task sets
  v.Enum("task", w.task, TaskKindName, ParseTask,
         {.help = kTaskNames, .metavar = "TASK", .tasks = kAllTasks});
  v.Text("model", w.model_name,
         {.help = "model preset (llama-3.1-8b, mixtral-8x7b, resnet50, ...) or a Hugging Face id "
                  "with the same architecture (meta-llama/Llama-3.1-8B-Instruct)",
          .metavar = "NAME",
          .tasks = kModel});
  v.Text("model-config", w.model_config,
         {.help = "Hugging Face config.json (or an org/name id, as --model)",
          .aliases = {"hf-config"},
          .metavar = "FILE",
          .tasks = kLlm});
  v.NotAnOption(w.model_notes);
  v.Nested(w.model);
  v.Nested(w.parallelism);
  // LLM training.
  v.Number("tokens", w.tokens,
           {.help = "training tokens (2T, 300B); fine-tuning: dataset tokens per epoch",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kTrain});
  v.Integer("seq-len", w.seq_len,
            {.help = "sequence length in tokens",
             .label = "Sequence length",
             .lo = 1,
             .aliases = {"sequence-length", "seq-length"},
             .metavar = "N",
             .tasks = kLlm});
  v.Number("global-batch-tokens", w.global_batch_tokens,
           {.help = "tokens per optimizer step (alternative to --global-batch)",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kTrain});
  v.Integer("global-batch", w.global_batch,
            {.help = "sequences (train-vision: images) per optimizer step; more than --batch x "
                     "devices accumulates gradients",
             .lo = 1,
             .metavar = "N",
             .tasks = kTrain | kTrainVision});
  v.Enum("precision", w.precision, PrecisionName, ParseComputePrecision,
         {.help = "compute precision fp32|tf32|bf16|fp16|fp8|fp4 (int8: vision inference; fp4: "
                  "NVFP4 LLM training on Blackwell)",
          .metavar = "P",
          .tasks = kModel | kHpc});
  v.Enum("optimizer", w.optimizer, OptimizerName, ParseOptimizer,
         {.help = "adamw|adam8bit|sgd", .metavar = "OPT", .tasks = kTrain | kTrainVision});
  v.Enum("framework", w.framework, FrameworkName, ParseFramework,
         {.help = "training framework: "
                  "megatron-core|megatron-lm|fsdp|torchtitan|deepspeed|neuronx|torchtune (default: "
                  "megatron-core with TP/PP, else fsdp; neuronx on Trainium)",
          .metavar = "FW",
          .tasks = kTrain});
  v.Bool("torch-compile", w.torch_compile,
         {.help = "torch.compile on a PyTorch framework (fsdp, torchtitan, torchtune, deepspeed): "
                  "fused norms, rotary and activations, the loss as the framework writes it "
                  "(default: torchtitan eager, the others fused)",
          .label = "torch.compile",
          .metavar = "BOOL",
          .tasks = kTrain});
  v.Bool("flash-attention", w.flash_attention,
         {.help = "fused attention kernels, no s^2 activations (default true)",
          .metavar = "BOOL",
          .tasks = kModel});
  v.Integer("lora-rank", w.lora_rank,
            {.help = "LoRA rank r", .lo = 1, .metavar = "N", .tasks = kAdapters});
  v.Enum("lora-targets", w.lora_targets, LoraTargetsName, ParseLoraTargets,
         {.help = "LoRA-adapted matrices: all|attention|qv", .metavar = "T", .tasks = kAdapters});
  v.Number("epochs", w.epochs,
           {.help = "passes over the dataset (fine-tuning, vision)",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kTrain | kTrainVision});
  // Serving.
  v.Number("rps", w.rps,
           {.help = "serving: requests per second (open loop); infer-vision: images arriving per "
                    "second (real time)",
            .label = "Requests per second",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kServe | kInferVision});
  v.Integer(
      "input-tokens", w.input_tokens,
      {.help = "serving: prompt tokens per request", .lo = 1, .metavar = "N", .tasks = kServe});
  v.Integer(
      "output-tokens", w.output_tokens,
      {.help = "serving: generated tokens per request", .lo = 1, .metavar = "N", .tasks = kServe});
  v.Integer("concurrency", w.concurrency,
            {.help = "serving: requests kept in flight (closed loop)",
             .lo = 1,
             .metavar = "N",
             .tasks = kServe});
  v.Enum("quantization", w.quantization, PrecisionName, ParseQuantization,
         {.help = "serving weights: none|fp8|int8|int4|fp4|nf4; fp4 (nvfp4, mxfp4) is W4A4 on "
                  "Blackwell, int4 (awq, gptq) weight-only",
          .metavar = "Q",
          .tasks = kServe | kAdapters});
  v.Enum("kv-precision", w.kv_precision, PrecisionName, ParseKvPrecision,
         {.help = "serving: KV-cache precision fp16|fp8|int8",
          .aliases = {"kv-precision-bits"},
          .metavar = "P",
          .tasks = kServe});
  v.Duration("ttft-p95", w.ttft_p95_s,
             {.help = "serving: time-to-first-token target, p95",
              .metavar = "DUR",
              .bare_seconds = true,
              .tasks = kServe});
  v.Duration("itl-p95", w.itl_p95_s,
             {.help = "serving: inter-token latency target, p95",
              .metavar = "DUR",
              .bare_seconds = true,
              .tasks = kServe});
  v.Duration("e2e-p95", w.e2e_p95_s,
             {.help = "serving: end-to-end latency target, p95 (200ms, 1.5s); infer-vision with "
                      "rps: per image, queueing and batching included",
              .aliases = {"p95"},
              .metavar = "DUR",
              .bare_seconds = true,
              .tasks = kServe | kInferVision});
  v.Bool("streaming", w.streaming,
         {.help = "serving: tokens streamed to clients through an API server (default: true with "
                  "concurrency or rps, false offline)",
          .metavar = "BOOL",
          .tasks = kServe});
  v.Bool("attention-dp", w.attention_dp,
         {.help = "serving a MoE model: attention data-parallel over the tp ranks (each its own "
                  "requests, KV cache and whole attention weights), the experts expert-parallel "
                  "across them (TensorRT-LLM enable_attention_dp, SGLang --enable-dp-attention, "
                  "vLLM --data-parallel-size with --enable-expert-parallel); default false",
          .label = "Attention data parallel (MoE)",
          .metavar = "BOOL",
          .tasks = kServe});
  // Vision.
  v.Number("images", w.images,
           {.help = "vision: images per epoch (train) or to process (offline infer)",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kVision});
  v.Integer(
      "resolution", w.resolution,
      {.help = "vision: input side length in pixels", .lo = 8, .metavar = "PX", .tasks = kVision});
  v.Integer("batch", w.batch,
            {.help = "vision: per-GPU batch, inference or training (default: the model's)",
             .lo = 1,
             .metavar = "N",
             .tasks = kVision});
  v.Integer(
      "steps", w.steps,
      {.help = "diffusion: denoising steps per image", .lo = 1, .metavar = "N", .tasks = kVision});
  v.Bool("guidance", w.guidance,
         {.help = "diffusion inference: classifier-free guidance, two UNet evaluations per step "
                  "(default true)",
          .metavar = "BOOL",
          .tasks = kInferVision});
  v.Enum("engine", w.engine, EngineName, ParseEngine,
         {.help = "vision: eager (PyTorch, one kernel per op) or fused (TensorRT, torch.compile, "
                  "XLA, Neuron); serving: vllm|sglang|trtllm|tgi|neuron (default vllm on GPUs, "
                  "neuron on Neuron)",
          .metavar = "E",
          .tasks = kVision | kServe});
  // HPC.
  v.Number("fp64-flop", w.fp64_flop,
           {.help = "hpc: total FP64 FLOP of the job",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kHpc});
  v.Number("fp32-flop", w.fp32_flop,
           {.help = "hpc: total FP32 FLOP of the job",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kHpc});
  v.Number("fp64-flops", w.fp64_flops_needed,
           {.help = "hpc: sustained FP64 FLOP/s needed",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kHpc});
  v.Number("fp32-flops", w.fp32_flops_needed,
           {.help = "hpc: sustained FP32 FLOP/s needed",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kHpc});
  v.Number("working-set-gib", w.working_set_gib,
           {.help = "hpc: memory working set in GiB",
            .lo = 0,
            .metavar = "GIB",
            .lo_exclusive = true,
            .tasks = kHpc});
  v.Duration("runtime", w.runtime_target_s,
             {.help = "wall-clock limit of the job (36h): a constraint (recommend ranks only plans "
                      "within it); hpc given as a rate (fp64-flops): how long it runs",
              .metavar = "DUR",
              .tasks = kBatch});
  v.Enum("hpc-kind", w.hpc_kind, HpcKindName, ParseHpcKind,
         {.help = "hpc: dense-la (HPL-like, FP64 tensor cores), memory-bound (sparse, stencils, "
                  "HPCG: with arithmetic-intensity), mixed-precision (HPL-MxP LU on fp16/fp8 "
                  "tensor cores, per precision) or general (vector peak)",
          .metavar = "K",
          .tasks = kHpc});
  v.Number(
      "arithmetic-intensity", w.arithmetic_intensity,
      {.help = "hpc memory-bound: FLOP per byte moved to/from device memory (HPCG/CSR SpMV: 0.167)",
       .lo = 0,
       .metavar = "X",
       .lo_exclusive = true,
       .tasks = kHpc});
  v.Number("bytes-moved", w.bytes_moved,
           {.help = "hpc memory-bound: bytes the job moves to/from device memory in all",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kHpc});
  // Transcode.
  v.Integer("streams", w.streams,
            {.help = "transcode: concurrent video streams",
             .lo = 1,
             .metavar = "N",
             .tasks = kTranscode});
  v.Enum("stream-resolution", w.stream_resolution_lines, VideoLinesName, VideoLines,
         {.help = "transcode: 720p|1080p|1440p|4k|8k", .metavar = "RES", .tasks = kTranscode});
  v.Number("fps", w.fps,
           {.help = "transcode: frames per second per stream",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kTranscode});
  v.Enum("codec", w.codec, CodecName, ParseCodec,
         {.help = "transcode codec: h264|hevc|av1", .metavar = "CODEC", .tasks = kTranscode});
  v.Duration("hours", w.hours,
             {.help = "services (serve, real-time infer-vision, transcode, render, analytics): how "
                      "long it runs (36h, 14d)",
              .metavar = "DUR",
              .seconds_per_unit = 3600,
              .tasks = kServe | kInferVision | kTranscode | kRender | kAnalytics});
  // Render.
  v.Integer("sessions", w.sessions,
            {.help = "render: concurrent sessions / users",
             .lo = 1,
             .aliases = {"users"},
             .metavar = "N",
             .tasks = kRender});
  v.Number("session-gib", w.session_gib,
           {.help = "render: GPU memory per session (default 4)",
            .lo = 0,
            .aliases = {"gpu-memory-per-session"},
            .metavar = "GIB",
            .lo_exclusive = true,
            .tasks = kRender});
  // Analytics.
  v.Number("dataset-gib", w.dataset_gib,
           {.help = "analytics: dataset size in GiB",
            .lo = 0,
            .metavar = "GIB",
            .lo_exclusive = true,
            .tasks = kAnalytics});
  v.Number("scans-per-hour", w.scans_per_hour,
           {.help = "analytics: full scans of the dataset per hour",
            .lo = 0,
            .metavar = "N",
            .lo_exclusive = true,
            .tasks = kAnalytics});
  // Efficiency overrides.
  v.Number("mfu", w.mfu,
           {.help = "override model FLOPs utilisation, (0,1]",
            .lo = 0,
            .hi = 1,
            .aliases = {"efficiency"},
            .metavar = "X",
            .lo_exclusive = true,
            .tasks = kLlm | kVision});
  v.Number("mbu", w.mbu,
           {.help = "override decode memory-bandwidth utilisation, (0,1]",
            .lo = 0,
            .hi = 1,
            .metavar = "X",
            .lo_exclusive = true,
            .tasks = kServe});
  v.Number("goodput", w.goodput,
           {.help = "share of wall clock doing useful steps, (0,1]",
            .lo = 0,
            .hi = 1,
            .metavar = "X",
            .lo_exclusive = true,
            .tasks = kBatch});
}

}  // namespace gpuadvisor

#endif  // GPUADVISOR_WORKLOAD_WORKLOAD_OPTIONS_H_
