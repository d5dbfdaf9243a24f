// The one CSV reader (RFC 4180): quoted fields, "" escapes, CRLF, records spanning lines, a
// leading UTF-8 byte-order mark skipped. It reads either a ByteStream (multi-GB inputs such as
// the AWS Price List bulk files: memory stays at one buffer plus the longest record) or a
// buffer in memory (read in place, no copy). Rows are read one at a time; the reader keeps the
// first error (leveldb iterator style).
//
// Next() exposes the fields as string_views into the reader's buffer, valid until the next call
// to Next(): no allocation per row. Quoted fields come without their outer quotes; doubled
// quotes ("") inside are left as they are (Unescape() where a field may hold them).
// Next(&fields) copies the unescaped fields instead, for small inputs.
//
// Errors name the place: "origin:line: unterminated quoted field: expected a closing '\"'".
#ifndef GPUADVISOR_UTIL_CSV_H_
#define GPUADVISOR_UTIL_CSV_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpuadvisor/status.h"
#include "util/byte_stream.h"

namespace gpuadvisor {

class CsvReader {
 public:
  // Streams `in`, which must outlive the reader. Records longer than max_record bytes are an
  // error.
  explicit CsvReader(ByteStream* in, size_t buffer_bytes = size_t{1} << 22,
                     size_t max_record = size_t{64} << 20);
  // Reads `data` in place; it must outlive the reader. `origin` names the input in errors
  // ("prices.csv").
  CsvReader(std::string_view data, std::string origin);
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  // Reads the next record. False at the end of input or on error (see status()).
  bool Next();
  // Reads the next record and copies its unescaped fields into *fields.
  bool Next(std::vector<std::string>* fields);
  size_t size() const { return fields_.size(); }
  std::string_view operator[](size_t i) const { return fields_[i]; }
  const std::vector<std::string_view>& fields() const { return fields_; }
  // 1-based line where the current record starts (newlines are counted once, when asked for).
  int64_t line() const;
  // "origin:line" of the current record, for error messages.
  std::string Where() const;
  const Status& status() const { return status_; }
  // Fails with "origin:line: <what>"; Next() returns false afterwards.
  void Fail(const std::string& what);
  // Splits one complete record in memory (`line`, without its end of line) into *fields,
  // string_views into `line`. ParseError with what was expected (no place: the caller's) when
  // a quote is unbalanced or the text holds more than one record.
  static Status SplitLine(std::string_view line, std::vector<std::string_view>* fields);
  // A quoted field's text with its doubled quotes ("") made single.
  static std::string Unescape(std::string_view field);

  enum class Parse { kOk, kNeedMore, kError };  // for the parser in csv.cc

 private:
  Parse ParseRecord(const char* p, const char* end, const char** next);
  bool Refill();
  // Newlines in buf_[0, pos); amortized O(1) for positions that only grow.
  int64_t NewlinesBefore(size_t pos) const;

  ByteStream* in_ = nullptr;  // null when reading memory
  std::string origin_;
  std::vector<char> own_;  // the buffer when streaming
  const char* buf_ = nullptr;
  size_t max_record_ = 0;
  size_t begin_ = 0, end_ = 0;  // unread bytes: buf_[begin_, end_)
  size_t record_ = 0;           // start of the current record in buf_
  bool eof_ = false;
  int64_t lines_before_buf_ = 0;  // newlines in bytes already dropped from the buffer
  mutable size_t counted_to_ = 0;
  mutable int64_t counted_lines_ = 0;  // newlines in buf_[0, counted_to_)
  std::vector<std::string_view> fields_;
  std::string parse_error_;
  Status status_;
};

// Maps header names to column indices. Missing required columns give a ParseError naming them.
class CsvHeader {
 public:
  explicit CsvHeader(const std::vector<std::string>& header);
  // Index of `name`, or -1.
  int Find(std::string_view name) const;
  // ParseError "origin:line: missing column \"x\"" for the first absent name.
  Status Require(const std::vector<std::string>& names, std::string_view where) const;

 private:
  std::unordered_map<std::string, int> index_;
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_CSV_H_
