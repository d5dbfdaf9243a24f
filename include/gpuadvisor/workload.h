// Workload: what the user wants to run, independent of the hardware it runs on.
//
// One description serves every front end. CLI flags, YAML/JSON workload files, HTTP bodies and
// the Python module all hand what they received to a WorkloadFields, keyed by the flag names of
// doc/estimation.md without the leading dashes ("seq-len"; "seq_len" is accepted too), and bind
// it in one pass. Each field's name, type, bounds, help and tasks are declared once, beside the
// others, by DeclareOptions (src/workload/workload_options.h), which the binder and the help
// read. A Workload is a plain value: cheap to copy, no pointers, safe to share read-only between
// threads; it does not record which of its fields were given.
//
// The model architecture comes from a preset (FindModelPreset), a Hugging Face config.json
// (ApplyHfConfigJson) or explicit fields; the binder applies the preset or config.json first, so
// explicit fields refine it whatever the order they came in. Validate() performs the
// cross-field checks; EstimateWorkload() (estimate.h) assumes a validated workload.
#ifndef GPUADVISOR_WORKLOAD_H_
#define GPUADVISOR_WORKLOAD_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

// Task kinds. Names ("pretrain", "train-vision", ...) appear in files and the API: do not rename.
// Each kind is declared once, with its name, validation and estimator, in the task kind registry
// (src/workload/task_kinds.h), which does not build until it has an entry for every kind.
enum class TaskKind {
  kPretrain,
  kFinetune,
  kLora,
  kQlora,
  kServe,
  kTrainVision,
  kInferVision,
  kHpc,
  kTranscode,
  kRender,
  kAnalytics,
  kCount,  // not a task: how many there are (a new kind goes above)
};
// Every task kind, in TaskKind order.
inline constexpr std::array<TaskKind, static_cast<size_t>(TaskKind::kCount)> kAllTaskKinds = [] {
  std::array<TaskKind, static_cast<size_t>(TaskKind::kCount)> out{};
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<TaskKind>(i);
  return out;
}();

// Numeric formats for training compute, inference weights and the KV cache.
// Names as in the contract ("fp32", "bf16", "int4", ...): do not rename.
enum class Precision { kFp32, kTf32, kBf16, kFp16, kFp8, kInt8, kInt4, kFp4, kNf4, kFp64 };
enum class Optimizer { kAdamW, kAdam8bit, kSgd };
// Activation recomputation: none; selective (Megatron: the attention core); full (only each
// layer's input is kept); op (torchtitan's op-level selective AC: matmul and attention outputs
// are saved except every second matmul of a block, elementwise ops are recomputed).
enum class Recompute { kNone, kSelective, kFull, kOp };
enum class Codec { kH264, kHevc, kAv1 };
enum class Offload { kNone, kCpu, kNvme };
// Training framework: decides which communication overlaps compute, how pipeline stages are
// balanced and which loss kernel runs (doc/estimation.md, "Frameworks"). Unset = inferred from
// the layout: Megatron-Core when TP or PP > 1, PyTorch FSDP otherwise; NeuronX Distributed on
// Neuron devices.
//   megatron-core  Megatron-Core / NeMo: TP comm overlap, overlapped distributed optimizer
//   megatron-lm    Megatron-LM before Megatron-Core (2021-22) and Megatron-DeepSpeed: no overlap
//   fsdp           PyTorch FSDP / DDP with a fused loss (MosaicML llm-foundry, HF Accelerate)
//   torchtitan     PyTorch FSDP2 with the eager cross-entropy loss (torchtitan)
//   deepspeed      DeepSpeed ZeRO (gradients reduced in the training precision)
//   neuronx        AWS NeuronX Distributed on Trainium (Megatron-style TP/PP, ZeRO-1)
//   torchtune      PyTorch FSDP2 in pure bf16 (optimizer states in bf16) with a chunked loss
//   hf-peft        Hugging Face transformers + PEFT under the Trainer (TRL), the common
//                  LoRA/QLoRA stack: pure bf16, the model's fp32 loss, eager modules
//   litgpt         LitGPT (Lightning): pure bf16, chunked bf16 loss, bitsandbytes QLoRA
enum class Framework {
  kMegatronCore,
  kMegatronLm,
  kFsdp,
  kTorchtitan,
  kDeepSpeed,
  kNeuronx,
  kTorchtune,
  kHfPeft,
  kLitgpt
};
// Which linear layers LoRA adapts.
enum class LoraTargets { kAll, kAttention, kQv };
// Kernel classes a vision model's forward FLOPs are spread over; each has its own efficiency
// (doc/estimation.md, "Vision"). Names ("conv", "gemm", "attention") appear in files.
enum class KernelClass { kConv, kGemm, kAttention };
// How a framework runs a vision model's layers. kEager: one kernel per operator (PyTorch eager
// with cuDNN), so normalisation, activation and residual adds are separate passes over HBM.
// kFused: a graph compiler folds them into the convolution/GEMM epilogues (TensorRT,
// torch.compile, XLA, NVIDIA's MLPerf MXNet kernels, the Neuron compiler). Names "eager",
// "fused" (vision; "neuron" is fused there too).
// LLM serving engines, each with its scheduler defaults and overheads (serve_model.cc): vLLM,
// SGLang, TensorRT-LLM, Hugging Face TGI, and NxD Inference on Neuron. Names "vllm", "sglang",
// "trtllm", "tgi", "neuron".
enum class Engine { kEager, kFused, kVllm, kSglang, kTrtllm, kTgi, kNeuron };
// HPC codes by what bounds them: kDenseLa (HPL-like dense linear algebra, DGEMM-bound: runs on
// FP64 tensor cores where the GPU has them), kMemoryBound (sparse solvers, stencils, HPCG-like:
// arithmetic intensity x sustained memory bandwidth), kMixedPrecision (HPL-MxP: LU factorisation
// on FP16/BF16/FP8 tensor cores) or kGeneral (anything else: the vector FP64/FP32 peak). Names
// "dense-la", "memory-bound", "mixed-precision", "general".
enum class HpcKind { kGeneral, kDenseLa, kMemoryBound, kMixedPrecision };

// Architecture family; decides which formulas apply.
enum class ModelFamily {
  kDecoder,         // GPT-style causal LM (Llama, Mistral, Qwen, Gemma, GPT-3, OPT, MPT, ...)
  kEncoder,         // BERT-style
  kEncoderDecoder,  // T5-style (layers = encoder layers = decoder layers)
  kConvNet,         // ResNet-style image model
  kVit,             // vision transformer
  kDiffusion,       // latent diffusion UNet
};

const char* TaskKindName(TaskKind t);
const char* PrecisionName(Precision p);
const char* OptimizerName(Optimizer o);
const char* RecomputeName(Recompute r);
const char* FrameworkName(Framework f);
const char* CodecName(Codec c);
const char* ModelFamilyName(ModelFamily f);
const char* KernelClassName(KernelClass k);
const char* EngineName(Engine e);
const char* HpcKindName(HpcKind k);
bool IsTrainingTask(TaskKind t);  // pretrain, finetune, lora, qlora
bool IsLlmTask(TaskKind t);       // the four training kinds and serve
bool IsVisionTask(TaskKind t);    // train-vision, infer-vision

// Architecture numbers. 0 means "not given". For transformers the parameter count is derived
// from these (see ModelParams); `params` overrides the derived total when set.
struct ModelArch {
  ModelFamily family = ModelFamily::kDecoder;
  double params = 0;                     // total parameters, explicit; 0 = derive
  int layers = 0;                        // transformer blocks (per stack for encoder-decoder)
  int hidden = 0;                        // model width h
  int heads = 0;                         // query heads a
  int kv_heads = 0;                      // KV heads k (GQA; 0 = heads, i.e. MHA)
  int head_dim = 0;                      // 0 = hidden / heads (Gemma and T5 set it explicitly)
  int ffn = 0;                           // FFN inner size f (per expert for MoE); 0 = 4h
  int vocab = 0;                         // vocabulary V
  int experts = 0;                       // MoE experts per layer (0/1 = dense)
  int active_experts = 0;                // experts per token (top-k)
  int max_positions = 0;                 // learned absolute positions (0 = rotary/ALiBi: no table)
  int context_length = 0;                // longest sequence it was built for (prompt + output);
                                         // 0 = unknown, not checked
  int sliding_window = 0;                // tokens of attention window; 0 = full attention
  double sliding_window_fraction = 1.0;  // share of layers using the window (Gemma-2: 0.5)
  bool gated_mlp = true;                 // SwiGLU/GeGLU (3 matrices) vs GELU MLP (2 matrices)
  bool tied_embeddings = false;
  bool attention_bias = false;  // QKV/O, MLP (and MoE router) biases (GPT-2/OPT/BERT, gpt-oss)
  // Multi-head latent attention (DeepSeek-V2/V3; DeepSeek-AI 2024, arXiv:2405.04434 §2.1): keys
  // and values are cached as one `kv_lora_rank`-wide latent plus a `rope_head_dim`-wide rotary
  // key shared by all heads. With MLA, head_dim is the non-rotary query/key width per head
  // (qk_nope_head_dim), the query/key head is head_dim + rope_head_dim wide, values v_head_dim.
  int kv_lora_rank = 0;   // 0 = ordinary (GQA/MHA) attention
  int q_lora_rank = 0;    // compressed query width; 0 = full-rank query projection
  int rope_head_dim = 0;  // decoupled rotary key width (qk_rope_head_dim)
  int v_head_dim = 0;     // value width per head; 0 = head_dim
  // Fine-grained MoE (DeepSeekMoE, Qwen-MoE): always-used shared experts next to the routed
  // ones, and leading layers that keep a dense MLP.
  int shared_ffn = 0;    // FFN inner size of the shared expert(s) of a MoE layer, summed; 0 = none
  int dense_layers = 0;  // layers with a dense MLP of `dense_ffn` instead of experts
  int dense_ffn = 0;     // 0 = ffn
  // Expert weights as the checkpoint stores them when the rest is 16-bit (gpt-oss: MXFP4, 4.25
  // bits); serving uses it when no --quantization is given. 0 = like the other weights.
  double expert_weight_bytes = 0;
  bool dropout = false;  // dropout in training (Megatron/GPT-3 era: yes; Llama era: no)
  // Vision (ConvNet, ViT, 3D U-Net, detectors, diffusion): per sample (image, volume patch) at
  // `resolution_px`, forward pass only. A preset fills all of it; a custom model gives the FLOP,
  // activations and dominant kernel class (--fwd-gflop-per-sample ...), the rest defaults.
  double fwd_flop_per_image = 0;   // FLOP (2 per multiply-add); diffusion: one UNet evaluation
  double conv_share = 0;           // share of the FLOP in convolutions
  double attention_share = 0;      // ... in the attention core (QK^T, PV); the rest is GEMM
  double act_elems_per_image = 0;  // outputs of the conv/linear layers: what a fused engine writes
  // HBM accesses per activation element in the forward pass (0 = the kernel class's default):
  // eager training (normalisation reads twice), eager inference, fused engine.
  double eager_accesses_train = 0, eager_accesses_infer = 0, fused_accesses = 0;
  double attention_score_elems = 0;  // softmax scores per sample (unfused attention writes them)
  // Layers narrower than a 128-wide tile (GPU tensor-core CTA tile, Neuron's 128x128 systolic
  // array), as {share of FLOP, input channels, output channels}; unlisted layers are wide.
  struct NarrowLayers {
    double share = 0;
    int c_in = 0, c_out = 0;
  };
  std::array<NarrowLayers, 3> narrow{};
  int vision_layers = 0;              // conv/linear layers per forward (kernel launches)
  int resolution_px = 0;              // reference input side length
  int spatial_dims = 2;               // 3 for volumetric models: FLOP scale with the cube
  int default_batch = 0;              // per-device batch when --batch is not given
  int diffusion_steps = 0;            // default denoising steps (diffusion only)
  double decoder_flop_per_image = 0;  // VAE decode etc., once per image (diffusion inference)
  // Latent-diffusion UNet as its diffusers config (UNet2DConditionModel) lays it out; with it
  // the estimator counts FLOP, activations and attention scores per evaluation at the requested
  // resolution (src/workload/diffusion.cc) instead of scaling the reference figures above.
  struct UNetLayout {
    std::array<int, 4> channels{};  // block_out_channels per level (0: no such level)
    std::array<int, 4> depth{};     // transformer blocks per attention of each level (0: none)
    int mid_depth = 0;              // transformer blocks of the mid block
    int head_dim = 0;               // fixed head width (SD 2, SDXL); 0: `heads` heads per level
    int heads = 0;                  // fixed head count (SD 1.x: 8)
    int context_dim = 0;            // text-embedding width the cross-attention reads
  } unet;
  double text_encoder_params = 0;  // all text encoders (77 tokens per prompt), inference only
  KernelClass dominant_kernel = KernelClass::kConv;  // a preset's: where most of its FLOP goes
  // Given (--kernel-class): all the FLOP of a custom model in this class, over a preset's mix.
  std::optional<KernelClass> kernel_class;
};

// Parallelism and memory-saving choices; every field unset = let the estimator choose.
struct ParallelismRequest {
  std::optional<int> tp, pp, dp;          // tensor / pipeline / data parallel degrees
  std::optional<int> context_parallel;    // sequence split across GPUs (long context)
  std::optional<int> virtual_pp;          // interleaved pipeline chunks per GPU
  std::optional<int> zero;                // ZeRO stage 0-3 (3 = FSDP FULL_SHARD)
  std::optional<int> micro_batch;         // sequences per micro-batch per GPU
  std::optional<bool> sequence_parallel;  // Megatron SP (only with tp > 1)
  std::optional<Recompute> recompute;     // activation recomputation
  std::optional<Offload> offload;         // optimizer-state offload (ZeRO-Offload/Infinity)
};

struct Workload {
  TaskKind task = TaskKind::kPretrain;
  std::string model_name;  // preset name or config.json origin; "" for explicit architecture
  // How the model was resolved (a Hugging Face id read as a preset, config.json keys used or
  // not understood); the estimate lists them among its assumptions, "warning: " first = warning.
  std::vector<std::string> model_notes;
  // The Hugging Face config.json the architecture was read from (its path, or the key it came
  // in over HTTP); "" = none.
  std::string model_config;
  ModelArch model;
  ParallelismRequest parallelism;

  // LLM training (pretrain/finetune/lora/qlora).
  double tokens = 0;                   // training tokens in total (before epochs); 0 = unset
  int seq_len = 0;                     // 0 = default (2048 train; 4096 cap by model)
  double global_batch_tokens = 0;      // alternatively global_batch sequences
  int global_batch = 0;                // sequences per optimizer step
  std::optional<Precision> precision;  // unset = bf16 where supported, else fp16;
                                       // int8 only for vision inference
  Optimizer optimizer = Optimizer::kAdamW;
  std::optional<Framework> framework;  // unset = inferred from the parallel layout
  // torch.compile on a PyTorch framework (fsdp, torchtitan, torchtune, deepspeed): norms, rotary
  // and activations as fused kernels; the loss stays as the framework writes it. Unset = the
  // framework's usual (torchtitan eager, the others fused).
  std::optional<bool> torch_compile;
  bool flash_attention = true;  // fused attention (no s^2 activations)
  int lora_rank = 16;
  LoraTargets lora_targets = LoraTargets::kAll;
  double epochs = 1;  // also used by train-vision

  // Serving.
  double rps = 0;                                       // open-loop arrival rate; 0 = unset
  int input_tokens = 0, output_tokens = 0;              // per request; 0 = the defaults below
  int concurrency = 0;                                  // closed-loop requests in flight; 0 = unset
  std::optional<Precision> quantization;                // weights: unset/none = 16-bit
  std::optional<Precision> kv_precision;                // unset = 16-bit
  double ttft_p95_s = 0, itl_p95_s = 0, e2e_p95_s = 0;  // latency targets; 0 = none
  // Tokens streamed to clients through an API server (per-step and per-token frontend costs);
  // unset = yes with --concurrency/--rps, no offline.
  std::optional<bool> streaming;
  // MoE serving: attention data-parallel over the tp ranks (each rank runs its own requests'
  // attention with whole attention weights and keeps their KV cache), the routed experts
  // expert-parallel across the same ranks. Unset = tensor parallel throughout.
  std::optional<bool> attention_dp;

  // Vision.
  double images = 0;     // images per epoch (train) or to process (infer)
  int resolution = 0;    // input side length in pixels; 0 = the model's reference
  int batch = 0;         // per-device batch (inference or training); 0 = the model's default
  int steps = 0;         // diffusion denoising steps; 0 = model default
  bool guidance = true;  // diffusion: classifier-free guidance (two UNet evaluations per step)
  std::optional<Engine> engine;  // vision unset: eager on NVIDIA (fused for int8/fp8), fused on
                                 // Neuron; serving unset: vllm on GPUs, neuron on Neuron

  // HPC.
  double fp64_flop = 0, fp32_flop = 0;                  // total FLOP of the job
  double fp64_flops_needed = 0, fp32_flops_needed = 0;  // or a sustained FLOP/s target
  double working_set_gib = 0;
  // Wall-clock limit of a batch job (any task that ends: training, vision, HPC); `recommend`
  // ranks only plans within it, `estimate` warns past it. For an HPC job given as a sustained
  // rate (fp64-flops), it is how long the job runs instead.
  double runtime_target_s = 0;
  HpcKind hpc_kind = HpcKind::kGeneral;
  double arithmetic_intensity = 0;  // memory-bound hpc: FLOP per byte moved to/from memory
  double bytes_moved = 0;           // or the bytes the job moves in all (with the total FLOP)

  // Transcode.
  int streams = 0;
  int stream_resolution_lines = 1080;  // "720p" / "1080p" / "4k" -> 720 / 1080 / 2160
  double fps = 30;
  Codec codec = Codec::kH264;
  double hours = 0;  // how long the streams (or render sessions) run; 0 = 1 h

  // Render / virtual workstations.
  int sessions = 0;
  double session_gib = 0;  // GPU memory per session; 0 = 4 GiB

  // Analytics.
  double dataset_gib = 0;
  double scans_per_hour = 0;  // full scans wanted per hour; 0 = 1

  // Efficiency overrides (fractions in (0, 1]); 0 = the estimator's default.
  double mfu = 0;      // model FLOPs utilisation for training / prefill
  double mbu = 0;      // memory-bandwidth utilisation for decode
  double goodput = 0;  // share of wall clock doing useful steps (restarts, evals)
};

// Serving request shape when --input-tokens / --output-tokens are not given.
constexpr int kDefaultInputTokens = 512;
constexpr int kDefaultOutputTokens = 256;

// A value a front end received for one field: its text as given (a flag, a YAML scalar, a JSON
// string; a typed value written out, for messages) and, from JSON or Python, the typed number or
// bool, which a field of that type takes as it is, never turned into text and parsed again. A
// field of another type (a name, a preset) reads the text. Non-finite numbers are read as text.
struct WorkloadValue {
  std::string text;
  std::optional<double> number;
  std::optional<bool> boolean;
};

// The workload fields a user gave, from one source or several (a workload file, then the
// command line's flags; an HTTP body; Python's keyword arguments), bound into a Workload in one
// pass. Keys are the fields' names ("kv-heads"; underscores for dashes, and older aliases).
// Values: numbers accept SI suffixes ("7B", "2T"), latencies "200ms"/"1.5s" (bare number =
// seconds), run lengths "90m"/"36h" (bare = hours); "model" is a preset (or a Hugging Face id
// of one), "model-config" a Hugging Face config.json file to read.
class WorkloadFields {
 public:
  // Records the value of `key`; a later value for the same field replaces the earlier one
  // (flags over a file). InvalidArgument for a key no field declares (with a "did you mean").
  // `where` ("w.yaml:3") prefixes every error Bind() reports about this value.
  Status Give(std::string_view key, WorkloadValue value, std::string where = "");
  // A config.json received as content, not as a path (the HTTP API): bound as "model-config".
  void GiveInlineConfig(std::string_view key, std::string json, std::string where);
  // Whether field `field` (canonical name) was given.
  bool Given(std::string_view field) const;
  bool empty() const { return given_.empty(); }

  // `base` with the given fields bound: the task first, then the architecture (a preset or a
  // config.json, not both), then every other field in the order given, so that a field which
  // refines the model applies on top of it. Errors are InvalidArgument (NotFound for an unknown
  // preset, IOError for an unreadable config.json) with the value's `where`, naming the key in
  // the message and as field() in canonical spelling (`tokens: expected a positive number, got
  // "-5"`); a field that does not apply to the bound task (`rps` for train-vision) is refused,
  // never ignored. The cross-field checks are Validate()'s.
  Result<Workload> Bind(Workload base = Workload()) const;

 private:
  struct Entry {
    std::string field;  // canonical name
    std::string key;    // as given, canonical spelling: what messages name
    std::string where;
    WorkloadValue value;
    bool inline_config = false;
  };
  void Record(Entry e);       // replaces the field's earlier value, else appends
  std::vector<Entry> given_;  // each field once, in the order first given
};
// All keys WorkloadFields accepts (dashed spelling), for help texts and suggestions.
const std::vector<std::string>& WorkloadFieldNames();
// Documentation of one field for help texts: value placeholder ("N", "BOOL", "DUR", ...) and a
// one-line description. BOOL fields are flags on the command line ("--sequence-parallel").
struct WorkloadFieldInfo {
  const char* name;
  const char* value;
  const char* help;
  uint32_t tasks;          // bit (1 << TaskKind) per task the field applies to
  const char* label = "";  // FieldInfo::label: how a form labels it ("" = the name as words)
};
// True when field `name` (canonical spelling) means something for task `t`; unknown names are
// false. WorkloadFields::Bind refuses a given field for which it is false.
bool WorkloadFieldApplies(std::string_view name, TaskKind t);
// The task names a field applies to, comma-separated ("serve, infer-vision"), for messages.
std::string WorkloadFieldTasks(std::string_view name);
// Help texts group the workload fields by the tasks they apply to, read from the same table
// WorkloadFieldApplies (and so WorkloadFields::Bind) uses. Tasks fall into kinds: "LLM"
// (IsLlmTask), "vision" (IsVisionTask), and each other task on its own kind ("hpc", "transcode",
// ...).
const char* TaskKindFamily(TaskKind t);
// The tasks a help topic names: one task ("serve") or a kind of several ("llm", "vision"), in
// any case. InvalidArgument with field "task" naming the choices for anything else.
Result<std::vector<TaskKind>> TasksOfHelpTopic(std::string_view topic);
struct WorkloadFieldGroup {
  // "all tasks", "several kinds of task", a kind with its tasks ("LLM (pretrain, finetune, lora,
  // qlora, serve)", "hpc"), or a kind and the part of its tasks ("LLM: serve").
  std::string title;
  std::vector<const WorkloadFieldInfo*> fields;  // in name order
  bool several_kinds = false;  // the fields spanning kinds: each says where (WorkloadFieldScope)
};
// The fields that apply to at least one of `tasks` (every field when empty), grouped by the set
// of tasks they apply to: the fields of every task, then those spanning several kinds, then per
// kind (TaskKind order) the fields of all its tasks before those of some of them.
std::vector<WorkloadFieldGroup> GroupWorkloadFields(std::span<const TaskKind> tasks = {});
// Where a field applies, a kind named once when the field applies to all of its tasks: "LLM,
// vision", "serve, infer-vision", "pretrain, finetune, lora, qlora, train-vision".
std::string WorkloadFieldScope(const WorkloadFieldInfo& f);
// A service runs for a time and is judged per hour (serve, transcode, render, analytics, and
// infer-vision with an arrival rate); every other workload is a batch job judged per run.
bool IsService(const Workload& w);
// A batch job's wall-clock limit from its `runtime` (hours), or nullopt: unset, a service task,
// or an HPC job given as a sustained rate (there `runtime` is its length, not a limit).
std::optional<double> WorkloadDeadlineHours(const Workload& w);
// Null for a name WorkloadFieldNames() does not list.
const WorkloadFieldInfo* FindWorkloadFieldInfo(std::string_view name);

// Parses a workload file: a JSON/YAML object whose keys are WorkloadFields keys. "model" may
// be a preset name or an object of architecture keys. Errors: ParseError "<origin>:<line>: ..."
// (YAML) or "<origin>: byte N" (JSON), InvalidArgument "<origin>: <key>: ..." for bad values.
// field(): the key as WorkloadFields names it, or "workload" for the document as a whole.
Result<Workload> ParseWorkloadJson(std::string_view text, std::string_view origin);
// The same for untrusted input (the HTTP API): never touches the filesystem. "model-config"
// (any spelling) must be the config.json content as an inline JSON object; a string (a path,
// or "-" for stdin) is InvalidArgument naming the key.
Result<Workload> ParseWorkloadJsonInline(std::string_view text, std::string_view origin);
// True when `key` (any accepted spelling: "model-config", "hf_config", ...) names the field
// whose value is a file to read.
bool IsFileWorkloadField(std::string_view key);
Result<Workload> ParseWorkloadYaml(std::string_view text, std::string_view origin);
// Picks JSON when the first non-blank character is '{', YAML otherwise.
Result<Workload> ParseWorkloadText(std::string_view text, std::string_view origin);
// The fields of a workload file, checked as ParseWorkloadText checks them but not yet bound: for
// a caller that gives more before binding (the command line's flags over a --workload file).
Result<WorkloadFields> ReadWorkloadFields(std::string_view text, std::string_view origin);

// Cross-field checks: heads divide hidden, kv-heads divide heads, positive token counts, the
// task has what it needs (a model for LLM tasks, streams for transcode, ...), a served request
// (input + output tokens) within the model's context window.
// Errors: InvalidArgument naming the field, in the message and as field().
Status Validate(const Workload& w);

// ---- Models ----

// A built-in architecture. `name` is the canonical preset name ("llama-3.1-8b").
struct ModelPreset {
  const char* name;
  const char* source;  // where the numbers come from (the model's published config)
  ModelArch arch;
};
// NotFound "unknown model \"x\"; did you mean ...?" for an unknown name (case-insensitive).
// A Hugging Face id ("meta-llama/Llama-3.1-8B-Instruct") is looked up by FindModelPresetForHfId.
Result<const ModelPreset*> FindModelPreset(std::string_view name);
const std::vector<std::string>& ModelPresetNames();
// Every preset, in the order ModelPresetNames lists them; valid for the program's lifetime.
std::span<const ModelPreset> ModelPresets();
// The tasks `m` can be given, by the rule Validate applies: a transformer language model
// (decoder, encoder or encoder-decoder) takes the LLM tasks (pretrain, finetune, lora, qlora,
// serve), a model with a per-image forward cost takes the vision tasks (train-vision,
// infer-vision). In TaskKind order; empty for an architecture that takes neither.
std::vector<TaskKind> TasksForModel(const ModelArch& m);
// True for text shaped like a Hugging Face repository id: "org/name", one slash, no file
// extension (.json/.yaml/.yml).
bool LooksLikeHfId(std::string_view text);
// The preset whose architecture a Hugging Face repository has: the id's name, less the
// fine-tuning suffixes that keep the architecture (-Instruct, -chat, -hf, -it, -base) and a
// "Meta-" prefix, is the preset's name or the name of the repository the preset cites
// ("mistralai/Mistral-7B-Instruct-v0.1" -> mistral-7b; "mistralai/Mistral-7B-Instruct-v0.3"
// is not: its vocabulary and window differ). NotFound "...; did you mean <closest preset>?".
Result<const ModelPreset*> FindModelPresetForHfId(std::string_view id);

// Fills w->model from a Hugging Face config.json whose model_type is one of
// SupportedHfModelTypes(). Explicitly set architecture fields are kept. Errors: ParseError
// "<origin>: ..." for malformed JSON or missing sizes; InvalidArgument "<origin>: model_type:
// ..." for a missing or unsupported model_type (listing the supported ones) and for keys that
// would change the parameter count which the importer does not model (e.g. a MoE layout it does
// not know). Other keys it does not understand that may change the parameter count or KV cache,
// and the keys it read, are recorded in w->model_notes (warnings / assumptions).
Status ApplyHfConfigJson(Workload* w, std::string_view json_text, std::string_view origin);
// The model_type values ApplyHfConfigJson accepts, sorted.
const std::vector<std::string>& SupportedHfModelTypes();

// Parameter counts derived from the architecture (ModelArch::params overrides the total).
struct ModelParams {
  double total = 0;       // every stored parameter (memory)
  double active = 0;      // used per token (MoE: top-k experts only)
  double embedding = 0;   // input embedding table (+ learned positions)
  double lm_head = 0;     // output projection, 0 when tied (it is the embedding)
  double per_layer = 0;   // one transformer block, all experts
  double expert_mlp = 0;  // one routed expert's MLP in one layer (MoE), 0 for dense
  double linear = 0;      // parameters in Linear layers (what weight quantization touches)
};
ModelParams ComputeModelParams(const ModelArch& m);

// Effective sizes with the defaults filled in (kv_heads = heads, head_dim = h/a, ffn = 4h).
int KvHeads(const ModelArch& m);
int HeadDim(const ModelArch& m);
int FfnDim(const ModelArch& m);
// Per-head query/key and value widths: head_dim for both, or with MLA head_dim + rope_head_dim
// and v_head_dim.
int QkHeadDim(const ModelArch& m);
int VHeadDim(const ModelArch& m);
// Layers whose MLP is routed experts: layers - dense_layers for MoE, 0 for dense models.
int MoeLayers(const ModelArch& m);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_WORKLOAD_H_
