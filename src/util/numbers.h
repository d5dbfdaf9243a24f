// Parsing of user-typed numbers: plain, scientific and SI-suffixed ("7e9", "7B", "2T", "1.5k"),
// and durations ("90m", "36h", "14d", "30s"). All return InvalidArgument naming `what`
// (typically the flag, e.g. "--min-gpus") and the offending text; when `what` is a name (letters,
// digits, '-', leading dashes dropped) the error's field() is that name ("min-gpus").
#ifndef GPUADVISOR_UTIL_NUMBERS_H_
#define GPUADVISOR_UTIL_NUMBERS_H_

#include <cstdint>
#include <string_view>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

// Plain or scientific notation only; the whole string must be consumed; finite.
Result<double> ParseDouble(std::string_view text, std::string_view what);
// Integer in plain notation (no suffix, no fraction).
Result<int64_t> ParseInt(std::string_view text, std::string_view what);
// Number with an optional SI suffix k/K (1e3), M (1e6), B/G (1e9), T (1e12), P (1e15).
Result<double> ParseSiNumber(std::string_view text, std::string_view what);
// Duration with suffix s, m, h, d, w (plain number = hours). Returns seconds.
Result<double> ParseDurationSeconds(std::string_view text, std::string_view what);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_NUMBERS_H_
