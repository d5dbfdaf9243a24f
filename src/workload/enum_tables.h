// The names of the workload enums, one table each (util/enum_names.h): TaskKindName and the
// other name functions (model.cc) and the option parsers (value_parse.cc, fields.cc) read them.
// Canonical names first, in the order the parsers' messages list them; aliases users type
// follow. The names appear in files and the HTTP API: do not rename.
#ifndef GPUADVISOR_WORKLOAD_ENUM_TABLES_H_
#define GPUADVISOR_WORKLOAD_ENUM_TABLES_H_

#include "gpuadvisor/workload.h"
#include "util/enum_names.h"
#include "workload/task_kinds.h"

namespace gpuadvisor {

template <>
struct EnumNames<TaskKind> {
  // The names the task kind registry gives (task_kinds.h).
  static constexpr std::array<EnumName<TaskKind>, workload_internal::kTaskKindCount> kTable =
      workload_internal::TaskKindNameTable<EnumName<TaskKind>>();
};

template <>
struct EnumNames<Precision> {
  static constexpr EnumName<Precision> kTable[] = {
      {Precision::kFp32, "fp32"},    {Precision::kTf32, "tf32"},    {Precision::kBf16, "bf16"},
      {Precision::kFp16, "fp16"},    {Precision::kFp8, "fp8"},      {Precision::kInt8, "int8"},
      {Precision::kInt4, "int4"},    {Precision::kFp4, "fp4"},      {Precision::kNf4, "nf4"},
      {Precision::kFp64, "fp64"},    {Precision::kFp32, "float32"}, {Precision::kBf16, "bfloat16"},
      {Precision::kFp16, "float16"}, {Precision::kFp16, "half"}};
};

template <>
struct EnumNames<Optimizer> {
  static constexpr EnumName<Optimizer> kTable[] = {{Optimizer::kAdamW, "adamw"},
                                                   {Optimizer::kAdam8bit, "adam8bit"},
                                                   {Optimizer::kSgd, "sgd"},
                                                   {Optimizer::kAdamW, "adam"},
                                                   {Optimizer::kAdam8bit, "adamw8bit"},
                                                   {Optimizer::kAdam8bit, "adam-8bit"}};
};

template <>
struct EnumNames<Recompute> {
  static constexpr EnumName<Recompute> kTable[] = {{Recompute::kNone, "none"},
                                                   {Recompute::kSelective, "selective"},
                                                   {Recompute::kFull, "full"},
                                                   {Recompute::kOp, "op"}};
};

template <>
struct EnumNames<Framework> {
  // Canonical names, then the products built on them.
  static constexpr EnumName<Framework> kTable[] = {{Framework::kMegatronCore, "megatron-core"},
                                                   {Framework::kMegatronLm, "megatron-lm"},
                                                   {Framework::kFsdp, "fsdp"},
                                                   {Framework::kTorchtitan, "torchtitan"},
                                                   {Framework::kDeepSpeed, "deepspeed"},
                                                   {Framework::kNeuronx, "neuronx"},
                                                   {Framework::kTorchtune, "torchtune"},
                                                   {Framework::kHfPeft, "hf-peft"},
                                                   {Framework::kLitgpt, "litgpt"},
                                                   {Framework::kMegatronCore, "nemo"},
                                                   {Framework::kMegatronCore, "megatron"},
                                                   {Framework::kFsdp, "llm-foundry"},
                                                   {Framework::kFsdp, "composer"},
                                                   {Framework::kMegatronLm, "megatron-deepspeed"},
                                                   {Framework::kNeuronx, "neuronx-distributed"},
                                                   {Framework::kNeuronx, "nxd"},
                                                   {Framework::kHfPeft, "hf"},
                                                   {Framework::kHfPeft, "transformers"},
                                                   {Framework::kHfPeft, "peft"},
                                                   {Framework::kHfPeft, "trl"},
                                                   {Framework::kLitgpt, "lit-gpt"}};
};

template <>
struct EnumNames<Codec> {
  static constexpr EnumName<Codec> kTable[] = {{Codec::kH264, "h264"},
                                               {Codec::kHevc, "hevc"},
                                               {Codec::kAv1, "av1"},
                                               {Codec::kHevc, "h265"},
                                               {Codec::kH264, "avc"}};
};

template <>
struct EnumNames<Offload> {
  static constexpr EnumName<Offload> kTable[] = {
      {Offload::kNone, "none"}, {Offload::kCpu, "cpu"}, {Offload::kNvme, "nvme"}};
};

template <>
struct EnumNames<LoraTargets> {
  static constexpr EnumName<LoraTargets> kTable[] = {
      {LoraTargets::kAll, "all"}, {LoraTargets::kAttention, "attention"}, {LoraTargets::kQv, "qv"}};
};

template <>
struct EnumNames<ModelFamily> {
  static constexpr EnumName<ModelFamily> kTable[] = {
      {ModelFamily::kDecoder, "decoder"},
      {ModelFamily::kEncoder, "encoder"},
      {ModelFamily::kEncoderDecoder, "encoder-decoder"},
      {ModelFamily::kConvNet, "convnet"},
      {ModelFamily::kVit, "vit"},
      {ModelFamily::kDiffusion, "diffusion"}};
};

template <>
struct EnumNames<KernelClass> {
  static constexpr EnumName<KernelClass> kTable[] = {
      {KernelClass::kConv, "conv"},           {KernelClass::kGemm, "gemm"},
      {KernelClass::kAttention, "attention"}, {KernelClass::kConv, "convolution"},
      {KernelClass::kGemm, "matmul"},         {KernelClass::kGemm, "linear"}};
};

template <>
struct EnumNames<Engine> {
  // Vision: eager or one of the fusing runtimes by name. Serving: the engine by name.
  static constexpr EnumName<Engine> kTable[] = {
      {Engine::kEager, "eager"},         {Engine::kFused, "fused"},
      {Engine::kVllm, "vllm"},           {Engine::kSglang, "sglang"},
      {Engine::kTrtllm, "trtllm"},       {Engine::kTgi, "tgi"},
      {Engine::kNeuron, "neuron"},       {Engine::kFused, "tensorrt"},
      {Engine::kFused, "trt"},           {Engine::kFused, "compiled"},
      {Engine::kFused, "xla"},           {Engine::kFused, "torch-compile"},
      {Engine::kTrtllm, "tensorrt-llm"}, {Engine::kNeuron, "nxdi"}};
};

template <>
struct EnumNames<HpcKind> {
  static constexpr EnumName<HpcKind> kTable[] = {{HpcKind::kGeneral, "general"},
                                                 {HpcKind::kDenseLa, "dense-la"},
                                                 {HpcKind::kMemoryBound, "memory-bound"},
                                                 {HpcKind::kMixedPrecision, "mixed-precision"},
                                                 {HpcKind::kDenseLa, "hpl"},
                                                 {HpcKind::kDenseLa, "dgemm"},
                                                 {HpcKind::kGeneral, "other"},
                                                 {HpcKind::kMemoryBound, "sparse"},
                                                 {HpcKind::kMemoryBound, "stencil"},
                                                 {HpcKind::kMemoryBound, "hpcg"},
                                                 {HpcKind::kMixedPrecision, "hpl-mxp"},
                                                 {HpcKind::kMixedPrecision, "mxp"}};
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_WORKLOAD_ENUM_TABLES_H_
