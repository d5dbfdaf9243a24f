// A sequential byte source for streaming importers: a file, standard input ("-") or memory,
// gzip-compressed or not (detected from the content, via zlib). Reads never load the whole
// input; memory use is the caller's buffer plus zlib's window.
#ifndef GPUADVISOR_UTIL_BYTE_STREAM_H_
#define GPUADVISOR_UTIL_BYTE_STREAM_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

class ByteStream {
 public:
  // Called after reads with (raw bytes consumed so far, total raw size or -1 when unknown).
  using Progress = std::function<void(int64_t done, int64_t total)>;

  // Opens PATH ("-" = standard input). IOError naming the path when it cannot be opened.
  static Result<std::unique_ptr<ByteStream>> Open(const std::string& path);
  // Reads from `data` (which must outlive the stream); gzip is detected as for files.
  static std::unique_ptr<ByteStream> FromMemory(std::string_view data, std::string origin);
  // Reads raw bytes from `read(buf, n, &status)`: it returns how many it wrote into buf (at most
  // n), 0 at the end, or 0 with `status` set on an error (kept as the stream's). `total` is the
  // raw size for progress, -1 when unknown. gzip is detected as for files.
  using RawReader = std::function<size_t(char* buf, size_t n, Status* status)>;
  static std::unique_ptr<ByteStream> FromReader(RawReader read, std::string origin,
                                                int64_t total = -1);

  virtual ~ByteStream() = default;
  // Reads up to n bytes of decompressed data into buf; returns 0 at the end or on error.
  virtual size_t Read(char* buf, size_t n) = 0;
  // The first bytes of the (decompressed) input without consuming them; shorter at the end.
  virtual std::string_view Peek(size_t n) = 0;
  const Status& status() const { return status_; }
  const std::string& origin() const { return origin_; }
  // Decompressed bytes returned so far.
  int64_t position() const { return position_; }
  void set_progress(Progress p) { progress_ = std::move(p); }

 protected:
  explicit ByteStream(std::string origin) : origin_(std::move(origin)) {}
  std::string origin_;
  Status status_;
  int64_t position_ = 0;
  Progress progress_;
};

// Reads the whole stream into a string (for small JSON inputs parsed as a DOM).
Result<std::string> ReadAll(ByteStream* in);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_BYTE_STREAM_H_
