#include "workload/value_parse.h"

#include <cmath>
#include <string>

#include "gpuadvisor/i18n.h"
#include "util/numbers.h"
#include "util/text.h"
#include "workload/enum_tables.h"

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

// The value of E named `value` (case-insensitive; aliases too), else InvalidArgument "key:
// expected <what>, got ..." where `what` defaults to "one of" the canonical names.
template <typename E>
Result<E> ParseEnum(std::string_view key, std::string_view value, std::string_view what = {}) {
  const std::optional<E> found = ParseName<E>(ToLower(Trim(value)));
  if (found) return *found;
  return Expected(key, what.empty() ? "one of " + JoinNames<E>("|") : std::string(what), value);
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
  return ParseEnum<TaskKind>(key, value);
}

Result<Precision> ParsePrecision(std::string_view key, std::string_view value,
                                 std::initializer_list<Precision> allowed) {
  const std::optional<Precision> found = ParseName<Precision>(ToLower(Trim(value)));
  std::string expected = "one of ";
  bool ok = false;
  for (Precision p : allowed) {
    expected += std::string(expected.size() > 7 ? "|" : "") + PrecisionName(p);
    if (found == p) ok = true;
  }
  if (!ok || !found) return Expected(key, expected, value);
  return *found;
}

Result<Optimizer> ParseOptimizer(std::string_view key, std::string_view value) {
  return ParseEnum<Optimizer>(key, value);
}

Result<Recompute> ParseRecompute(std::string_view key, std::string_view value) {
  return ParseEnum<Recompute>(key, value);
}

Result<Framework> ParseFramework(std::string_view key, std::string_view value) {
  return ParseEnum<Framework>(key, value);
}

Result<Codec> ParseCodec(std::string_view key, std::string_view value) {
  return ParseEnum<Codec>(key, value);
}

Result<Offload> ParseOffload(std::string_view key, std::string_view value) {
  return ParseEnum<Offload>(key, value);
}

Result<LoraTargets> ParseLoraTargets(std::string_view key, std::string_view value) {
  return ParseEnum<LoraTargets>(key, value);
}

Result<KernelClass> ParseKernelClass(std::string_view key, std::string_view value) {
  return ParseEnum<KernelClass>(key, value);
}

Result<Engine> ParseEngine(std::string_view key, std::string_view value) {
  return ParseEnum<Engine>(key, value,
                           "vision: eager|fused (tensorrt, compiled, xla, neuron); serving: "
                           "vllm|sglang|trtllm|tgi|neuron");
}

Result<HpcKind> ParseHpcKind(std::string_view key, std::string_view value) {
  return ParseEnum<HpcKind>(key, value, "one of dense-la|memory-bound|mixed-precision|general");
}

// An architecture family; a value shaped like an EC2 instance family ("g4dn", "p5en", "trn1":
// letters, a generation digit, more) gets a pointer to the instance filters.
Result<ModelFamily> ParseFamily(std::string_view key, std::string_view value) {
  Result<ModelFamily> f = ParseEnum<ModelFamily>(key, value);
  if (f.ok()) return f;
  const std::string v = ToLower(Trim(value));
  const size_t digit = v.find_first_of("0123456789");
  const bool instance_family =
      digit != std::string::npos && digit > 0 && digit <= 4 &&
      v.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos &&
      v.find_first_not_of("abcdefghijklmnopqrstuvwxyz") == digit;
  if (!instance_family) return f;
  return Status::InvalidArgument(
             f.status().message() +
             Trf("; {0} is an instance family: recommend and launch take --only-family {0}",
                 "\"" + v + "\""))
      .WithField(f.status().field());
}

Result<Precision> ParseComputePrecision(std::string_view key, std::string_view value) {
  return ParsePrecision(key, value,
                        {Precision::kFp32, Precision::kTf32, Precision::kBf16, Precision::kFp16,
                         Precision::kFp8, Precision::kFp4, Precision::kInt8});
}

Result<Precision> ParseKvPrecision(std::string_view key, std::string_view value) {
  return ParsePrecision(
      key, value,
      {Precision::kFp16, Precision::kBf16, Precision::kFp8, Precision::kInt8, Precision::kFp32});
}

Result<std::optional<Precision>> ParseQuantization(std::string_view key, std::string_view value) {
  const std::string s = ToLower(Trim(value));
  if (s == "none" || s == "fp16" || s == "bf16") return std::optional<Precision>();
  // Checkpoint formats by name: NVFP4/MXFP4 are W4A4 fp4; AWQ/GPTQ weight-only int4.
  if (s == "nvfp4" || s == "mxfp4") return std::optional<Precision>(Precision::kFp4);
  if (s == "awq" || s == "gptq") return std::optional<Precision>(Precision::kInt4);
  Result<Precision> p = ParsePrecision(
      key, value,
      {Precision::kFp8, Precision::kInt8, Precision::kInt4, Precision::kFp4, Precision::kNf4});
  if (!p.ok()) return p.status();
  return std::optional<Precision>(*p);
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
