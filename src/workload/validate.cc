// Cross-field checks of a Workload. Each message names the field (as a flag name).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gpuadvisor/workload.h"
#include "workload/model_internal.h"
#include "workload/task_kinds.h"
#include "workload/train_model.h"

namespace gpuadvisor {
namespace {

// "<field>: <what>", naming the field as data too.
Status Bad(std::string_view field, const std::string& what) {
  return Status::InvalidArgument(std::string(field) + ": " + what).WithField(field);
}

// Upper bounds far beyond any real workload: they keep every product the estimator forms
// finite and every integer product (tp x pp x context-parallel, ...) inside int.
struct Limit {
  const char* field;
  double value;
  double max;
};

Status CheckLimits(const Workload& w) {
  const ModelArch& m = w.model;
  const ParallelismRequest& p = w.parallelism;
  const Limit limits[] = {
      {"layers", double(m.layers), 1e4},
      {"hidden", double(m.hidden), 1e6},
      {"heads", double(m.heads), 1e5},
      {"kv-heads", double(m.kv_heads), 1e5},
      {"head-dim", double(m.head_dim), 1e5},
      {"ffn", double(m.ffn), 1e7},
      {"vocab", double(m.vocab), 1e8},
      {"experts", double(m.experts), 1e5},
      {"active-experts", double(m.active_experts), 1e5},
      {"max-positions", double(m.max_positions), 1e8},
      {"context-length", double(m.context_length), 1e8},
      {"kv-lora-rank", double(m.kv_lora_rank), 1e6},
      {"q-lora-rank", double(m.q_lora_rank), 1e6},
      {"rope-head-dim", double(m.rope_head_dim), 1e5},
      {"v-head-dim", double(m.v_head_dim), 1e5},
      {"shared-ffn", double(m.shared_ffn), 1e7},
      {"dense-layers", double(m.dense_layers), 1e4},
      {"dense-ffn", double(m.dense_ffn), 1e7},
      {"sliding-window", double(m.sliding_window), 1e8},
      {"params", m.params, 1e15},
      {"tokens", w.tokens, 1e18},
      {"seq-len", double(w.seq_len), 1e8},
      {"global-batch", double(w.global_batch), 1e9},
      {"global-batch-tokens", w.global_batch_tokens, 1e13},
      {"tp", double(p.tp.value_or(1)), 1024},
      {"pp", double(p.pp.value_or(1)), 1024},
      {"dp", double(p.dp.value_or(1)), 1e7},
      {"context-parallel", double(p.context_parallel.value_or(1)), 1024},
      {"virtual-pp", double(p.virtual_pp.value_or(1)), 1024},
      {"micro-batch", double(p.micro_batch.value_or(1)), 1e6},
      {"lora-rank", double(w.lora_rank), 1e5},
      {"epochs", w.epochs, 1e6},
      {"rps", w.rps, 1e9},
      {"input-tokens", double(w.input_tokens), 1e8},
      {"output-tokens", double(w.output_tokens), 1e8},
      {"concurrency", double(w.concurrency), 1e8},
      {"images", w.images, 1e13},
      {"resolution", double(w.resolution), 1e5},
      {"batch", double(w.batch), 1e6},
      {"steps", double(w.steps), 1e5},
      {"fwd-gflop-per-sample", m.fwd_flop_per_image / 1e9, 1e9},
      {"activation-mb-per-sample", m.act_elems_per_image * 2 / 1e6, 1e9},
      {"fp64-flop", w.fp64_flop, 1e30},
      {"fp32-flop", w.fp32_flop, 1e30},
      {"fp64-flops", w.fp64_flops_needed, 1e22},
      {"fp32-flops", w.fp32_flops_needed, 1e22},
      {"working-set-gib", w.working_set_gib, 1e9},
      {"runtime", w.runtime_target_s, 1e10},
      {"streams", double(w.streams), 1e7},
      {"fps", w.fps, 1e4},
      {"hours", w.hours, 1e6},
      {"sessions", double(w.sessions), 1e7},
      {"session-gib", w.session_gib, 1e6},
      {"dataset-gib", w.dataset_gib, 1e9},
      {"scans-per-hour", w.scans_per_hour, 1e6},
  };
  for (const Limit& l : limits) {
    if (!(l.value <= l.max)) {  // also catches NaN
      char msg[160];
      std::snprintf(msg, sizeof msg, "%g is beyond any real workload (at most %g)", l.value, l.max);
      return Bad(l.field, msg);
    }
  }
  return Status::OK();
}

bool IsTransformer(ModelFamily f) {
  return f == ModelFamily::kDecoder || f == ModelFamily::kEncoder ||
         f == ModelFamily::kEncoderDecoder;
}

// The two model rules of the task checks below, shared with TasksForModel.
bool TakesLlmTasks(const ModelArch& m) { return IsTransformer(m.family); }
bool TakesVisionTasks(const ModelArch& m) { return m.fwd_flop_per_image > 0; }

// Multi-head latent attention needs its widths; its keys mean nothing without it.
Status ValidateLatentAttention(const ModelArch& m) {
  if (m.kv_lora_rank <= 0) {
    if (m.q_lora_rank > 0) return Bad("q-lora-rank", "only applies with kv-lora-rank (MLA)");
    if (m.rope_head_dim > 0) return Bad("rope-head-dim", "only applies with kv-lora-rank (MLA)");
    return Status::OK();
  }
  if (m.head_dim <= 0) {
    return Bad("head-dim", "required with kv-lora-rank (the non-rotary query/key width per head)");
  }
  if (m.rope_head_dim <= 0) {
    return Bad("rope-head-dim", "required with kv-lora-rank (the rotary key width)");
  }
  return Status::OK();
}

// Shared experts and dense layers refine a MoE model; on a dense one they would be ignored.
Status ValidateMoeLayout(const ModelArch& m) {
  if (m.experts <= 1) {
    if (m.shared_ffn > 0) return Bad("shared-ffn", "only applies to MoE models (set experts)");
    if (m.dense_layers > 0) return Bad("dense-layers", "only applies to MoE models (set experts)");
    if (m.dense_ffn > 0) return Bad("dense-ffn", "only applies to MoE models (set experts)");
    return Status::OK();
  }
  if (m.dense_layers > m.layers) {
    return Bad("dense-layers",
               std::to_string(m.dense_layers) + " exceeds layers " + std::to_string(m.layers));
  }
  return Status::OK();
}

Status ValidateArchitecture(const ModelArch& m) {
  const bool any_shape = m.layers > 0 || m.hidden > 0 || m.heads > 0;
  if (!any_shape) return Status::OK();  // params only: a GPT-like shape is assumed
  if (m.layers <= 0) return Bad("layers", "required with hidden/heads");
  if (m.hidden <= 0) return Bad("hidden", "required with layers/heads");
  if (m.heads <= 0) return Bad("heads", "required with layers/hidden");
  GPUADVISOR_RETURN_IF_ERROR(ValidateLatentAttention(m));
  GPUADVISOR_RETURN_IF_ERROR(ValidateMoeLayout(m));
  if (m.head_dim == 0 && m.hidden % m.heads != 0) {
    return Bad("heads",
               std::to_string(m.heads) + " does not divide hidden " + std::to_string(m.hidden));
  }
  if (m.kv_heads > 0 && m.heads % m.kv_heads != 0) {
    return Bad("kv-heads",
               std::to_string(m.kv_heads) + " does not divide heads " + std::to_string(m.heads));
  }
  if (m.experts > 1 && m.active_experts > m.experts) {
    return Bad("active-experts",
               std::to_string(m.active_experts) + " exceeds experts " + std::to_string(m.experts));
  }
  if (m.vocab <= 0 && m.family != ModelFamily::kEncoder) {
    return Bad("vocab", "required with an explicit architecture");
  }
  return Status::OK();
}

// A served request (prompt + generated tokens) must fit the model's context window: engines
// refuse longer ones (vLLM: max_model_len, derived from the config in _get_and_verify_max_len).
// Training past the window is only a warning (estimate_train.cc): that is how windows grow.
Status ValidateContextWindow(const Workload& w) {
  const int window = w.model.context_length;
  if (window <= 0) return Status::OK();
  const workload_internal::RequestShape r = workload_internal::ServeRequestShape(w);
  const int64_t in = r.input, out = r.output;
  const std::string limit = "the model's context window of " + std::to_string(window) +
                            " tokens (--context-length overrides it)";
  if (in > window) {
    return Bad("input-tokens", std::to_string(in) + " exceeds " + limit);
  }
  if (in + out > window) {
    return Bad(
        w.output_tokens > 0 ? "output-tokens" : "input-tokens",
        std::to_string(in) + " input + " + std::to_string(out) + " output tokens exceed " + limit);
  }
  return Status::OK();
}

Status ValidateLlm(const Workload& w) {
  const ModelArch& m = w.model;
  if (!TakesLlmTasks(m)) {
    return Bad("model", std::string("task ") + TaskKindName(w.task) +
                            " needs a language model, got a " + ModelFamilyName(m.family) +
                            " model");
  }
  if (m.params <= 0 && (m.layers <= 0 || m.hidden <= 0)) {
    return Bad("model",
               "give a preset (--model), a config.json (--model-config) or the "
               "architecture (--params or --layers/--hidden/--heads/--vocab)");
  }
  GPUADVISOR_RETURN_IF_ERROR(ValidateArchitecture(m));
  if (IsTrainingTask(w.task) && w.tokens <= 0) {
    return Bad("tokens", "required for training (e.g. --tokens 2T)");
  }
  if (w.task == TaskKind::kQlora && w.quantization && *w.quantization != Precision::kNf4 &&
      *w.quantization != Precision::kInt4) {
    return Bad("quantization", "qlora keeps the base model in 4-bit (nf4/int4)");
  }
  if (w.parallelism.zero && (w.task == TaskKind::kServe)) {
    return Bad("zero", "does not apply to serving");
  }
  if (w.engine &&
      (w.task != TaskKind::kServe || *w.engine == Engine::kEager || *w.engine == Engine::kFused)) {
    return Bad("engine",
               std::string(EngineName(*w.engine)) + " does not apply to task " +
                   TaskKindName(w.task) +
                   (w.task == TaskKind::kServe ? " (vllm|sglang|trtllm|tgi|neuron)" : ""));
  }
  if (w.torch_compile && w.framework && !workload_internal::IsPyTorchFramework(*w.framework)) {
    return Bad("torch-compile", std::string("applies to the PyTorch frameworks (fsdp, torchtitan, "
                                            "torchtune, deepspeed), not ") +
                                    FrameworkName(*w.framework));
  }
  if (w.streaming && w.task != TaskKind::kServe) {
    return Bad("streaming", std::string("does not apply to task ") + TaskKindName(w.task));
  }
  if (w.task == TaskKind::kServe) return ValidateContextWindow(w);
  return Status::OK();
}

// infer-vision is a batch job (--images) or a real-time service (--rps, --e2e-p95, --hours):
// the fields of the other mode do not apply.
Status ValidateRealTime(const Workload& w) {
  if (w.task != TaskKind::kInferVision) return Status::OK();
  const bool service = IsService(w);
  // Each of these is positive when given (the binder refuses 0) and 0 when not.
  if (service && w.images > 0) {
    return Bad("images", "does not apply with --rps (real time: the rate sets the work)");
  }
  if (service && w.runtime_target_s > 0) {
    return Bad("runtime", "does not apply with --rps (a real-time service runs for --hours)");
  }
  for (const auto& [field, value] : {std::pair{"hours", w.hours}, {"e2e-p95", w.e2e_p95_s}}) {
    if (!service && value > 0) {
      return Bad(field, "applies to real-time infer-vision only: give --rps (images per second)");
    }
  }
  return Status::OK();
}

Status ValidateVision(const Workload& w) {
  const ModelArch& m = w.model;
  if (!TakesVisionTasks(m)) {
    return Bad("model", "task " + std::string(TaskKindName(w.task)) +
                            " needs a vision preset (resnet50, vit-b16, unet3d, retinanet, "
                            "stable-diffusion-2, ...) or a custom model (--fwd-gflop-per-sample)");
  }
  GPUADVISOR_RETURN_IF_ERROR(ValidateRealTime(w));
  if (w.images <= 0 && !IsService(w)) {
    return Bad("images",
               "required (e.g. --images 1.28M), or --rps for images arriving in real time");
  }
  if (w.engine && *w.engine != Engine::kEager && *w.engine != Engine::kFused &&
      *w.engine != Engine::kNeuron) {
    return Bad("engine", std::string(EngineName(*w.engine)) +
                             " is a serving engine; vision takes eager|fused");
  }
  if (!w.guidance && (m.family != ModelFamily::kDiffusion || w.task != TaskKind::kInferVision)) {
    return Bad("guidance", "applies to diffusion inference only");
  }
  if (w.precision == Precision::kInt8 && w.engine == Engine::kEager) {
    return Bad("engine",
               "int8 vision inference runs in a fused engine (TensorRT); eager PyTorch has no "
               "int8 convolutions");
  }
  return Status::OK();
}

// The inputs of each --hpc-kind: memory-bound codes say how many bytes they move per FLOP,
// mixed-precision ones factorise in a 16- or 8-bit tensor format.
Status ValidateHpc(const Workload& w) {
  if (w.fp64_flop <= 0 && w.fp32_flop <= 0 && w.fp64_flops_needed <= 0 &&
      w.fp32_flops_needed <= 0) {
    return Bad("fp64-flop", "an hpc workload needs --fp64-flop or --fp32-flop (total FLOP)");
  }
  const bool memory_bound = w.hpc_kind == HpcKind::kMemoryBound;
  if (!memory_bound && (w.arithmetic_intensity > 0 || w.bytes_moved > 0)) {
    return Bad(w.arithmetic_intensity > 0 ? "arithmetic-intensity" : "bytes-moved",
               "applies to --hpc-kind memory-bound only");
  }
  if (memory_bound && w.arithmetic_intensity <= 0 &&
      (w.bytes_moved <= 0 || (w.fp64_flop <= 0 && w.fp32_flop <= 0))) {
    return Bad("arithmetic-intensity",
               "hpc-kind memory-bound needs arithmetic-intensity (FLOP per byte) or "
               "bytes-moved with fp64-flop or fp32-flop");
  }
  if (w.precision && w.hpc_kind == HpcKind::kMixedPrecision && *w.precision != Precision::kFp16 &&
      *w.precision != Precision::kBf16 && *w.precision != Precision::kFp8) {
    return Bad("precision", "hpc-kind mixed-precision factorises in fp16|bf16|fp8");
  }
  return Status::OK();
}

// Serving engines and streaming are for serve (and the vision engines for vision).
Status NoServingOptions(const Workload& w) {
  if (w.engine || w.streaming) {
    return Bad(w.engine ? "engine" : "streaming",
               std::string("does not apply to task ") + TaskKindName(w.task));
  }
  return Status::OK();
}

}  // namespace

namespace workload_internal {

Status ValidateLlmTask(const Workload& w) { return ValidateLlm(w); }
Status ValidateVisionTask(const Workload& w) { return ValidateVision(w); }
Status ValidateHpcTask(const Workload& w) {
  GPUADVISOR_RETURN_IF_ERROR(NoServingOptions(w));
  return ValidateHpc(w);
}
Status ValidateTranscodeTask(const Workload& w) {
  GPUADVISOR_RETURN_IF_ERROR(NoServingOptions(w));
  if (w.streams <= 0) return Bad("streams", "required for transcode (e.g. --streams 16)");
  return Status::OK();
}
Status ValidateRenderTask(const Workload& w) {
  GPUADVISOR_RETURN_IF_ERROR(NoServingOptions(w));
  if (w.sessions <= 0) return Bad("sessions", "required for render (e.g. --sessions 4)");
  return Status::OK();
}
Status ValidateAnalyticsTask(const Workload& w) {
  GPUADVISOR_RETURN_IF_ERROR(NoServingOptions(w));
  if (w.dataset_gib <= 0) return Bad("dataset-gib", "required for analytics");
  return Status::OK();
}

}  // namespace workload_internal

using workload_internal::kTaskKindCount;
using workload_internal::kTaskKinds;
using workload_internal::TaskFamily;
using workload_internal::TaskKindDef;
using workload_internal::TaskKindDefOf;

std::vector<TaskKind> TasksForModel(const ModelArch& m) {
  std::vector<TaskKind> out;
  for (const TaskKindDef& t : kTaskKinds) {
    if ((t.family == TaskFamily::kLlm && TakesLlmTasks(m)) ||
        (t.family == TaskFamily::kVision && TakesVisionTasks(m))) {
      out.push_back(t.kind);
    }
  }
  return out;
}

Status Validate(const Workload& w) {
  if (static_cast<size_t>(w.task) >= kTaskKindCount) {
    return Status::InvalidArgument("task: unknown").WithField("task");
  }
  GPUADVISOR_RETURN_IF_ERROR(CheckLimits(w));
  if (w.precision == Precision::kInt8 && w.task != TaskKind::kInferVision) {
    return Bad("precision",
               "int8 compute is for vision inference (TensorRT); LLM serving quantizes "
               "weights with --quantization int8");
  }
  if (w.precision == Precision::kFp4 && w.task != TaskKind::kPretrain &&
      w.task != TaskKind::kFinetune) {
    return Bad("precision",
               "fp4 compute is NVFP4 training of LLMs (pretrain, finetune) on Blackwell; serving "
               "quantizes weights with --quantization fp4");
  }
  if (w.precision == Precision::kFp4 && w.framework && *w.framework != Framework::kMegatronCore) {
    return Bad("precision",
               std::string("NVFP4 training runs in TransformerEngine (framework megatron-core), "
                           "not ") +
                   FrameworkName(*w.framework));
  }
  if (w.task != TaskKind::kHpc && (w.arithmetic_intensity > 0 || w.bytes_moved > 0)) {
    return Bad(w.arithmetic_intensity > 0 ? "arithmetic-intensity" : "bytes-moved",
               "applies to task hpc only");
  }
  return TaskKindDefOf(w.task).validate(w);
}

}  // namespace gpuadvisor
