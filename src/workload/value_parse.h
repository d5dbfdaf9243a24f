// Parsing of single workload values with errors that name the field:
// `tokens: expected a positive number, got "-5"`.
#ifndef GPUADVISOR_WORKLOAD_VALUE_PARSE_H_
#define GPUADVISOR_WORKLOAD_VALUE_PARSE_H_

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "gpuadvisor/result.h"
#include "gpuadvisor/workload.h"

namespace gpuadvisor::workload_internal {

// > 0, SI suffixes accepted ("7B", "2T", "1.5k").
Result<double> PositiveNumber(std::string_view key, std::string_view value);
// >= 0.
Result<double> NonNegativeNumber(std::string_view key, std::string_view value);
// Integer >= min (SI suffixes accepted when the result is integral: "4k" = 4000).
Result<int> IntAtLeast(std::string_view key, std::string_view value, int min);
// In (0, 1].
Result<double> Fraction(std::string_view key, std::string_view value);
// A latency: "200ms", "1.5s", "2m"; a bare number is seconds. Returns seconds.
Result<double> LatencySeconds(std::string_view key, std::string_view value);
// A run length: "90m", "36h", "14d"; a bare number is hours. Returns seconds.
Result<double> DurationSeconds(std::string_view key, std::string_view value);
// true/false, yes/no, on/off, 1/0.
Result<bool> Bool(std::string_view key, std::string_view value);
// "720p", "1080p", "1440p", "4k"/"2160p", "8k" or a number of lines.
Result<int> VideoLines(std::string_view key, std::string_view value);

Result<TaskKind> ParseTask(std::string_view key, std::string_view value);
// Any precision name; `allowed` restricts to a subset for the message and the check.
Result<Precision> ParsePrecision(std::string_view key, std::string_view value,
                                 std::initializer_list<Precision> allowed);
Result<Optimizer> ParseOptimizer(std::string_view key, std::string_view value);
Result<Recompute> ParseRecompute(std::string_view key, std::string_view value);
// megatron-core|megatron-lm|fsdp|torchtitan|deepspeed|neuronx|torchtune; also nemo, megatron,
// llm-foundry, composer, megatron-deepspeed, neuronx-distributed, nxd.
Result<Framework> ParseFramework(std::string_view key, std::string_view value);
Result<Codec> ParseCodec(std::string_view key, std::string_view value);
Result<Offload> ParseOffload(std::string_view key, std::string_view value);
Result<LoraTargets> ParseLoraTargets(std::string_view key, std::string_view value);
Result<KernelClass> ParseKernelClass(std::string_view key, std::string_view value);
// "eager" or "fused"; the fusing runtimes' names ("tensorrt", "xla", "neuron") mean fused.
Result<Engine> ParseEngine(std::string_view key, std::string_view value);
Result<HpcKind> ParseHpcKind(std::string_view key, std::string_view value);
Result<ModelFamily> ParseFamily(std::string_view key, std::string_view value);
// --precision: fp32|tf32|bf16|fp16|fp8|int8.
Result<Precision> ParseComputePrecision(std::string_view key, std::string_view value);
// --kv-precision: fp16|bf16|fp8|int8|fp32.
Result<Precision> ParseKvPrecision(std::string_view key, std::string_view value);
// --quantization: none (also fp16, bf16: nullopt, 16-bit weights), fp8|int8|int4|fp4|nf4, or a
// checkpoint format by name (nvfp4, mxfp4: fp4; awq, gptq: int4).
Result<std::optional<Precision>> ParseQuantization(std::string_view key, std::string_view value);

// "kv_heads", "--kv-heads" and "KV-Heads" all become "kv-heads".
std::string CanonicalKey(std::string_view key);
// The field `key` sets, aliases resolved ("num_layers" -> "layers"); "" for an unknown key.
std::string WorkloadFieldOf(std::string_view key);

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_VALUE_PARSE_H_
