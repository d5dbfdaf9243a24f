// A streaming CSV scanner for multi-GB inputs (the AWS Price List bulk files): RFC 4180 quoting,
// CRLF, records spanning buffer refills. Fields are string_views into an internal buffer that
// stay valid until the next call to Next(): no allocation per row. Quoted fields are returned
// without their outer quotes; doubled quotes ("") inside are left as they are (Unescape() if a
// field may hold them). Line numbers are computed only when asked for (error messages).
#ifndef GPUADVISOR_UTIL_STREAM_CSV_H_
#define GPUADVISOR_UTIL_STREAM_CSV_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/status.h"
#include "util/byte_stream.h"

namespace gpuadvisor {

class StreamCsv {
 public:
  // `in` must outlive the scanner. Records longer than max_record bytes are an error.
  explicit StreamCsv(ByteStream* in, size_t buffer_bytes = size_t{1} << 22,
                     size_t max_record = size_t{64} << 20);

  // Reads the next record. False at the end of input or on error (see status()).
  bool Next();
  size_t size() const { return fields_.size(); }
  std::string_view operator[](size_t i) const { return fields_[i]; }
  const std::vector<std::string_view>& fields() const { return fields_; }
  // 1-based line where the current record starts (counts newlines; cost O(buffer) per call).
  int64_t line() const;
  // "origin:line" of the current record.
  std::string Where() const;
  const Status& status() const { return status_; }
  // Fails with "origin:line: <what>"; Next() returns false afterwards.
  void Fail(const std::string& what);
  static std::string Unescape(std::string_view field);

 private:
  enum class Parse { kOk, kNeedMore, kError };
  Parse ParseRecord(const char* p, const char* end, const char** next);
  bool Refill();

  ByteStream* in_;
  std::vector<char> buf_;
  size_t max_record_;
  size_t begin_ = 0, end_ = 0;  // unread bytes: buf_[begin_, end_)
  size_t record_ = 0;           // start of the current record in buf_
  bool eof_ = false;
  int64_t lines_before_buf_ = 0;  // newlines in bytes already dropped from the buffer
  std::vector<std::string_view> fields_;
  std::string parse_error_;
  Status status_;
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_STREAM_CSV_H_
