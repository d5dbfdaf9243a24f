#include "util/numbers.h"

#include <charconv>
#include <cmath>
#include <string>

#include "gpuadvisor/i18n.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

// `what` names an option ("min-gpus", "tokens") or describes a place ("column \"usd\""); only
// a name is a field.
std::string_view FieldNamed(std::string_view what) {
  const std::string_view name = OptionName(what);
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return {};
  }
  return name;
}

// `kind` is marked N_ where it is written and translated here.
Status Expected(std::string_view what, const char* kind, std::string_view text) {
  // TRANSLATORS: keep "{0}: " first, with an ASCII colon: the front ends find the option's name
  // by it (the CLI shows it as --{0}).
  return Status::InvalidArgument(
             Trf("{0}: expected {1}, got {2}", what, Tr(kind), "\"" + std::string(text) + "\""))
      .WithField(FieldNamed(what));
}

// Parses a full double from [b, e); false if anything is left over.
bool ParseWholeDouble(std::string_view s, double* out) {
  if (s.empty()) return false;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (*b == '+') ++b;
  auto [ptr, ec] = std::from_chars(b, e, *out);
  return ec == std::errc() && ptr == e && std::isfinite(*out);
}

}  // namespace

Result<double> ParseDouble(std::string_view text, std::string_view what) {
  double v = 0;
  if (!ParseWholeDouble(Trim(text), &v)) return Expected(what, N_("a number"), text);
  return v;
}

Result<int64_t> ParseInt(std::string_view text, std::string_view what) {
  std::string_view s = Trim(text);
  int64_t v = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  auto [ptr, ec] = std::from_chars(b, e, v);
  if (s.empty() || ec != std::errc() || ptr != e) return Expected(what, N_("an integer"), text);
  return v;
}

Result<double> ParseSiNumber(std::string_view text, std::string_view what) {
  std::string_view s = Trim(text);
  double mult = 1;
  if (!s.empty()) {
    switch (s.back()) {
      case 'k':
      case 'K':
        mult = 1e3;
        break;
      case 'M':
        mult = 1e6;
        break;
      case 'B':
      case 'G':
      case 'b':
        mult = 1e9;
        break;
      case 'T':
        mult = 1e12;
        break;
      case 'P':
        mult = 1e15;
        break;
      default:
        break;
    }
    if (mult != 1) s.remove_suffix(1);
  }
  double v = 0;
  // The suffix can carry a finite number past the largest double ("1e300T").
  if (!ParseWholeDouble(s, &v) || !std::isfinite(v * mult)) {
    return Expected(what, N_("a number such as 7e9, 7B or 2T"), text);
  }
  return v * mult;
}

Result<double> ParseDurationSeconds(std::string_view text, std::string_view what) {
  std::string_view s = Trim(text);
  double mult = 3600;  // a bare number is hours
  if (!s.empty()) {
    switch (s.back()) {
      case 's':
        mult = 1;
        break;
      case 'm':
        mult = 60;
        break;
      case 'h':
        mult = 3600;
        break;
      case 'd':
        mult = 86400;
        break;
      case 'w':
        mult = 7 * 86400;
        break;
      default:
        if (!std::isdigit(static_cast<unsigned char>(s.back())) && s.back() != '.') {
          return Expected(what, N_("a duration such as 90m, 36h or 14d"), text);
        }
    }
    if (!std::isdigit(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  }
  double v = 0;
  if (!ParseWholeDouble(s, &v) || v < 0 || !std::isfinite(v * mult)) {
    return Expected(what, N_("a duration such as 90m, 36h or 14d"), text);
  }
  return v * mult;
}

}  // namespace gpuadvisor
