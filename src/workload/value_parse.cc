#include "workload/value_parse.h"

#include <cmath>
#include <string>

#include "gpuadvisor/numbers.h"
#include "gpuadvisor/text.h"

namespace gpuadvisor::workload_internal {
namespace {

Status Expected(std::string_view key, std::string_view what, std::string_view value) {
  return Status::InvalidArgument(std::string(key) + ": expected " + std::string(what) + ", got \"" +
                                 std::string(value) + "\"")
      .WithField(key);
}

// Matches `value` (case-insensitive) against names[i]; returns the index or -1.
template <size_t N>
int MatchName(std::string_view value, const char* const (&names)[N]) {
  const std::string v = ToLower(Trim(value));
  for (size_t i = 0; i < N; ++i) {
    if (v == names[i]) return static_cast<int>(i);
  }
  return -1;
}

template <size_t N>
std::string OneOf(const char* const (&names)[N]) {
  std::string out = "one of ";
  for (size_t i = 0; i < N; ++i) {
    if (i) out += '|';
    out += names[i];
  }
  return out;
}

}  // namespace

Result<double> PositiveNumber(std::string_view key, std::string_view value) {
  Result<double> v = ParseSiNumber(value, key);
  if (!v.ok() || !(*v > 0)) return Expected(key, "a positive number", value);
  return *v;
}

Result<double> NonNegativeNumber(std::string_view key, std::string_view value) {
  Result<double> v = ParseSiNumber(value, key);
  if (!v.ok() || !(*v >= 0)) return Expected(key, "a non-negative number", value);
  return *v;
}

Result<int> IntAtLeast(std::string_view key, std::string_view value, int min) {
  Result<double> v = ParseSiNumber(value, key);
  const std::string what = min == 0   ? "a non-negative integer"
                           : min == 1 ? "a positive integer"
                                      : "an integer >= " + std::to_string(min);
  if (!v.ok() || std::floor(*v) != *v || *v < min || *v > 2e9) return Expected(key, what, value);
  return static_cast<int>(*v);
}

Result<double> Fraction(std::string_view key, std::string_view value) {
  Result<double> v = ParseDouble(value, key);
  if (!v.ok() || !(*v > 0) || *v > 1) return Expected(key, "a fraction in (0, 1]", value);
  return *v;
}

Result<double> LatencySeconds(std::string_view key, std::string_view value) {
  std::string_view s = Trim(value);
  double scale = 1;
  if (s.size() > 2 && s.substr(s.size() - 2) == "ms") {
    scale = 1e-3;
    s.remove_suffix(2);
  } else if (s.size() > 2 && s.substr(s.size() - 2) == "us") {
    scale = 1e-6;
    s.remove_suffix(2);
  } else if (!s.empty() && std::isdigit(static_cast<unsigned char>(s.back()))) {
    scale = 1;  // bare number: seconds
  } else {
    Result<double> d = ParseDurationSeconds(s, key);
    if (!d.ok() || !(*d > 0)) return Expected(key, "a latency such as 200ms or 1.5s", value);
    return *d;
  }
  Result<double> v = ParseDouble(s, key);
  if (!v.ok() || !(*v > 0)) return Expected(key, "a latency such as 200ms or 1.5s", value);
  return *v * scale;
}

Result<double> DurationSeconds(std::string_view key, std::string_view value) {
  Result<double> d = ParseDurationSeconds(value, key);
  if (!d.ok() || !(*d > 0)) return Expected(key, "a duration such as 90m, 36h or 14d", value);
  return *d;
}

Result<bool> Bool(std::string_view key, std::string_view value) {
  static const char* const kNames[] = {"true", "false", "yes", "no", "on", "off", "1", "0"};
  int i = MatchName(value, kNames);
  if (i < 0) return Expected(key, "true or false", value);
  return i % 2 == 0;
}

Result<int> VideoLines(std::string_view key, std::string_view value) {
  static const char* const kNames[] = {"480p", "720p", "1080p", "1440p", "4k", "2160p", "8k"};
  static const int kLines[] = {480, 720, 1080, 1440, 2160, 2160, 4320};
  int i = MatchName(value, kNames);
  if (i >= 0) return kLines[i];
  Result<int> n = IntAtLeast(key, value, 1);
  if (!n.ok()) return Expected(key, "a resolution such as 720p, 1080p or 4k", value);
  return *n;
}

Result<TaskKind> ParseTask(std::string_view key, std::string_view value) {
  static const char* const kNames[] = {"pretrain",  "finetune",     "lora",         "qlora",
                                       "serve",     "train-vision", "infer-vision", "hpc",
                                       "transcode", "render",       "analytics"};
  int i = MatchName(value, kNames);
  if (i < 0) return Expected(key, OneOf(kNames), value);
  return static_cast<TaskKind>(i);
}

Result<Precision> ParsePrecision(std::string_view key, std::string_view value,
                                 std::initializer_list<Precision> allowed) {
  static const char* const kNames[] = {"fp32", "tf32", "bf16", "fp16", "fp8",
                                       "int8", "int4", "fp4",  "nf4",  "fp64"};
  std::string v = ToLower(Trim(value));
  if (v == "float32") v = "fp32";
  if (v == "bfloat16") v = "bf16";
  if (v == "float16" || v == "half") v = "fp16";
  int i = -1;
  for (size_t k = 0; k < std::size(kNames); ++k) {
    if (v == kNames[k]) i = static_cast<int>(k);
  }
  std::string expected = "one of ";
  bool ok = false;
  for (Precision p : allowed) {
    expected += std::string(expected.size() > 7 ? "|" : "") + PrecisionName(p);
    if (i >= 0 && static_cast<Precision>(i) == p) ok = true;
  }
  if (!ok) return Expected(key, expected, value);
  return static_cast<Precision>(i);
}

Result<Optimizer> ParseOptimizer(std::string_view key, std::string_view value) {
  static const char* const kNames[] = {"adamw", "adam8bit",  "sgd",
                                       "adam",  "adamw8bit", "adam-8bit"};
  static const Optimizer kValues[] = {Optimizer::kAdamW,    Optimizer::kAdam8bit,
                                      Optimizer::kSgd,      Optimizer::kAdamW,
                                      Optimizer::kAdam8bit, Optimizer::kAdam8bit};
  int i = MatchName(value, kNames);
  if (i < 0) return Expected(key, "one of adamw|adam8bit|sgd", value);
  return kValues[i];
}

Result<Recompute> ParseRecompute(std::string_view key, std::string_view value) {
  static const char* const kNames[] = {"none", "selective", "full", "op"};
  static const Recompute kValues[] = {Recompute::kNone, Recompute::kSelective, Recompute::kFull,
                                      Recompute::kOp};
  int i = MatchName(value, kNames);
  if (i < 0) return Expected(key, OneOf(kNames), value);
  return kValues[i];
}

Result<Framework> ParseFramework(std::string_view key, std::string_view value) {
  // Canonical names first (the message lists them), then the products built on them.
  static const char* const kNames[] = {"megatron-core",       "megatron-lm", "fsdp",
                                       "torchtitan",          "deepspeed",   "neuronx",
                                       "torchtune",           "nemo",        "megatron",
                                       "llm-foundry",         "composer",    "megatron-deepspeed",
                                       "neuronx-distributed", "nxd"};
  static const Framework kValues[] = {
      Framework::kMegatronCore, Framework::kMegatronLm,   Framework::kFsdp,
      Framework::kTorchtitan,   Framework::kDeepSpeed,    Framework::kNeuronx,
      Framework::kTorchtune,    Framework::kMegatronCore, Framework::kMegatronCore,
      Framework::kFsdp,         Framework::kFsdp,         Framework::kMegatronLm,
      Framework::kNeuronx,      Framework::kNeuronx};
  int i = MatchName(value, kNames);
  if (i < 0) {
    return Expected(
        key, "one of megatron-core|megatron-lm|fsdp|torchtitan|deepspeed|neuronx|torchtune", value);
  }
  return kValues[i];
}

Result<Codec> ParseCodec(std::string_view key, std::string_view value) {
  static const char* const kNames[] = {"h264", "hevc", "av1", "h265", "avc"};
  static const Codec kValues[] = {Codec::kH264, Codec::kHevc, Codec::kAv1, Codec::kHevc,
                                  Codec::kH264};
  int i = MatchName(value, kNames);
  if (i < 0) return Expected(key, "one of h264|hevc|av1", value);
  return kValues[i];
}

Result<Offload> ParseOffload(std::string_view key, std::string_view value) {
  static const char* const kNames[] = {"none", "cpu", "nvme"};
  int i = MatchName(value, kNames);
  if (i < 0) return Expected(key, OneOf(kNames), value);
  return static_cast<Offload>(i);
}

Result<LoraTargets> ParseLoraTargets(std::string_view key, std::string_view value) {
  static const char* const kNames[] = {"all", "attention", "qv"};
  int i = MatchName(value, kNames);
  if (i < 0) return Expected(key, OneOf(kNames), value);
  return static_cast<LoraTargets>(i);
}

Result<KernelClass> ParseKernelClass(std::string_view key, std::string_view value) {
  static const char* const kNames[] = {"conv",        "gemm",   "attention",
                                       "convolution", "matmul", "linear"};
  static const KernelClass kValues[] = {KernelClass::kConv,      KernelClass::kGemm,
                                        KernelClass::kAttention, KernelClass::kConv,
                                        KernelClass::kGemm,      KernelClass::kGemm};
  int i = MatchName(value, kNames);
  if (i < 0) return Expected(key, "one of conv|gemm|attention", value);
  return kValues[i];
}

Result<Engine> ParseEngine(std::string_view key, std::string_view value) {
  // Vision: eager or one of the fusing runtimes by name. Serving: the engine by name.
  static const char* const kNames[] = {"eager",  "fused",         "tensorrt", "trt",  "compiled",
                                       "xla",    "torch-compile", "neuron",   "vllm", "sglang",
                                       "trtllm", "tensorrt-llm",  "tgi",      "nxdi"};
  static const Engine kValues[] = {
      Engine::kEager,  Engine::kFused,  Engine::kFused,  Engine::kFused, Engine::kFused,
      Engine::kFused,  Engine::kFused,  Engine::kNeuron, Engine::kVllm,  Engine::kSglang,
      Engine::kTrtllm, Engine::kTrtllm, Engine::kTgi,    Engine::kNeuron};
  int i = MatchName(value, kNames);
  if (i < 0) {
    return Expected(key,
                    "vision: eager|fused (tensorrt, compiled, xla, neuron); serving: "
                    "vllm|sglang|trtllm|tgi|neuron",
                    value);
  }
  return kValues[i];
}

Result<HpcKind> ParseHpcKind(std::string_view key, std::string_view value) {
  static const char* const kNames[] = {"general", "dense-la",        "hpl",     "dgemm",
                                       "other",   "memory-bound",    "sparse",  "stencil",
                                       "hpcg",    "mixed-precision", "hpl-mxp", "mxp"};
  static const HpcKind kValues[] = {
      HpcKind::kGeneral,        HpcKind::kDenseLa,        HpcKind::kDenseLa,
      HpcKind::kDenseLa,        HpcKind::kGeneral,        HpcKind::kMemoryBound,
      HpcKind::kMemoryBound,    HpcKind::kMemoryBound,    HpcKind::kMemoryBound,
      HpcKind::kMixedPrecision, HpcKind::kMixedPrecision, HpcKind::kMixedPrecision};
  int i = MatchName(value, kNames);
  if (i < 0) return Expected(key, "one of dense-la|memory-bound|mixed-precision|general", value);
  return kValues[i];
}

std::string CanonicalKey(std::string_view key) {
  std::string_view k = Trim(key);
  while (!k.empty() && k.front() == '-') k.remove_prefix(1);
  std::string out = ToLower(k);
  for (char& c : out) {
    if (c == '_') c = '-';
  }
  return out;
}

}  // namespace gpuadvisor::workload_internal
