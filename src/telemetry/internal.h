// Shared pieces of the telemetry readers: a block-buffered line source (file, gzip or memory)
// and one parser per format. Not part of the public API.
#ifndef GPUADVISOR_TELEMETRY_INTERNAL_H_
#define GPUADVISOR_TELEMETRY_INTERNAL_H_

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "gpuadvisor/telemetry.h"

namespace gpuadvisor::telemetry {

// Lines of a file read in blocks (gzip decompressed transparently), or of a string in memory.
// Memory stays at one block plus the longest line.
class LineSource {
 public:
  explicit LineSource(std::string_view text, std::string origin);  // `text` outlives this
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;
  ~LineSource();
  // Opens PATH ("-": standard input). IOError naming the path on failure.
  static Result<std::unique_ptr<LineSource>> Open(const std::string& path);

  // The next line without its end-of-line. False at end of input or after an error.
  bool Next(std::string_view* line);
  // 1-based number of the line last returned.
  size_t line() const { return line_; }
  // What is buffered but not yet returned (at least one block, when the input has one): used to
  // detect the format before reading.
  std::string_view Peek();
  // Everything not yet returned (reads the rest of the input). For whole-document formats.
  Result<std::string> Rest();
  const Status& status() const { return status_; }
  const std::string& origin() const { return origin_; }
  // "origin:line: " for messages.
  std::string Where() const { return origin_ + ":" + std::to_string(line_) + ": "; }
  uint64_t consumed() const;               // bytes of the stored input consumed so far
  uint64_t size() const { return size_; }  // stored size (0 when unknown, e.g. a pipe)
  bool gzip() const { return gzip_; }
  void set_progress(const std::function<void(uint64_t, uint64_t)>* p) { progress_ = p; }

 private:
  LineSource() = default;
  bool Fill();  // reads more input after the unread part; false at end or on error

  std::string origin_;
  void* gz_ = nullptr;  // gzFile
  std::string buf_;
  std::string_view mem_;  // memory input, or the valid part of buf_
  size_t pos_ = 0;        // next unread byte in mem_
  bool eof_ = false;
  bool from_memory_ = false;
  bool gzip_ = false;
  size_t line_ = 0;
  uint64_t size_ = 0;
  uint64_t blocks_ = 0;
  Status status_;
  const std::function<void(uint64_t, uint64_t)>* progress_ = nullptr;
};

// Splits "12.5 W" into 12.5; "[N/A]", "N/A", "" and other bracketed words are null.
// `ok` is false when the text is neither a number (with an optional unit) nor unknown.
std::optional<double> ParseValue(std::string_view text, bool* ok);

// ParseCell's parts.
namespace cell {

// std::isspace and std::isalpha without a call for ASCII (the C locale's answer, which every
// locale gives these bytes); other bytes ask the locale, as Trim does.
inline bool IsSpace(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  if (c < 0x80) return c == ' ' || (c >= '\t' && c <= '\r');
  return std::isspace(c) != 0;
}
inline bool IsUnitChar(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  if (c < 0x80) return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '%';
  return std::isalpha(c) != 0;
}
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Trim (util/text.h), inline: called for every cell.
inline std::string_view TrimSpace(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && IsSpace(s[b])) ++b;
  while (e > b && IsSpace(s[e - 1])) --e;
  return s.substr(b, e - b);
}

inline constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// The plain decimal number at the start of [b, e) ("35", "69.85", "12."), exactly as
// std::from_chars reads it, without its call: an integer below 2^53 divided by a power of ten up
// to 1e22 is one correctly rounded operation (both are exact doubles; Clinger's fast path), which
// is what from_chars returns. Null (*v untouched) where from_chars must decide: a sign, an
// exponent, more than 18 digits, no digit.
inline const char* FastDecimal(const char* b, const char* e, double* v) {
  const char* p = b;
  uint64_t m = 0;
  for (; p != e && IsDigit(*p); ++p) m = m * 10 + static_cast<uint64_t>(*p - '0');
  ptrdiff_t digits = p - b, frac = 0;
  if (p != e && *p == '.') {
    const char* f = ++p;
    for (; p != e && IsDigit(*p); ++p) m = m * 10 + static_cast<uint64_t>(*p - '0');
    frac = p - f;
    digits += frac;
  }
  // 18 digits cannot wrap m; the fraction is then at most 18 digits too (kPow10 has 22).
  if (digits == 0 || digits > 18 || m > (uint64_t{1} << 53)) return nullptr;
  if (p != e && (*p == 'e' || *p == 'E')) return nullptr;
  *v = frac == 0 ? static_cast<double>(m) : static_cast<double>(m) / kPow10[frac];
  return p;
}

}  // namespace cell

// ParseValue without the optional, for the readers' inner loops (inline: called for every
// cell): kNumber sets *out.
enum class CellValue { kNumber, kUnknown, kBad };
inline CellValue ParseCell(std::string_view t, double* out) {
  using cell::FastDecimal, cell::IsSpace, cell::IsUnitChar;
  t = cell::TrimSpace(t);
  if (t.empty() || t.front() == '[') return CellValue::kUnknown;
  if (t.size() <= 3 && (t == "N/A" || t == "NaN" || t == "nan")) return CellValue::kUnknown;
  const char* b = t.data();
  const char* e = b + t.size();
  if (*b == '+') ++b;
  double v = 0;
  const char* ptr = FastDecimal(b, e, &v);
  if (ptr == nullptr) {
    auto [end, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || !std::isfinite(v)) return CellValue::kBad;
    ptr = end;
  }
  // A unit may follow: "%", "MiB", "W", "MHz", "C", "us"
  if (ptr != e) {
    while (IsSpace(*ptr)) ++ptr;  // stops before e: e is past the last byte that is no space
    const std::string_view unit(ptr, static_cast<size_t>(e - ptr));
    for (char c : unit) {
      if (!IsUnitChar(c)) return CellValue::kBad;
    }
    if (unit.size() == 3 && unit[1] == 'i' && unit[2] == 'B') {
      if (unit[0] == 'G') v *= 1024;
      if (unit[0] == 'K') v /= 1024;
    }
  }
  *out = v;
  return CellValue::kNumber;
}

// ParseTelemetryTime for a column of timestamps: consecutive rows share the date and clock
// ("2026/07/14 08:12:38" of ".696", ".698", ...), so those bytes are read once and only what
// follows them is parsed again while they repeat. The same results as ParseTelemetryTime.
class TimeParser {
 public:
  std::optional<double> Parse(std::string_view text);

 private:
  static constexpr size_t kClockChars = 19;  // "2026/07/14 08:12:38"
  char clock_text_[kClockChars] = {};
  std::optional<double> clock_;  // the time clock_text_ reads as
};

// A GPU index (`field` names it in the error): a whole number 0 to 4096, or unknown ("[N/A]":
// *index unchanged). A fraction, a negative or an out-of-range number is a ParseError at `src`.
Status ParseGpuIndex(std::string_view text, std::string_view field, const LineSource& src,
                     int* index);

// A GPU index carried as a label (Prometheus `gpu`, CloudWatch `index`): the whole label a
// number 0 to 4096, else -1 (unknown: the reader numbers the GPU itself).
int IndexLabel(const std::string& label);

TelemetryFormat DetectFormat(std::string_view head);

// Each parser reads `src` to its end, passing samples to `sink`; returns the sample count.
Result<uint64_t> ParseSmiCsv(LineSource& src, const TelemetryOptions& o, std::string_view host,
                             const SampleSink& sink);
Result<uint64_t> ParseSmiXml(LineSource& src, std::string_view host, const SampleSink& sink);
Result<uint64_t> ParsePrometheus(LineSource& src, std::string_view host, const SampleSink& sink);
Result<uint64_t> ParseCloudWatch(std::string_view json, const std::string& origin,
                                 std::string_view host, const SampleSink& sink);

}  // namespace gpuadvisor::telemetry

#endif  // GPUADVISOR_TELEMETRY_INTERNAL_H_
