// Shared pieces of the telemetry readers: a block-buffered line source (file, gzip or memory)
// and one parser per format. Not part of the public API.
#ifndef GPUADVISOR_TELEMETRY_INTERNAL_H_
#define GPUADVISOR_TELEMETRY_INTERNAL_H_

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
// ParseValue without the optional, for the readers' inner loops: kNumber sets *v.
enum class CellValue { kNumber, kUnknown, kBad };
CellValue ParseCell(std::string_view text, double* v);

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
