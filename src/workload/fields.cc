// SetWorkloadField: the one place that turns a (key, text) pair into a Workload field.
#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

#include "gpuadvisor/workload.h"
#include "util/files.h"
#include "util/text.h"
#include "workload/enum_tables.h"
#include "workload/model_internal.h"
#include "workload/task_kinds.h"
#include "workload/value_parse.h"

namespace gpuadvisor {

using namespace workload_internal;  // NOLINT: the value parsers

namespace workload_internal {

void ReplaceArchKeepingExplicit(Workload* w, const ModelArch& base) {
  const ModelArch old = w->model;
  const uint32_t s = w->arch_set;
  w->model = base;
  ModelArch& m = w->model;
  if (s & kArchParams) m.params = old.params;
  if (s & kArchLayers) m.layers = old.layers;
  if (s & kArchHidden) m.hidden = old.hidden;
  if (s & kArchHeads) m.heads = old.heads;
  if (s & kArchKvHeads) m.kv_heads = old.kv_heads;
  if (s & kArchFfn) m.ffn = old.ffn;
  if (s & kArchVocab) m.vocab = old.vocab;
  if (s & kArchExperts) m.experts = old.experts;
  if (s & kArchActiveExperts) m.active_experts = old.active_experts;
  if (s & kArchHeadDim) m.head_dim = old.head_dim;
  if (s & kArchSlidingWindow) m.sliding_window = old.sliding_window;
  if (s & kArchMaxPositions) m.max_positions = old.max_positions;
  if (s & kArchTied) m.tied_embeddings = old.tied_embeddings;
  if (s & kArchGated) m.gated_mlp = old.gated_mlp;
  if (s & kArchFwdFlop) m.fwd_flop_per_image = old.fwd_flop_per_image;
  if (s & kArchActivations) m.act_elems_per_image = old.act_elems_per_image;
  if (s & kArchKernelClass) m.dominant_kernel = old.dominant_kernel;
  if (s & kArchContextLength) m.context_length = old.context_length;
  if (s & kArchKvLoraRank) m.kv_lora_rank = old.kv_lora_rank;
  if (s & kArchQLoraRank) m.q_lora_rank = old.q_lora_rank;
  if (s & kArchRopeHeadDim) m.rope_head_dim = old.rope_head_dim;
  if (s & kArchVHeadDim) m.v_head_dim = old.v_head_dim;
  if (s & kArchSharedFfn) m.shared_ffn = old.shared_ffn;
  if (s & kArchDenseLayers) m.dense_layers = old.dense_layers;
  if (s & kArchDenseFfn) m.dense_ffn = old.dense_ffn;
}

RequestShape ServeRequestShape(const Workload& w) {
  const int window = w.model.context_length;
  RequestShape r{w.input_tokens > 0 ? w.input_tokens : kDefaultInputTokens,
                 w.output_tokens > 0 ? w.output_tokens : kDefaultOutputTokens};
  if (window <= 0) return r;
  if (w.output_tokens <= 0) {
    r.output = std::max(1, std::min(r.output, w.input_tokens > 0 ? window - r.input : window / 3));
  }
  if (w.input_tokens <= 0) r.input = std::max(1, std::min(r.input, window - r.output));
  return r;
}

}  // namespace workload_internal

namespace {

using Setter = Status (*)(Workload*, std::string_view key, std::string_view value);

struct FieldDef {
  const char* name;
  Setter set;
};

// Assigns the parsed value or returns the parse error.
template <typename T, typename U>
Status Assign(Result<T> r, U* out) {
  if (!r.ok()) return r.status();
  *out = static_cast<U>(*r);
  return Status::OK();
}

template <typename T, typename U>
Status AssignArch(Workload* w, Result<T> r, U* out, uint32_t bit) {
  if (!r.ok()) return r.status();
  *out = static_cast<U>(*r);
  w->arch_set |= bit;
  return Status::OK();
}

// A preset by name, or by the Hugging Face id of a repository with the same architecture
// (said among the assumptions, so that a fine-tune's name is never silently reinterpreted).
Status SetModel(Workload* w, std::string_view key, std::string_view v) {
  const std::string_view name = Trim(v);
  Result<const ModelPreset*> p = FindModelPreset(name);
  if (!p.ok()) return p.status();
  ReplaceArchKeepingExplicit(w, (*p)->arch);
  w->model_name = (*p)->name;
  w->model_notes.clear();
  if (LooksLikeHfId(name)) {
    w->model_notes.push_back(std::string(key) + " " + std::string(name) +
                             ": Hugging Face id read as preset " + (*p)->name + " (" +
                             (*p)->source + ")");
  }
  return Status::OK();
}

// A config.json file; a name that is no file but an "org/name" Hugging Face id selects the
// preset with that architecture (as --model does).
Status SetModelConfig(Workload* w, std::string_view key, std::string_view v) {
  const std::string path(Trim(v));
  Result<std::string> text = ReadFile(path, kModelConfigFile);
  if (!text.ok()) {
    const bool unreadable = text.status().code() == StatusCode::kIOError;
    if (unreadable && path != "-" && LooksLikeHfId(path)) return SetModel(w, key, path);
    return text.status().WithPrefix(key);
  }
  return ApplyHfConfigJson(w, *text, path);
}

Status SetFamily(Workload* w, std::string_view key, std::string_view v) {
  const std::optional<ModelFamily> f = ParseName<ModelFamily>(ToLower(Trim(v)));
  if (f) {
    w->model.family = *f;
    return Status::OK();
  }
  return Status::InvalidArgument(std::string(key) + ": expected one of " +
                                 JoinNames<ModelFamily>("|") + ", got \"" + std::string(v) + "\"");
}

// Custom vision model: GFLOP and MB (16-bit activations) per sample, stored in base units.
Status SetFwdGflop(Workload* w, std::string_view k, std::string_view v) {
  Result<double> g = PositiveNumber(k, v);
  if (!g.ok()) return g.status();
  w->model.fwd_flop_per_image = *g * 1e9;
  w->arch_set |= kArchFwdFlop;
  return Status::OK();
}

Status SetActivationMb(Workload* w, std::string_view k, std::string_view v) {
  Result<double> mb = PositiveNumber(k, v);
  if (!mb.ok()) return mb.status();
  w->model.act_elems_per_image = *mb * 1e6 / 2;  // 2 bytes per 16-bit element
  w->arch_set |= kArchActivations;
  return Status::OK();
}

Status SetSeqLen(Workload* w, std::string_view k, std::string_view v) {
  return Assign(IntAtLeast(k, v, 1), &w->seq_len);
}

#define GA_INT(field, min)                                  \
  [](Workload* w, std::string_view k, std::string_view v) { \
    return Assign(IntAtLeast(k, v, min), &w->field);        \
  }
#define GA_NUM(field)                                       \
  [](Workload* w, std::string_view k, std::string_view v) { \
    return Assign(PositiveNumber(k, v), &w->field);         \
  }
#define GA_FRAC(field)                                      \
  [](Workload* w, std::string_view k, std::string_view v) { \
    return Assign(Fraction(k, v), &w->field);               \
  }
#define GA_ARCH_INT(field, min, bit)                                   \
  [](Workload* w, std::string_view k, std::string_view v) {            \
    return AssignArch(w, IntAtLeast(k, v, min), &w->model.field, bit); \
  }
#define GA_PAR_INT(field, min)                                   \
  [](Workload* w, std::string_view k, std::string_view v) {      \
    return Assign(IntAtLeast(k, v, min), &w->parallelism.field); \
  }

// Sorted by name (binary search).
const FieldDef kFields[] = {
    {"activation-mb-per-sample", SetActivationMb},
    {"active-experts", GA_ARCH_INT(active_experts, 1, kArchActiveExperts)},
    {"arithmetic-intensity", GA_NUM(arithmetic_intensity)},
    {"attention-bias",
     [](Workload* w, std::string_view k, std::string_view v) {
       return Assign(Bool(k, v), &w->model.attention_bias);
     }},
    {"batch", GA_INT(batch, 1)},
    {"bytes-moved", GA_NUM(bytes_moved)},
    {"codec", [](Workload* w, std::string_view k,
                 std::string_view v) { return Assign(ParseCodec(k, v), &w->codec); }},
    {"concurrency", GA_INT(concurrency, 1)},
    {"context-length", GA_ARCH_INT(context_length, 0, kArchContextLength)},
    {"context-parallel", GA_PAR_INT(context_parallel, 1)},
    {"dataset-gib", GA_NUM(dataset_gib)},
    {"dense-ffn", GA_ARCH_INT(dense_ffn, 1, kArchDenseFfn)},
    {"dense-layers", GA_ARCH_INT(dense_layers, 0, kArchDenseLayers)},
    {"dp", GA_PAR_INT(dp, 1)},
    {"dropout", [](Workload* w, std::string_view k,
                   std::string_view v) { return Assign(Bool(k, v), &w->model.dropout); }},
    {"e2e-p95", [](Workload* w, std::string_view k,
                   std::string_view v) { return Assign(LatencySeconds(k, v), &w->e2e_p95_s); }},
    {"engine", [](Workload* w, std::string_view k,
                  std::string_view v) { return Assign(ParseEngine(k, v), &w->engine); }},
    {"epochs", GA_NUM(epochs)},
    {"experts", GA_ARCH_INT(experts, 1, kArchExperts)},
    {"family", SetFamily},
    {"ffn", GA_ARCH_INT(ffn, 1, kArchFfn)},
    {"flash-attention", [](Workload* w, std::string_view k,
                           std::string_view v) { return Assign(Bool(k, v), &w->flash_attention); }},
    {"fp32-flop", GA_NUM(fp32_flop)},
    {"fp32-flops", GA_NUM(fp32_flops_needed)},
    {"fp64-flop", GA_NUM(fp64_flop)},
    {"fp64-flops", GA_NUM(fp64_flops_needed)},
    {"fps", GA_NUM(fps)},
    {"framework",
     [](Workload* w, std::string_view k, std::string_view v) {
       return Assign(ParseFramework(k, v), &w->framework);
     }},
    {"fwd-gflop-per-sample", SetFwdGflop},
    {"gated-mlp",
     [](Workload* w, std::string_view k, std::string_view v) {
       return AssignArch(w, Bool(k, v), &w->model.gated_mlp, kArchGated);
     }},
    {"global-batch", GA_INT(global_batch, 1)},
    {"global-batch-tokens", GA_NUM(global_batch_tokens)},
    {"goodput", GA_FRAC(goodput)},
    {"guidance", [](Workload* w, std::string_view k,
                    std::string_view v) { return Assign(Bool(k, v), &w->guidance); }},
    {"head-dim", GA_ARCH_INT(head_dim, 1, kArchHeadDim)},
    {"heads", GA_ARCH_INT(heads, 1, kArchHeads)},
    {"hidden", GA_ARCH_INT(hidden, 1, kArchHidden)},
    {"hours",
     [](Workload* w, std::string_view k, std::string_view v) {
       Result<double> s = DurationSeconds(k, v);
       if (!s.ok()) return s.status();
       w->hours = *s / 3600;
       return Status::OK();
     }},
    {"hpc-kind", [](Workload* w, std::string_view k,
                    std::string_view v) { return Assign(ParseHpcKind(k, v), &w->hpc_kind); }},
    {"images", GA_NUM(images)},
    {"input-tokens", GA_INT(input_tokens, 1)},
    {"itl-p95", [](Workload* w, std::string_view k,
                   std::string_view v) { return Assign(LatencySeconds(k, v), &w->itl_p95_s); }},
    {"kernel-class",
     [](Workload* w, std::string_view k, std::string_view v) {
       return AssignArch(w, ParseKernelClass(k, v), &w->model.dominant_kernel, kArchKernelClass);
     }},
    {"kv-heads", GA_ARCH_INT(kv_heads, 1, kArchKvHeads)},
    {"kv-lora-rank", GA_ARCH_INT(kv_lora_rank, 0, kArchKvLoraRank)},
    {"kv-precision",
     [](Workload* w, std::string_view k, std::string_view v) {
       return Assign(ParsePrecision(k, v,
                                    {Precision::kFp16, Precision::kBf16, Precision::kFp8,
                                     Precision::kInt8, Precision::kFp32}),
                     &w->kv_precision);
     }},
    {"layers", GA_ARCH_INT(layers, 1, kArchLayers)},
    {"lora-rank", GA_INT(lora_rank, 1)},
    {"lora-targets",
     [](Workload* w, std::string_view k, std::string_view v) {
       return Assign(ParseLoraTargets(k, v), &w->lora_targets);
     }},
    {"max-positions", GA_ARCH_INT(max_positions, 0, kArchMaxPositions)},
    {"mbu", GA_FRAC(mbu)},
    {"mfu", GA_FRAC(mfu)},
    {"micro-batch", GA_PAR_INT(micro_batch, 1)},
    {"model", SetModel},
    {"model-config", SetModelConfig},
    {"offload",
     [](Workload* w, std::string_view k, std::string_view v) {
       return Assign(ParseOffload(k, v), &w->parallelism.offload);
     }},
    {"optimizer", [](Workload* w, std::string_view k,
                     std::string_view v) { return Assign(ParseOptimizer(k, v), &w->optimizer); }},
    {"output-tokens", GA_INT(output_tokens, 1)},
    {"params",
     [](Workload* w, std::string_view k, std::string_view v) {
       return AssignArch(w, PositiveNumber(k, v), &w->model.params, kArchParams);
     }},
    {"pp", GA_PAR_INT(pp, 1)},
    {"precision",
     [](Workload* w, std::string_view k, std::string_view v) {
       return Assign(ParsePrecision(k, v,
                                    {Precision::kFp32, Precision::kTf32, Precision::kBf16,
                                     Precision::kFp16, Precision::kFp8, Precision::kInt8}),
                     &w->precision);
     }},
    {"q-lora-rank", GA_ARCH_INT(q_lora_rank, 0, kArchQLoraRank)},
    {"quantization",
     [](Workload* w, std::string_view k, std::string_view v) {
       const std::string s = ToLower(Trim(v));
       if (s == "none" || s == "fp16" || s == "bf16") {
         w->quantization.reset();
         return Status::OK();
       }
       // Checkpoint formats by name: NVFP4/MXFP4 are W4A4 fp4; AWQ/GPTQ weight-only int4.
       if (s == "nvfp4" || s == "mxfp4" || s == "awq" || s == "gptq") {
         w->quantization = s[0] == 'a' || s[0] == 'g' ? Precision::kInt4 : Precision::kFp4;
         return Status::OK();
       }
       return Assign(ParsePrecision(k, v,
                                    {Precision::kFp8, Precision::kInt8, Precision::kInt4,
                                     Precision::kFp4, Precision::kNf4}),
                     &w->quantization);
     }},
    {"recompute",
     [](Workload* w, std::string_view k, std::string_view v) {
       return Assign(ParseRecompute(k, v), &w->parallelism.recompute);
     }},
    {"resolution", GA_INT(resolution, 8)},
    {"rope-head-dim", GA_ARCH_INT(rope_head_dim, 0, kArchRopeHeadDim)},
    {"rps", GA_NUM(rps)},
    {"runtime",
     [](Workload* w, std::string_view k, std::string_view v) {
       return Assign(DurationSeconds(k, v), &w->runtime_target_s);
     }},
    {"scans-per-hour", GA_NUM(scans_per_hour)},
    {"seq-len", SetSeqLen},
    {"sequence-parallel",
     [](Workload* w, std::string_view k, std::string_view v) {
       return Assign(Bool(k, v), &w->parallelism.sequence_parallel);
     }},
    {"session-gib", GA_NUM(session_gib)},
    {"sessions", GA_INT(sessions, 1)},
    {"shared-ffn", GA_ARCH_INT(shared_ffn, 0, kArchSharedFfn)},
    {"sliding-window", GA_ARCH_INT(sliding_window, 0, kArchSlidingWindow)},
    {"steps", GA_INT(steps, 1)},
    {"stream-resolution",
     [](Workload* w, std::string_view k, std::string_view v) {
       return Assign(VideoLines(k, v), &w->stream_resolution_lines);
     }},
    {"streaming", [](Workload* w, std::string_view k,
                     std::string_view v) { return Assign(Bool(k, v), &w->streaming); }},
    {"streams", GA_INT(streams, 1)},
    {"task", [](Workload* w, std::string_view k,
                std::string_view v) { return Assign(ParseTask(k, v), &w->task); }},
    {"tied-embeddings",
     [](Workload* w, std::string_view k, std::string_view v) {
       return AssignArch(w, Bool(k, v), &w->model.tied_embeddings, kArchTied);
     }},
    {"tokens", GA_NUM(tokens)},
    {"tp", GA_PAR_INT(tp, 1)},
    {"ttft-p95", [](Workload* w, std::string_view k,
                    std::string_view v) { return Assign(LatencySeconds(k, v), &w->ttft_p95_s); }},
    {"v-head-dim", GA_ARCH_INT(v_head_dim, 0, kArchVHeadDim)},
    {"virtual-pp", GA_PAR_INT(virtual_pp, 1)},
    {"vocab", GA_ARCH_INT(vocab, 1, kArchVocab)},
    {"working-set-gib", GA_NUM(working_set_gib)},
    {"zero",
     [](Workload* w, std::string_view k, std::string_view v) {
       Result<int> z = IntAtLeast(k, v, 0);
       if (!z.ok() || *z > 3) {
         return Status::InvalidArgument(std::string(k) + ": expected 0, 1, 2 or 3, got \"" +
                                        std::string(v) + "\"");
       }
       w->parallelism.zero = *z;
       return Status::OK();
     }},
};

#undef GA_INT
#undef GA_NUM
#undef GA_FRAC
#undef GA_ARCH_INT
#undef GA_PAR_INT

// The tasks a field means something for (bits of TaskKind).
constexpr uint32_t Bit(TaskKind t) { return 1u << static_cast<unsigned>(t); }
constexpr uint32_t kTrain = Bit(TaskKind::kPretrain) | Bit(TaskKind::kFinetune) |
                            Bit(TaskKind::kLora) | Bit(TaskKind::kQlora);
constexpr uint32_t kAdapters = Bit(TaskKind::kLora) | Bit(TaskKind::kQlora);
constexpr uint32_t kServe = Bit(TaskKind::kServe);
constexpr uint32_t kLlm = kTrain | kServe;
constexpr uint32_t kTrainVision = Bit(TaskKind::kTrainVision);
constexpr uint32_t kInferVision = Bit(TaskKind::kInferVision);
constexpr uint32_t kVision = kTrainVision | kInferVision;
constexpr uint32_t kModel = kLlm | kVision;
constexpr uint32_t kHpc = Bit(TaskKind::kHpc);
constexpr uint32_t kBatch = kTrain | kVision | kHpc;  // jobs that end: runtime, goodput
constexpr uint32_t kTranscode = Bit(TaskKind::kTranscode);
constexpr uint32_t kRender = Bit(TaskKind::kRender);
constexpr uint32_t kAnalytics = Bit(TaskKind::kAnalytics);
constexpr uint32_t kAllTasks = (1u << kTaskKindCount) - 1;
static_assert(kTaskKindCount < 32, "a task's bit must fit a uint32_t");

// The task names as --task's help lists them ("pretrain|finetune|...|analytics"), from the
// task kind registry.
constexpr size_t TaskChoicesSize() {
  size_t n = 0;
  for (const TaskKindDef& d : kTaskKinds) n += std::char_traits<char>::length(d.name) + 1;
  return n;  // a '|' after each name but the last, and the terminating '\0'
}
constexpr std::array<char, TaskChoicesSize()> kTaskChoices = [] {
  std::array<char, TaskChoicesSize()> out{};
  size_t at = 0;
  for (const TaskKindDef& d : kTaskKinds) {
    if (at > 0) out[at++] = '|';
    for (const char* c = d.name; *c != '\0'; ++c) out[at++] = *c;
  }
  return out;
}();

// Help per field, sorted by name like kFields (a test checks that every field has one), and the
// tasks it applies to: Validate refuses a field set for another task.
const WorkloadFieldInfo kFieldInfo[] = {
    {"activation-mb-per-sample", "MB",
     "custom vision model: MB of conv/linear outputs the forward writes per sample (16-bit)",
     kVision},
    {"active-experts", "N", "MoE experts used per token (top-k)", kLlm},
    {"arithmetic-intensity", "X",
     "hpc memory-bound: FLOP per byte moved to/from device memory (HPCG/CSR SpMV: 0.167)", kHpc},
    {"attention-bias", "BOOL", "QKV/O and MLP biases (GPT-2/OPT/BERT style)", kLlm},
    {"batch", "N", "vision: per-GPU batch, inference or training (default: the model's)", kVision},
    {"bytes-moved", "N", "hpc memory-bound: bytes the job moves to/from device memory in all",
     kHpc},
    {"codec", "CODEC", "transcode codec: h264|hevc|av1", kTranscode},
    {"concurrency", "N", "serving: requests kept in flight (closed loop)", kServe},
    {"context-length", "N",
     "longest sequence the model takes, prompt + output (0 = unchecked); presets and "
     "config.json set it",
     kLlm},
    {"context-parallel", "N", "context-parallel degree (sequence split across GPUs)", kTrain},
    {"dataset-gib", "GIB", "analytics: dataset size in GiB", kAnalytics},
    {"dense-ffn", "N", "MoE: FFN inner size of the dense layers (default ffn)", kLlm},
    {"dense-layers", "N", "MoE: layers with a dense MLP instead of experts (DeepSeek: first k)",
     kLlm},
    {"dp", "N", "data-parallel degree", kLlm},
    {"dropout", "BOOL", "dropout during training (stores masks)", kTrain | kTrainVision},
    {"e2e-p95", "DUR",
     "serving: end-to-end latency target, p95 (200ms, 1.5s); infer-vision with rps: per image, "
     "queueing and batching included",
     kServe | kInferVision},
    {"engine", "E",
     "vision: eager (PyTorch, one kernel per op) or fused (TensorRT, torch.compile, XLA, Neuron); "
     "serving: vllm|sglang|trtllm|tgi|neuron (default vllm on GPUs, neuron on Neuron)",
     kVision | kServe},
    {"epochs", "N", "passes over the dataset (fine-tuning, vision)", kTrain | kTrainVision},
    {"experts", "N", "MoE experts per layer", kLlm},
    {"family", "NAME", "architecture family: decoder|encoder|encoder-decoder|convnet|vit|diffusion",
     kModel},
    {"ffn", "N", "FFN inner size (per expert for MoE)", kLlm},
    {"flash-attention", "BOOL", "fused attention kernels, no s^2 activations (default true)",
     kModel},
    {"fp32-flop", "N", "hpc: total FP32 FLOP of the job", kHpc},
    {"fp32-flops", "N", "hpc: sustained FP32 FLOP/s needed", kHpc},
    {"fp64-flop", "N", "hpc: total FP64 FLOP of the job", kHpc},
    {"fp64-flops", "N", "hpc: sustained FP64 FLOP/s needed", kHpc},
    {"fps", "N", "transcode: frames per second per stream", kTranscode},
    {"framework", "FW",
     "training framework: megatron-core|megatron-lm|fsdp|torchtitan|deepspeed|neuronx|torchtune "
     "(default: megatron-core with TP/PP, else fsdp; neuronx on Trainium)",
     kTrain},
    {"fwd-gflop-per-sample", "N", "custom vision model: forward GFLOP per sample (2 per MAC)",
     kVision},
    {"gated-mlp", "BOOL", "SwiGLU/GeGLU MLP (3 matrices) instead of GELU (2)", kLlm},
    {"global-batch", "N",
     "sequences (train-vision: images) per optimizer step; more than --batch x devices "
     "accumulates gradients",
     kTrain | kTrainVision},
    {"global-batch-tokens", "N", "tokens per optimizer step (alternative to --global-batch)",
     kTrain},
    {"goodput", "X", "share of wall clock doing useful steps, (0,1]", kBatch},
    {"guidance", "BOOL",
     "diffusion inference: classifier-free guidance, two UNet evaluations per step (default "
     "true)",
     kInferVision},
    {"head-dim", "N", "attention head size (default hidden/heads; MLA: non-rotary query/key part)",
     kLlm},
    {"heads", "N", "attention (query) heads", kLlm},
    {"hidden", "N", "model width", kLlm},
    {"hours", "DUR",
     "services (serve, real-time infer-vision, transcode, render, analytics): how long it runs "
     "(36h, 14d)",
     kServe | kInferVision | kTranscode | kRender | kAnalytics},
    {"hpc-kind", "K",
     "hpc: dense-la (HPL-like, FP64 tensor cores), memory-bound (sparse, stencils, HPCG: "
     "with arithmetic-intensity), mixed-precision (HPL-MxP LU on fp16/fp8 tensor cores, "
     "per precision) or general (vector peak)",
     kHpc},
    {"images", "N", "vision: images per epoch (train) or to process (offline infer)", kVision},
    {"input-tokens", "N", "serving: prompt tokens per request", kServe},
    {"itl-p95", "DUR", "serving: inter-token latency target, p95", kServe},
    {"kernel-class", "K", "custom vision model: dominant kernel class conv|gemm|attention",
     kVision},
    {"kv-heads", "N", "KV heads (GQA; default = heads)", kLlm},
    {"kv-lora-rank", "N",
     "multi-head latent attention: cached KV latent width (DeepSeek-V2/V3; 0 = GQA/MHA)", kLlm},
    {"kv-precision", "P", "serving: KV-cache precision fp16|fp8|int8", kServe},
    {"layers", "N", "transformer layers", kLlm},
    {"lora-rank", "N", "LoRA rank r", kAdapters},
    {"lora-targets", "T", "LoRA-adapted matrices: all|attention|qv", kAdapters},
    {"max-positions", "N", "learned position-embedding table size (0 = rotary/ALiBi)", kLlm},
    {"mbu", "X", "override decode memory-bandwidth utilisation, (0,1]", kServe},
    {"mfu", "X", "override model FLOPs utilisation, (0,1]", kLlm | kVision},
    {"micro-batch", "N", "sequences per micro-batch per GPU", kTrain},
    {"model", "NAME",
     "model preset (llama-3.1-8b, mixtral-8x7b, resnet50, ...) or a Hugging Face id with the "
     "same architecture (meta-llama/Llama-3.1-8B-Instruct)",
     kModel},
    {"model-config", "FILE", "Hugging Face config.json (or an org/name id, as --model)", kLlm},
    {"offload", "WHERE", "optimizer-state offload: none|cpu|nvme", kTrain},
    {"optimizer", "OPT", "adamw|adam8bit|sgd", kTrain | kTrainVision},
    {"output-tokens", "N", "serving: generated tokens per request", kServe},
    {"params", "N", "total parameters (7B, 7e9); overrides the derived count", kModel},
    {"pp", "N", "pipeline-parallel degree", kLlm},
    {"precision", "P", "compute precision fp32|tf32|bf16|fp16|fp8 (int8: vision inference)",
     kModel | kHpc},
    {"q-lora-rank", "N", "multi-head latent attention: query latent width (0 = full rank)", kLlm},
    {"quantization", "Q",
     "serving weights: none|fp8|int8|int4|fp4|nf4; fp4 (nvfp4, mxfp4) is W4A4 on Blackwell, "
     "int4 (awq, gptq) weight-only",
     kServe | kAdapters},
    {"recompute", "R", "activation recomputation: none|selective|full|op (torchtitan op-level)",
     kTrain},
    {"resolution", "PX", "vision: input side length in pixels", kVision},
    {"rope-head-dim", "N", "multi-head latent attention: decoupled rotary key width per head",
     kLlm},
    {"rps", "N",
     "serving: requests per second (open loop); infer-vision: images arriving per second "
     "(real time)",
     kServe | kInferVision},
    {"runtime", "DUR",
     "wall-clock limit of the job (36h): a constraint (recommend ranks only plans within it); "
     "hpc given as a rate (fp64-flops): how long it runs",
     kBatch},
    {"scans-per-hour", "N", "analytics: full scans of the dataset per hour", kAnalytics},
    {"seq-len", "N", "sequence length in tokens", kLlm},
    {"sequence-parallel", "BOOL", "Megatron sequence parallelism (with tp > 1)", kTrain},
    {"session-gib", "GIB", "render: GPU memory per session (default 4)", kRender},
    {"sessions", "N", "render: concurrent sessions / users", kRender},
    {"shared-ffn", "N", "MoE: FFN inner size of the always-used shared expert(s), summed", kLlm},
    {"sliding-window", "N", "attention window in tokens (0 = full)", kLlm},
    {"steps", "N", "diffusion: denoising steps per image", kVision},
    {"stream-resolution", "RES", "transcode: 720p|1080p|1440p|4k|8k", kTranscode},
    {"streaming", "BOOL",
     "serving: tokens streamed to clients through an API server (default: true with "
     "concurrency or rps, false offline)",
     kServe},
    {"streams", "N", "transcode: concurrent video streams", kTranscode},
    {"task", "TASK", kTaskChoices.data(), kAllTasks},
    {"tied-embeddings", "BOOL", "output head shares the embedding matrix", kLlm},
    {"tokens", "N", "training tokens (2T, 300B); fine-tuning: dataset tokens per epoch", kTrain},
    {"tp", "N", "tensor-parallel degree", kLlm},
    {"ttft-p95", "DUR", "serving: time-to-first-token target, p95", kServe},
    {"v-head-dim", "N", "value width per head (default head-dim; MLA: 128)", kLlm},
    {"virtual-pp", "N", "interleaved pipeline chunks per GPU", kTrain},
    {"vocab", "N", "vocabulary size", kLlm},
    {"working-set-gib", "GIB", "hpc: memory working set in GiB", kHpc},
    {"zero", "Z", "ZeRO stage 0|1|2|3 (3 = FSDP full shard)", kTrain},
};

// Other spellings accepted for the same fields.
struct Alias {
  const char* alias;
  const char* name;
};
const Alias kAliases[] = {
    {"efficiency", "mfu"},
    {"gpu-memory-per-session", "session-gib"},
    {"kv-precision-bits", "kv-precision"},
    {"micro-batch-size", "micro-batch"},
    {"microbatch", "micro-batch"},
    {"num-layers", "layers"},
    {"sequence-length", "seq-len"},
    {"seq-length", "seq-len"},
    {"users", "sessions"},
    {"virtual-pipeline", "virtual-pp"},
    {"zero-stage", "zero"},
    {"p95", "e2e-p95"},
    {"hf-config", "model-config"},
    {"max-model-len", "context-length"},
};

const FieldDef* FindField(std::string_view name) {
  for (const Alias& a : kAliases) {
    if (name == a.alias) name = a.name;
  }
  const FieldDef* end = std::end(kFields);
  const FieldDef* it = std::lower_bound(
      std::begin(kFields), end, name,
      [](const FieldDef& f, std::string_view n) { return std::string_view(f.name) < n; });
  return it != end && name == it->name ? it : nullptr;
}

}  // namespace

const std::vector<std::string>& WorkloadFieldNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const FieldDef& f : kFields) v.emplace_back(f.name);
    return v;
  }();
  return names;
}

const WorkloadFieldInfo* FindWorkloadFieldInfo(std::string_view name) {
  for (const WorkloadFieldInfo& f : kFieldInfo) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

std::string workload_internal::WorkloadFieldOf(std::string_view key) {
  const FieldDef* f = FindField(CanonicalKey(key));
  return f == nullptr ? std::string() : std::string(f->name);
}

bool IsFileWorkloadField(std::string_view key) {
  const FieldDef* f = FindField(CanonicalKey(key));
  return f != nullptr && std::string_view(f->name) == "model-config";
}

Status SetWorkloadField(Workload* w, std::string_view key, std::string_view value) {
  const std::string name = CanonicalKey(key);
  const FieldDef* f = FindField(name);
  if (f == nullptr) {
    std::string hint = DidYouMean(name, WorkloadFieldNames());
    return Status::InvalidArgument("unknown workload field \"" + std::string(key) + "\"" +
                                   (hint.empty() ? "" : "; " + hint))
        .WithField(name);
  }
  // Every error is about this key, whatever the value parser or a config.json reader named.
  Status st = f->set(w, name, value);
  if (!st.ok()) return st.WithField(name);
  if (std::find(w->fields_set.begin(), w->fields_set.end(), f->name) == w->fields_set.end()) {
    w->fields_set.emplace_back(f->name);
  }
  return st;
}

bool WorkloadFieldApplies(std::string_view name, TaskKind t) {
  const WorkloadFieldInfo* f = FindWorkloadFieldInfo(name);
  return f != nullptr && (f->tasks & Bit(t)) != 0;
}

std::string WorkloadFieldTasks(std::string_view name) {
  const WorkloadFieldInfo* f = FindWorkloadFieldInfo(name);
  std::string out;
  for (TaskKind t : kAllTaskKinds) {
    if (f == nullptr || (f->tasks & Bit(t)) == 0) continue;
    out += (out.empty() ? "" : ", ") + std::string(TaskKindName(t));
  }
  return out;
}

const char* TaskKindFamily(TaskKind t) {
  switch (TaskKindDefOf(t).family) {
    case TaskFamily::kLlm:
      return "LLM";
    case TaskFamily::kVision:
      return "vision";
    case TaskFamily::kOwn:
      break;
  }
  return TaskKindName(t);
}

namespace {

// The bits of the tasks of `t`'s kind.
uint32_t KindBits(TaskKind t) {
  uint32_t bits = 0;
  for (TaskKind u : AllOf<TaskKind>()) {
    if (std::string_view(TaskKindFamily(u)) == TaskKindFamily(t)) bits |= Bit(u);
  }
  return bits;
}

std::string TaskList(uint32_t bits) {
  std::string out;
  for (TaskKind t : AllOf<TaskKind>()) {
    if (bits & Bit(t)) out += (out.empty() ? "" : ", ") + std::string(TaskKindName(t));
  }
  return out;
}

// The kinds of more than one task ("llm", "vision"), lower case, for help topics.
std::vector<std::string> KindTopics() {
  std::vector<std::string> out;
  for (TaskKind t : AllOf<TaskKind>()) {
    const std::string kind = ToLower(TaskKindFamily(t));
    if (kind != TaskKindName(t) && std::find(out.begin(), out.end(), kind) == out.end()) {
      out.push_back(kind);
    }
  }
  return out;
}

}  // namespace

Result<std::vector<TaskKind>> TasksOfHelpTopic(std::string_view topic) {
  const std::string want = ToLower(Trim(topic));
  std::vector<TaskKind> out;
  for (TaskKind t : AllOf<TaskKind>()) {
    if (want == TaskKindName(t) || want == ToLower(TaskKindFamily(t))) out.push_back(t);
  }
  if (!out.empty()) return out;
  std::string kinds;
  for (const std::string& k : KindTopics()) kinds += (kinds.empty() ? "" : "|") + k;
  return Status::InvalidArgument("task: expected a task (" + JoinNames<TaskKind>("|") +
                                 ") or a kind of task (" + kinds + "), got \"" +
                                 std::string(topic) + "\"")
      .WithField("task");
}

std::vector<WorkloadFieldGroup> GroupWorkloadFields(std::span<const TaskKind> tasks) {
  uint32_t wanted = 0;
  for (TaskKind t : tasks) wanted |= Bit(t);
  // Sort key: 0 every task, 1 several kinds, then (2, the kind's first task, a part of the
  // kind after the whole of it, the part's first task, its bits).
  using Key = std::tuple<int, unsigned, bool, unsigned, uint32_t>;
  std::map<Key, WorkloadFieldGroup> groups;
  for (const WorkloadFieldInfo& f : kFieldInfo) {
    if (wanted != 0 && (f.tasks & wanted) == 0) continue;
    const auto first = static_cast<TaskKind>(std::countr_zero(f.tasks));
    const uint32_t kind = KindBits(first);
    Key key{1, 0, false, 0, 0};
    std::string title = "several kinds of task";
    if (f.tasks == kAllTasks) {
      key = {0, 0, false, 0, 0};
      title = "all tasks";
    } else if ((f.tasks & ~kind) == 0) {
      key = {2, static_cast<unsigned>(std::countr_zero(kind)), f.tasks != kind,
             static_cast<unsigned>(first), f.tasks};
      title = TaskKindFamily(first);
      if (f.tasks != kind) {
        title += ": " + TaskList(f.tasks);
      } else if (title != TaskKindName(first)) {
        title += " (" + TaskList(kind) + ")";
      }
    }
    WorkloadFieldGroup& g = groups[key];
    g.title = title;
    g.several_kinds = std::get<0>(key) == 1;
    g.fields.push_back(&f);
  }
  std::vector<WorkloadFieldGroup> out;
  out.reserve(groups.size());
  for (auto& [key, g] : groups) out.push_back(std::move(g));
  return out;
}

std::string WorkloadFieldScope(const WorkloadFieldInfo& f) {
  std::string out;
  uint32_t done = 0;
  for (TaskKind t : AllOf<TaskKind>()) {
    if ((f.tasks & Bit(t)) == 0 || (done & Bit(t)) != 0) continue;
    const uint32_t kind = KindBits(t);
    const bool whole = (f.tasks & kind) == kind;
    out += (out.empty() ? "" : ", ") + std::string(whole ? TaskKindFamily(t) : TaskKindName(t));
    done |= whole ? kind : Bit(t);
  }
  return out;
}

bool IsService(const Workload& w) { return TaskKindDefOf(w.task).is_service(w); }

std::optional<double> WorkloadDeadlineHours(const Workload& w) {
  if (w.runtime_target_s <= 0 || IsService(w)) return std::nullopt;
  if (w.task == TaskKind::kHpc && w.fp64_flop <= 0 && w.fp32_flop <= 0) return std::nullopt;
  return w.runtime_target_s / 3600;
}

}  // namespace gpuadvisor
